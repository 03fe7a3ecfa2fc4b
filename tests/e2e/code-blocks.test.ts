/**
 * Code as every page shows it, in Chromium on the built portal: highlighted at build time, in
 * light and dark, under the Content-Security-Policy with no console error and no script of its
 * own; a copy button in every block's corner, the guides' Markdown blocks included; and lines that
 * scroll sideways in their box instead of wrapping, on a 390 px phone too.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { settled, usePortalInChromium } from '../support/portal-in-chromium.ts';
import { ROOT } from '../../support/processes.ts';

const guides = (await readdir(path.join(ROOT, 'content/docs')))
	.filter((file) => file.endsWith('.mdx'))
	.map((file) => `/docs/${file.replace(/\.mdx$/, '')}/`)
	.sort();

/** A guide with Markdown code blocks, a view page and the reference: each shows code. */
const PAGES = ['/docs/mock-server/', '/views/production/', '/reference/'];

const portal = usePortalInChromium();

/** How a page is opened: colour scheme, JavaScript and window width (844 px high). */
interface Profile {
	colorScheme?: 'light' | 'dark';
	javaScriptEnabled?: boolean;
	width?: number;
}

/** What the pages of each kept profile reported since its last `open`, by colour scheme and JavaScript. */
const reported = new Map<string, string[]>();

/** Records a context's console errors, page errors and CSP violations under `key` in `reported`. */
async function record(
	context: BrowserContext,
	key: string,
	javaScriptEnabled: boolean,
): Promise<void> {
	const report = (text: string): void => {
		reported.get(key)?.push(text);
	};
	if (javaScriptEnabled) {
		await context.exposeFunction('reportViolation', report);
		await context.addInitScript(() => {
			document.addEventListener('securitypolicyviolation', (event) => {
				const reportViolation = (window as unknown as { reportViolation: (text: string) => void })
					.reportViolation;
				reportViolation(`CSP: ${event.violatedDirective} blocked ${event.blockedURI}`);
			});
		});
	}
	context.on('console', (message) => {
		if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text()))
			report(`console: ${message.text()}`);
	});
	context.on('weberror', (error) => report(`page error: ${error.error().message}`));
}

/**
 * Opens a route in the file's kept page for a profile (clipboard allowed), waits for what its
 * scripts load near the window, and gives the console errors, page errors and CSP violations its
 * page reports from now on.
 */
async function open(
	route: string,
	options: Profile = {},
): Promise<{ page: Page; problems: string[] }> {
	const { colorScheme = 'light', javaScriptEnabled = true, width = 1280 } = options;
	const key = `${colorScheme} ${String(javaScriptEnabled)}`;
	const problems: string[] = [];
	reported.set(key, problems);
	const page = await portal.open(
		route,
		{
			colorScheme,
			javaScriptEnabled,
			width,
			height: 844,
			permissions: ['clipboard-read', 'clipboard-write'],
		},
		(context) => record(context, key, javaScriptEnabled),
	);
	if (javaScriptEnabled) await settled(page);
	return { page, problems };
}

/** The colour Chromium paints the first token of each kind in, by kind. */
function tokenColours(page: Page): Promise<Record<string, string>> {
	return page.evaluate(() => {
		const colours: Record<string, string> = {};
		for (const kind of ['c', 'f', 'k', 'n', 'p', 's', 'v']) {
			const token = document.querySelector(`.code pre .${kind}`);
			if (token) colours[kind] = getComputedStyle(token).color;
		}
		const plain = document.querySelector('.code pre');
		if (plain) colours['plain'] = getComputedStyle(plain).color;
		return colours;
	});
}

