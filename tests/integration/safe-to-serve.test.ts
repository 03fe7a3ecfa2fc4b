/**
 * DNS rebinding: a page a reader opens can point its own name at 127.0.0.1 and read what our
 * servers answer. The mock and the `npm start` portal answer only the names they are served
 * under, like Vite's server.allowedHosts; every other Host gets 403 and no page, key or user.
 * The portal also answers odd paths with 400 or 404 and no trace, and half-closed sockets.
 */
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';
import { raw } from '../support/raw-http.ts';

/** Anything shaped like a key, of any prefix. */
const KEY_LIKE = /[a-z]{2,8}-[0-9a-f]{8}-[A-Za-z0-9]{4}/;
const USERS = '/api/v2/users';

let views: ViewEntry[];
let key: string;
const started: Started[] = [];
let mockPort: number;
let portalPort: number;

beforeAll(async () => {
	views = await loadViews(path.join(ROOT, 'content/views'));
	key = views[0]?.view.users[0]?.apiKey ?? '';
	[mockPort, portalPort] = [await freePort(), await freePort()];
	const mock = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(mockPort), MOCK_ALLOWED_HOSTS: 'mock.intranet.example' },
	});
	started.push(mock);
	const portal = start(bin('node'), ['scripts/start.ts'], {
		env: {
			PORTAL_PORT: String(portalPort),
			MOCK_PORT: String(await freePort()),
			PORTAL_ALLOWED_HOSTS: 'portal.intranet.example',
		},
	});
	started.push(portal);
	await waitForUrl(`http://127.0.0.1:${mockPort}${USERS}`, mock);
	await waitForUrl(`http://127.0.0.1:${portalPort}/`, portal, 180_000);
}, 240_000);

afterAll(async () => {
	await Promise.all(started.map((process) => process.stop()));
});

/** A GET with the given target and Host lines, carrying a directory key. */
function get(target: string, hosts: readonly string[]): string {
	return [
		`GET ${target} HTTP/1.1`,
		...hosts.map((host) => `Host: ${host}`),
		`Authorization: Bearer ${key}`,
		'Connection: close',
		'',
		'',
	].join('\r\n');
}

/** The foreign Hosts every server refuses: the target and the Host lines sent. */
function foreign(port: number, target: string): [string, string, string[]][] {
	return [
		['a foreign name', target, ['attacker.example']],
		['a foreign name with the port', target, [`attacker.example:${port}`]],
		['a name that starts as loopback', target, [`127.0.0.1.attacker.example:${port}`]],
		['an address that is not loopback', target, [`203.0.113.9:${port}`]],
		['two Host headers', target, [`127.0.0.1:${port}`, 'attacker.example']],
		[
			'an absolute-form target naming another host',
			`http://attacker.example${target}`,
			[`127.0.0.1:${port}`],
		],
	];
}

describe('the mock answers only the names it is served under', () => {
	it.each([0, 1, 2, 3, 4, 5])(
		'refuses foreign Host case %i with 403, naming the host and MOCK_ALLOWED_HOSTS, and no key or user',
		async (index) => {
			const [, target, hosts] = foreign(mockPort, USERS)[index] ?? ['', '', []];
			const answer = await raw(mockPort, get(target, hosts));
			expect(answer.status).toBe(403);
			expect(answer.head).toMatch(/^content-type: application\/problem\+json/im);
			const problem = JSON.parse(answer.body) as { detail: string; status: number };
			expect(problem.status).toBe(403);
			expect(problem.detail).toContain('MOCK_ALLOWED_HOSTS');
			expect(problem.detail).toContain(index === 5 ? 'attacker.example' : (hosts.at(-1) ?? ''));
			expect(answer.body).not.toMatch(KEY_LIKE);
			expect(answer.body).not.toContain('@example.com');
		},
	);

	it.each(['localhost', '[::1]', '127.0.0.1', 'mock.intranet.example'])(
		'answers %s with the port, the last a name added through MOCK_ALLOWED_HOSTS',
		async (name) => {
			const answer = await raw(mockPort, get(USERS, [`${name}:${mockPort}`]));
			expect(answer.status).toBe(200);
			expect(answer.body).toContain('@example.com');
		},
	);
});

describe('the npm start portal answers only the names it is served under', () => {
	it.each([0, 1, 2, 3, 4, 5])(
		'refuses foreign Host case %i with 403 and no page or key',
		async (index) => {
			const slug = views[0]?.slug ?? '';
			const [, target, hosts] = foreign(portalPort, `/views/${slug}/`)[index] ?? ['', '', []];
			const answer = await raw(portalPort, get(target, hosts));
			expect(answer.status).toBe(403);
			expect(answer.body).not.toMatch(KEY_LIKE);
			expect(answer.body).not.toContain('@example.com');
			expect(answer.body.length).toBeLessThan(400);
		},
	);

	it.each(['localhost', '127.0.0.1', 'portal.intranet.example'])(
		'answers %s with the port, the last a name added through PORTAL_ALLOWED_HOSTS',
		async (name) => {
			const slug = views[0]?.slug ?? '';
			const answer = await raw(portalPort, get(`/views/${slug}/`, [`${name}:${portalPort}`]));
			expect(answer.status).toBe(200);
			expect(answer.body).toMatch(KEY_LIKE);
		},
	);
});

describe('the npm start portal under odd paths and half-closed sockets', () => {
	it.each([
		'/..%2fpackage.json',
		'/..%2Fpackage.json',
		'/%2e%2e/package.json',
		'/%2e%2e%2fpackage.json',
		'/..%5cpackage.json',
		'/views%00/',
		'/%00',
		'/%zz',
		'/%E9',
		'/%252e%252e%252fpackage.json',
		'/_astro/..%2f..%2fpackage.json',
		'//evil.example/',
	])('answers %s with 400 or 404, no stack trace and no path of the machine', async (target) => {
		const answer = await raw(portalPort, get(target, [`127.0.0.1:${portalPort}`]));
		expect([400, 404]).toContain(answer.status);
		expect(answer.body).not.toContain(ROOT);
		expect(answer.body).not.toMatch(/\n\s+at |&nbsp;at |node:internal|"name":\s*"console-portal"/);
	});

	it('answers a client that half-closes its socket after a complete request', async () => {
		const answer = await new Promise<string>((resolve, reject) => {
			const socket = connect(portalPort, '127.0.0.1', () =>
				socket.end(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${portalPort}\r\n\r\n`),
			);
			let text = '';
			socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
			socket.on('end', () => resolve(text));
			socket.on('error', reject);
			socket.setTimeout(10_000, () => socket.destroy(new Error('no answer in 10 s')));
		});
		expect(answer).toMatch(/^HTTP\/1\.1 200 /);
		expect(answer).toContain('</html>');
	});
});
