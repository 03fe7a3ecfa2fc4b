/**
 * The `npm start` portal server on a small built folder of its own: the pages under their
 * trailing-slash addresses with the content types the portal's files need, the portal's 404 page
 * for anything else (dotfiles included), 405 with Allow, and a short 400 for odd paths.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPortalServer, type RunningPortal } from '../../../scripts/lib/portal-server.ts';

const NOT_FOUND_PAGE = '<!doctype html><title>Not found</title><p>No such page in the portal.';

/** The files of the small built portal, by path under its root. */
const FILES: Record<string, string> = {
	'index.html': '<!doctype html><title>Home</title>',
	'404.html': NOT_FOUND_PAGE,
	'views/production/index.html': '<!doctype html><title>Production</title>',
	'views/empty/.keep': '',
	'access.csv': 'view,name\nproduction,Ada\n',
	'views/production.md': '# production · Production\n\nZoë Müller, viewer\n',
	'llms.txt': '# Console Portal\n\n> Zoë\n',
	'openapi.json': '{"openapi":"3.1.0"}',
	'openapi.yaml': 'openapi: 3.1.0\n',
	'_astro/page.css': 'body{}',
	'_astro/page.js': 'export {};',
	'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
	'pagefind/fragment/en_1.pf_fragment': 'bytes',
	'.env': 'SECRET=1',
	'views/.hidden/index.html': '<!doctype html><title>Hidden</title>',
};

let root: string;
let portal: RunningPortal;

/**
 * Sends a request line as written (fetch never sends absolute-form or CONNECT) over a raw
 * socket, with a Host header, and gives the whole answer once the server closes.
 */
