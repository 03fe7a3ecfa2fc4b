/**
 * A team's portal with the mock on a name of its own (the two-origin shape of the README's Deploy
 * section): the portal built with PORTAL_MOCK_URL=http://mock.intranet.example:<port> and served
 * under portal.intranet.example, the mock told that name (MOCK_ALLOWED_HOSTS) and the portal's
 * origin (MOCK_ALLOWED_ORIGINS). Chromium resolves both names to 127.0.0.1
 * (--host-resolver-rules), so the pages are read as a team's readers read them. Every place that
 * names the mock calls the team's, try-it gets a view's users from it with no console error and no
 * CSP violation, and a page on a third origin still gets no CORS answer, as before. The command
 * for a reader's own mock starts on the first line of its box, at 1280 px in both themes and at
 * 390 px.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_AT_EPOCH } from '../global-setup.ts';
import { buildCurl } from '../../src/shared/curl.ts';
import { exampleUser, viewName } from '../../src/shared/views.ts';
import { loadViews } from '../../src/sources/fixtures.ts';
import { launchChromium } from '../../support/browser.ts';
import { buildPortalAsync } from '../../support/build.ts';
import { servePortal, type Preview } from '../../support/preview.ts';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));
const production = views.find(({ slug }) => slug === 'production');
if (!production) throw new Error('Expected the production fixture');

let folder: string;
let distDir: string;
let portal: string;
let mockUrl: string;
let localPort: number;
let third: string;
let preview: Preview | undefined;
let mock: Started | undefined;
let thirdServer: Server | undefined;
let browser: Browser | undefined;

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-team-mock-'));
	distDir = path.join(folder, 'dist');
	const [portalPort, mockPort, thirdPort] = [await freePort(), await freePort(), await freePort()];
	// The port a reader's own mock would use: never one of the others, never the default.
	localPort = await freePort();
	portal = `http://portal.intranet.example:${portalPort}`;
	mockUrl = `http://mock.intranet.example:${mockPort}`;
	third = `http://third.intranet.example:${thirdPort}`;
	// The build, the mock, the third origin and Chromium start side by side; the preview serves
	// what the build made, once it is made.
	const building = buildPortalAsync(distDir, undefined, {
		PORTAL_MOCK_URL: mockUrl,
		PORTAL_URL: portal,
		MOCK_PORT: String(localPort),
		PORTAL_PORT: String(portalPort),
		SOURCE_DATE_EPOCH: String(BUILT_AT_EPOCH),
	});
	mock = start(bin('node'), ['mock/cli.ts'], {
		env: {
			MOCK_PORT: String(mockPort),
			MOCK_ALLOWED_HOSTS: 'mock.intranet.example',
			MOCK_ALLOWED_ORIGINS: portal,
			MOCK_LOG: 'off',
		},
	});
	thirdServer = createServer((_, response) => {
		response
			.writeHead(200, { 'Content-Type': 'text/html' })
			.end('<!doctype html><title>Third</title>');
	});
	const launching = launchChromium([
		'--host-resolver-rules=MAP portal.intranet.example 127.0.0.1, MAP mock.intranet.example 127.0.0.1, MAP third.intranet.example 127.0.0.1',
	]).then((launched) => (browser = launched));
	const serving = building.then(async (built) => {
		if (built.status !== 0) throw new Error(`The team build failed:\n${built.output}`);
		preview = await servePortal(distDir, portalPort, {
			PORTAL_ALLOWED_HOSTS: 'portal.intranet.example',
		});
	});
	const outcomes = await Promise.allSettled([
		serving,
		launching,
		waitForUrl(`http://127.0.0.1:${mockPort}/readyz`, mock),
		new Promise<void>((resolve) => thirdServer?.listen(thirdPort, '127.0.0.1', resolve)),
	]);
	const failed = outcomes.flatMap((outcome): unknown[] =>
		outcome.status === 'rejected' ? [outcome.reason] : [],
	);
	if (failed.length > 0) throw new AggregateError(failed, 'The team portal did not start');
}, 400_000);

afterAll(async () => {
	await browser?.close();
	await Promise.allSettled([preview?.server.stop(), mock?.stop()]);
	await new Promise((resolve) => (thirdServer ? thirdServer.close(resolve) : resolve(undefined)));
	if (folder) await rm(folder, { recursive: true, force: true });
});

/** A built file's text. */
const built = (file: string): Promise<string> => readFile(path.join(distDir, file), 'utf8');

