/**
 * The server `npm start` serves the built portal with: the files of `dist/` and its 404 page,
 * for GET and HEAD, under the names the portal is served under (`allowed-hosts.ts`) only. An
 * odd path (an encoded slash or NUL, `..`, a malformed escape) gets a short 400, a dotfile or a
 * missing file the portal's 404 page; a failure gets a short 500 and its trace goes to the
 * terminal only. A client that half-closes its socket after its request still gets its answer.
 */
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
	hostAllowed,
	quotedHost,
	requestedHost,
	type HostRule,
} from '../../src/shared/allowed-hosts.ts';

/** The content types of the files a build writes; any other file is sent as bytes. */
const TYPES: Record<string, string> = {
	'.html': 'text/html; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.json': 'application/json; charset=utf-8',
	'.csv': 'text/csv; charset=utf-8',
	'.svg': 'image/svg+xml',
	'.yaml': 'application/yaml; charset=utf-8',
	'.txt': 'text/plain; charset=utf-8',
	'.wasm': 'application/wasm',
	'.ico': 'image/x-icon',
	'.png': 'image/png',
	'.webp': 'image/webp',
	'.woff2': 'font/woff2',
};

/** A running portal server. */
export interface RunningPortal {
	/** `http://127.0.0.1:4321`, without a trailing slash. */
	url: string;
	/** Stops listening and closes open connections. */
	close: () => Promise<void>;
}

/** A short plain-text answer: no page, no path, no trace. */
function short(
	response: ServerResponse,
	status: number,
	text: string,
	extra: Record<string, string> = {},
): void {
	const body = Buffer.from(`${text}\n`);
	response.writeHead(status, {
		'Content-Type': 'text/plain; charset=utf-8',
		'Content-Length': body.length,
		'X-Content-Type-Options': 'nosniff',
		...extra,
	});
	response.end(response.req.method === 'HEAD' ? undefined : body);
}

/**
 * The path segments of a target, decoded one by one; undefined when the target is not
 * origin-form or a segment is odd: a malformed escape, an encoded slash or backslash, a NUL or
 * another control character, `.` or `..` in any encoding.
 */
export function pathSegments(target: string): string[] | undefined {
	if (!target.startsWith('/') || target.startsWith('//')) return undefined;
	const pathname = target.split(/[?#]/, 1)[0] ?? '/';
	const segments: string[] = [];
	for (const raw of pathname.slice(1).split('/')) {
		let segment: string;
		try {
			segment = decodeURIComponent(raw);
		} catch {
			return undefined;
		}
		if (/[/\\\p{Cc}]/u.test(segment) || segment === '.' || segment === '..') return undefined;
		segments.push(segment);
	}
	return segments;
}

/** The file a path names under `root`, or undefined for a dotfile or none. */
async function fileFor(root: string, segments: readonly string[]): Promise<string | undefined> {
	if (segments.some((segment) => segment.startsWith('.'))) return undefined;
	const last = segments.at(-1);
	const file = path.join(root, ...segments, last === '' ? 'index.html' : '');
	if (path.relative(root, file).startsWith('..')) return undefined;
	const found = await stat(file).catch(() => undefined);
	return found?.isFile() ? file : undefined;
}

/** Serves the built portal in `root` on 127.0.0.1 (or `host`) at `port`; 0 picks a free one. */
export async function startPortalServer(options: {
	root: string;
	port: number;
	host?: string;
	/** Names answered beyond 127.0.0.1, localhost and [::1] with the port (PORTAL_ALLOWED_HOSTS). */
	allowedHosts?: readonly string[];
}): Promise<RunningPortal> {
	const host = options.host ?? '127.0.0.1';
	const root = path.resolve(options.root);
	const hosts: HostRule = { port: options.port, names: options.allowedHosts ?? [] };

	/** Answers a request whose Host was allowed. */
	const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
		if (request.method !== 'GET' && request.method !== 'HEAD') {
			short(response, 405, 'Method Not Allowed: the portal answers GET and HEAD.', {
				Allow: 'GET, HEAD',
			});
			return;
		}
		const segments = pathSegments(request.url ?? '/');
		if (!segments) {
			short(response, 400, 'Bad Request: this path cannot name a page of the portal.');
			return;
		}
		const file = await fileFor(root, segments);
		if (!file) {
			const page = await readFile(path.join(root, '404.html')).catch(() => undefined);
			if (!page) short(response, 404, 'Not Found.');
			else {
				response.writeHead(404, { 'Content-Type': TYPES['.html'], 'Content-Length': page.length });
				response.end(request.method === 'HEAD' ? undefined : page);
			}
			return;
		}
		const { size } = await stat(file);
		response.writeHead(200, {
			'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream',
			'Content-Length': size,
			'X-Content-Type-Options': 'nosniff',
		});
		if (request.method === 'HEAD') response.end();
		else createReadStream(file).pipe(response);
	};

	const server = createServer((request, response) => {
		request.resume();
		const named = requestedHost(
			request.url ?? '/',
			request.rawHeaders.filter(
				(_, index, raw) => index % 2 === 1 && /^host$/i.test(raw[index - 1] ?? ''),
			),
		);
		if (!hostAllowed(named, hosts)) {
			short(
				response,
				403,
				`Forbidden: the portal is not served under ${quotedHost(named)}. To serve it under another name, add it to PORTAL_ALLOWED_HOSTS (comma-separated names).`,
			);
			return;
		}
		answer(request, response).catch((error: unknown) => {
			// The trace is for the terminal; the client gets one line.
			console.error(error);
			if (response.headersSent) response.destroy();
			else short(response, 500, 'Internal Server Error: the terminal shows why.');
		});
	});
	// Node ends a socket as soon as its client half-closes it, before an answer that is read
	// from disk is written; with this flag (Node's own, untyped), the answer is written first.
	(server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;

	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port, host, () => resolve());
	});
	hosts.port = (server.address() as AddressInfo).port;
	return {
		url: `http://${host.includes(':') ? `[${host}]` : host}:${hosts.port}`,
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
	};
}
