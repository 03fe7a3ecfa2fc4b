/**
 * Finding one's way, in a real Chromium on the built portal: a sticky one-row header with a menu
 * that opens without JavaScript on a phone, sticky side rails, headings that scroll clear of the
 * header, and "On this page" marking where the reader is.
 */
import { describe, expect, it } from 'vitest';
import { openAtWidth, usePortalInChromium } from '../support/portal-in-chromium.ts';

const portal = usePortalInChromium();

/** One page of each kind that has the site header. */
const HEADED = [
	'/',
	'/views/production/',
	'/docs/authentication/',
	'/reference/',
	'/compare/',
	'/access/',
];

describe('the header on a 390 px phone', () => {
	it.each(HEADED)('%s: name, search and menu in one row, at most 64 px high', async (route) => {
		const page = await openAtWidth(portal, route, 390);
		const header = await page.locator('.site-header').evaluate((element) => {
			const row = (selector: string) => {
				const found = element.querySelector(selector);
				const box = found?.getBoundingClientRect();
				return box && box.width > 0 ? Math.round(box.top + box.height / 2) : undefined;
			};
			return {
				height: element.getBoundingClientRect().height,
				brand: row('.brand'),
				search: row('.search-open'),
				menu: row('.site-menu > summary'),
			};
		});
		expect(header.height).toBeLessThanOrEqual(64);
		expect(header.menu).toBeDefined();
		expect(Math.abs((header.search ?? 0) - (header.brand ?? 0))).toBeLessThanOrEqual(4);
		expect(Math.abs((header.menu ?? 0) - (header.brand ?? 0))).toBeLessThanOrEqual(4);
	});

	it.each([
		['/docs/authentication/', 'Getting started'],
		['/views/production/', 'dr-eu-west · DR failover'],
		['/compare/', undefined],
	])(
		'%s: without JavaScript the menu opens on a tap and shows the sections and the page navigation at the top',
		async (route, sidebarLink) => {
			const page = await openAtWidth(portal, route, 390, { javaScriptEnabled: false });
			const guides = page.locator('.site-header').getByRole('link', { name: 'Guides' });
			const closed = await guides.isVisible();
			await page.locator('.site-menu > summary').click();
			const sections = await guides.isVisible();
			const inMenu = sidebarLink
				? await page
						.locator('.site-menu')
						.getByRole('link', { name: sidebarLink })
						.evaluate((link) => ({
							visible: link.checkVisibility(),
							top: link.getBoundingClientRect().top,
						}))
				: { visible: true, top: 0 };
			expect({ closed, sections }).toEqual({ closed: false, sections: true });
			expect(inMenu.visible).toBe(true);
			expect(inMenu.top).toBeLessThan(844);
		},
	);

	it('shows no "/" key hint on a touch screen, and keeps it for a mouse', async () => {
		const touch = await openAtWidth(portal, '/docs/', 390, { hasTouch: true, isMobile: true });
		const onTouch = await touch.locator('.search-open kbd').isVisible();
		const mouse = await openAtWidth(portal, '/docs/', 1280);
		const withMouse = await mouse.locator('.search-open kbd').isVisible();
		expect({ onTouch, withMouse }).toEqual({ onTouch: false, withMouse: true });
	});

	it('keeps the sample tabs in one row that scrolls', async () => {
		const page = await openAtWidth(portal, '/reference/', 390);
		const tabs = await page
			.locator('[role="tablist"]')
			.first()
			.evaluate((list) => ({
				rows: new Set(
					[...list.querySelectorAll<HTMLElement>('[role="tab"]')].map((tab) => tab.offsetTop),
				).size,
				overflow: getComputedStyle(list).overflowX,
				pageWidth: document.documentElement.scrollWidth,
			}));
		expect(tabs).toEqual({ rows: 1, overflow: 'auto', pageWidth: 390 });
	});
});

