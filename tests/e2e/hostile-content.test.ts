/**
 * A portal built from hostile fixtures and a hostile guide (tests/fixtures/hostile/): markup,
 * script tags, `javascript:` URLs, very long strings, right-to-left and zero-width characters.
 * Every one must be shown as text, run nothing and leave the layout whole.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usePortalInChromium } from '../support/portal-in-chromium.ts';
import { loadViews } from '../../src/sources/fixtures.ts';
import { buildPortal } from '../../support/build.ts';
import { ROOT } from '../../support/processes.ts';

const HOSTILE = path.join(ROOT, 'tests/fixtures/hostile');
const views = await loadViews(path.join(HOSTILE, 'views'));
let folder: string;

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-hostile-'));
	const result = buildPortal(path.join(folder, 'dist'), path.join(HOSTILE, 'views'), {
		PORTAL_DOCS_DIR: path.join(HOSTILE, 'docs'),
	});
	if (result.status !== 0) throw new Error(`The hostile build failed:\n${result.output}`);
}, 600_000);

afterAll(async () => {
	if (folder) await rm(folder, { recursive: true, force: true });
});

// After the build above, so it serves what that built; its afterAll runs before the one above.
const portal = usePortalInChromium({ distDir: () => path.join(folder, 'dist') });

/** The dialogs and page errors of the kept page since its last `open`. */
let noted: string[] = [];

/** Notes every dialog (dismissed) and page error of a context's pages in `noted`. */
function note(context: BrowserContext): Promise<void> {
	context.on('dialog', (dialog) => {
		noted.push(`dialog: ${dialog.message()}`);
		void dialog.dismiss();
	});
	context.on('weberror', (error) => noted.push(`page error: ${error.error().message}`));
	return Promise.resolve();
}

/**
 * Opens a route in the file's kept page, as a new context would, at a given width, and waits for
 * the network to be quiet; gives every dialog and page error from then on.
 */
async function open(route: string, width = 1280): Promise<{ page: Page; events: string[] }> {
	const events: string[] = [];
	noted = events;
	const page = await portal.open(route, { width, height: 900 }, note);
	await page.waitForLoadState('networkidle');
	return { page, events };
}

/** Whether any hostile payload ran: each one sets window.__pwned. */
async function ran(page: Page): Promise<unknown> {
	return page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
}

/** How far the page scrolls sideways: 0 when nothing breaks out of the layout. */
async function sidewaysOverflow(page: Page): Promise<number> {
	return page.evaluate(
		() => document.documentElement.scrollWidth - document.documentElement.clientWidth,
	);
}

describe.each(views)('hostile view /views/$slug/', ({ slug, view }) => {
	it('shows every name, label and note as literal text and runs none of it', async () => {
		const { page, events } = await open(`/views/${slug}/`);
		const directory = await page.locator('table.directory tbody').innerText();
		for (const user of view.users)
			expect(directory).toContain(user.name.replace(/[ \t\n]+/g, ' ').trim());
		expect(await page.locator('.status-note p').innerText()).toBe(view.statusNote.trim());
		expect(await page.locator('#config-json').innerText()).toBe(
			JSON.stringify(view.config, null, 2),
		);
		if (view.configuration)
			expect(await page.locator('h1').innerText()).toContain(view.configuration);
		expect(
			await page
				.locator('script:not([src]):not([type="application/json"])')
				.evaluateAll((scripts) =>
					scripts.map((script) => script.textContent).filter((text) => text?.includes('__pwned')),
				),
		).toEqual([]);
		expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
		expect(await ran(page)).toBeUndefined();
		expect(events).toEqual([]);
	});

	it('keeps its layout on a desktop and on a phone, whatever the string lengths', async () => {
		for (const width of [1280, 360]) {
			const { page } = await open(`/views/${slug}/`, width);
			expect(await sidewaysOverflow(page), `at ${width}px`).toBeLessThanOrEqual(0);
		}
	});

	it('isolates right-to-left text in running prose, so the words after it keep their order', async () => {
		const { page } = await open(`/views/${slug}/`);
		const isolated = await page
			.locator('section[aria-labelledby="request-heading"] > p bdi')
			.evaluateAll((elements) => elements.map((element) => getComputedStyle(element).unicodeBidi));
		expect(isolated).toEqual(['isolate']);
		expect(await page.locator('.status-note p').getAttribute('dir')).toBe('auto');
	});
});

describe('the overview and search of a hostile portal', () => {
	it('lists the hostile views as text, runs nothing and keeps its layout', async () => {
		const { page, events } = await open('/');
		for (const { slug } of views)
			expect(await page.locator(`a[href="/views/${slug}/"]`).count()).toBeGreaterThan(0);
		expect(await ran(page)).toBeUndefined();
		expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
		expect(events).toEqual([]);
	});
});

describe('a hostile MDX guide', () => {
	it('shows escaped markup and code as text, strips script links and runs nothing', async () => {
		const { page, events } = await open('/docs/hostile-guide/');
		const body = await page.locator('main').innerText();
		expect(body).toMatch(/<script>window\.__pwned = .escaped.<\/script>/);
		expect(body).toContain("<script>window.__pwned = 'code'</script>");
		expect(body).toContain('<img src="x" onerror="window.__pwned = \'fence-img\'">');
		expect(await page.locator('a[href^="javascript:" i]').count()).toBe(0);
		for (const name of ['open the console', 'click me']) {
			const link = page.getByText(name, { exact: true });
			expect(await link.count(), name).toBe(1);
			await link.click();
		}
		expect(await ran(page)).toBeUndefined();
		expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
		expect(events).toEqual([]);
	});
});
