/**
 * CONNECT on a server that is no proxy: Node hands it over as a raw socket (a 'connect' event,
 * never a request) and closes it unanswered when nothing listens. The mock (`server.ts`) and the
 * portal's own server (scripts/lib/portal-server.ts) answer it as any other request instead.
 */
import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Has `server` answer each CONNECT with `handle`, as it answers a request, on a response of its
 * own, and close the connection once the answer is written.
 */
export function answerConnect(
	server: Server,
	handle: (request: IncomingMessage, response: ServerResponse) => void,
): void {
	server.on('connect', (request: IncomingMessage, socket: Socket) => {
		const response = new ServerResponse(request);
		response.shouldKeepAlive = false;
		response.assignSocket(socket);
		response.once('finish', () => {
			response.detachSocket(socket);
			socket.end();
		});
		handle(request, response);
	});
}
