/**
 * The size of each kind of page in a built portal, raw and gzip: the overview, a view, the
 * reference, compare, each guide, the 404 page and the published contract. A kind that has many
 * pages (views, environments) is measured by its largest page, since that is the one a reader
 * may have to load. The build benchmark prints these, and the scale test compares two builds.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
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
	['guides index', 'docs/index.html'],
	['404', '404.html'],
	['contract (openapi.json)', 'openapi.json'],
	['contract (openapi.yaml)', 'openapi.yaml'],
];

/** Kinds with many pages: kind name, folder under dist, and the file inside each subfolder. */
const PAGE_FAMILIES: readonly [string, string][] = [
	['a view', 'views'],
	['an environment', 'environments'],
];

async function measure(dist: string, file: string): Promise<{ raw: number; gzip: number }> {
	const bytes = await readFile(path.join(dist, file));
	return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

/** Every `index.html` one or more folders under `folder` (relative to dist). */
async function pagesUnder(dist: string, folder: string): Promise<string[]> {
	const root = path.join(dist, folder);
	if (!existsSync(root)) return [];
	const entries = await readdir(root, { recursive: true, withFileTypes: true });
	return entries
		.filter((entry) => entry.isFile() && entry.name === 'index.html')
		.map((entry) => path.relative(dist, path.join(entry.parentPath, entry.name)))
		.filter((file) => file !== path.join(folder, 'index.html'))
		.sort();
}

/** The sizes of every page kind in `dist`. */
export async function pageKindSizes(dist: string): Promise<PageKindSize[]> {
	const sizes: PageKindSize[] = [];
	for (const [kind, file] of SINGLE_PAGES) {
		if (!existsSync(path.join(dist, file))) continue;
		sizes.push({ kind, file, ...(await measure(dist, file)), pages: 1 });
	}
	for (const [kind, folder] of PAGE_FAMILIES) {
		const files = await pagesUnder(dist, folder);
		let largest: PageKindSize | undefined;
		for (const file of files) {
			const size = await measure(dist, file);
			if (!largest || size.raw > largest.raw) largest = { kind, file, ...size, pages: 0 };
		}
		if (largest) sizes.push({ ...largest, kind: `${kind} (largest)`, pages: files.length });
	}
	for (const file of await pagesUnder(dist, 'docs')) {
		const guide = path.basename(path.dirname(file));
		sizes.push({ kind: `guide: ${guide}`, file, ...(await measure(dist, file)), pages: 1 });
	}
	return sizes;
}

/** The largest HTML page anywhere in `dist`, by raw size. */
export async function largestPage(dist: string): Promise<{ file: string; raw: number }> {
	let best = { file: '', raw: 0 };
	for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
		const file = path.relative(dist, path.join(entry.parentPath, entry.name));
		const { raw } = await measure(dist, file);
		if (raw > best.raw) best = { file, raw };
	}
	return best;
}