function rawRequest(line: string, host: string): Promise<string> {
	const { port } = new URL(portal.url);
	return new Promise((resolve, reject) => {
		const socket = connect(Number(port), '127.0.0.1', () =>
			socket.write(`${line}\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
		);
		let answer = '';
		socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
		socket.on('end', () => resolve(answer));
		socket.on('error', reject);
		socket.setTimeout(5000, () => socket.destroy(new Error(`no answer to ${line} within 5 s`)));
	});
}

beforeAll(async () => {
	root = await mkdtemp(path.join(os.tmpdir(), 'console-portal-server-'));
	for (const [name, text] of Object.entries(FILES)) {
		await mkdir(path.dirname(path.join(root, name)), { recursive: true });
		await writeFile(path.join(root, name), text);
	}
	portal = await startPortalServer({ root, port: 0 });
});

afterAll(async () => {
	await portal?.close();
	await rm(root, { recursive: true, force: true });
});

describe('the npm start portal server', () => {
	it.each([
		['/', 'text/html; charset=utf-8', FILES['index.html']],
		['/views/production/', 'text/html; charset=utf-8', FILES['views/production/index.html']],
		['/access.csv', 'text/csv; charset=utf-8', FILES['access.csv']],
		['/views/production.md', 'text/markdown; charset=utf-8', FILES['views/production.md']],
		['/llms.txt', 'text/plain; charset=utf-8', FILES['llms.txt']],
		['/openapi.json', 'application/json; charset=utf-8', FILES['openapi.json']],
		['/openapi.yaml', 'application/yaml; charset=utf-8', FILES['openapi.yaml']],
		['/_astro/page.css', 'text/css; charset=utf-8', FILES['_astro/page.css']],
		['/_astro/page.js', 'text/javascript; charset=utf-8', FILES['_astro/page.js']],
		['/favicon.svg', 'image/svg+xml', FILES['favicon.svg']],
		['/pagefind/fragment/en_1.pf_fragment', 'application/octet-stream', 'bytes'],
		[
			'/views/production/?tab=keys',
			'text/html; charset=utf-8',
			FILES['views/production/index.html'],
		],
	])('serves %s as %s', async (target, type, body) => {
		const answer = await fetch(`${portal.url}${target}`);
		expect(answer.status).toBe(200);
		expect(answer.headers.get('content-type')).toBe(type);
		expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
		expect(await answer.text()).toBe(body);
	});

	it('answers HEAD with the headers of GET and no body', async () => {
		const answer = await fetch(`${portal.url}/access.csv`, { method: 'HEAD' });
		expect(answer.status).toBe(200);
		expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
		expect(answer.headers.get('content-length')).toBe(String(FILES['access.csv']?.length));
		expect(await answer.text()).toBe('');
	});

	it.each([
		['a missing page', '/views/staging/'],
		['a page without its trailing slash', '/views/production'],
		['a folder without an index', '/views/empty/'],
		['a dotfile', '/.env'],
		['a page under a dot folder', '/views/.hidden/'],
		['a dotfile named with an encoded dot', '/%2eenv'],
	])('answers %s with the portal 404 page and status 404', async (_case, target) => {
		const answer = await fetch(`${portal.url}${target}`);
		expect(answer.status).toBe(404);
		expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
		expect(await answer.text()).toBe(NOT_FOUND_PAGE);
	});

	it('answers a method other than GET and HEAD with 405 and Allow', async () => {
		const answer = await fetch(`${portal.url}/`, { method: 'POST', body: 'x' });
		expect(answer.status).toBe(405);
		expect(answer.headers.get('allow')).toBe('GET, HEAD');
	});

	it.each(['/..%2f404.html', '/%zz', '/views%5c..%5c404.html', '/a%00', '/./index.html'])(
		'answers the odd path %s with a short 400',
		async (target) => {
			// fetch would tidy `.` segments away; the path is sent as written through a raw target.
			const { request } = await import('node:http');
			const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
				const sent = request(`${portal.url}/`, { path: target }, (response) => {
					let body = '';
					response.on('data', (chunk: Buffer) => (body += chunk.toString()));
					response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
				});
				sent.on('error', reject);
				sent.end();
			});
			expect(answer.status).toBe(400);
			expect(answer.body).toBe('Bad Request: this path cannot name a page of the portal.\n');
		},
	);

	it('answers CONNECT as any other method but GET and HEAD: 405 with Allow, then closes', async () => {
		const { port } = new URL(portal.url);
		const answer = await rawRequest(`CONNECT 127.0.0.1:${port} HTTP/1.1`, `127.0.0.1:${port}`);
		expect(answer).toMatch(/^HTTP\/1\.1 405 Method Not Allowed\r\n/);
		expect(answer).toMatch(/\r\nAllow: GET, HEAD\r\n/);
		expect(answer.endsWith('\r\n\r\nMethod Not Allowed: the portal answers GET and HEAD.\n')).toBe(
			true,
		);
	});

	it('serves an absolute-form request for its own host (RFC 9112, section 3.2.2), and refuses one for another', async () => {
		const { port } = new URL(portal.url);
		const own = await rawRequest(
			`GET http://127.0.0.1:${port}/views/production/ HTTP/1.1`,
			`127.0.0.1:${port}`,
		);
		expect(own).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
		expect(own).toMatch(/\r\nContent-Type: text\/html; charset=utf-8\r\n/);
		expect(own.endsWith(`\r\n\r\n${FILES['views/production/index.html']}`)).toBe(true);
		const withQuery = await rawRequest(
			`GET http://localhost:${port}/access.csv?x=1 HTTP/1.1`,
			`127.0.0.1:${port}`,
		);
		expect(withQuery.endsWith(`\r\n\r\n${FILES['access.csv']}`)).toBe(true);
		// The target's authority wins over the Host header, as the RFC says.
		const other = await rawRequest(
			'GET http://attacker.example/views/production/ HTTP/1.1',
			`127.0.0.1:${port}`,
		);
		expect(other).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
		const odd = await rawRequest(`GET http://127.0.0.1:${port}/%zz HTTP/1.1`, `127.0.0.1:${port}`);
		expect(odd).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
	});

	it('refuses a Host it is not served under with 403', async () => {
		const { request } = await import('node:http');
		const status = await new Promise<number>((resolve, reject) => {
			const sent = request(
				`${portal.url}/`,
				{ headers: { Host: 'attacker.example' } },
				(response) => {
					response.resume();
					resolve(response.statusCode ?? 0);
				},
			);
			sent.on('error', reject);
			sent.end();
		});
		expect(status).toBe(403);
	});
});
