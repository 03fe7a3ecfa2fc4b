import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	dealtOut,
	searchedPages,
	searchIndex,
	unsearchedAddresses,
	writeSearchIndex,
} from '../../../src/integrations/search-index.ts';

let folder: string | undefined;

afterEach(async () => {
	if (folder) await rm(folder, { recursive: true, force: true });
	folder = undefined;
});

/** A built site of the given files (path → content) in a new temporary folder. */
async function site(files: Record<string, string>): Promise<string> {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-search-index-'));
	for (const [file, content] of Object.entries(files)) {
		await mkdir(path.dirname(path.join(folder, file)), { recursive: true });
		await writeFile(path.join(folder, file), content);
	}
	return folder;
}

/** A page Pagefind indexes, with its text. */
const page = (text: string): string =>
	`<!doctype html><html lang="en"><head><title>${text}</title></head><body><main data-pagefind-body><h1>${text}</h1><p>${text} text</p></main></body></html>`;

describe('the search index', () => {
	it('lists every page but those in the excluded folders, whatever characters their names hold', async () => {
		const dist = await site({
			'index.html': page('Home'),
			'404.html': page('Not found'),
			'views/production/index.html': page('Production'),
			'compare/index.html': page('Compare'),
			'compare/environments/production.json': '{}',
			'compare/side/environments/production/index.html': page('Side'),
			'docs/a{b}/index.html': page('Braces'),
			'docs/*/index.html': page('Star'),
		});
		expect(searchedPages(dist, ['compare/side'])).toEqual([
			'404.html',
			'compare/index.html',
			'docs/*/index.html',
			'docs/a{b}/index.html',
			'index.html',
			'views/production/index.html',
		]);
		// A name is itself: `docs/a{b}` leaves that folder out, and `docs/x` none.
		expect(searchedPages(dist, ['docs/a{b}', 'views', 'compare'])).toEqual([
			'404.html',
			'docs/*/index.html',
			'index.html',
		]);
		expect(searchedPages(dist, ['docs/x', 'views', 'compare'])).toEqual([
			'404.html',
			'docs/*/index.html',
			'docs/a{b}/index.html',
			'index.html',
		]);
	});

	it('takes a * step in an excluded folder for any one folder: a person’s page, not their environments', async () => {
		const dist = await site({
			'people/amara/index.html': page('Amara'),
			'people/amara/production/index.html': page('Amara in production'),
			'people/amara/production/2/index.html': page('Amara in production, page 2'),
			'people/kenji/index.html': page('Kenji'),
			'people/kenji/staging/index.html': page('Kenji in staging'),
			'views/production/index.html': page('Production'),
		});
		expect(searchedPages(dist, ['people/*/*'])).toEqual([
			'people/amara/index.html',
			'people/kenji/index.html',
			'views/production/index.html',
		]);
		// A named folder below a * step: every person's folder of that name, and no other, is left out.
		expect(searchedPages(dist, ['people/*/production'])).toEqual([
			'people/amara/index.html',
			'people/kenji/index.html',
			'people/kenji/staging/index.html',
			'views/production/index.html',
		]);
		expect(searchedPages(dist, ['people/*'])).toEqual(['views/production/index.html']);
	});

	it('never reads the unsearched folders, and indexes every other page', async () => {
		const dist = await site({
			'index.html': page('Home'),
			'views/production/index.html': page('Production'),
			'compare/index.html': page('Compare'),
			'compare/side/environments/production/index.html': page('Side production'),
			'environments/production/index.html': page('Environment'),
			'people/amara/production/index.html': page('Amara in production'),
			// Names with glob characters beside the path to an excluded folder, taken literally.
			'e!f/index.html': page('Bang'),
			'people/a{b},c/index.html': page('Braces'),
			// The access pages are searched, by their environment and role.
			'access/index.html': page('Access'),
			'access/environments/production/admin/index.html': page('Admin in production'),
		});
		await expect(writeSearchIndex(dist)).resolves.toEqual({ pages: 6, bundles: 1 });
	});

	it('indexes a site of 16,000 people, as 2,000 views of all different people build', async () => {
		const dist = await site({
			'index.html': page('Home'),
			'views/production/index.html': page('Production'),
			'people/person-0/index.html': page('Person zero'),
			'people/person-0/production/index.html': page('Person zero in production'),
		});
		// Each other person's folder left empty: naming them all in a glob is what failed, before
		// Pagefind read a page.
		const people = Array.from({ length: 16_000 }, (_, person) => `person-${person}`);
		await Promise.all(people.slice(1).map((name) => mkdir(path.join(dist, 'people', name))));
		await expect(writeSearchIndex(dist)).resolves.toEqual({ pages: 3, bundles: 1 });
	});
});

/** The text of every fragment (a page's record) in one bundle's folder, ungzipped. */
async function fragmentsIn(bundle: string): Promise<string[]> {
	const fragments = path.join(bundle, 'fragment');
	return Promise.all(
		(await readdir(fragments)).map(async (file) =>
			gunzipSync(await readFile(path.join(fragments, file))).toString('utf8'),
		),
	);
}

