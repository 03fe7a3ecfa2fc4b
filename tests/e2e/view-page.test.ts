import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { settled, usePortalInChromium } from '../support/portal-in-chromium.ts';
import { loadViews } from '../../src/sources/fixtures.ts';
import { ROOT } from '../../support/processes.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));
const entry = views.find(({ slug }) => slug === 'production') ?? views[0];
if (!entry) throw new Error('No view fixtures to test');
const { slug, view } = entry;

const portal = usePortalInChromium();

/**
 * Opens a page and records console errors and failed or 4xx/5xx requests; `beforeLoad` runs in
 * the page before the page's own scripts.
 */
async function open(
	route: string,
	options: BrowserContextOptions = {},
	beforeLoad?: () => void,
): Promise<{ page: Page; problems: string[] }> {
	const context = await portal.browser.newContext(options);
	if (beforeLoad) await context.addInitScript(beforeLoad);
	const page = await context.newPage();
	const problems: string[] = [];
	page.on('console', (message) => {
		if (message.type() === 'error') problems.push(`console: ${message.text()}`);
	});
	page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
	page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
	page.on('response', (response) => {
		if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
	});
	await page.goto(`${portal.url}${route}`);
	await settled(page);
	return { page, problems };
}

describe(`a reader on /views/${slug}/`, () => {
	it('sees the labels, the four blocks and the footer, with no console errors or 404s', async () => {
		const { page, problems } = await open(`/views/${slug}/`);
		await expect(page.title()).resolves.toContain(view.environment);
		expect(await page.locator('h1').innerText()).toContain(view.environment);
		const blocks = ['Status note', 'Configuration', 'User directory', 'Example request'];
		const headings = await page.getByRole('heading', { level: 2 }).allInnerTexts();
		expect(headings.filter((heading) => blocks.includes(heading))).toEqual(blocks);
		const table = page.getByRole('table');
		expect(await table.getByRole('columnheader').allInnerTexts()).toEqual([
			'Name',
			'Email',
			'Role',
			'API key',
		]);
		expect(await table.locator('tbody tr').count()).toBe(8);
		for (const user of view.users) {
			const row = table.getByRole('row', { name: new RegExp(user.name) });
			expect(await row.innerText()).toContain(user.apiKey);
		}
		expect(await page.locator('#config-json').innerText()).toContain(view.config.database_url);
		expect(await page.getByRole('contentinfo').innerText()).toContain('Internal use only');
		expect(await page.getByRole('main').count()).toBe(1);
		expect(problems).toEqual([]);
		await page.context().close();
	});

	it('copies the curl command with the Copy button and hears "Copied"', async () => {
		const { page, problems } = await open(`/views/${slug}/`, {
			permissions: ['clipboard-read', 'clipboard-write'],
		});
		const button = page.getByRole('button', { name: 'Copy the curl command' });
		await expect(button.isVisible()).resolves.toBe(true);
		await button.click();
		await page.getByText('Copied').first().waitFor();
		const copied = await page.evaluate(() => navigator.clipboard.readText());
		expect(copied).toBe(await page.locator('#curl-command').innerText());
		expect(copied).toMatch(
			/^curl \\\n {2}-H "Authorization: Bearer ick-[0-9a-f]{8}-\w{4}" \\\n {2}http:\/\/.*\/api\/v2\/users$/,
		);
		expect(problems).toEqual([]);
		await page.context().close();
	});

	it("copies a user's key from the directory", async () => {
		const { page } = await open(`/views/${slug}/`, {
			permissions: ['clipboard-read', 'clipboard-write'],
		});
		const user = view.users[2];
		if (!user) throw new Error('fixture without a third user');
		await page.getByRole('button', { name: `Copy ${user.name}'s key` }).click();
		await page.getByText('Copied').first().waitFor();
		expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(user.apiKey);
		await page.context().close();
	});

	it('without a clipboard (plain http, old browsers), Copy selects the curl command and says to press Ctrl+C', async () => {
		const { page, problems } = await open(
			`/views/${slug}/`,
			{ permissions: ['clipboard-read', 'clipboard-write'] },
			() => {
				// What plain http away from localhost gives a page: no navigator.clipboard. The real
				// one is kept out of the page's sight, for the test to read what Ctrl+C put there.
				Object.defineProperty(window, 'testClipboard', { value: navigator.clipboard });
				Object.defineProperty(navigator, 'clipboard', { value: undefined });
			},
		);
		expect(await page.evaluate(() => navigator.clipboard === undefined)).toBe(true);
		const curl = await page.locator('#curl-command').innerText();
		await page.getByRole('button', { name: 'Copy the curl command' }).click();
		const status = page.locator('copy-button[data-target="curl-command"] [role="status"]');
		await status.getByText('Select the text and press Ctrl+C to copy').waitFor();
		expect(await page.evaluate(() => String(window.getSelection()))).toBe(curl);
		expect(await page.getByText('Copied', { exact: true }).count()).toBe(0);
		await page.keyboard.press('Control+C');
		const copied = await page.evaluate(() =>
			(Reflect.get(window, 'testClipboard') as Clipboard).readText(),
		);
		expect(copied).toBe(curl);
		expect(problems).toEqual([]);
		await page.context().close();
	});

	it('without a clipboard on a Mac, Copy tells the reader to press ⌘C', async () => {
		const { page, problems } = await open(
			`/views/${slug}/`,
			{
				userAgent:
					'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
			},
			() => Object.defineProperty(navigator, 'clipboard', { value: undefined }),
		);
		await page.getByRole('button', { name: 'Copy the curl command' }).click();
		const status = page.locator('copy-button[data-target="curl-command"] [role="status"]');
		await status.getByText('Select the text and press ⌘C to copy').waitFor({ timeout: 5000 });
		expect(await page.evaluate(() => String(window.getSelection()))).toBe(
			await page.locator('#curl-command').innerText(),
		);
		expect(problems).toEqual([]);
		await page.context().close();
	});

	it('reads the whole page without JavaScript, with no dead copy buttons', async () => {
		const { page, problems } = await open(`/views/${slug}/`, { javaScriptEnabled: false });
		expect(await page.locator('table tbody tr').count()).toBe(8);
		expect(await page.locator('#curl-command').innerText()).toContain(
			`${view.baseUrl}/api/v2/users`,
		);
		expect(await page.locator('.status-note').innerText()).toContain(view.statusNote);
		expect(await page.getByRole('button', { name: /^Copy/ }).count()).toBe(0);
		expect(problems).toEqual([]);
		await page.context().close();
	});

	it('fits a phone screen without sideways scrolling of the page', async () => {
		const { page } = await open(`/views/${slug}/`, { viewport: { width: 360, height: 740 } });
		const overflow = await page.evaluate(
			() => document.documentElement.scrollWidth - document.documentElement.clientWidth,
		);
		expect(overflow).toBeLessThanOrEqual(0);
		await page.context().close();
	});
});

describe('a reader on the overview', () => {
	it('follows a link to every view page', async () => {
		const { page, problems } = await open('/');
		for (const { slug: other } of views) {
			expect(await page.locator(`a[href="/views/${other}/"]`).count(), other).toBeGreaterThan(0);
		}
		await page.locator(`a[href="/views/${slug}/"]`).first().click();
		await page.waitForURL(`**/views/${slug}/`);
		expect(await page.locator('h1').innerText()).toContain(view.environment);
		expect(problems).toEqual([]);
		await page.context().close();
	});
});
