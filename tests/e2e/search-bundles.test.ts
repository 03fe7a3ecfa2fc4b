/**
 * Search over an index written in bundles, as a large site's is: the run's build, copied and
 * indexed again ten pages to a bundle, so that a view, a person and an access page each come from
 * a bundle of their own. In a real Chromium, the dialog searches every bundle as one index: its
 * counts, its filters and its ranking are the ones search gives over a single bundle.
 */
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { usePortalInChromium } from '../support/portal-in-chromium.ts';
import { resultLinks } from '../support/search-results.ts';
import { ROOT } from '../../support/processes.ts';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { personSlug } from '../../src/shared/person-key.ts';
import { accessHref, personHref, viewHref } from '../../src/shared/urls.ts';
import { writeSearchIndex } from '../../src/integrations/search-index.ts';

let folder: string;
let dist: string;
let views: ViewEntry[];

beforeAll(async () => {
	views = await loadViews(path.join(ROOT, 'content/views'));
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-search-bundles-'));
	dist = path.join(folder, 'dist');
	await cp(inject('distDir'), dist, { recursive: true });
	await rm(path.join(dist, 'pagefind'), { recursive: true });
	await writeSearchIndex(dist, undefined, 10);
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

const portal = usePortalInChromium({ distDir: () => dist });

/** The status line, once it says something. */
async function statusLine(page: Page): Promise<string> {
	const status = page.locator('.search-status');
	await expect.poll(async () => (await status.textContent()) ?? '').not.toBe('');
	return (await status.textContent()) ?? '';
}

/** Opens the overview with search ready to type into. */
async function openSearch(): Promise<Page> {
	const page = await portal.open('/', { height: 720 });
	await page.keyboard.press('/');
	await page.locator('#search-query').waitFor();
	return page;
}

describe('search over an index in bundles', () => {
	it('is written in bundles, which the views, the people and the access pages fall in apart', async () => {
		const bundles = (await readdir(path.join(dist, 'pagefind'))).filter((name) =>
			name.startsWith('bundle-'),
		);
		expect(bundles.length).toBeGreaterThan(5);
	});

	it('finds by environment its views, the people in them and its access page, from every bundle', async () => {
		const page = await openSearch();
		const environment = 'production';
		await page.selectOption('select[name="environment"]', environment);
		const inIt = views.filter(({ view }) => view.environment === environment);
		const people = new Set(
			inIt.flatMap(({ view }) => view.users.map(({ email }) => personHref(personSlug(email)))),
		);
		const expected = [
			...inIt.map(({ slug }) => viewHref(slug)),
			accessHref(environment),
			...people,
		];
		await expect
			.poll(() => statusLine(page), { timeout: 10_000 })
			.toBe(`${expected.length} results`);
		// The dialog lists the first 20.
		const links = await resultLinks(page);
		expect(links).toHaveLength(20);
		expect(expected).toEqual(expect.arrayContaining(links));
	});

	it("finds a person by name: their page first, then the environment's views they are in", async () => {
		const page = await openSearch();
		await page.fill('#search-query', 'Amara Okafor');
		await page.selectOption('select[name="environment"]', 'production');
		const theirViews = views
			.filter(
				({ view }) =>
					view.environment === 'production' &&
					view.users.some(({ email }) => email === 'amara.okafor@example.com'),
			)
			.map(({ slug }) => viewHref(slug));
		expect(theirViews).toHaveLength(2);
		await expect
			.poll(async () => {
				const [first, ...others] = await resultLinks(page);
				return [first, ...others.sort()];
			})
			.toEqual(['/people/amara.okafor/', ...theirViews.sort()]);
	});

	it('says search is unavailable, and why, when the list of bundles is not one', async () => {
		const page = await portal.browser.newPage();
		try {
			await page.route('**/pagefind/bundles.json', (route) =>
				route.fulfill({ contentType: 'application/json', body: '{"bundle-2/": true}' }),
			);
			await page.goto(`${portal.url}/`);
			await page.keyboard.press('/');
			await expect
				.poll(() => statusLine(page), { timeout: 10_000 })
				.toBe(
					'Search is unavailable: The search index\'s list of bundles is not a list of folders like "bundle-2/": {"bundle-2/":true}',
				);
		} finally {
			await page.close();
		}
	});
});
