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

/** A browser profile in a colour scheme, recording console errors and CSP violations. */
async function profile(
	options: { colorScheme?: 'light' | 'dark'; javaScriptEnabled?: boolean; width?: number } = {},
): Promise<{ context: BrowserContext; problems: string[] }> {
	const { colorScheme = 'light', javaScriptEnabled = true, width = 1280 } = options;
	const context = await portal.browser.newContext({
		colorScheme,
		javaScriptEnabled,
		viewport: { width, height: 844 },
		permissions: ['clipboard-read', 'clipboard-write'],
	});
	const problems: string[] = [];
	if (javaScriptEnabled) {
		await context.exposeFunction('reportViolation', (text: string) => problems.push(text));
		await context.addInitScript(() => {
			document.addEventListener('securitypolicyviolation', (event) => {
				const report = (window as unknown as { reportViolation: (text: string) => void })
					.reportViolation;
				report(`CSP: ${event.violatedDirective} blocked ${event.blockedURI}`);
			});
		});
	}
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
			const light = await profile({ colorScheme: 'light' });
			const dark = await profile({ colorScheme: 'dark' });
			const lightColours = await tokenColours(await open(light.context, route));
			const darkColours = await tokenColours(await open(dark.context, route));
			// A page shows at least three kinds (a view page: JSON keys, strings, the curl command).
			const kinds = Object.keys(lightColours).filter((kind) => kind !== 'plain');
			expect(kinds.length, JSON.stringify(lightColours)).toBeGreaterThanOrEqual(3);
			expect(new Set(Object.values(lightColours)).size).toBe(kinds.length + 1);
			expect(new Set(Object.values(darkColours)).size).toBe(kinds.length + 1);
			for (const kind of kinds) expect(darkColours[kind], kind).not.toBe(lightColours[kind]);
			expect([...light.problems, ...dark.problems]).toEqual([]);
			await light.context.close();
			await dark.context.close();
		},
	);

	it('is highlighted in the HTML the server sends: the same colours with JavaScript off', async () => {
		const html = await (await fetch(`${portal.url}/docs/mock-server/`)).text();
		expect(html).toMatch(/<pre[^>]*data-language="sh"[^>]*><code><span class="f">npm /);
		expect(html).not.toMatch(/<span[^>]* style=/);
		const withScripts = await profile();
		const without = await profile({ javaScriptEnabled: false });
		const route = '/views/production/';
		expect(await tokenColours(await open(without.context, route))).toEqual(
			await tokenColours(await open(withScripts.context, route)),
		);
		await withScripts.context.close();
		await without.context.close();
	});

	it('loads no script for it: no script the page loads is a highlighter', async () => {
		const { context } = await profile();
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
		const { context, problems } = await profile();
		const page = await open(context, route);
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
		await context.close();
	});

	it("copies a guide's Markdown code block, exactly as shown", async () => {
		const { context, problems } = await profile();
		const page = await open(context, '/docs/mock-server/');
		const block = page.locator('.code').filter({ has: page.locator('pre[data-language="sh"]') });
		await block.first().getByRole('button', { name: 'Copy the command' }).click();
		await block.first().getByText('Copied').waitFor();
		const copied = await page.evaluate(() => navigator.clipboard.readText());
		expect(copied).toBe('npm run mock');
		expect(problems).toEqual([]);
		await context.close();
	});
});

describe('long lines on a phone', () => {
	it.each(PAGES)(
		'%s at 390 px: code lines scroll in their box, with a shadow at the edge, and the page does not',
		async (route) => {
			const { context } = await profile({ width: 390 });
			const page = await open(context, route);
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
			await context.close();
		},
	);
});
