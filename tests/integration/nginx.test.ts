import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from '../../support/browser.ts';
import { TIMEOUT_MS } from '../../src/client/try-it/exchange.ts';
import { freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';

const NGINX = process.env['NGINX_PATH'] ?? '/usr/sbin/nginx';
const distDir = inject('distDir');
let folder: string;
let server: Started;
let base: string;

/** The intranet name an operator serves the portal under, set as deploy/'s comment says. */
const OPERATOR_NAME = 'portal.internal.example';

/** Sends a GET with the request target exactly as given and returns the whole answer. */
function rawGet(target: string, head = 'Host: 127.0.0.1\r\n', method = 'GET'): Promise<string> {
	const { port, hostname } = new URL(base);
	return new Promise((resolve, reject) => {
		const socket = connect(Number(port), hostname, () =>
			socket.end(`${method} ${target} HTTP/1.1\r\n${head}Connection: close\r\n\r\n`),
		);
		let answer = '';
		socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
		socket.on('end', () => resolve(answer));
		socket.on('error', reject);
		socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
	});
}

/** The repository's server block, moved to a test port and the test's build. */
async function testConfig(port: number): Promise<string> {
	const site = await readFile(path.join(ROOT, 'deploy/console-portal.conf'), 'utf8');
	const headers = path.join(ROOT, 'deploy/console-portal-headers.conf');
	const server = site
		.replaceAll(/listen\s+[^;\s]+/g, `listen 127.0.0.1:${port}`)
		// The operator's own name, added as the configuration's comment says.
		.replace(
			'server_name 127.0.0.1 localhost;',
			`server_name 127.0.0.1 localhost ${OPERATOR_NAME};`,
		)
		.replace(/root\s+[^;]+;/, `root ${distDir};`)
		.replaceAll('/etc/nginx/snippets/console-portal-headers.conf', headers);
	const temp = (name: string): string => `${name}_temp_path ${path.join(folder, name)};`;
	return [
		process.getuid?.() === 0 ? 'user root;' : '',
		'worker_processes 1;',
		`pid ${path.join(folder, 'nginx.pid')};`,
		`error_log ${path.join(folder, 'error.log')} warn;`,
		'events { worker_connections 64; }',
		'http {',
		'include /etc/nginx/mime.types;',
		'default_type application/octet-stream;',
		'access_log off;',
		...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp),
		server,
		'}',
	].join('\n');
}

beforeAll(async () => {
	if (!existsSync(NGINX)) {
		throw new Error(
			`nginx is not installed at ${NGINX}: apt-get install nginx-light (or set NGINX_PATH)`,
		);
	}
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-nginx-'));
	await mkdir(path.join(folder, 'logs'));
	const port = await freePort();
	await writeFile(path.join(folder, 'nginx.conf'), await testConfig(port));
	server = start(NGINX, ['-p', folder, '-c', path.join(folder, 'nginx.conf'), '-g', 'daemon off;']);
	base = `http://127.0.0.1:${port}`;
	await waitForUrl(`${base}/`, server);
});

afterAll(async () => {
	await server?.stop();
	if (folder) await rm(folder, { recursive: true, force: true });
});

/** The headers every answer carries, whatever the page. */
function expectPortalHeaders(response: Response): void {
	const csp = response.headers.get('content-security-policy') ?? '';
	expect(csp).toContain("frame-ancestors 'none'");
	expect(response.headers.get('x-frame-options')).toBe('DENY');
	expect(response.headers.get('x-content-type-options')).toBe('nosniff');
	expect(response.headers.get('referrer-policy')).toBe('no-referrer');
	expect(response.headers.get('x-robots-tag')).toMatch(/noindex/);
	expect(response.headers.get('server')).toBe('nginx');
}

