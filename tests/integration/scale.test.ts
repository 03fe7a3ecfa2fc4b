/**
 * Pages bounded by design: builds 200 and 1,000 generated views and checks that every page kind
 * (their Markdown twins and llms.txt among them) but the overviews stays within 1.5× of its size
 * at 200 views, and that the overview pages (home, each environment's pages, the access overview
 * and its pages by role, and their twins) stay within their budget.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../../support/build.ts';
import { pageKindSizes, type PageKindSize } from '../../support/page-sizes.ts';
import { writeViewSet } from '../../support/view-sets.ts';
import { UNSEARCHED_FOLDERS } from '../../src/integrations/search-index.ts';

/** How much a page other than the overview may grow from 200 to 1,000 views. */
const GROWTH = 1.5;
/** The overview's budget at 1,000 views, gzip bytes, for the home page and each environment page. */
const OVERVIEW_BUDGET_GZIP = 100 * 1024;
/**
 * The overview's pages: the home page and the environments' pages, and the access overview with
 * its pages by role, which list people by environment. They grow with environments and people,
 * not views, and are held to the overview budget instead of the 1.5× rule; so are the paged
 * lists, which grow until their page is full.
 */
const OVERVIEWS = [
	'overview',
	'an environment (largest)',
	'access overview',
	'access by role (largest)',
	// Paged lists: an environment's views, 40 to a page, and a person's views in one environment,
	// 50 to a page. Each grows until its page is full (at 200 views a page holds about 10), then
	// stays the same size.
	"a person's views in an environment (largest)",
	// A review flag's findings, 50 to a page: they grow with people and environments, not views.
	'a review flag (largest)',
	// The compare page's side frames list an environment's views 40 to a page, as its pages do,
	// and hold those 40 views, each shown when picked.
	'compare without JavaScript: an environment (largest)',
	// Their Markdown twins, bounded as their pages are.
	"overview's twin",
	"an environment's twin (largest)",
	"access overview's twin",
	'access by role, twin (largest)',
	"a person's views in an environment, twin (largest)",
	'a review flag, twin (largest)',
	// A person's page lists up to five of their views in each environment they are in. The largest
	// person is in all 20 environments at 200 views (70 views, fewer than five in some) and at
	// 1,000 (328 views, five in each): the page fills up to its ceiling and stays there, as the
	// paged lists do. The HTML page's frame kept it under 1.5×; its twin went from 9.7 to 14.6 KB.
	"a person's twin (largest)",
] as const;
/**
 * What grows with the views by design: the contract (an example per view), the access export (a
 * row per person per view) and the date file of the since page (who holds which role where, a
 * row per person, environment and role, and a row per change of it in history).
 */
const BY_VIEW = [
	'contract (openapi.json)',
	'contract (openapi.yaml)',
	'access export (access.csv)',
	'access since data (access-since.json)',
];
const UNBOUNDED = new Set<string>([...OVERVIEWS, ...BY_VIEW]);

let folder: string;
const sizes = new Map<number, PageKindSize[]>();
/** The built HTML pages at 1,000 views, by path relative to dist, written with `/`. */
const pages = new Map<string, string>();

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-scale-'));
	for (const count of [200, 1000]) {
		const views = path.join(folder, `views-${count}`);
		const dist = path.join(folder, `dist-${count}`);
		await writeViewSet(views, count);
		const result = buildPortal(dist, views);
		if (result.status !== 0) throw new Error(`${count} views failed to build:\n${result.output}`);
		sizes.set(count, await pageKindSizes(dist));
		if (count !== 1000) continue;
		for (const entry of await readdir(dist, { withFileTypes: true, recursive: true })) {
			if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
			const file = path.join(entry.parentPath, entry.name);
			pages.set(path.relative(dist, file).split(path.sep).join('/'), await readFile(file, 'utf8'));
		}
	}
}, 600_000);

afterAll(async () => {
	if (folder) await rm(folder, { recursive: true, force: true });
});

/** The sizes at `count` views, by kind. */
function byKind(count: number): Map<string, PageKindSize> {
	return new Map((sizes.get(count) ?? []).map((size) => [size.kind, size]));
}

describe('at 1,000 views', () => {
	it('has every page kind it had at 200 views, and the environment pages', () => {
		const small = [...byKind(200).keys()];
		const large = [...byKind(1000).keys()];
		expect(large).toEqual(small);
		expect(large).toEqual(
			expect.arrayContaining(['overview', 'a view (largest)', 'an environment (largest)']),
		);
	});

	it('keeps every page but the overview within 1.5× of its size at 200 views', () => {
		const small = byKind(200);
		const grown = [...byKind(1000)]
			.filter(([kind]) => !UNBOUNDED.has(kind))
			.map(([kind, size]) => ({
				kind,
				ratio: Number((size.raw / (small.get(kind)?.raw ?? 1)).toFixed(2)),
			}))
			.filter(({ ratio }) => ratio > GROWTH);
		expect(grown).toEqual([]);
	});

	it('keeps every overview page within the overview budget', () => {
		const large = byKind(1000);
		for (const kind of OVERVIEWS) {
			expect(large.get(kind)?.gzip, kind).toBeLessThanOrEqual(OVERVIEW_BUDGET_GZIP);
		}
	});

	it('splits an environment of more than 40 views over pages', () => {
		// 200 views over 20 environments make 10 each, one page apiece; 1,000 make 50 each, two
		// pages apiece (40 and 10).
		expect(byKind(200).get('an environment (largest)')?.pages).toBe(20);
		expect(byKind(1000).get('an environment (largest)')?.pages).toBe(40);
		// And their Markdown twins alike, one for each page.
		expect(byKind(200).get("an environment's twin (largest)")?.pages).toBe(20);
		expect(byKind(1000).get("an environment's twin (largest)")?.pages).toBe(40);
	});

	it('carries nothing to search in the folders Pagefind does not read, so leaving them out loses nothing', () => {
		for (const pattern of UNSEARCHED_FOLDERS) {
			const steps = pattern.split('/');
			const inside = [...pages].filter(([file]) => {
				const folders = file.split('/').slice(0, steps.length);
				return (
					folders.length === steps.length &&
					file.split('/').length > steps.length &&
					steps.every((step, index) => step === '*' || step === folders[index])
				);
			});
			expect(inside.length, pattern).toBeGreaterThan(0);
			const searchable = inside.filter(([, html]) => html.includes('data-pagefind-body'));
			expect(
				searchable.map(([file]) => file),
				pattern,
			).toEqual([]);
		}
		// And the pages search finds are outside them: views, people, guides, the reference.
		const searched = [...pages].filter(([, html]) => html.includes('data-pagefind-body'));
		expect(searched.length).toBeGreaterThan(1000);
	});
});
