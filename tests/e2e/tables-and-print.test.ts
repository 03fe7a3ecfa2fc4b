/**
 * Every page on every medium, in a real Chromium on the built portal: tables that show every
 * column or scroll in their box with a cue, compare readable on a phone, keys, timestamps and
 * hosts never broken, and print that strands no heading and no footer on a sheet of its own.
 */
import { describe, expect, it } from 'vitest';
import { openAtWidth, usePortalInChromium } from '../support/portal-in-chromium.ts';

const portal = usePortalInChromium();

const COMPARE = '/compare/?a=production&b=staging-us-east';

describe('tables are never clipped', () => {
	it.each(['/docs/authentication/', '/docs/mock-server/'])(
		'%s at 1280 px shows every column of its table without scrolling',
		async (route) => {
			const page = await openAtWidth(portal, route, 1280);
			const boxes = await page
				.locator('main .table-scroll')
				.evaluateAll((found) => found.map((box) => box.scrollWidth - box.clientWidth));
			expect(boxes.length).toBeGreaterThan(0);
			expect(boxes).toEqual(boxes.map(() => 0));
		},
	);

	it('at 390 px a table wider than its box scrolls in it, with a shadow as the cue', async () => {
		const page = await openAtWidth(portal, '/docs/mock-server/', 390);
		const box = await page
			.locator('main .table-scroll')
			.first()
			.evaluate((element) => ({
				scrolls: element.scrollWidth > element.clientWidth,
				cue: getComputedStyle(element).backgroundImage.includes('gradient'),
				attachment: getComputedStyle(element).backgroundAttachment.includes('local'),
			}));
		expect(box).toEqual({ scrolls: true, cue: true, attachment: true });
	});

	it('compare at 390 px shows both views and whether they are the same, within the screen', async () => {
		const page = await openAtWidth(portal, COMPARE, 390);
		const cells = await page
			.locator('[data-output] table')
			.first()
			.evaluate((table) => {
				const row = table instanceof HTMLTableElement ? table.tBodies[0]?.rows[0] : undefined;
				return [...(row?.cells ?? [])].map((cell) => {
					const box = cell.getBoundingClientRect();
					return { text: cell.textContent, left: box.left, right: box.right };
				});
			});
		const width = await page.evaluate(() => document.documentElement.scrollWidth);
		expect(cells).toHaveLength(4);
		for (const cell of cells) {
			expect(cell.left, cell.text ?? '').toBeGreaterThanOrEqual(0);
			expect(cell.right, cell.text ?? '').toBeLessThanOrEqual(390);
		}
		expect(width).toBeLessThanOrEqual(390);
	});
});

/** Every element holding a key, a timestamp or a host that is drawn on more than one line. */
function brokenValues(): string[] {
	const selector = 'time, td code, .view-hosts code';
	return [...document.querySelectorAll(selector)]
		.filter((element) => element.checkVisibility() && element.getClientRects().length > 1)
		.map((element) => (element.textContent ?? '').trim());
}

const VALUES = [
	'/views/production/',
	'/access/changes/',
	'/views/production/history/',
	'/people/adaeze.nwosu/',
];

describe('keys, timestamps and hosts stay whole', () => {
	it.each(VALUES)('%s at 390 px draws each on one line', async (route) => {
		const page = await openAtWidth(portal, route, 390);
		const broken = await page.evaluate(brokenValues);
		const width = await page.evaluate(() => document.documentElement.scrollWidth);
		expect(broken).toEqual([]);
		expect(width).toBeLessThanOrEqual(390);
	});

	// A sheet of A4 or Letter is about 720 CSS pixels wide inside its margins.
	it.each(VALUES)('%s printed draws each on one line', async (route) => {
		const page = await openAtWidth(portal, route, 720);
		await page.emulateMedia({ media: 'print' });
		const broken = await page.evaluate(brokenValues);
		expect(broken).toEqual([]);
	});
});

/** How many sheets a PDF has. */
function sheets(pdf: Buffer): number {
	return (pdf.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;
}

describe('printed', () => {
	it.each(['/docs/versioning/', '/views/production/', '/docs/mock-server/', '/reference/'])(
		'%s: no sheet holds only the footer',
		async (route) => {
			const page = await openAtWidth(portal, route, 1280);
			const withFooter = sheets(await page.pdf());
			await page.evaluate(() => document.querySelector('footer')?.remove());
			const withoutFooter = sheets(await page.pdf());
			expect(withFooter).toBe(withoutFooter);
		},
	);

	it.each(['/docs/authentication/', '/reference/', COMPARE, '/views/production/'])(
		'%s: no heading is left at the foot of a sheet',
		async (route) => {
			const page = await openAtWidth(portal, route, 1280);
			await page.emulateMedia({ media: 'print' });
			const breaks = await page
				.locator('main :is(h1, h2, h3)')
				.evaluateAll((headings) => [
					...new Set(headings.map((heading) => getComputedStyle(heading).breakAfter)),
				]);
			expect(breaks).toEqual(['avoid']);
		},
	);
});