describe('the portal behind Debian nginx with deploy/console-portal.conf', () => {
	it('serves the overview with the security headers a meta tag cannot carry', async () => {
		const response = await fetch(`${base}/`);
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/^text\/html/);
		expect(response.headers.get('cache-control')).toBe('no-cache');
		expectPortalHeaders(response);
		expect(await response.text()).toContain('<meta name="robots" content="noindex">');
	});

	it('serves every view page at its address', async () => {
		// The folders of the view pages, beside them their Markdown twins (<slug>.md).
		const views = (await readdir(path.join(distDir, 'views'))).filter(
			(name) => !name.endsWith('.md'),
		);
		expect(views.length).toBeGreaterThanOrEqual(7);
		for (const slug of views) {
			const response = await fetch(`${base}/views/${slug}/`);
			expect(response.status, slug).toBe(200);
			expectPortalHeaders(response);
			expect(await response.text()).toContain('Internal use only');
		}
	});

	it('lets browsers keep hashed assets for a year, and only those', async () => {
		const assets = await readdir(path.join(distDir, '_astro'));
		const css = assets.find((name) => name.endsWith('.css'));
		expect(css).toBeDefined();
		const response = await fetch(`${base}/_astro/${css}`, {
			headers: { 'accept-encoding': 'gzip' },
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toMatch(/^text\/css/);
		expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
		expectPortalHeaders(response);
		const favicon = await fetch(`${base}/favicon.svg`);
		expect(favicon.headers.get('cache-control')).toBe('no-cache');
	});

	it('serves the Markdown twins as UTF-8 Markdown and llms.txt as UTF-8 text, compressed', async () => {
		for (const target of ['/views/production.md', '/index.md', '/reference.md']) {
			const response = await fetch(`${base}${target}`, {
				headers: { 'accept-encoding': 'gzip' },
			});
			expect(response.status, target).toBe(200);
			expect(response.headers.get('content-type'), target).toBe('text/markdown; charset=utf-8');
			expect(response.headers.get('content-encoding'), target).toBe('gzip');
			expect(response.headers.get('cache-control'), target).toBe('no-cache');
			expectPortalHeaders(response);
			expect(await response.text(), target).toMatch(/^# /);
		}
		const llms = await fetch(`${base}/llms.txt`, { headers: { 'accept-encoding': 'gzip' } });
		expect(llms.status).toBe(200);
		expect(llms.headers.get('content-type')).toBe('text/plain; charset=utf-8');
		expect(llms.headers.get('content-encoding')).toBe('gzip');
		expectPortalHeaders(llms);
		expect(await llms.text()).toMatch(/^# Console Portal\n/);
		const missing = await fetch(`${base}/views/no-such-view.md`);
		expect(missing.status).toBe(404);
		expectPortalHeaders(missing);
		expect(await missing.text()).toContain('<meta name="robots" content="noindex">');
	});

	it('serves access.csv, openapi.yaml and a Markdown twin each as its own UTF-8 type, compressed, never as bytes', async () => {
		for (const [target, type] of [
			['/access.csv', 'text/csv; charset=utf-8'],
			['/openapi.yaml', 'application/yaml; charset=utf-8'],
			['/views/production.md', 'text/markdown; charset=utf-8'],
		] as const) {
			const response = await fetch(`${base}${target}`, { headers: { 'accept-encoding': 'gzip' } });
			expect(response.status, target).toBe(200);
			expect(response.headers.get('content-type'), target).toBe(type);
			expect(response.headers.get('content-encoding'), target).toBe('gzip');
			expect(response.headers.get('cache-control'), target).toBe('no-cache');
			expectPortalHeaders(response);
			// Byte for byte: access.csv starts with a byte-order mark, which text() would drop.
			const sent = Buffer.from(await response.arrayBuffer());
			expect(sent.equals(await readFile(path.join(distDir, target.slice(1)))), target).toBe(true);
		}
	});

	it('answers an unknown address with 404 and the same headers', async () => {
		const response = await fetch(`${base}/views/no-such-view/`);
		expect(response.status).toBe(404);
		expectPortalHeaders(response);
		const missing = await fetch(`${base}/_astro/no-such-asset.js`);
		expect(missing.status).toBe(404);
		expectPortalHeaders(missing);
	});

	it('does not serve files outside dist through ".." in the path, as sent on the wire', async () => {
		// fetch() would normalise "/../" and "%2e%2e" away before sending; a raw socket does not.
		const outside = [
			'/../../etc/passwd',
			'/views/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
			'/..%2f..%2fetc/passwd',
		];
		for (const target of outside) {
			const answer = await rawGet(target);
			expect(answer, target).toMatch(/^HTTP\/1\.1 (400|404) /);
			expect(answer, target).not.toContain('root:');
		}
		// The same socket helper does fetch a file inside dist, so the refusals above mean something.
		await expect(rawGet('/views/%2e%2e/index.html')).resolves.toMatch(/^HTTP\/1\.1 200 /);
	});

	it('lets only the compare page’s side pages be framed, and only by the portal itself', async () => {
		for (const target of ['/compare/side/', '/compare/side/environments/production/']) {
			const response = await fetch(`${base}${target}`);
			expect(response.status, target).toBe(200);
			const csp = response.headers.get('content-security-policy') ?? '';
			expect(csp, target).toContain("frame-ancestors 'self';");
			expect(csp, target).not.toContain("'none'; base-uri");
			expect(response.headers.get('x-frame-options'), target).toBe('SAMEORIGIN');
			expect(response.headers.get('x-content-type-options'), target).toBe('nosniff');
		}
		for (const target of ['/compare/', '/compare/production.json', '/views/production/']) {
			expectPortalHeaders(await fetch(`${base}${target}`));
		}
		// The path is judged as nginx resolves it: climbing out of /compare/side/ is not framable.
		const climbed = await rawGet(
			'/compare/side/environments/%2e%2e/%2e%2e/%2e%2e/views/production/',
		);
		expect(climbed).toMatch(/^HTTP\/1\.1 200 /);
		expect(climbed).toMatch(/\r\nX-Frame-Options: DENY\r\n/);
		expect(climbed).toContain("frame-ancestors 'none'");
	});

	it('shows the two side frames in Chromium without JavaScript, and blocks framing any other page', async () => {
		const browser = await launchChromium();
		try {
			const context = await browser.newContext({ javaScriptEnabled: false });
			const page = await context.newPage();
			await page.goto(`${base}/compare/`);
			const sideA = page.frameLocator('iframe[title="View A"]');
			const sideB = page.frameLocator('iframe[title="View B"]');
			const shown = (side: typeof sideA) =>
				side.locator('h1, h2').filter({ visible: true }).allTextContents();
			await expect(shown(sideA)).resolves.toEqual(['dr-eu-west · DR']);
			await expect(shown(sideB)).resolves.toEqual(['dr-eu-west · DR failover']);
			await context.close();
			// With scripting on, a frame the page makes itself: a side page shows, a view page is refused.
			const scripted = await browser.newPage();
			await scripted.goto(`${base}/compare/`);
			const framed = (src: string) =>
				scripted.evaluate(
					(address) =>
						new Promise<string | null>((resolve) => {
							const frame = document.createElement('iframe');
							frame.addEventListener('load', () =>
								resolve(frame.contentDocument?.querySelector('h1')?.textContent ?? null),
							);
							frame.src = address;
							document.body.append(frame);
						}),
					src,
				);
			await expect(framed('/compare/side/environments/production/')).resolves.toBe('production');
			await expect(framed('/views/production/')).resolves.toBeNull();
		} finally {
			await browser.close();
		}
	});

	it('answers nothing at all to a Host it is not served under, so a rebound name reads no key', async () => {
		const port = new URL(base).port;
		const refused = [
			'Host: attacker.example\r\n',
			`Host: attacker.example:${port}\r\n`,
			'Host: 127.0.0.1.attacker.example\r\n',
			'Host: localhost.attacker.example\r\n',
		];
		for (const head of refused) {
			await expect(rawGet('/views/production/', head), head).resolves.toBe('');
		}
		// An absolute-form target names the host nginx goes by, whatever the Host header says.
		await expect(rawGet('http://attacker.example/views/production/')).resolves.toBe('');
		// Two Host headers: refused before any page is read.
		const twice = await rawGet(
			'/views/production/',
			'Host: 127.0.0.1\r\nHost: attacker.example\r\n',
		);
		expect(twice).toMatch(/^HTTP\/1\.1 400 /);
		expect(twice).not.toContain('ick-');
		// The names the portal is served under are answered, the operator's own included.
		for (const head of [
			'Host: 127.0.0.1\r\n',
			`Host: localhost:${port}\r\n`,
			`Host: ${OPERATOR_NAME}\r\n`,
		]) {
			await expect(rawGet('/views/production/', head), head).resolves.toMatch(/^HTTP\/1\.1 200 /);
		}
	});

	it('serves no dotfile, even one that lands in dist', async () => {
		const dotfile = path.join(distDir, '.env');
		await writeFile(dotfile, 'SECRET=made-up-for-this-test\n');
		try {
			for (const target of ['/.env', '/views/.env', '/.git/config']) {
				const response = await fetch(`${base}${target}`);
				expect(response.status, target).toBe(404);
				expectPortalHeaders(response);
				expect(await response.text(), target).not.toContain('made-up-for-this-test');
			}
		} finally {
			await rm(dotfile);
		}
	});

	it('refuses any method but GET and HEAD with 405 naming the two', async () => {
		for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
			const response = await fetch(`${base}/views/production/`, { method });
			expect(response.status, method).toBe(405);
			expect(response.headers.get('allow'), method).toBe('GET, HEAD');
			expectPortalHeaders(response);
		}
		const head = await fetch(`${base}/views/production/`, { method: 'HEAD' });
		expect(head.status).toBe(200);
	});

	it("puts the portal's headers on nginx's own 400 and 414 pages", async () => {
		const bad = await rawGet('/', 'Host: 127.0.0.1\r\nHost: 127.0.0.1\r\n');
		expect(bad).toMatch(/^HTTP\/1\.1 400 /);
		const long = await rawGet(`/${'a'.repeat(20_000)}`);
		expect(long).toMatch(/^HTTP\/1\.1 414 /);
		for (const answer of [bad, long]) {
			expect(answer).toMatch(/\r\nX-Content-Type-Options: nosniff\r\n/);
			expect(answer).toMatch(/\r\nX-Frame-Options: DENY\r\n/);
			expect(answer).toContain("frame-ancestors 'none'");
		}
	});

	it('gives up on a mock that does not answer, and says so, before try-it gives up on its own', async () => {
		const site = await readFile(path.join(ROOT, 'deploy/console-portal.conf'), 'utf8');
		/** A time-out of the mock's location, in milliseconds; nginx's default is 60 s. */
		const timeout = (name: string): number => {
			const match = new RegExp(`^\\s*#mock\\s+${name}\\s+(\\d+)s;`, 'm').exec(site);
			return match ? Number(match[1]) * 1000 : 60_000;
		};
		// Connecting, then waiting for the mock's first bytes: the longest before nginx's 504.
		const longest = timeout('proxy_connect_timeout') + timeout('proxy_read_timeout');
		expect(longest).toBeLessThanOrEqual(TIMEOUT_MS - 1000);
		expect(timeout('proxy_send_timeout')).toBeLessThanOrEqual(timeout('proxy_read_timeout'));
		// nginx's answers on the mock's path are the portal's problem+json, never its HTML page.
		expect(site).toMatch(/^\s*#mock\s+error_page 502 @console_portal_mock_502;$/m);
		expect(site).toMatch(/^\s*#mock\s+error_page 504 @console_portal_mock_504;$/m);
	});

	it("answers a folder without an index with the portal's 404 page, not nginx's 403", async () => {
		for (const target of ['/pagefind/', '/_astro/', '/compare/side/start/']) {
			const response = await fetch(`${base}${target}`);
			expect(response.status, target).toBe(404);
			expectPortalHeaders(response);
			expect(await response.text(), target).toContain('<meta name="robots" content="noindex">');
		}
	});
});
