/**
 * Pages bounded by design: builds 40 and 200 generated views over ten environments, four and
 * twenty views to an environment, whose people are their own (six of each view's eight, so 200
 * views have 1,206 people, each with a page, and an environment 126; the other two are on call,
 * in dozens of views) and checks that every page kind (their Markdown twins and llms.txt among
 * them) but the overviews and the paged lists stays within 1.5× of its size at 40 views, and that
 * those (home, each environment's pages, the access overview and its pages by environment and by
 * role, and their twins) stay within their budget. Five times the views, as an environment of
 * twenty holds, is what the bounds need; ten environments rather than twenty halve the build.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../../support/build.ts';
import { pageKindSizes, type PageKindSize } from '../../support/page-sizes.ts';
import { writeViewSet, type PeopleMix } from '../../support/view-sets.ts';
import { UNSEARCHED_FOLDERS } from '../../src/integrations/search-index.ts';
import { PEOPLE_PER_PAGE } from '../../src/site/access.ts';
import { ENVIRONMENT_PAGE_SIZE } from '../../src/site/overview.ts';
import { ROLES } from '../../src/schemas/view.ts';
import type { ViewEntry } from '../../src/sources/fixtures.ts';
import { accessHref } from '../../src/shared/urls.ts';

/** The two sizes built: the pages at the larger are held to their size at the smaller. */
const SMALL = 40;
const LARGE = 200;
/**
 * The environments both sets spread over: twenty views to each at LARGE, so an environment's
 * people (126) fill more than one access page of PEOPLE_PER_PAGE.
 */
const ENVIRONMENTS = 10;
/**
 * Who fills the directories: six people of their own in every view, so people grow with views as
 * in a large organisation, and two of six people on call, who are in dozens of views.
 */