/** The content of a page's CSP <meta>. */
function policyOf(html: string): string {
	const match = /<meta http-equiv="content-security-policy" content="([^"]+)"/i.exec(html);
	if (!match?.[1]) throw new Error('no CSP <meta> on the page');
	return match[1];
}

describe('a portal built for a team’s mock on its own name', () => {
	it('names the team’s mock everywhere it names one, and the reader’s local mock only as theirs', async () => {
		const users = () => `${mockUrl}/api/v2/users`;
		const page = await built('views/production/index.html');
		expect(page).toContain(users());
		expect(policyOf(page)).toContain(
			`connect-src 'self' ${mockUrl} http://127.0.0.1:${localPort} http://localhost:${localPort};`,
		);
		expect(page).toContain(`data-default-server="${mockUrl}"`);
		// The local mock appears only where the page tells a reader how to try their own.
		expect(page).toContain(`<code>MOCK_ALLOWED_ORIGINS=${portal} npm run mock</code>`);
		const guide = await built('docs/getting-started/index.html');
		// Every language's sample of the users request, and none against this machine.
		expect(guide.split(users()).length - 1).toBeGreaterThanOrEqual(8);
		const reference = await built('reference/index.html');
		expect(reference).toMatch(new RegExp(`id="endpoint-server"[^>]*>${mockUrl}<`));
		const contract = JSON.parse(await built('openapi.json')) as { servers: { url: string }[] };
		expect(contract.servers.map(({ url }) => url)).toEqual([
			mockUrl,
			`http://127.0.0.1:${localPort}`,
		]);
		expect(await built('views/production.md')).toContain(`at \`${mockUrl}\``);
		expect(await built('llms.txt')).toContain(`answers on \`${mockUrl}\``);
		for (const file of [
			'docs/getting-started/index.html',
			'docs/mock-server/index.html',
			'views/production.md',
			'llms.txt',
		]) {
			expect(await built(file), file).not.toContain(`127.0.0.1:${localPort}/api`);
		}
	});

	it('says in the mock-server guide that try-it sends to the team’s mock, not the reader’s own', async () => {
		const guide = await built('docs/mock-server/index.html');
		const said = [...guide.matchAll(/<p>((?:(?!<\/p>)[\s\S])*?try-it(?:(?!<\/p>)[\s\S])*?)<\/p>/g)]
			.map((match) => match[1] ?? '')
			.filter((paragraph) => /\bsends?\b/.test(paragraph));
		expect(said.length).toBeGreaterThan(0);
		for (const paragraph of said) {
			expect(paragraph).not.toMatch(
				new RegExp(`try-it[^.]*sends?[^.]*127\\.0\\.0\\.1:${localPort}`),
			);
		}
		expect(said.join('\n')).toMatch(new RegExp(`try-it[^.]*sends?[^.]*${mockUrl}`));
	});

	it('try-it on a view page gets the view’s users from the team’s mock, with no console error and no CSP violation', async () => {
		const page = await open(`${portal}/views/production/`);
		expect(await page.getByLabel('Server').inputValue()).toBe(mockUrl);
		await page.getByRole('button', { name: 'Send', exact: true }).click();
		await expect
			.poll(() => page.locator('try-it [data-summary]').innerText(), { timeout: 15_000 })
			.toMatch(/^200 OK/);
		const body = JSON.parse((await page.locator('try-it [data-body]').textContent()) ?? '') as {
			users: { email: string }[];
		};
		expect(body.users.map(({ email }) => email)).toEqual(
			production.view.users.map(({ email }) => email),
		);
		await expect(page.locator('try-it [data-whose]').innerText()).resolves.toBe(
			`These are the users of this view, ${viewName(production.view)}.`,
		);
		await expect(page.locator('#try-it-curl').innerText()).resolves.toBe(
			buildCurl({ baseUrl: mockUrl, key: exampleUser(production.view).apiKey }),
		);
		await expectCleanPage(page);
	});

	it('try-it on /reference/ gets the picked view’s users from the team’s mock', async () => {
		const page = await open(`${portal}/reference/`);
		const target = views.at(-1);
		if (!target) throw new Error('no view fixture');
		await page.getByLabel('Environment').selectOption(target.view.environment);
		await page.getByLabel('View', { exact: true }).selectOption(target.slug);
		const key = page.getByLabel('Key', { exact: true });
		await expect.poll(() => key.locator('option').count()).toBe(target.view.users.length + 1);
		await page.getByRole('button', { name: 'Send' }).click();
		await expect
			.poll(() => page.locator('try-it [data-summary]').innerText(), { timeout: 15_000 })
			.toMatch(/^200 OK/);
		await expect(page.locator('try-it [data-whose]').innerText()).resolves.toBe(
			`These are the users of this view, ${viewName(target.view)}.`,
		);
		await expectCleanPage(page);
	});

	it('a page on a third origin still gets no answer it may read from the mock', async () => {
		const key = exampleUser(production.view).apiKey;
		const page = await open(`${third}/`, false);
		const outcome = await page.evaluate(
			async ({ url, key }) => {
				try {
					const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
					return `read ${response.status}`;
				} catch (error) {
					return error instanceof Error ? error.name : 'refused';
				}
			},
			{ url: `${mockUrl}/api/v2/users`, key },
		);
		expect(outcome).toBe('TypeError');
		const allowOrigin = await new Promise<string | undefined>((resolve, reject) => {
			const asked = request(
				`http://127.0.0.1:${new URL(mockUrl).port}/api/v2/users`,
				{ headers: { Authorization: `Bearer ${key}`, Origin: third, Host: new URL(mockUrl).host } },
				(answer) => {
					answer.resume();
					const header = answer.headers['access-control-allow-origin'];
					resolve(answer.statusCode === 200 ? (header ?? '') : `status ${answer.statusCode}`);
				},
			);
			asked.on('error', reject);
			asked.end();
		});
		// The mock answers the request itself (200), with nothing that lets the page read it.
		expect(allowOrigin).toBe('');
		await page.context().close();
	});
});

