/**
 * Try-it sending QUERY in Chromium, on a portal built with the 3.2 copy of the contract
 * (tests/fixtures/openapi-3-2), whose QUERY /api/v2/users the mock answers itself: the reader
 * picks QUERY, types a filter, and the panel shows the mock's answer with the users it matches,
 * the curl command that sends the same, and the answer checked against QUERY's answers in the
 * contract (a stream of JSON lines, asked for with Accept, line by line).
 */
import { copyFile, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortalAsync } from '../../support/build.ts';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';
import { usePortalInChromium } from '../support/portal-in-chromium.ts';

const CONTRACT = path.join(ROOT, 'tests', 'fixtures', 'openapi-3-2', 'openapi.yaml');

let folder: string;
let distDir: string;
let mock: Started | undefined;
let users: { name: string; email: string; role: string }[];

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-try-it-query-'));
	const viewsDir = path.join(folder, 'views');
	await mkdir(viewsDir);
	await copyFile(
		path.join(ROOT, 'content', 'views', 'production.json'),
		path.join(viewsDir, 'production.json'),
	);
	const text = await readFile(path.join(viewsDir, 'production.json'), 'utf8');
	users = (JSON.parse(text) as { users: typeof users }).users;
	const mockPort = await freePort();
	distDir = path.join(folder, 'dist');
	// The mock reads the same views and contract as the build: it starts while the build runs.
	const building = buildPortalAsync(
		distDir,
		viewsDir,
		{ PORTAL_OPENAPI: CONTRACT, MOCK_PORT: String(mockPort) },
		600_000,
	);
	mock = start(bin('node'), ['mock/cli.ts'], {
		env: {
			MOCK_PORT: String(mockPort),
			MOCK_WORKERS: '1',
			PORTAL_OPENAPI: CONTRACT,
			PORTAL_VIEWS_DIR: viewsDir,
		},
	});
	const [built, ready] = await Promise.allSettled([
		building,
		waitForUrl(`http://127.0.0.1:${mockPort}/api/v2/users`, mock),
	]);
	if (built.status === 'rejected') throw built.reason;
	if (built.value.status !== 0) throw new Error(built.value.output);
	if (ready.status === 'rejected') throw ready.reason;
}, 650_000);

const portal = usePortalInChromium({ distDir: () => distDir });

afterAll(async () => {
	await mock?.stop();
	await rm(folder, { recursive: true, force: true });
});

// Each test reads the page in a context of its own: the two run side by side.
describe.concurrent('try-it on a contract with QUERY /api/v2/users', () => {
	it('sends QUERY with the typed filter and shows the users the mock matched, and its curl', async () => {
		const context = await portal.browser.newContext({ viewport: { width: 1280, height: 900 } });
		try {
			const page = await context.newPage();
			const errors: string[] = [];
			page.on('pageerror', (error) => errors.push(error.message));
			await page.goto(`${portal.url}/views/production/`);
			await page.locator('try-it').scrollIntoViewIfNeeded();
			await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
			await page.locator('try-it [data-options] > summary').click();
			await page.getByLabel('Method', { exact: true }).selectOption('QUERY');
			const body = page.getByLabel('Body (JSON, sent with QUERY)');
			expect(await body.inputValue()).toBe('{"role":"admin"}');
			await body.fill('{"role":"operator"}');
			const preview = await page.locator('#try-it-preview').innerText();
			expect(preview).toContain('curl -X QUERY');
			expect(preview).toContain(`--data-raw '{"role":"operator"}'`);
			const sent = page.waitForRequest((request) => request.method() === 'QUERY');
			await page.getByRole('button', { name: 'Send', exact: true }).click();
			expect((await sent).postData()).toBe('{"role":"operator"}');
			await page.waitForFunction(() => {
				const text = document.querySelector('try-it [data-summary]')?.textContent ?? '';
				return text !== '' && text !== 'Sending…';
			});
			expect(await page.locator('try-it [data-summary]').innerText()).toMatch(/^200 OK/);
			const shown = await page.locator('try-it [data-body]').innerText();
			const operators = users.filter(({ role }) => role === 'operator');
			expect(operators.length).toBeGreaterThan(0);
			for (const { email } of operators) expect(shown).toContain(email);
			for (const { email } of users.filter(({ role }) => role !== 'operator')) {
				expect(shown).not.toContain(email);
			}
			// Checked against QUERY's answers, as a GET's answer is against GET's.
			expect(await page.locator('try-it [data-verdict]').innerText()).toBe(
				"The body matches the contract's 200 application/json schema.",
			);
			expect(await page.locator('try-it [data-check]').getAttribute('class')).toBe('matches');
			expect(errors).toEqual([]);
		} finally {
			await context.close();
		}
	});

	it('asks for a QUERY answer of JSON lines, checks it line by line, and names the line that breaks the contract', async () => {
		const context = await portal.browser.newContext({ viewport: { width: 1280, height: 900 } });
		try {
			const page = await context.newPage();
			const errors: string[] = [];
			page.on('pageerror', (error) => errors.push(error.message));
			await page.goto(`${portal.url}/views/production/`);
			await page.locator('try-it').scrollIntoViewIfNeeded();
			await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
			await page.locator('try-it [data-options] > summary').click();
			await page.getByLabel('Method', { exact: true }).selectOption('QUERY');
			// QUERY's 200 comes as JSON or as JSON lines: the reader asks for the stream.
			await page
				.getByLabel('Answer as (Accept, sent with QUERY)')
				.selectOption('application/jsonl');
			expect(await page.locator('#try-it-preview').innerText()).toContain(
				'-H "Accept: application/jsonl"',
			);
			const admins = users.filter(({ role }) => role === 'admin').length;
			const send = async (): Promise<void> => {
				await page.locator('try-it [data-summary]').evaluate((element) => {
					element.textContent = '';
				});
				await page.getByRole('button', { name: 'Send', exact: true }).click();
				await page.waitForFunction(() => {
					const text = document.querySelector('try-it [data-summary]')?.textContent ?? '';
					return text !== '' && text !== 'Sending…';
				});
			};
			await send();
			expect(await page.locator('try-it [data-summary]').innerText()).toMatch(/^200 OK/);
			expect(await page.locator('try-it [data-verdict]').innerText()).toBe(
				`The body matches the contract's 200 application/jsonl item schema, line by line (${admins} lines).`,
			);
			// A console whose stream breaks the contract on its second line: the mock's answer, altered.
			await page.route('**/api/v2/users', async (route) => {
				if (route.request().method() !== 'QUERY') return route.fallback();
				const response = await route.fetch();
				const lines = (await response.text()).split('\n');
				lines[1] = lines[1]!.replace(/"role":"admin"/, '"role":"boss"');
				return route.fulfill({ response, body: lines.join('\n') });
			});
			await send();
			expect(await page.locator('try-it [data-verdict]').innerText()).toBe(
				"The body breaks the contract's 200 application/jsonl item schema (1 problem):",
			);
			expect(await page.locator('try-it [data-violations] li').allInnerTexts()).toEqual([
				'line 2: /role: must be one of admin, deployer, operator, viewer',
			]);
			expect(await page.locator('try-it [data-check]').getAttribute('class')).toBe('breaks');
			expect(errors).toEqual([]);
		} finally {
			await context.close();
		}
	});
});