describe('at 1280 px, the header and the side rails stay in view', () => {
	it('the header stays at the top of the window after a long scroll', async () => {
		const page = await openAtWidth(portal, '/reference/', 1280);
		await page.evaluate(() => window.scrollTo(0, 3000));
		const header = await page
			.locator('.site-header')
			.evaluate((element) => element.getBoundingClientRect().toJSON() as DOMRect);
		expect(header.top).toBe(0);
		expect(header.height).toBeGreaterThanOrEqual(48);
		expect(header.height).toBeLessThanOrEqual(64);
	});

	it.each([
		['/reference/', '.sidebar .side-index'],
		// The reference's "On this page" stands beside its title and card, not as a rail: its
		// operations take the whole width, in two columns.
		['/docs/mock-server/', '.on-this-page'],
		['/docs/mock-server/', '.sidebar .side-index'],
	])('%s: %s stays just under the header after a long scroll', async (route, selector) => {
		const page = await openAtWidth(portal, route, 1280);
		await page.evaluate(() => window.scrollTo(0, 2000));
		const [rail, header] = await page.evaluate(
			(railSelector) =>
				[railSelector, '.site-header'].map(
					(found) => document.querySelector(found)?.getBoundingClientRect().toJSON() as DOMRect,
				),
			selector,
		);
		expect(header?.top).toBe(0);
		expect(rail?.top).toBeGreaterThanOrEqual(header?.bottom ?? 0);
		expect(rail?.top).toBeLessThan((header?.bottom ?? 0) + 40);
	});

	it.each([
		['/views/production/', 1280],
		['/reference/', 1280],
		['/docs/authentication/', 1280],
		['/views/production/', 1700],
		['/reference/', 1700],
	])(
		'%s at %i px: the sidebar rail stands beside the content, never over it',
		async (route, width) => {
			const page = await openAtWidth(portal, route, width);
			const [rail, main] = await page.evaluate(() =>
				['.sidebar .side-index', 'main'].map(
					(found) => document.querySelector(found)?.getBoundingClientRect().toJSON() as DOMRect,
				),
			);
			expect(rail?.width).toBeGreaterThan(0);
			expect(rail?.right).toBeLessThanOrEqual(main?.left ?? 0);
		},
	);

	it('a heading reached by its link is not hidden under the header', async () => {
		const page = await openAtWidth(portal, '/reference/#head-api-v2-users', 1280);
		const [heading, header] = await page.evaluate(() =>
			['#head-api-v2-users', '.site-header'].map(
				(found) => document.querySelector(found)?.getBoundingClientRect().toJSON() as DOMRect,
			),
		);
		expect(heading?.top).toBeGreaterThanOrEqual(header?.bottom ?? Infinity);
	});
});

describe('"On this page" marks where the reader is', () => {
	it.each([
		['/docs/authentication/', 'when-the-answer-is-401-or-400'],
		['/reference/', 'head-api-v2-users'],
	])('%s: after scrolling to #%s, its link is the current one', async (route, slug) => {
		const page = await openAtWidth(portal, route, 1280);
		await page.evaluate((id) => document.getElementById(id)?.scrollIntoView(), slug);
		const current = page.locator('.on-this-page a[aria-current="true"]');
		await current.waitFor({ timeout: 3000 }).catch(() => undefined);
		const marked = await current.evaluateAll((links) =>
			links.map((link) => link.getAttribute('href')),
		);
		const weight = await current
			.first()
			.evaluate((link) => getComputedStyle(link).fontWeight)
			.catch(() => '');
		expect(marked).toEqual([`#${slug}`]);
		expect(Number(weight)).toBeGreaterThanOrEqual(600);
	});

	it('without JavaScript it is a plain list with nothing marked', async () => {
		const page = await openAtWidth(portal, '/docs/authentication/', 1280, {
			javaScriptEnabled: false,
		});
		const links = await page.locator('.on-this-page a').count();
		const marked = await page.locator('.on-this-page a[aria-current]').count();
		expect({ links: links > 0, marked }).toEqual({ links: true, marked: 0 });
	});
});
