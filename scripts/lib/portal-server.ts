/**
 * The server `npm start` serves the built portal with: sirv (what Vite's own preview serves
 * with) sends the files of `dist/`; in front of it stands what is ours. Only the names the portal
 * is served under are answered (`allowed-hosts.ts`), and only GET and HEAD (CONNECT, which Node
 * hands over as a raw socket, gets the same 405 as any other method); a target in absolute-form
 * that names an allowed host is read by its path, as RFC 9112 (3.2.2) requires. An odd path (an
 * encoded slash or NUL, `..`, a malformed escape) gets a short 400, a dotfile or a missing file
 * the portal's 404 page; a failure gets a short 500 and its trace goes to the terminal only. A
 * client that half-closes its socket after its request still gets its answer.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Readable } from 'node:stream';
import sirv from 'sirv';
import {
	hostAllowed,
	quotedHost,
	requestedHost,
	type HostRule,
} from '../../src/shared/allowed-hosts.ts';
import { answerConnect } from '../../mock/connect.ts';

/**
 * The content types of the files a build writes, where sirv's differ (it gives `text/yaml`,
 * text types without a charset, and no type at all for Pagefind's files); any other file is sent
 * as bytes.
 */
const TYPES: Record<string, string> = {
	'.html': 'text/html; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.json': 'application/json; charset=utf-8',
	'.csv': 'text/csv; charset=utf-8',
	'.svg': 'image/svg+xml',
	'.yaml': 'application/yaml; charset=utf-8',
	'.txt': 'text/plain; charset=utf-8',
	// The pages' Markdown twins (RFC 7763).
	'.md': 'text/markdown; charset=utf-8',
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

/** An absolute-form target's scheme and authority (RFC 9112, 3.2.2): `http://127.0.0.1:4321`. */
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * A target in origin-form: an absolute-form one (whose host was checked) as the path and query
 * after its authority, as written, so the same checks read it; any other target as it is.
 */
function originForm(target: string): string {
	const authority = ABSOLUTE_FORM.exec(target)?.[0];
	if (authority === undefined) return target;
	const rest = target.slice(authority.length);
	return rest.startsWith('/') ? rest : `/${rest}`;
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
		} catch (error) {
			// A malformed escape: the target is odd.
			if (error instanceof URIError) return undefined;
			throw error;
		}
		if (/[/\\\p{Cc}]/u.test(segment) || segment === '.' || segment === '..') return undefined;
		segments.push(segment);
	}
	return segments;
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

	/** The portal's 404 page with status 404; a short one if the build wrote none. */
	const notFound = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
		const page = await readFile(path.join(root, '404.html')).catch(() => undefined);
		if (!page) short(response, 404, 'Not Found.');
		else {
			response.writeHead(404, {
				'Content-Type': TYPES['.html'],
				'Content-Length': page.length,
				'X-Content-Type-Options': 'nosniff',
			});
			response.end(request.method === 'HEAD' ? undefined : page);
		}
	};

	// As Vite's preview: read from disk on each request (a rebuild is served at once), with ETags.
	const files = sirv(root, {
		dev: true,
		etag: true,
		extensions: [],
		setHeaders: (response, pathname) => {
			response.setHeader(
				'Content-Type',
				TYPES[path.extname(pathname)] ?? 'application/octet-stream',
			);
			response.setHeader('X-Content-Type-Options', 'nosniff');
		},
	});

	/** Answers a request whose Host was allowed. */
	const answer = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
		if (request.method !== 'GET' && request.method !== 'HEAD') {
			short(response, 405, 'Method Not Allowed: the portal answers GET and HEAD.', {
				Allow: 'GET, HEAD',
			});
			return;
		}
		const target = originForm(request.url ?? '/');
		request.url = target;
		const segments = pathSegments(target);
		if (!segments) {
			short(response, 400, 'Bad Request: this path cannot name a page of the portal.');
			return;
		}
		// sirv serves dotfiles when asked in dev mode; the portal has none to show.
		if (segments.some((segment) => segment.startsWith('.'))) return notFound(request, response);
		// The build writes each page as its folder's index.html, under a trailing-slash address;
		// the address without the slash is not a page (sirv's own guess would serve it).
		if (segments.at(-1) === '') request.url = `${target.split(/[?#]/, 1)[0] ?? '/'}index.html`;
		// sirv misreads some ranges (`bytes=-500` gets the first 501 bytes; `bytes=9-2` throws
		// after its 206 head); no page or Pagefind asks for one, so every answer is the whole file.
		delete request.headers.range;
		let missing = false;
		files(request, response, () => {
			missing = true;
		});
		if (missing) await notFound(request, response);
	};

	/** Answers a request: its host first, then the rest. */
	const handle = (request: IncomingMessage, response: ServerResponse): void => {
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
		/** The trace is for the terminal; the client gets one line, or a cut answer. */
		const failed = (error: unknown): void => {
			console.error(error);
			if (response.headersSent) response.destroy();
			else short(response, 500, 'Internal Server Error: the terminal shows why.');
		};
		// A file that cannot be read once its head is sent (removed by a rebuild, say).
		response.once('pipe', (source: Readable) => source.once('error', failed));
		answer(request, response).catch(failed);
	};

	const server = createServer(handle);
	// A CONNECT gets the answer of any other method but GET and HEAD.
	answerConnect(server, handle);
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
