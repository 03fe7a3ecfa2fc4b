/**
 * The validating proxy (MOCK_UPSTREAM) keeps each client's request its own, and tells the truth
 * about the console: clients on raw sockets (node:net) send a GET with each kind of body, and
 * another client's plain GET behind them still gets the console's 200, while the stand-in
 * console never receives a byte it cannot frame; `/readyz` asks the console as a client does and
 * says not ready, once in the log, while it accepts connections but never answers; a HEAD answer
 * comes back with the headers the console sent, no `Content-Length` added.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { bin, freePort, start, waitForUrl, type Started } from '../../support/processes.ts';
import { startStandInConsole, type StandInConsole } from '../../support/stand-in-console.ts';

const USERS = '/api/v2/users';
let key: string;
let standIn: StandInConsole;
let proxy: { mock: Started; url: string; port: number };
/** A console that accepts each request and never answers it, and whether it answers for now. */
let silent: { server: Server; url: string; asked: IncomingMessage[]; answering: boolean };
let silentProxy: { mock: Started; url: string; port: number };

/** Starts the mock in proxy mode in front of a console, and waits for it. */
async function startProxy(upstream: string): Promise<{ mock: Started; url: string; port: number }> {
	const port = await freePort();
	const mock = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(port), MOCK_UPSTREAM: upstream, MOCK_UPSTREAM_TIMEOUT_MS: '1000' },
	});
	const url = `http://127.0.0.1:${port}`;
	await waitForUrl(`${url}/healthz`, mock);
	return { mock, url, port };
}

/** Starts a console that reads every request and answers none, until told to answer. */
async function startSilentConsole(): Promise<typeof silent> {
	const asked: IncomingMessage[] = [];
	const held: ServerResponse[] = [];
	const console: typeof silent = {
		server: createServer((request, response) => {
			asked.push(request);
			request.resume();
			if (!console.answering) {
				held.push(response);
				return;
			}
			response.writeHead(401, {
				'Content-Type': 'application/problem+json',
				'WWW-Authenticate': 'Bearer realm="console"',
			});
			response.end('{}');
		}),
		url: '',
		asked,
		answering: false,
	};
	await new Promise<void>((resolve) => console.server.listen(0, '127.0.0.1', resolve));
	console.url = `http://127.0.0.1:${(console.server.address() as AddressInfo).port}`;
	return console;
}

beforeAll(async () => {
	const views = await loadViews(readSettings({}).viewsDir);
	key = views[0]?.view.users[0]?.apiKey ?? '';
	standIn = await startStandInConsole(views);
	silent = await startSilentConsole();
	[proxy, silentProxy] = await Promise.all([startProxy(standIn.url), startProxy(silent.url)]);
}, 60_000);

afterAll(async () => {
	await Promise.all([proxy?.mock.stop(), silentProxy?.mock.stop()]);
	await standIn?.close();
	silent?.server.closeAllConnections();
	await new Promise((resolve) => silent?.server.close(resolve));
});

/** An answer as read off a raw connection. */
interface RawAnswer {
	status: number;
	/** The header lines as they came, after the status line. */
	head: string[];
	body: string;
}

