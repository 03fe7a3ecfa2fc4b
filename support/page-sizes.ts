/**
 * The size of each kind of page in a built portal, raw and gzip: the overview, a view, the
 * reference, compare, each guide, the people and access pages (review flags included), the 404
 * page, the published contract and the access export, and the Markdown twins of each and
 * llms.txt. A kind that has many
 * pages (views, environments) is measured by its largest page, since that is the one a reader
 * may have to load. The build benchmark prints these, and the scale test compares two builds.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One measured page kind. */
export interface PageKindSize {
	/** What the page is, e.g. "overview", "a view (largest)", "guide: versioning". */
	kind: string;
	/** The largest page of the kind, relative to dist. */
	file: string;
	raw: number;
	gzip: number;
	/** How many pages of the kind there are. */
	pages: number;
}

/** Pages with one file each: kind name and path under dist. */
const SINGLE_PAGES: readonly [string, string][] = [
	['overview', 'index.html'],
	['reference', 'reference/index.html'],
	['compare', 'compare/index.html'],
	['compare without JavaScript: the environments', 'compare/side/index.html'],
	['access overview', 'access/index.html'],
	['guides index', 'docs/index.html'],
	['404', '404.html'],
	['contract (openapi.json)', 'openapi.json'],
	['contract (openapi.yaml)', 'openapi.yaml'],
	['access export (access.csv)', 'access.csv'],
	// The Markdown twins of the pages above, and the guide for AI assistants that links to them.
	["overview's twin", 'index.md'],
	["reference's twin", 'reference.md'],
	["access overview's twin", 'access.md'],
	["guides index's twin", 'docs.md'],
	['llms.txt', 'llms.txt'],
	['access changes export (access-changes.csv)', 'access-changes.csv'],
	['access since data (access-since.json)', 'access-since.json'],
	['exports manifest (exports.json)', 'exports.json'],
	['access since a tag or a date', 'access/since/index.html'],
	['access since a tag or a date, twin', 'access/since.md'],
];

/**
 * Kinds with many pages: kind name, and the pattern their paths (relative to dist) match. Each
 * path is tried against the patterns in order and counts for the first that matches.
 */
const PAGE_FAMILIES: readonly [string, RegExp][] = [
	['a view', /^views\/[^/]+\/index\.html$/],
	["a view's history", /^views\/[^/]+\/history\/(?:\d+\/)?index\.html$/],
	['access changes', /^access\/changes\/(?:\d+\/)?index\.html$/],
	['access changes, filtered', /^access\/changes\/[a-z]+\/[^/]+\/(?:\d+\/)?index\.html$/],
	['access since a tag', /^access\/since\/[^/]+\/(?:\d+\/)?index\.html$/],
	['an environment', /^environments\/[^/]+\/(?:\d+\/)?index\.html$/],
	['a person', /^people\/[^/]+\/index\.html$/],
	["a person's views in an environment", /^people\/[^/]+\/[^/]+\/(?:\d+\/)?index\.html$/],
	// Each paged: /access/environments/<environment>/2/ and so on; a role is letters, a page digits.
	['access by environment', /^access\/environments\/[^/]+\/(?:\d+\/)?index\.html$/],
	[
		'access by environment and role',
		/^access\/environments\/[^/]+\/[a-z]+\/(?:\d+\/)?index\.html$/,
	],
	['access by role', /^access\/roles\/[^/]+\/(?:\d+\/)?index\.html$/],
	['a review flag', /^access\/flags\/[^/]+\/(?:\d+\/)?index\.html$/],
	[
		'compare without JavaScript: an environment',
		/^compare\/side\/environments\/[^/]+\/(?:\d+\/)?index\.html$/,
	],
	// The pages' Markdown twins, beside them: /views/<slug>.md for /views/<slug>/ and so on.
	["a view's twin", /^views\/[^/]+\.md$/],
	["an environment's twin", /^environments\/[^/]+(?:\/\d+)?\.md$/],
	["a person's twin", /^people\/[^/]+\.md$/],
	["a person's views in an environment, twin", /^people\/[^/]+\/[^/]+(?:\/\d+)?\.md$/],
	['access by environment, twin', /^access\/environments\/[^/]+(?:\/\d+)?\.md$/],
	['access by environment and role, twin', /^access\/environments\/[^/]+\/[a-z]+(?:\/\d+)?\.md$/],
	['access by role, twin', /^access\/roles\/[^/]+(?:\/\d+)?\.md$/],
	["a guide's twin", /^docs\/[^/]+\.md$/],
	["a view's history, twin", /^views\/[^/]+\/history(?:\/\d+)?\.md$/],
	['access changes, twin', /^access\/changes(?:\/\d+)?\.md$/],
	['access changes, filtered, twin', /^access\/changes\/[a-z]+\/[^/]+(?:\/\d+)?\.md$/],
	['access since a tag, twin', /^access\/since\/[^/]+(?:\/\d+)?\.md$/],
	['a review flag, twin', /^access\/flags\/[^/]+(?:\/\d+)?\.md$/],
	['a review flag from history, twin', /^access\/review\/[^/]+(?:\/\d+)?\.md$/],
];

async function measure(dist: string, file: string): Promise<{ raw: number; gzip: number }> {
	const bytes = await readFile(path.join(dist, file));
	return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/**
 * Every HTML page under dist, and with `twins` every Markdown twin too, as paths relative to it
 * with `/` between folders, sorted.
 */
async function htmlPages(dist: string, twins = false): Promise<string[]> {
	const entries = await readdir(dist, { recursive: true, withFileTypes: true });
	return entries
		.filter(
			(entry) =>
				entry.isFile() && (entry.name.endsWith('.html') || (twins && entry.name.endsWith('.md'))),
		)
		.map((entry) =>
			path.relative(dist, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
		)
		.sort();
}

/** The sizes of every page kind in `dist`. */
export async function pageKindSizes(dist: string): Promise<PageKindSize[]> {
	const sizes: PageKindSize[] = [];
	for (const [kind, file] of SINGLE_PAGES) {
		if (!existsSync(path.join(dist, file))) continue;
		sizes.push({ kind, file, ...(await measure(dist, file)), pages: 1 });
	}
	const pages = await htmlPages(dist, true);
	for (const [kind, pattern] of PAGE_FAMILIES) {
		const files = pages.filter(
			(file) => PAGE_FAMILIES.find(([, first]) => first.test(file))?.[1] === pattern,
		);
		// The largest by raw size, found from each file's size on disk: only it is read and gzipped.
		let largest: { file: string; raw: number } | undefined;
		for (const file of files) {
			const { size: raw } = await stat(path.join(dist, file));
			if (!largest || raw > largest.raw) largest = { file, raw };
		}
		if (largest) {
			const size = await measure(dist, largest.file);
			sizes.push({ kind: `${kind} (largest)`, file: largest.file, ...size, pages: files.length });
		}
	}
	for (const file of pages.filter((page) => /^docs\/[^/]+\/index\.html$/.test(page))) {
		const guide = path.basename(path.dirname(file));
		sizes.push({ kind: `guide: ${guide}`, file, ...(await measure(dist, file)), pages: 1 });
	}
	return sizes;
}

/** The largest HTML page anywhere in `dist`, by raw size. */
export async function largestPage(dist: string): Promise<{ file: string; raw: number }> {
	let best = { file: '', raw: 0 };
	for (const file of await htmlPages(dist)) {
		const { raw } = await measure(dist, file);
		if (raw > best.raw) best = { file, raw };
	}
	return best;
}
