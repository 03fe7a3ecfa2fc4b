/**
 * A stand-in for the real console, for the proxy's and the conformance run's tests and the proxy's
 * benchmark: a small
 * node:http server on 127.0.0.1 that answers GET, HEAD and OPTIONS /api/v2/users as the contract
 * says (the fixtures' directories, the 401s with their Bearer challenges), and can be told to
 * drift, one way per request: by an `X-Drift` header (which the proxy forwards), or by the first
 * segment of the path (`/role-outside-enum/api/v2/users`, a base URL the conformance run takes).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ViewEntry } from '../src/sources/fixtures.ts';

/** Each way the stand-in can drift from the contract. */
export const DRIFTS = [
	'extra-field',
	'missing-field',
	'role-outside-enum',
	'ninth-user',
	'wrong-media-type',
	'no-challenge',
	'server-error',
	'too-slow',
	'connection-reset',
	'not-json',
	'redirect',
	'not-http',
] as const;

export type Drift = (typeof DRIFTS)[number];

/** How long `too-slow` waits before it answers. */
export const TOO_SLOW_MS = 3000;

const USERS = '/api/v2/users';
const KEY_SHAPE = /^ick-[0-9a-f]{8}-[A-Za-z0-9]{4}$/;

/** A running stand-in console. */
export interface StandInConsole {
	url: string;
	/** Every request it received: method, target and the drift it was told. */
	received: { method: string; target: string; drift: string | undefined }[];
	/**
	 * The client port of the connection each request came on, in the order of `received`: requests
	 * sent on one kept-alive connection share it.
	 */
	ports: number[];
	/**
	 * Every byte it could not frame as a request of its own: a body on a request (none of the
	 * contract's operations takes one) and each request its parser refused, by its error code.
	 */
	unframed: string[];
	close: () => Promise<void>;
}

/** A problem+json answer. */
function problem(
	response: ServerResponse,
	status: number,
	slug: string,
	headers: Record<string, string> = {},
): void {
	const body = JSON.stringify({
		type: `https://portal.example/problems/${slug}`,
		title: slug,
		status,
		detail: `The stand-in console answered ${slug}.`,
	});
	response.writeHead(status, { 'Content-Type': 'application/problem+json', ...headers });
	response.end(body);
}

/** Starts a stand-in console for the given views on a free port of 127.0.0.1. */
export async function startStandInConsole(views: readonly ViewEntry[]): Promise<StandInConsole> {
	const byKey = new Map<string, ViewEntry>();
	for (const entry of views) for (const user of entry.view.users) byKey.set(user.apiKey, entry);
	const received: StandInConsole['received'] = [];
	const ports: number[] = [];
	const unframed: string[] = [];
	const timers = new Set<NodeJS.Timeout>();

	const handle = (request: IncomingMessage, response: ServerResponse): void => {
		let bodyBytes = 0;
		request.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
		request.on('end', () => {
			if (bodyBytes > 0)
				unframed.push(`${request.method ?? ''} ${request.url ?? ''}: a body of ${bodyBytes} bytes`);
		});
		let path = new URL(request.url ?? '/', 'http://stand-in.invalid').pathname;
		let drift = request.headers['x-drift'] as string | undefined;
		const segment = /^\/([a-z-]+)(\/.*)$/.exec(path);
		if (segment && (DRIFTS as readonly string[]).includes(segment[1] ?? '')) {
			drift = segment[1];
			path = segment[2] ?? '/';
		}
		received.push({ method: request.method ?? '', target: request.url ?? '', drift });
		ports.push(request.socket.remotePort ?? 0);
		if (drift === 'connection-reset') {
			request.socket.destroy();
			return;
		}
		if (drift === 'not-http') {
			request.socket.end('THIS IS NOT HTTP\r\n\r\n');
			return;
		}
		const answer = (): void => {
			if (path !== USERS) return problem(response, 404, 'not-found');
			const method = request.method ?? '';
			if (method === 'OPTIONS' && request.headers['access-control-request-method']) {
				response.writeHead(204, {
					'Access-Control-Allow-Origin': request.headers.origin ?? '*',
					'Access-Control-Allow-Methods': 'GET, HEAD',
					'Access-Control-Allow-Headers': 'Authorization',
					Vary: 'Origin',
				});
				response.end();
				return;
			}
			if (method !== 'GET' && method !== 'HEAD') {
				return problem(response, 405, 'method-not-allowed', { Allow: 'GET, HEAD' });
			}
			if (drift === 'redirect') {
				response.writeHead(302, { Location: '/elsewhere' });
				response.end();
				return;
			}
			if (drift === 'server-error') {
				response.writeHead(500, { 'Content-Type': 'text/html' });
				response.end('<h1>Internal Server Error</h1>');
				return;
			}
			const challenge = (extra: string): Record<string, string> =>
				drift === 'no-challenge' ? {} : { 'WWW-Authenticate': `Bearer realm="console"${extra}` };
			const credentials = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? '');
			if (!credentials) return problem(response, 401, 'missing-key', challenge(''));
			const token = credentials[1] ?? '';
			const invalid = ', error="invalid_token"';
			if (!KEY_SHAPE.test(token)) return problem(response, 401, 'wrong-shape', challenge(invalid));
			const entry = byKey.get(token);
			if (!entry) return problem(response, 401, 'invalid-key', challenge(invalid));
			const users: Record<string, unknown>[] = entry.view.users.map(({ name, email, role }) => ({
				name,
				email,
				role,
			}));
			if (drift === 'extra-field') users[0] = { ...users[0], nickname: 'Ami' };
			if (drift === 'missing-field') delete users[1]?.['email'];
			if (drift === 'role-outside-enum') users[3] = { ...users[3], role: 'superuser' };
			if (drift === 'ninth-user') users.push({ ...users[0] });
			const body = drift === 'not-json' ? '{"users": [' : JSON.stringify({ users });
			const type = drift === 'wrong-media-type' ? 'text/plain' : 'application/json';
			response.writeHead(200, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
			response.end(body);
		};
		if (drift === 'too-slow') {
			const timer = setTimeout(() => {
				timers.delete(timer);
				if (!response.destroyed) answer();
			}, TOO_SLOW_MS);
			timers.add(timer);
		} else {
			answer();
		}
	};

	const server: Server = createServer(handle);
	// What Node does unasked (a 400 to bytes its parser refuses, then the connection closed), with
	// each refusal kept; a connection reset or timed out is no bytes received.
	server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
		if (!error.code?.startsWith('HPE_') || !socket.writable) {
			socket.destroy();
			return;
		}
		unframed.push(error.code);
		socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		received,
		ports,
		unframed,
		close: () =>
			new Promise<void>((resolve) => {
				for (const timer of timers) clearTimeout(timer);
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