/** A connection of a client of its own to a port of 127.0.0.1, and the answers read from it. */
async function client(port: number): Promise<{
	socket: Socket;
	send: (bytes: string) => void;
	answer: (head?: boolean) => Promise<RawAnswer>;
	closed: Promise<void>;
}> {
	const socket = connect(port, '127.0.0.1');
	await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
	let received = Buffer.alloc(0);
	let wake = (): void => {};
	socket.on('data', (chunk: Buffer) => {
		received = Buffer.concat([received, chunk]);
		wake();
	});
	const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
	void closed.then(() => wake());
	let ended = false;
	void closed.then(() => (ended = true));
	const answer = async (head = false): Promise<RawAnswer> => {
		const deadline = Date.now() + 5000;
		for (;;) {
			const end = received.indexOf('\r\n\r\n');
			if (end >= 0) {
				const lines = received.subarray(0, end).toString('latin1').split('\r\n');
				// Without a Content-Length, the body runs to the connection's end.
				const declared = /^content-length: *(\d+)$/im.exec(lines.join('\n'))?.[1];
				const rest = received.length - end - 4;
				const bodyLength = head ? 0 : declared ? Number(declared) : ended ? rest : NaN;
				if (!Number.isNaN(bodyLength) && received.length >= end + 4 + bodyLength) {
					const body = received.subarray(end + 4, end + 4 + bodyLength).toString('utf8');
					received = received.subarray(end + 4 + bodyLength);
					return {
						status: Number(lines[0]?.split(' ')[1]),
						head: lines.slice(1),
						body,
					};
				}
			}
			if (ended || Date.now() > deadline) {
				throw new Error(`no whole answer came (${received.length} bytes: ${String(received)})`);
			}
			await new Promise<void>((resolve) => {
				wake = resolve;
				setTimeout(resolve, 50);
			});
		}
	};
	return { socket, send: (bytes) => socket.write(bytes), answer, closed };
}

