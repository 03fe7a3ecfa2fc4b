/**
 * Every kind of page on a 390 px phone and on paper, in a real Chromium on the built portal: no
 * page scrolls sideways, no table breaks a word in two, and print keeps the content but not the
 * controls.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openAtWidth, usePortalInChromium } from '../support/portal-in-chromium.ts';
import { ROOT } from '../../support/processes.ts';

const guides = (await readdir(path.join(ROOT, 'content/docs')))
	.filter((file) => file.endsWith('.mdx'))
	.map((file) => `/docs/${file.replace(/\.mdx$/, '')}/`)
	.sort();

/** One page of each kind, and each guide. */
const PAGES = [
	'/',
	'/environments/production/',
	'/views/production/',
	'/reference/',
	'/reference/changes/',
	'/compare/',
	'/docs/',
	'/access/changes/',
	'/views/production/history/',
	'/access/since/',
	...guides,
	'/no-such-page/',
];

const portal = usePortalInChromium();

/**
 * Every place a table cell's text goes on to a new line between two letters or digits, as
 * `cell text: "x|y"`. Breaks at spaces and after punctuation (a key's hyphens) are fine, and so
 * is the start of a block of its own inside the cell (the overview's link, API label, update).
 */
function midWordBreaks(): string[] {
	const found: string[] = [];
	const wordCharacter = /[\p{L}\p{N}]/u;
	const range = document.createRange();
	/** The box a text runs in: its nearest element inside the cell that is not inline, or the cell. */
	const blockOf = (node: Node, cell: Element): Element => {
		let element = node.parentElement ?? cell;
		while (element !== cell && getComputedStyle(element).display === 'inline')
			element = element.parentElement ?? cell;
		return element;
	};
	for (const cell of document.querySelectorAll('th, td')) {
		// Cells clipped away for screen readers only (the directory's header row on a phone).
		let hidden = false;
		for (let node: Element | null = cell; node; node = node.parentElement)
			if (getComputedStyle(node).clipPath !== 'none') hidden = true;
		if (hidden || !cell.checkVisibility()) continue;
		let previous: { character: string; bottom: number } | undefined;
		let block: Element | undefined;
		const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
		for (let node = walker.nextNode(); node; node = walker.nextNode()) {
			if (blockOf(node, cell) !== block) previous = undefined;
			block = blockOf(node, cell);
			const text = node.textContent ?? '';
			for (let index = 0; index < text.length; index += 1) {
				const character = text.charAt(index);
				if (!wordCharacter.test(character)) {
					previous = undefined;
					continue;
				}
				range.setStart(node, index);
				range.setEnd(node, index + 1);
				const box = range.getClientRects()[0];
				if (!box || box.height === 0) continue;
				if (previous && box.top >= previous.bottom - 1) {
					const words = (cell.textContent ?? '').trim().replace(/\s+/g, ' ');
					found.push(`${words.slice(0, 60)}: "${previous.character}|${character}"`);
				}
				previous = { character, bottom: box.bottom };
			}
		}
	}
	return found;
}

describe.each(PAGES)('%s on a 390 px phone', (route) => {
	it('is no wider than the screen, and no table cell breaks a word in two', async () => {
		const page = await openAtWidth(portal, route, 390);
		const width = await page.evaluate(() => document.documentElement.scrollWidth);
		const breaks = await page.evaluate(midWordBreaks);
		expect(width).toBeLessThanOrEqual(390);
		expect(breaks).toEqual([]);
	});
});

describe('the compare page without JavaScript', () => {
	it.each([390, 1280])(
		'at %i px, fits each side frame to its width, no table cell breaking a word in two',
		async (width) => {
			const page = await portal.open('/compare/side/', {
				width,
				height: 844,
				javaScriptEnabled: false,
			});
			// Every view as a side shows it, found as a reader finds it: the environments, then their views.
			const links = () =>
				page
					.locator('.side-list a')
					.evaluateAll((anchors) => anchors.map((anchor) => anchor.getAttribute('href') ?? ''));
			const hrefs = (route: string) => page.goto(`${portal.url}${route}`).then(links);
			const cards: string[] = [];
			for (const environment of await links()) {
				const listed = await hrefs(environment);
				cards.push(...listed.map((hash) => `${environment}${hash}`));
			}
			// The load event waits for the two side frames the HTML holds.
			await page.goto(`${portal.url}/compare/`);
			const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
			const sides = page.frames().filter((frame) => frame !== page.mainFrame());
			// The two sides go through the cards side by side, each in its own frame.
			const perSide = await Promise.all(
				sides.map(async (side) => {
					const found: string[] = [];
					for (const card of cards) {
						await side.goto(`${portal.url}${card}`);
						// The targeted view shows alone: the list and every other view are hidden.
						const shown = await side.locator('h1, h2').filter({ visible: true }).count();
						if (shown !== 1) found.push(`${card}: ${shown} headings shown`);
						const { scroll, client } = await side.evaluate(() => ({
							scroll: document.documentElement.scrollWidth,
							client: document.documentElement.clientWidth,
						}));
						if (scroll > client) found.push(`${card}: ${scroll} px wide in ${client} px`);
						for (const broken of await side.evaluate(midWordBreaks))
							found.push(`${card}: ${broken}`);
					}
					return found;
				}),
			);
			const found = perSide.flat();
			expect(cards).toHaveLength(8);
			expect(sides).toHaveLength(2);
			expect(pageWidth).toBeLessThanOrEqual(width);
			expect(found).toEqual([]);
		},
	);
});

