/** Raw HTTP/1.1 over a socket, for requests no client library would send. */
import { connect } from 'node:net';

/** An answer read off a raw socket. */
interface RawAnswer {
	status: number;
	head: string;
	body: string;
}

/** Sends raw bytes to a port and reads the whole answer (the request says Connection: close). */
export function raw(port: number, request: string): Promise<RawAnswer> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1', () => socket.write(request));
		let answer = '';
		socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
		socket.on('end', () => {
			const split = answer.indexOf('\r\n\r\n');
			resolve({
				status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0),
				head: split < 0 ? answer : answer.slice(0, split),
				body: split < 0 ? '' : answer.slice(split + 4),
			});
		});
		socket.on('error', reject);
		socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
	});
}
