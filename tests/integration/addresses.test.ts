/**
 * The addresses src/shared/urls.ts builds are the files the build writes: every page, published
 * file and fetched JSON a builder names for the fixtures exists, and every same-site link, script,
 * stylesheet and form action in the built pages leads to a file of the build.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { load } from 'cheerio';
import { describe, expect, inject, it } from 'vitest';
import { directoryFingerprint } from '../../src/client/try-it/check.ts';
import { ROLES } from '../../src/schemas/view.ts';
import { personSlug } from '../../src/shared/person-key.ts';
import {
	ACCESS_CSV_HREF,
	accessHref,
	COMPARE_HREF,
	compareEnvironmentHref,
	compareFactsHref,
	directoryHref,
	environmentHref,
	FAVICON_HREF,
	guideHref,
	GUIDES_HREF,
	HOME_HREF,
	OPENAPI_JSON_HREF,
	OPENAPI_YAML_HREF,
	personHref,
	REFERENCE_HREF,
	reviewFlagHref,
	SEARCH_INDEX_HREF,
	SIDE_ROOT,
	sideEnvironmentHref,
	sideStartHref,
	viewHref,
} from '../../src/shared/urls.ts';
import { loadViews } from '../../src/sources/fixtures.ts';
import { ROOT } from '../../support/processes.ts';

const distDir = inject('distDir');
const views = await loadViews(path.join(ROOT, 'content/views'));
const environments = [...new Set(views.map(({ view }) => view.environment))];
const guides = (await readdir(path.join(ROOT, 'content/docs')))
	.filter((name) => name.endsWith('.mdx'))
	.map((name) => name.slice(0, -'.mdx'.length));

/** The built file an address is served from: a folder's index.html, or the file itself. */
function builtFile(address: string): string {
	const { pathname } = new URL(address, 'http://portal.example');
	const file = path.join(distDir, decodeURIComponent(pathname));
	return pathname.endsWith('/') ? path.join(file, 'index.html') : file;
}

/** The addresses among `addresses` that the build wrote no file for. */
const missing = (addresses: readonly string[]): string[] =>
	addresses.filter((address) => !existsSync(builtFile(address)));

describe('every address urls.ts builds is a file of the build', () => {
	it('the sections, the published contract, the export, the search index and the icon', () => {
		const addresses = [
			HOME_HREF,
			GUIDES_HREF,
			REFERENCE_HREF,
			COMPARE_HREF,
			accessHref(),
			OPENAPI_JSON_HREF,
			OPENAPI_YAML_HREF,
			ACCESS_CSV_HREF,
			`${SEARCH_INDEX_HREF}pagefind.js`,
			FAVICON_HREF,
			SIDE_ROOT,
			sideStartHref('a'),
			sideStartHref('b'),
			reviewFlagHref('several-names'),
			reviewFlagHref('role-differs'),
			...guides.map(guideHref),
		];
		expect(guides.length).toBeGreaterThan(3);
		expect(missing(addresses)).toEqual([]);
	});

	it('each view’s page, compare facts and directory file', () => {
		const addresses = views.flatMap(({ slug, view }) => [
			viewHref(slug),
			compareFactsHref(slug),
			directoryHref(directoryFingerprint(view.users.map(({ email }) => email))),
			...view.users.map(({ email }) => personHref(personSlug(email))),
		]);
		expect(addresses).toHaveLength(views.length * 11);
		expect(missing(addresses)).toEqual([]);
	});

	it('each environment’s pages, compare list, side page and access pages', () => {
		const addresses = environments.flatMap((environment) => [
			environmentHref(environment),
			compareEnvironmentHref(environment),
			sideEnvironmentHref(environment),
			accessHref(environment),
			...ROLES.flatMap((role) => [accessHref(environment, role), accessHref(undefined, role)]),
		]);
		expect(environments.length).toBeGreaterThan(1);
		expect(missing(addresses)).toEqual([]);
	});

	it('and a builder for an address the build does not have is caught', () => {
		expect(missing([viewHref('no-such-view'), environmentHref(environments[0] ?? '', 99)])).toEqual(
			[viewHref('no-such-view'), environmentHref(environments[0] ?? '', 99)],
		);
	});
});

describe('every same-site link in the built pages leads to a built file', () => {
	it('href, src and form action on every page, the side frames included', async () => {
		const pages = (await readdir(distDir, { recursive: true })).filter((name) =>
			name.endsWith('.html'),
		);
		expect(pages.length).toBeGreaterThan(60);
		const broken: string[] = [];
		let checked = 0;
		for (const page of pages) {
			const $ = load(await readFile(path.join(distDir, page), 'utf8'));
			const here = `http://portal.example/${page.replace(/index\.html$/, '')}`;
			$('[href], [src], form[action]').each((_, node) => {
				const value = $(node).attr('href') ?? $(node).attr('src') ?? $(node).attr('action') ?? '';
				const url = new URL(value, here);
				if (url.origin !== 'http://portal.example' || value.startsWith('#')) return;
				checked += 1;
				if (!existsSync(builtFile(url.pathname))) broken.push(`${page}: ${value}`);
			});
		}
		expect(checked).toBeGreaterThan(pages.length * 10);
		expect(broken).toEqual([]);
	});
});