/** The screens the command for a reader's own mock is checked on. */
const SCREENS = [
	{ screen: '1280 px, light', width: 1280, colorScheme: 'light' },
	{ screen: '1280 px, dark', width: 1280, colorScheme: 'dark' },
	{ screen: '390 px', width: 390, colorScheme: 'light' },
] as const;

/** How many lines the text of an element takes on screen, and how many it has. */
function lines(element: Locator): Promise<{ shown: number; written: number }> {
	return element.evaluate((node) => {
		const range = document.createRange();
		range.selectNodeContents(node);
		const tops = new Set([...range.getClientRects()].map(({ top }) => Math.round(top)));
		return { shown: tops.size, written: (node.textContent ?? '').split('\n').length };
	});
}

describe('a team portal’s try-it', () => {
	it.each(SCREENS)(
		'shows the command for a reader’s own mock on the first line of its box at $screen',
		async ({ width, colorScheme }) => {
			if (!browser) throw new Error('Chromium is not started');
			const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
			const page = await context.newPage();
			await page.goto(`${portal}/views/production/`);
			await page.locator('try-it').scrollIntoViewIfNeeded();
			await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
			const box = page.locator('try-it .own-mock');
			await expect(box.innerText()).resolves.toBe(`MOCK_ALLOWED_ORIGINS=${portal} npm run mock`);
			const placed = await box.evaluate((element) => {
				const code = element.querySelector('code')?.getBoundingClientRect();
				const frame = element.getBoundingClientRect();
				return { top: (code?.top ?? 0) - frame.top, left: (code?.left ?? 0) - frame.left };
			});
			// Only the box's padding before the command: no blank line, no indentation.
			expect(placed.top).toBeLessThan(12);
			expect(placed.left).toBeLessThan(12);
			await expect(lines(box.locator('code'))).resolves.toEqual({ shown: 1, written: 1 });
			await context.close();
		},
	);
});

/** What a page logged as an error, and the CSP violations it reported. */
const problems = new WeakMap<Page, string[]>();

/** Opens an address in a fresh context, recording console errors and CSP violations. */
async function open(url: string, waitForTryIt = true): Promise<Page> {
	if (!browser) throw new Error('Chromium is not started');
	const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
	const page = await context.newPage();
	const seen: string[] = [];
	problems.set(page, seen);
	page.on('console', (message) => {
		if (message.type() === 'error') seen.push(message.text());
	});
	page.on('pageerror', (error) => seen.push(error.message));
	await page.goto(url);
	if (waitForTryIt) {
		await page.evaluate(() => {
			document.addEventListener('securitypolicyviolation', (event) => {
				console.error(`CSP: ${event.violatedDirective} ${event.blockedURI}`);
			});
		});
		// Try-it loads its behaviour when the reader reaches it.
		await page.locator('try-it').scrollIntoViewIfNeeded();
		await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
	}
	return page;
}

/** The page logged no error and reported no CSP violation; then it is closed. */
async function expectCleanPage(page: Page): Promise<void> {
	expect(problems.get(page)).toEqual([]);
	await page.context().close();
}