describe('highlighted code', () => {
	it.each(PAGES)(
		'%s: tokens of each kind in their own colour, another in dark, under the CSP',
		async (route) => {
			const light = await open(route, { colorScheme: 'light' });
			const lightColours = await tokenColours(light.page);
			const dark = await open(route, { colorScheme: 'dark' });
			const darkColours = await tokenColours(dark.page);
			// A page shows at least three kinds (a view page: JSON keys, strings, the curl command).
			const kinds = Object.keys(lightColours).filter((kind) => kind !== 'plain');
			expect(kinds.length, JSON.stringify(lightColours)).toBeGreaterThanOrEqual(3);
			expect(new Set(Object.values(lightColours)).size).toBe(kinds.length + 1);
			expect(new Set(Object.values(darkColours)).size).toBe(kinds.length + 1);
			for (const kind of kinds) expect(darkColours[kind], kind).not.toBe(lightColours[kind]);
			expect([...light.problems, ...dark.problems]).toEqual([]);
		},
	);

	it('is highlighted in the HTML the server sends: the same colours with JavaScript off', async () => {
		const html = await (await fetch(`${portal.url}/docs/mock-server/`)).text();
		expect(html).toMatch(/<pre[^>]*data-language="sh"[^>]*><code><span class="f">npm /);
		expect(html).not.toMatch(/<span[^>]* style=/);
		const route = '/views/production/';
		const without = await tokenColours((await open(route, { javaScriptEnabled: false })).page);
		expect(without).toEqual(await tokenColours((await open(route)).page));
	});

	it('loads no script for it: no script the page loads is a highlighter', async () => {
		// A context of its own, so that every script the page loads is fetched and seen.
		const context = await portal.browser.newContext({ viewport: { width: 1280, height: 844 } });
		const page = await context.newPage();
		const scripts: string[] = [];
		page.on('request', (request) => {
			if (request.resourceType() === 'script') scripts.push(request.url());
		});
		await page.goto(`${portal.url}/docs/mock-server/`, { waitUntil: 'networkidle' });
		expect(scripts.length).toBeGreaterThan(0);
		for (const script of scripts) expect(script).not.toMatch(/shiki|highlight|prism|oniguruma/i);
		await context.close();
	});
});

describe('the copy button of a code block', () => {
	it.each(guides)('%s: every code block has one, in its top right corner', async (route) => {
		const { page, problems } = await open(route);
		// A sample in a tab not chosen is hidden, and its copy button with it.
		const blocks = await page.locator('main pre').evaluateAll((pres) =>
			pres
				.filter((pre) => pre.checkVisibility())
				.map((pre) => {
					const box = pre.closest('.code');
					const button = box?.querySelector('copy-button button');
					if (!box || !button) return { framed: false, visible: false, corner: false };
					const frame = box.getBoundingClientRect();
					const corner = button.getBoundingClientRect();
					return {
						framed: true,
						visible: button.checkVisibility(),
						corner: frame.right - corner.right < 16 && corner.top - frame.top < 16,
					};
				}),
		);
		for (const block of blocks)
			expect(block).toEqual({ framed: true, visible: true, corner: true });
		expect(problems).toEqual([]);
	});

	it("copies a guide's Markdown code block, exactly as shown", async () => {
		const { page, problems } = await open('/docs/mock-server/');
		const block = page.locator('.code').filter({ has: page.locator('pre[data-language="sh"]') });
		await block.first().getByRole('button', { name: 'Copy the command' }).click();
		await block.first().getByText('Copied').waitFor();
		const copied = await page.evaluate(() => navigator.clipboard.readText());
		expect(copied).toBe('npm run mock');
		expect(problems).toEqual([]);
	});
});

describe('long lines on a phone', () => {
	it.each(PAGES)(
		'%s at 390 px: code lines scroll in their box, with a shadow at the edge, and the page does not',
		async (route) => {
			const { page } = await open(route, { width: 390 });
			const pres = await page.locator('main .code pre').evaluateAll((elements) =>
				elements
					.filter((pre) => pre.checkVisibility())
					.map((pre) => ({
						whiteSpace: getComputedStyle(pre).whiteSpace,
						scrolls: pre.scrollWidth > pre.clientWidth,
						overflowX: getComputedStyle(pre).overflowX,
						shadows: (getComputedStyle(pre).backgroundImage.match(/gradient/g) ?? []).length,
					})),
			);
			expect(pres.length).toBeGreaterThan(0);
			for (const pre of pres) {
				expect(pre.whiteSpace).toBe('pre');
				expect(pre.overflowX).toBe('auto');
				expect(pre.shadows).toBe(4);
			}
			expect(pres.some((pre) => pre.scrolls)).toBe(true);
			await expect(
				page.evaluate(() => document.documentElement.scrollWidth),
			).resolves.toBeLessThanOrEqual(390);
		},
	);
});