describe('the reference page at 1280 px', () => {
	it('keeps every table word whole, "Required" included', async () => {
		const page = await openAtWidth(portal, '/reference/', 1280);
		const breaks = await page.evaluate(midWordBreaks);
		expect(breaks).toEqual([]);
	});
});

describe('on a phone, wide tables scroll in their own box', () => {
	it.each([
		['/docs/authentication/', 1],
		['/docs/mock-server/', 4],
	])(
		'%s: each of its %i table(s) sits in a labelled, focusable scroll box',
		async (route, count) => {
			const page = await openAtWidth(portal, route, 390);
			const boxes = await page.locator('main table').evaluateAll((tables) =>
				tables.map((table) => {
					const box = table.closest('.table-scroll');
					return {
						inBox: box !== null,
						// A named <section> is a region without saying so.
						role: box?.getAttribute('role') ?? (box?.tagName === 'SECTION' ? 'region' : null),
						tabindex: box?.getAttribute('tabindex'),
						named: Boolean(box?.getAttribute('aria-label') ?? box?.getAttribute('aria-labelledby')),
						scrolls: box ? box.scrollWidth > box.clientWidth : false,
					};
				}),
			);
			expect(boxes).toEqual(
				Array.from({ length: count }, () => ({
					inBox: true,
					role: 'region',
					tabindex: '0',
					named: true,
					scrolls: true,
				})),
			);
		},
	);
});

/** Whether each selector matches something shown, on a page emulating print. */
async function shownInPrint(route: string, selectors: readonly string[]): Promise<boolean[]> {
	const page = await openAtWidth(portal, route, 1280);
	await page.emulateMedia({ media: 'print' });
	const shown = await page.evaluate(
		(list) =>
			list.map((selector) =>
				[...document.querySelectorAll(selector)].some((element) => element.checkVisibility()),
			),
		selectors,
	);
	return shown;
}

describe('printed', () => {
	it('a guide drops its previous/next links and the on-this-page list, keeping its text', async () => {
		const selectors = ['article h1', '.guide-pager', '.on-this-page', 'theme-select'];
		await expect(shownInPrint('/docs/authentication/', selectors)).resolves.toEqual([
			true,
			false,
			false,
			false,
		]);
	});

	it('a view page keeps its four blocks and footer, and drops search, try-it, sidebar, pager, copy buttons and the theme switch', async () => {
		const kept = [
			'.status-note',
			'#config-json',
			'table.directory',
			'#curl-command',
			'.site-footer',
		];
		const dropped = [
			'.search-open',
			'.search-fallback',
			'try-it',
			'.sidebar',
			'.view-pager',
			'copy-button button',
			'.skip-link',
			'theme-select',
		];
		// One printed page for both lists.
		const shown = await shownInPrint('/views/production/', [...kept, ...dropped]);
		expect(shown.slice(0, kept.length)).toEqual(kept.map(() => true));
		expect(shown.slice(kept.length)).toEqual(dropped.map(() => false));
	});

	it('prints light when the screen shows the dark theme: black on white, light colour scheme', async () => {
		const page = await portal.open('/views/production/', { colorScheme: 'dark', height: 720 });
		await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
		const colours = await page.evaluate(() => ({
			text: getComputedStyle(document.body).color,
			background: getComputedStyle(document.body).backgroundColor,
			scheme: getComputedStyle(document.documentElement).colorScheme,
		}));
		expect(colours).toEqual({
			text: 'rgb(0, 0, 0)',
			background: 'rgb(255, 255, 255)',
			scheme: 'light',
		});
	});

	it('a view page prints its directory whole, not cut by a scroll box', async () => {
		const page = await openAtWidth(portal, '/views/production/', 1280);
		await page.emulateMedia({ media: 'print' });
		const overflow = await page.evaluate(() =>
			[...document.querySelectorAll('.table-scroll')].map((box) => getComputedStyle(box).overflowX),
		);
		expect(overflow).toEqual(['visible']);
	});

	it('the reference page keeps its schemas and drops the copy buttons and search', async () => {
		const selectors = ['.schema-explorer', 'copy-button button', '.search-open'];
		await expect(shownInPrint('/reference/', selectors)).resolves.toEqual([true, false, false]);
	});
});
