/**
 * Try-it asking for anything the mock answers, in Chromium on the built portal: a request built
 * with an added header and a mock control, the curl command it shows run as shown, the answer's
 * body coloured as the page's code is, the validating proxy's findings shown apart from the
 * panel's own check, and on /reference/ nothing of try-it fetched before the reader reaches it.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { usePortalInChromium } from '../support/portal-in-chromium.ts';
import { loadViews } from '../../src/sources/fixtures.ts';
import { bin, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';
import { holdMockPort } from '../support/mock-port-lock.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));
const entry = views.find(({ slug }) => slug === 'production') ?? views[0];
if (!entry) throw new Error('Expected a view fixture');
const MOCK_PORT = inject('mockPort');
const MOCK_URL = `http://127.0.0.1:${MOCK_PORT}`;

const portal = usePortalInChromium();
let mock: Started | undefined;
let letGoOfPort: (() => Promise<void>) | undefined;

beforeAll(async () => {
	letGoOfPort = await holdMockPort(MOCK_PORT);
	mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(MOCK_PORT) } });
	await waitForUrl(`${MOCK_URL}/api/v2/users`, mock);
});

afterAll(async () => {
	await mock?.stop();
	await letGoOfPort?.();
});

/** Opens a page and waits until its try-it panel is wired. */
async function openPanel(route: string, width = 1280): Promise<{ page: Page; errors: string[] }> {
	const context = await portal.browser.newContext({ viewport: { width, height: 800 } });
	const page = await context.newPage();
	const errors: string[] = [];
	page.on('pageerror', (error) => errors.push(error.message));
	await page.goto(`${portal.url}${route}`);
	await page.locator('try-it').scrollIntoViewIfNeeded();
	await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
	return { page, errors };
}

/** Presses Send and waits until the panel says how it went. */
async function send(page: Page): Promise<string> {
	await page.evaluate(() => {
		const previous = document.querySelector('try-it [data-summary]');
		if (previous) previous.textContent = '';
	});
	await page.getByRole('button', { name: 'Send', exact: true }).click();
	await page.waitForFunction(() => {
		const text = document.querySelector('try-it [data-summary]')?.textContent ?? '';
		return text !== '' && text !== 'Sending…';
	});
	return page.locator('try-it [data-summary]').innerText();
}

