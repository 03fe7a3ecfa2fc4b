/**
 * The header's theme switch in Chromium on built pages: it changes the page's colours under the
 * Content-Security-Policy with no console error, the choice survives a reload and the next page,
 * and a kept choice is on <html> before the page is painted, so no page flashes the other theme.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { settled, usePortalInChromium } from '../support/portal-in-chromium.ts';

/** The page background of each theme, as Chromium computes `--bg`. */
const LIGHT_BG = 'rgb(255, 255, 255)';
const DARK_BG = 'rgb(15, 18, 22)';
const VIEW = '/views/production/';

const portal = usePortalInChromium();

/** A browser profile with `colorScheme` as its system theme, recording its pages' problems. */
async function profile(
	colorScheme: 'light' | 'dark',
): Promise<{ context: BrowserContext; problems: string[] }> {
	const context = await portal.browser.newContext({ colorScheme });
	const problems: string[] = [];
	await context.exposeFunction('reportViolation', (text: string) => problems.push(`CSP: ${text}`));
	await context.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (event) => {
			const report = (window as unknown as { reportViolation: (text: string) => void })
				.reportViolation;
			report(`${event.violatedDirective} blocked ${event.blockedURI}`);
		});
	});
	context.on('console', (message) => {
		if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text()))
			problems.push(`console: ${message.text()}`);
	});
	context.on('weberror', (error) => problems.push(`page error: ${error.error().message}`));
	return { context, problems };
}

/** Opens a route in a new tab of the profile. */
async function open(context: BrowserContext, route: string): Promise<Page> {
	const page = await context.newPage();
	await page.goto(`${portal.url}${route}`);
	await settled(page);
	return page;
}

/** What the page shows: its data-theme, the switch's value and the body's background. */
async function shown(page: Page): Promise<{ theme: string | null; choice: string; bg: string }> {
	return {
		theme: await page.locator('html').getAttribute('data-theme'),
		choice: await page.getByRole('combobox', { name: 'Theme' }).inputValue(),
		bg: await page.evaluate(() => getComputedStyle(document.body).backgroundColor),
	};
}

describe('the theme switch', () => {
	it('turns a light system page dark and back, under the CSP with no console error', async () => {
		const { context, problems } = await profile('light');
		const page = await open(context, VIEW);
		const theme = page.getByRole('combobox', { name: 'Theme' });
		expect(await shown(page)).toEqual({ theme: null, choice: 'system', bg: LIGHT_BG });
		expect(await theme.locator('option').allInnerTexts()).toEqual(['System', 'Light', 'Dark']);

		await theme.selectOption('dark');
		expect(await shown(page)).toEqual({ theme: 'dark', choice: 'dark', bg: DARK_BG });
		await theme.selectOption('system');
		expect(await shown(page)).toEqual({ theme: null, choice: 'system', bg: LIGHT_BG });

		expect(problems).toEqual([]);
		await context.close();
	});

	it('can be worked from the keyboard alone', async () => {
		const { context, problems } = await profile('light');
		const page = await open(context, '/');
		const theme = page.getByRole('combobox', { name: 'Theme' });
		await theme.focus();
		await page.keyboard.press('End');
		expect(await shown(page)).toEqual({ theme: 'dark', choice: 'dark', bg: DARK_BG });
		expect(problems).toEqual([]);
		await context.close();
	});

	it('keeps a light choice on a dark system across a reload and onto the next page', async () => {
		const { context, problems } = await profile('dark');
		const page = await open(context, VIEW);
		expect(await shown(page)).toEqual({ theme: null, choice: 'system', bg: DARK_BG });

		await page.getByRole('combobox', { name: 'Theme' }).selectOption('light');
		await page.reload();
		await settled(page);
		expect(await shown(page)).toEqual({ theme: 'light', choice: 'light', bg: LIGHT_BG });
		await page.goto(`${portal.url}/`);
		await settled(page);
		expect(await shown(page)).toEqual({ theme: 'light', choice: 'light', bg: LIGHT_BG });

		await page.getByRole('combobox', { name: 'Theme' }).selectOption('system');
		await page.reload();
		await settled(page);
		expect(await shown(page)).toEqual({ theme: null, choice: 'system', bg: DARK_BG });
		expect(problems).toEqual([]);
		await context.close();
	});

	it('puts a kept choice on <html> before the header is parsed, before any module runs', async () => {
		const { context, problems } = await profile('light');
		await (await open(context, VIEW)).getByRole('combobox', { name: 'Theme' }).selectOption('dark');

		// What <html> says when the parser adds the site header, i.e. before anything is painted.
		await context.addInitScript(() => {
			const seen: { theme: string | undefined; switchDefined: boolean }[] = [];
			(window as unknown as { themeAtHeader: typeof seen }).themeAtHeader = seen;
			new MutationObserver((records, observer) => {
				const added = records.flatMap((record) => [...record.addedNodes]);
				if (!added.some((node) => node instanceof Element && node.matches('.site-header'))) return;
				seen.push({
					theme: document.documentElement.dataset['theme'],
					switchDefined: customElements.get('theme-select') !== undefined,
				});
				observer.disconnect();
			}).observe(document, { childList: true, subtree: true });
		});
		const page = await open(context, VIEW);
		const seen = await page.evaluate(
			() => (window as unknown as { themeAtHeader: unknown }).themeAtHeader,
		);
		expect(seen).toEqual([{ theme: 'dark', switchDefined: false }]);
		expect(await shown(page)).toEqual({ theme: 'dark', choice: 'dark', bg: DARK_BG });
		expect(problems).toEqual([]);
		await context.close();
	});
});