/** Waits until a mock's output holds a text, for at most five seconds. */
async function logged(mock: Started, text: string): Promise<void> {
	for (let tries = 0; tries < 50 && !mock.output().includes(text); tries += 1) {
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

/** Resolves to whether a promise settled within a time. */
async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
	const settled = await Promise.race([promise.then(() => true), late]);
	clearTimeout(timer);
	return settled;
}

/** The named header's value in an answer's header lines, if any. */
function header(answer: RawAnswer, name: string): string | undefined {
	const line = answer.head.find((candidate) =>
		candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`),
	);
	return line?.slice(name.length + 1).trim();
}

describe('a GET that carries a body spoils no other client’s request', () => {
	const withKey = (port: number, extra: string): string =>
		`GET ${USERS} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\n${extra}`;
	const whole = (port: number): string =>
		`GET ${USERS} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`;
	const bodies: [string, (port: number) => string][] = [
		['Content-Length: 5 and hello', (port) => withKey(port, 'Content-Length: 5\r\n\r\nhello')],
		[
			'a whole second request as its body',
			(port) => withKey(port, `Content-Length: ${whole(port).length}\r\n\r\n${whole(port)}`),
		],
		[
			'a chunked body',
			(port) => withKey(port, 'Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'),
		],
		[
			'a Content-Length larger than what arrives',
			(port) => withKey(port, 'Content-Length: 100\r\n\r\nhello'),
		],
		[
			'Content-Length and Transfer-Encoding both',
			(port) =>
				withKey(
					port,
					'Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n',
				),
		],
	];

	it.each(bodies)(
		'%s: refused with a 400, its connection closed; the next client gets its 200, the console only its request',
		async (name, body) => {
			// A request first, so the proxy holds a kept-alive connection to the console.
			const warm = await client(proxy.port);
			warm.send(
				`GET ${USERS} HTTP/1.1\r\nHost: 127.0.0.1:${proxy.port}\r\nAuthorization: Bearer ${key}\r\n\r\n`,
			);
			expect((await warm.answer()).status).toBe(200);
			warm.socket.destroy();
			const before = standIn.received.length;
			const unframedBefore = standIn.unframed.length;

			const first = await client(proxy.port);
			first.send(body(proxy.port));
			const refused = await first.answer();
			expect(refused.status).toBe(400);
			if (name !== 'Content-Length and Transfer-Encoding both') {
				// Node's parser refuses that one itself, as RFC 9112 section 6.3 allows.
				expect(header(refused, 'content-type')).toBe('application/problem+json');
				expect(header(refused, 'connection')).toBe('close');
				expect((JSON.parse(refused.body) as { type: string }).type).toBe(
					'https://portal.example/problems/request-body',
				);
			}
			expect(await within(first.closed, 2000), 'the refused connection is closed').toBe(true);

			const second = await client(proxy.port);
			second.send(
				`GET ${USERS} HTTP/1.1\r\nHost: 127.0.0.1:${proxy.port}\r\nAuthorization: Bearer ${key}\r\n\r\n`,
			);
			const answer = await second.answer();
			second.socket.destroy();
			expect(answer.status).toBe(200);
			expect(header(answer, 'sl-violations')).toBeUndefined();
			expect((JSON.parse(answer.body) as { users: unknown[] }).users).toHaveLength(8);
			expect(standIn.unframed.slice(unframedBefore)).toEqual([]);
			expect(standIn.received.slice(before).map(({ method }) => method)).toEqual(['GET']);
		},
	);

	it('a GET with Content-Length: 0 announces no body, and gets the console’s answer', async () => {
		const before = standIn.received.length;
		const zero = await client(proxy.port);
		zero.send(withKey(proxy.port, 'Content-Length: 0\r\n\r\n'));
		expect((await zero.answer()).status).toBe(200);
		zero.socket.destroy();
		expect(standIn.received.length).toBe(before + 1);
	});
});

describe('/readyz in front of a console that accepts connections and never answers', () => {
	it('says not ready, asking as a client does, and the log says why once per change', async () => {
		const line = (output: string, text: string): string[] =>
			output.split('\n').filter((candidate) => candidate.includes(text));
		for (let round = 0; round < 3; round += 1) {
			const started = Date.now();
			const answer = await fetch(`${silentProxy.url}/readyz`);
			expect(answer.status).toBe(503);
			expect(Date.now() - started).toBeLessThan(2500);
		}
		await logged(silentProxy.mock, 'GET /readyz 503');
		const probe = silent.asked.at(-1);
		expect(probe?.headers.host).toBe(new URL(silent.url).host);
		expect(probe?.url).toBe(USERS);
		const why = `the console at ${silent.url} did not answer within 1000 ms`;
		expect(line(silentProxy.mock.output(), why), silentProxy.mock.output()).toHaveLength(1);
		expect(line(silentProxy.mock.output(), why)[0]).toMatch(/GET \/readyz 503 /);

		silent.answering = true;
		for (let round = 0; round < 2; round += 1) {
			expect((await fetch(`${silentProxy.url}/readyz`)).status).toBe(200);
		}
		await logged(silentProxy.mock, 'GET /readyz 200');
		// Time for a second line, if one were written.
		await new Promise((resolve) => setTimeout(resolve, 500));
		const again = line(silentProxy.mock.output(), 'GET /readyz 200');
		expect(again, silentProxy.mock.output()).toHaveLength(1);
		expect(again[0]).toContain(`upstream="${silent.url}"`);
		expect(line(silentProxy.mock.output(), why)).toHaveLength(1);
	});
});

describe('headers byte for byte', () => {
	it('a HEAD answer the console sends without Content-Length comes back without one', async () => {
		// The stand-in's 401 to a HEAD has no Content-Length: Node sends none for a body it drops.
		const direct = await client(Number(new URL(standIn.url).port));
		direct.send(`HEAD ${USERS} HTTP/1.1\r\nHost: ${new URL(standIn.url).host}\r\n\r\n`);
		const asked = await direct.answer(true);
		direct.socket.destroy();
		expect(asked.status).toBe(401);
		expect(header(asked, 'content-length')).toBeUndefined();

		const through = await client(proxy.port);
		through.send(`HEAD ${USERS} HTTP/1.1\r\nHost: 127.0.0.1:${proxy.port}\r\n\r\n`);
		const relayed = await through.answer(true);
		through.socket.destroy();
		expect(relayed.status).toBe(401);
		expect(header(relayed, 'content-length')).toBeUndefined();
		expect(header(relayed, 'transfer-encoding')).toBeUndefined();
		expect(header(relayed, 'www-authenticate')).toBe('Bearer realm="console"');
	});
});