describe('try-it builds any request the mock answers', () => {
	it("sends an added header and Prefer: code=401, shows the mock's 401 with its challenge, and its curl gets the same", async () => {
		const { page, errors } = await openPanel(`/views/${entry.slug}/`);
		await page.getByText('Headers, query and mock controls').click();
		await page.getByRole('button', { name: 'Add a header' }).click();
		await page.getByLabel('Header name').fill('Accept');
		await page.getByLabel('Header value').fill('application/problem+json');
		await page.getByLabel('Status', { exact: true }).selectOption('401');
		const preview = await page.locator('#try-it-preview').innerText();
		expect(preview).toContain('-H "Accept: application/problem+json"');
		expect(preview).toContain('-H "Prefer: code=401"');
		expect(await send(page)).toMatch(/^401 Unauthorized in \d/);
		const headers = await page.locator('try-it [data-headers]').innerText();
		expect(headers).toMatch(/^www-authenticate: Bearer /m);
		const curl = await page.locator('#try-it-curl').innerText();
		expect(curl).toBe(preview);
		// The command as shown, pasted into a POSIX shell; -w after it only reports the status.
		const run = spawnSync('sh', ['-c', `${curl} -s -o /dev/null -w '%{http_code}'`], {
			encoding: 'utf8',
			timeout: 15_000,
		});
		expect(run.stderr).toBe('');
		expect(run.stdout).toBe('401');
		// And exactly as shown: the body is the mock's 401 problem.
		const shown = spawnSync('sh', ['-c', curl], { encoding: 'utf8', timeout: 15_000 });
		expect(JSON.parse(shown.stdout)).toMatchObject({ status: 401 });
		expect(errors).toEqual([]);
		await page.context().close();
	});

	it("colours the answer's JSON body with the page's code classes, and folds it as before", async () => {
		const { page } = await openPanel(`/views/${entry.slug}/`);
		expect(await send(page)).toMatch(/^200 OK/);
		const body = page.locator('try-it [data-body]');
		expect(JSON.parse((await body.textContent()) ?? '')).toHaveProperty('users');
		expect(await body.locator('span.p').count()).toBeGreaterThan(8);
		expect(await body.locator('span.s').count()).toBeGreaterThan(8);
		const colours = await body.evaluate((pre) => ({
			plain: getComputedStyle(pre).color,
			key: getComputedStyle(pre.querySelector('.p') ?? pre).color,
			text: getComputedStyle(pre.querySelector('.s') ?? pre).color,
		}));
		expect(new Set(Object.values(colours)).size).toBe(3);
		await page.getByText('Response body', { exact: true }).click();
		expect(await body.isVisible()).toBe(false);
		await page.context().close();
	});

	it("shows the validating proxy's findings apart from the panel's own check", async () => {
		const { page } = await openPanel(`/views/${entry.slug}/`);
		const findings = [
			{
				location: ['response', 'headers'],
				severity: 'Error',
				message: 'WWW-Authenticate: is required but missing',
			},
		];
		// A stand-in for the mock as a proxy in front of a drifting console: a 401 without its challenge.
		await page.route(`${MOCK_URL}/api/v2/users`, (route) =>
			route.fulfill({
				status: 401,
				contentType: 'application/problem+json',
				headers: {
					'Access-Control-Allow-Origin': portal.url,
					'Access-Control-Expose-Headers': 'Content-Type, sl-violations',
					'sl-violations': JSON.stringify(findings),
				},
				body: JSON.stringify({ type: 'about:blank', title: 'Unauthorized', status: 401 }),
			}),
		);
		await page.getByLabel('Key', { exact: true }).selectOption({ label: 'Another key…' });
		expect(await send(page)).toMatch(/^401 Unauthorized/);
		const proxy = page.locator('try-it [data-proxy]');
		expect(await proxy.isVisible()).toBe(true);
		expect(await page.locator('try-it [data-proxy-verdict]').innerText()).toBe(
			"The console's answer broke the contract (reported by the proxy, 1 problem):",
		);
		expect(await page.locator('try-it [data-proxy-findings] li').allInnerTexts()).toEqual([
			'WWW-Authenticate: is required but missing',
		]);
		await page.unroute(`${MOCK_URL}/api/v2/users`);
		expect(await send(page)).toMatch(/^401 Unauthorized/);
		expect(await proxy.isVisible()).toBe(false);
		await page.context().close();
	});

	it('a control the reader mistyped is named and nothing is sent', async () => {
		const { page } = await openPanel(`/views/${entry.slug}/`);
		await page.getByText('Headers, query and mock controls').click();
		await page.getByLabel('Delay (ms)').fill('500-100');
		expect(await send(page)).toBe(
			'Nothing was sent: Delay “500-100” is not milliseconds from 0 to 30000, or a range such as 100-500.',
		);
		await page.context().close();
	});

	it('on a 390 px phone the options fit the screen', async () => {
		const { page } = await openPanel(`/views/${entry.slug}/`, 390);
		await page.getByText('Headers, query and mock controls').click();
		await page.getByRole('button', { name: 'Add a header' }).click();
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
			390,
		);
		await page.context().close();
	});
});

describe('try-it on /reference/ loads when the reader reaches it', () => {
	it('fetches nothing for try-it before the panel is reached, then its views and keys', async () => {
		const context = await portal.browser.newContext({ viewport: { width: 1280, height: 800 } });
		const page = await context.newPage();
		const fetched: string[] = [];
		page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
		await page.goto(`${portal.url}/reference/`, { waitUntil: 'networkidle' });
		const forTryIt = (paths: string[]) =>
			paths.filter((pathname) =>
				/^\/(?:compare\/environments\/|views\/)|\/_astro\/(?:panel|request-options|view-picker|send)\./.test(
					pathname,
				),
			);
		expect(forTryIt(fetched)).toEqual([]);
		expect(await page.locator('try-it[data-ready]').count()).toBe(0);
		await page.locator('try-it').scrollIntoViewIfNeeded();
		await page.locator('try-it[data-ready]').waitFor();
		await expect
			.poll(() => page.getByLabel('Key', { exact: true }).locator('option').count())
			.toBeGreaterThan(1);
		expect(forTryIt(fetched)).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^\/compare\/environments\/[^/]+\.json$/),
				expect.stringMatching(/^\/views\/[^/]+\/$/),
			]),
		);
		await context.close();
	});
});