describe('the search index in bundles', () => {
	const pages = {
		'a/index.html': page('Alpha'),
		'b/index.html': page('Bravo'),
		'c/index.html': page('Charlie'),
		'd/index.html': page('Delta'),
		'e/index.html': page('Echo'),
		// Never read: an unsearched folder takes no place in a bundle.
		'compare/index.html': page('Compare'),
	};

	it('deals a site larger than a bundle out to bundles of at most that many pages, each a mix, and lists them for the dialog', async () => {
		const dist = await site(pages);
		await expect(writeSearchIndex(dist, undefined, 2)).resolves.toEqual({ pages: 5, bundles: 3 });
		const index = path.join(dist, 'pagefind');
		expect(JSON.parse(await readFile(path.join(index, 'bundles.json'), 'utf8'))).toEqual([
			'bundle-2/',
			'bundle-3/',
		]);
		const titles = async (bundle: string): Promise<string[]> =>
			(await fragmentsIn(bundle)).map((text) => /"title":"([^"]+)"/.exec(text)?.[1] ?? text).sort();
		// In path order, dealt in turn: a, b, c to the three bundles, then d, e.
		expect(await titles(index)).toEqual(['Alpha', 'Delta']);
		expect(await titles(path.join(index, 'bundle-2'))).toEqual(['Bravo', 'Echo']);
		expect(await titles(path.join(index, 'bundle-3'))).toEqual(['Charlie']);
		// A further bundle holds its index alone: the first one's pagefind.js loads and searches it.
		// (no `filter` folder: these pages have no filters.)
		expect((await readdir(path.join(index, 'bundle-3'))).sort()).toEqual([
			'fragment',
			'index',
			'pagefind-entry.json',
			expect.stringMatching(/^pagefind\.en_[0-9a-f]+\.pf_meta$/),
		]);
		expect(await readdir(index)).toContain('pagefind.js');
	});

	it('writes one bundle and an empty list of further ones for a site that fits in one', async () => {
		const dist = await site(pages);
		await expect(writeSearchIndex(dist, undefined, 5)).resolves.toEqual({ pages: 5, bundles: 1 });
		const index = path.join(dist, 'pagefind');
		expect(await readFile(path.join(index, 'bundles.json'), 'utf8')).toBe('[]\n');
		expect((await readdir(index)).filter((name) => name.startsWith('bundle-'))).toEqual([]);
	});

	it('leaves nothing beside the site or in it but the index, and the built pages as they were', async () => {
		const dist = await site(pages);
		const parent = path.dirname(dist);
		const before = await readdir(parent);
		await writeSearchIndex(
			dist,
			unsearchedAddresses({
				portalUrl: 'https://portal.team-a.example',
				mockUrl: '/',
				mockPort: 4010,
			}),
			2,
		);
		expect((await readdir(parent)).sort()).toEqual(before.sort());
		expect((await readdir(dist)).sort()).toEqual(['a', 'b', 'c', 'compare', 'd', 'e', 'pagefind']);
		await expect(readFile(path.join(dist, 'a', 'index.html'), 'utf8')).resolves.toBe(
			pages['a/index.html'],
		);
	});

	it('indexes a site of pages and no folders', async () => {
		const dist = await site({ 'index.html': page('Home'), '404.html': page('Not found') });
		await expect(writeSearchIndex(dist)).resolves.toEqual({ pages: 2, bundles: 1 });
	});

	it('keeps the addresses out of every bundle, page by page', async () => {
		const dist = await site({
			'a/index.html': page('Alpha portal.team-a.example'),
			'b/index.html': page('Bravo https://portal.team-a.example/docs/'),
			'c/index.html': page('Charlie'),
		});
		const team = { portalUrl: 'https://portal.team-a.example', mockUrl: '/', mockPort: 4010 };
		await expect(writeSearchIndex(dist, unsearchedAddresses(team), 1)).resolves.toEqual({
			pages: 3,
			bundles: 3,
		});
		const index = path.join(dist, 'pagefind');
		const texts = [
			...(await fragmentsIn(index)),
			...(await fragmentsIn(path.join(index, 'bundle-2'))),
			...(await fragmentsIn(path.join(index, 'bundle-3'))),
		].join('\n');
		expect(texts).toContain('Bravo');
		expect(texts).not.toContain('team-a');
	});

	it('removes the stages a stopped indexing left beside the site, and no other folder', async () => {
		const dist = await site(pages);
		const left = `${dist}-search-Ab12Cd`;
		const other = `${dist}-search-results`;
		await mkdir(path.join(left, 'a'), { recursive: true });
		await mkdir(other);
		try {
			await writeSearchIndex(dist);
			const beside = await readdir(path.dirname(dist));
			expect(beside).not.toContain(path.basename(left));
			expect(beside).toContain(path.basename(other));
		} finally {
			await rm(left, { recursive: true, force: true });
			await rm(other, { recursive: true, force: true });
		}
	});

	it('refuses a bundle of no pages, naming what it was given', async () => {
		const dist = await site(pages);
		await expect(writeSearchIndex(dist, undefined, 0)).rejects.toThrow(
			'Search index: a bundle holds a whole number of pages, not 0',
		);
		expect(() => dealtOut(['a.html'], 1.5)).toThrow('not 1.5');
	});

	it('deals pages out in turn to as few bundles as hold them, and one bundle to a site of none', () => {
		const files = Array.from({ length: 10 }, (_, at) => `p${String(at)}.html`);
		expect(dealtOut(files, 4)).toEqual([
			['p0.html', 'p3.html', 'p6.html', 'p9.html'],
			['p1.html', 'p4.html', 'p7.html'],
			['p2.html', 'p5.html', 'p8.html'],
		]);
		expect(dealtOut(files, 10)).toEqual([files]);
		expect(dealtOut([], 10)).toEqual([[]]);
	});
});