const PEOPLE: PeopleMix = 'distinct-with-on-call';
/** How much a page other than the overview may grow from SMALL to LARGE views. */
const GROWTH = 1.5;
/** The overview's budget at LARGE views, gzip bytes, for the home page and each environment page. */
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
	// Paged lists: an environment's views, 40 to a page, a person's views in one environment, 50 to
	// a page, and the people of one environment, one role or both, 100 to a page. Each grows until
	// its page is full, then stays the same size.
	"a person's views in an environment (largest)",
	'access by environment (largest)',
	'access by environment and role (largest)',
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
	'access by environment, twin (largest)',
	'access by environment and role, twin (largest)',
	"a person's views in an environment, twin (largest)",
	'a review flag, twin (largest)',
	// A person's page and its twin list up to five of their views in each environment they are in.
	// The largest person, on call, is in fewer than five views of most environments at 40 views and
	// in five or more of many at 200: the page fills up to its ceiling and stays there, as the paged
	// lists do.
	"a person's twin (largest)",
	'a person (largest)',
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
/** The views built at LARGE. */
let views: ViewEntry[] = [];
/** The built HTML pages at LARGE views, by path relative to dist, written with `/`. */
const pages = new Map<string, string>();

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-scale-'));
	for (const count of [SMALL, LARGE]) {
		const fixtures = path.join(folder, `views-${count}`);
		const dist = path.join(folder, `dist-${count}`);
		const written = await writeViewSet(fixtures, count, PEOPLE, ENVIRONMENTS);
		if (count === LARGE) views = written;
		const result = buildPortal(dist, fixtures);
		if (result.status !== 0) throw new Error(`${count} views failed to build:\n${result.output}`);
		sizes.set(count, await pageKindSizes(dist));
		if (count !== LARGE) continue;
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

/**
 * The cells of every row of a paged access list at LARGE views, its first page at `href`: each
 * page found through the first page's numbers, none holding more than PEOPLE_PER_PAGE rows.
 */
function pagedRows(href: string): string[][] {
	const first = pages.get(`${href.slice(1)}index.html`) ?? '';
	const numbers = /<nav class="pages"[^>]*>(.*?)<\/nav>/s.exec(first)?.[1] ?? '';
	const hrefs = [...numbers.matchAll(/href="([^"]+)"/g)].map(([, page]) => page ?? '');
	expect(hrefs[0] ?? href, href).toBe(href);
	const rows: string[][] = [];
	for (const page of hrefs.length > 0 ? hrefs : [href]) {
		const html = pages.get(`${page.slice(1)}index.html`);
		expect(html, page).toBeDefined();
		const body = /<tbody>(.*?)<\/tbody>/s.exec(html ?? '')?.[1] ?? '';
		const found = [...body.matchAll(/<tr>(.*?)<\/tr>/gs)].map(([, row]) =>
			[...(row ?? '').matchAll(/<t[dh][^>]*>(.*?)<\/t[dh]>/gs)].map(([, cell]) =>
				(cell ?? '').replace(/<[^>]+>/g, '').trim(),
			),
		);
		expect(found.length, page).toBeLessThanOrEqual(PEOPLE_PER_PAGE);
		rows.push(...found);
	}
	return rows;
}

/** The sizes at `count` views, by kind. */
function byKind(count: number): Map<string, PageKindSize> {
	return new Map((sizes.get(count) ?? []).map((size) => [size.kind, size]));
}

describe(`at ${LARGE} views`, () => {
	it(`has every page kind it had at ${SMALL} views, and the environment pages`, () => {
		const small = [...byKind(SMALL).keys()];
		const large = [...byKind(LARGE).keys()];
		// A person's views in one environment get pages of their own only past five views there,
		// which the people on call reach at LARGE views and not yet at SMALL.
		expect(large).toEqual(expect.arrayContaining(small));
		expect(large).toEqual(
			expect.arrayContaining([
				'overview',
				'a view (largest)',
				'an environment (largest)',
				"a person's views in an environment (largest)",
			]),
		);
	});

	it(`keeps every page but the overview within 1.5× of its size at ${SMALL} views`, () => {
		const small = byKind(SMALL);
		const grown = [...byKind(LARGE)]
			.filter(([kind]) => !UNBOUNDED.has(kind))
			.map(([kind, size]) => ({
				kind,
				ratio: Number((size.raw / (small.get(kind)?.raw ?? 1)).toFixed(2)),
			}))
			.filter(({ ratio }) => ratio > GROWTH);
		expect(grown).toEqual([]);
	});

	it('keeps every overview page within the overview budget', () => {
		const large = byKind(LARGE);
		for (const kind of OVERVIEWS) {
			expect(large.get(kind)?.gzip, kind).toBeLessThanOrEqual(OVERVIEW_BUDGET_GZIP);
		}
	});

	it('gives each environment one page of views per 40, and a twin for each page', () => {
		// 200 views over 10 environments make 20 each, one page apiece.
		const environments = new Set(views.map(({ view }) => view.environment)).size;
		expect(environments).toBe(ENVIRONMENTS);
		const perEnvironment = Math.ceil(LARGE / environments / ENVIRONMENT_PAGE_SIZE);
		expect(byKind(LARGE).get('an environment (largest)')?.pages).toBe(
			environments * perEnvironment,
		);
		expect(byKind(LARGE).get("an environment's twin (largest)")?.pages).toBe(
			environments * perEnvironment,
		);
	});

	it('lists everyone who holds a role over numbered pages of at most 100, leaving no one out', () => {
		for (const role of ROLES) {
			const expected = new Set(
				views.flatMap(({ view }) =>
					view.users
						.filter((user) => user.role === role)
						.map((user) => `${view.environment} ${user.email}`),
				),
			);
			const rows = pagedRows(accessHref(undefined, role)).map(
				([environment, , email]) => `${environment} ${email}`,
			);
			expect(rows.length, role).toBe(expected.size);
			expect(new Set(rows), role).toEqual(expected);
		}
	});

	it('lists everyone in an environment over numbered pages of at most 100, leaving no one out', () => {
		const environment = views[0]?.view.environment ?? '';
		const expected = new Set(
			views
				.filter(({ view }) => view.environment === environment)
				.flatMap(({ view }) => view.users.map((user) => user.email)),
		);
		expect(expected.size).toBeGreaterThan(PEOPLE_PER_PAGE);
		const emails = pagedRows(accessHref(environment)).map(([, email]) => email);
		expect(emails.length).toBe(expected.size);
		expect(new Set(emails)).toEqual(expected);
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