describe('the addresses kept out of the search index', () => {
	const team = {
		portalUrl: 'https://portal.team-a.example',
		mockUrl: 'https://mock.team-a.example/v1',
		mockPort: 4010,
	};

	it('leaves a team’s portal and mock out of what search finds, in every form the pages write', () => {
		const unsearched = unsearchedAddresses(team);
		const strip = (text: string): string => text.replace(unsearched ?? /(?!)/g, '');
		expect(strip('curl https://mock.team-a.example/v1/api/v2/users')).toBe('curl /api/v2/users');
		expect(strip('GET /v1/api/v2/users HTTP/1.1 Host: mock.team-a.example')).toBe(
			'GET /api/v2/users HTTP/1.1 Host: ',
		);
		expect(strip('Read https://portal.team-a.example/docs/ at portal.team-a.example')).toBe(
			'Read /docs/ at ',
		);
		// The same-origin mock is the portal's own address.
		const sameOrigin = unsearchedAddresses({ ...team, mockUrl: '/' });
		expect(
			'curl https://portal.team-a.example/api/v2/users'.replace(sameOrigin ?? /(?!)/g, ''),
		).toBe('curl /api/v2/users');
	});

	it('keeps the local mock and portal searchable, as the guides name them', () => {
		expect(
			unsearchedAddresses({
				portalUrl: 'http://127.0.0.1:4321',
				mockUrl: 'http://127.0.0.1:4010',
				mockPort: 4010,
			}),
		).toBeUndefined();
	});

	it('indexes the same pages as a folder read whole, with the addresses gone from every snippet', async () => {
		const dist = await site({
			'index.html': page('Home https://mock.team-a.example/v1/api/v2/users'),
			'views/production/index.html': page('Production'),
			'compare/index.html': page('Compare'),
			'e!f/index.html': page('Bang'),
			'docs/a{b}/index.html': page('Braces portal.team-a.example'),
		});
		await expect(writeSearchIndex(dist, unsearchedAddresses(team))).resolves.toEqual({
			pages: 4,
			bundles: 1,
		});
		const fragments = path.join(dist, 'pagefind', 'fragment');
		const snippets = await Promise.all(
			(await readdir(fragments)).map(async (file) =>
				gunzipSync(await readFile(path.join(fragments, file))).toString('utf8'),
			),
		);
		expect(snippets).toHaveLength(4);
		expect(snippets.join('\n')).toContain('Braces');
		expect(snippets.join('\n')).not.toMatch(/team-a/);
	});
});

describe('the search index written after Astro has exited (npm run build)', () => {
	it('records the folder Astro wrote for npm run build, and writes no index into it', async () => {
		const dist = await site({ 'index.html': page('Home') });
		const record = path.join(os.tmpdir(), `console-portal-out-dir-${process.pid}`);
		vi.stubEnv('PORTAL_SEARCH_INDEX_AFTER', record);
		const info = vi.fn();
		const hook = searchIndex().hooks['astro:build:done'];
		try {
			await hook?.({ dir: new URL(`file://${dist}/`), logger: { info } } as never);
			await expect(readFile(record, 'utf8')).resolves.toBe(`${dist}/`);
		} finally {
			await rm(record, { force: true });
		}
		expect(info).toHaveBeenCalledWith('The search index is written once this build has exited');
		await expect(readdir(dist)).resolves.toEqual(['index.html']);
	});

	it('writes the index itself in a bare astro build', async () => {
		const dist = await site({ 'index.html': page('Home') });
		vi.stubEnv('PORTAL_SEARCH_INDEX_AFTER', '');
		const info = vi.fn();
		const hook = searchIndex().hooks['astro:build:done'];
		await hook?.({ dir: new URL(`file://${dist}/`), logger: { info } } as never);
		expect(info).toHaveBeenCalledWith('Indexed 1 pages for search');
		expect(await readdir(dist)).toContain('pagefind');
	});
});
