/**
 * The search index: Pagefind's Node API indexes the built pages and writes `pagefind/` into the
 * same output folder, whatever `--outDir` the build was given, in bundles of at most
 * SEARCH_BUNDLE_PAGES pages. `npm run build` (scripts/build.ts) writes it once Astro's process has
 * exited; a bare `astro build` writes it at the end of the build, in Astro's process.
 */
import { copyFileSync, linkSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AstroIntegration } from 'astro';
import * as pagefind from 'pagefind';
import {
	SEARCH_BUNDLES_FILE,
	SEARCH_INDEX_HREF,
	searchBundleFolder,
	shownMockUrl,
	type MockPlace,
} from '../shared/urls.ts';
import { mockPlace } from '../site/mock-place.ts';

/** A site folder's address as a folder of the build: `/compare/side/` is `compare/side`. */
function folderOf(address: string): string {
	return address.replace(/^\/|\/$/g, '');
}

/**
 * Runs a full garbage collection of this process and gives the freed heap back to the system.
 * Rendering thousands of pages leaves most of a gigabyte of garbage on the heap that V8 would
 * collect only on its next allocation; Pagefind then starts beside it, and the two peaked
 * together at 2.2 GB for 10,000 views (heap profile: some 210 MB of it live). A regular
 * collection frees the garbage but V8 keeps the pages it lived on (at 1,000 views: 292 MB of heap
 * for 100 MB live, 745 MB resident); the last-resort flavour, V8's answer to memory pressure,
 * also shrinks the heap (96 MB of heap, 511 MB resident). This is how jest-leak-detector reaches
 * `gc` without `--expose-gc` on the command line; the options are V8's `gc` extension's.
 */
function collectGarbage(): void {
	setFlagsFromString('--expose-gc');
	const gc: unknown = runInNewContext('gc');
	if (typeof gc === 'function') {
		(gc as (options: object) => void)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
	}
}

/**
 * Parts of a page that never go into the index, on top of `data-pagefind-ignore`: the try-it
 * panel (its key chooser lists keys) and any element marked as holding a secret.
 */
export const SECRET_SELECTORS = ['try-it', '[data-secret]', '.try-it'] as const;

/**
 * Folders of the build whose pages are never searched, so Pagefind does not even read them. No
 * page in them carries `data-pagefind-body`, so Pagefind would read each one only to leave it out
 * (a built-site test checks this): the compare page and its side frames, which repeat every
 * view's facts (at 10,000 views, 35 MB of HTML that cost Pagefind about 125 MB of memory to read
 * and drop); the environment lists; and a person's views in one environment, page by page
 * (`people/<person>/<environment>/`). At 10,000 views, leaving out all but the compare frames
 * halved Pagefind's time and wrote the same index, byte for byte. A `*` step stands for any one
 * folder. The access pages are searched: search finds them by their environment and role, so
 * their heading is indexed (one page per environment and role, never per view). A view's history
 * (`views/<view>/history/`) is found through its view, whose page is searched.
 */
export const UNSEARCHED_FOLDERS = [
	'compare',
	'environments',
	'people/*/*',
	'views/*/history',
] as const;

/**
 * Every HTML page of a built site folder, by its path from there (with `/`), sorted, but those in
 * the `excluded` folders (paths from the site, a `*` step for any one folder), which are never
 * read. A walk of the folder, not a glob: Node's glob took 11 s and 450 MB to list the 92,000
 * searched pages of 10,000 views, and Pagefind's refused a glob naming 16,000 people's folders.
 */
export function searchedPages(folder: string, excluded: readonly string[]): string[] {
	const rules = excluded.map((pattern) => pattern.split('/'));
	const isExcluded = (steps: readonly string[]): boolean =>
		rules.some(
			(rule) =>
				rule.length === steps.length &&
				rule.every((step, at) => step === '*' || step === steps[at]),
		);
	const pages: string[] = [];
	const visit = (steps: readonly string[]): void => {
		for (const entry of readdirSync(path.join(folder, ...steps), { withFileTypes: true })) {
			const here = [...steps, entry.name];
			if (entry.isDirectory()) {
				if (!isExcluded(here)) visit(here);
			} else if (entry.isFile() && entry.name.endsWith('.html')) {
				pages.push(here.join('/'));
			}
		}
	};
	visit([]);
	return pages.sort();
}

/** Whether an address is on this machine (127.0.0.1, localhost, [::1]): a reader's own. */
function onLoopback(address: URL): boolean {
	return ['127.0.0.1', 'localhost', '[::1]'].includes(address.hostname);
}

/** A text matched literally inside a regular expression. */
function escaped(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * What of a build's pages is kept out of the search index: the portal's address (PORTAL_URL) and
 * the shared mock's (PORTAL_MOCK_URL), in every form the pages write them (the whole address, its
 * host, as after `Host:`, and the mock's path before the contract's path). No reader searches for
 * them, and left in, the web image's index, built with stand-ins for both, would show the stand-ins
 * in results and snippets: with them out, the image's index is the bytes a build with the team's
 * settings writes. An address on loopback is a reader's own (the local mock, `npm start`'s
 * portal), which the guides name as defaults too: it stays searchable. Undefined when nothing is
 * kept out.
 */
export function unsearchedAddresses(place: MockPlace): RegExp | undefined {
	const forms: string[] = [];
	const portal = new URL(place.portalUrl);
	if (!onLoopback(portal)) forms.push(escaped(portal.origin), escaped(portal.host));
	const shown = shownMockUrl(place);
	const mock = new URL(shown);
	if (!onLoopback(mock)) {
		forms.push(escaped(shown), escaped(mock.origin), escaped(mock.host));
		const mockPath = mock.pathname.replace(/\/+$/, '');
		// The path alone, as a request line writes it (GET /base/api/v2/users HTTP/1.1).
		if (mockPath !== '') forms.push(`${escaped(mockPath)}(?=/)`);
	}
	if (forms.length === 0) return undefined;
	// The longest first, so that a whole address goes before its origin or host.
	return new RegExp([...new Set(forms)].sort((a, b) => b.length - a.length).join('|'), 'g');
}

/**
 * How many pages one bundle of the search index holds at most. Pagefind's service holds some 20 KB
 * for each page it indexes, however small, and twice that while it writes the index: the 102,000
 * pages of 10,000 views of all different people it read took it to 3.0 GB. Each bundle is indexed
 * by a service of its own, closed before the next starts, so the indexing peaks at one bundle's
 * memory, whatever the site's size; the search dialog merges the bundles (Pagefind's
 * `mergeIndex`). A site of up to this many pages is one bundle.
 */
export const SEARCH_BUNDLE_PAGES = 10_000;

/**
 * The pages of each bundle: dealt out in turn, as cards are (the first page to the first bundle,
 * the second to the second, and so on round), so that every bundle holds some of every kind of
 * page. Pagefind ranks a bundle's results by that bundle's own word statistics; bundles of the same
 * mix rank alike, where consecutive slices (one of people, one of views) would not.
 */
export function dealtOut(files: readonly string[], bundlePages: number): string[][] {
	if (!Number.isInteger(bundlePages) || bundlePages < 1) {
		throw new Error(`Search index: a bundle holds a whole number of pages, not ${bundlePages}`);
	}
	const count = Math.max(1, Math.ceil(files.length / bundlePages));
	const bundles = Array.from({ length: count }, (): string[] => []);
	for (const [at, file] of files.entries()) bundles[at % count]?.push(file);
	return bundles;
}

/**
 * Puts `files` of `folder` into `stage`, a folder of their own for Pagefind to read whole, at the
 * same paths (so their addresses are the same): each a hard link to the built page, or a copy
 * where the file system refuses one. One call at a time, in this process: Pagefind is not running
 * while a bundle is staged, and a hundred thousand small calls each sent to Node's thread pool
 * cost more than they do.
 */
function stagePages(folder: string, stage: string, files: readonly string[]): void {
	const made = new Set<string>();
	for (const file of files) {
		const from = path.join(folder, file);
		const to = path.join(stage, file);
		const parent = path.dirname(to);
		if (!made.has(parent)) {
			mkdirSync(parent, { recursive: true });
			made.add(parent);
		}
		try {
			linkSync(from, to);
		} catch {
			// A file system that refuses a hard link (another device, no links): a copy does the same.
			copyFileSync(from, to);
		}
	}
}

/** How many pages are read ahead of the one Pagefind is given. */
const PAGES_READ_AHEAD = 16;

/**
 * Hands Pagefind `files` of `folder` one at a time, in their order, with `unsearched` taken out of
 * their text. Nine times slower than a folder read whole (9,000 pages: 16.3 s against 3.2 s for
 * more), but the order is this one on any file system, where a folder is read in the file
 * system's own order: the web image's index is the bytes a build with the team's settings writes.
 */
async function addPagesWithout(
	index: pagefind.PagefindIndex,
	folder: string,
	files: readonly string[],
	unsearched: RegExp,
): Promise<number> {
	const read = (file: string): Promise<string> => readFile(path.join(folder, file), 'utf8');
	const ahead = files.slice(0, PAGES_READ_AHEAD).map(read);
	for (const [at, file] of files.entries()) {
		const content = (await ahead[at]) ?? '';
		const following = files[at + PAGES_READ_AHEAD];
		if (following !== undefined) ahead.push(read(following));
		const added = await index.addHTMLFile({
			sourcePath: file,
			content: content.replace(unsearched, ''),
		});
		if (added.errors.length > 0) {
			throw new Error(`Search index: indexing ${file} failed: ${added.errors.join('; ')}`);
		}
	}
	return files.length;
}

/** How one bundle's pages reach Pagefind: a staged folder read whole, or page by page. */
type BundlePages = { stage: string } | { folder: string; files: string[]; unsearched: RegExp };

/**
 * Indexes one bundle of pages with a Pagefind service of its own and writes it into `output`;
 * the service is told to end before this returns, and with it the memory it held.
 */
async function writeBundle(pages: BundlePages, output: string): Promise<number> {
	try {
		const { index, errors } = await pagefind.createIndex({
			excludeSelectors: [...SECRET_SELECTORS],
			forceLanguage: 'en',
		});
		if (!index) throw new Error(`Search index: Pagefind did not start: ${errors.join('; ')}`);
		let count: number;
		if ('stage' in pages) {
			const added = await index.addDirectory({ path: pages.stage });
			if (added.errors.length > 0) {
				throw new Error(
					`Search index: indexing the built pages failed: ${added.errors.join('; ')}`,
				);
			}
			count = added.page_count;
		} else {
			count = await addPagesWithout(index, pages.folder, pages.files, pages.unsearched);
		}
		const written = await index.writeFiles({ outputPath: output });
		if (written.errors.length > 0) {
			throw new Error(`Search index: writing the index failed: ${written.errors.join('; ')}`);
		}
		return count;
	} finally {
		await pagefind.close();
	}
}

/** How many pages were indexed, and in how many bundles where more than one: `120 pages`. */
export function indexedPages(pages: number, bundles: number): string {
	return bundles > 1 ? `${pages} pages in ${bundles} bundles` : `${pages} pages`;
}

/**
 * What a further bundle keeps of what Pagefind writes: what the first bundle's `pagefind.js` reads
 * when it merges it (its entry, metadata, word index, filters and fragments). The scripts, styles
 * and WebAssembly are the first bundle's, loaded once.
 */
const MERGED_FILE = /^(pagefind-entry\.json|pagefind\..+\.pf_meta|fragment|index|filter)$/;

/** Removes from a further bundle's folder what searching it never loads (MERGED_FILE). */
function keepMergedFiles(bundle: string): void {
	for (const name of readdirSync(bundle)) {
		if (!MERGED_FILE.test(name)) rmSync(path.join(bundle, name), { recursive: true });
	}
}

/** The prefix of the folders pages are staged in, beside the site folder: `dist-search-`. */
function stagePrefix(folder: string): string {
	return `${path.resolve(folder)}-search-`;
}

/**
 * Removes the stages an indexing that was stopped (Ctrl-C, a kill) left beside `folder`: the
 * folders named as `mkdtemp` names them from stagePrefix (six letters or digits after it), no other.
 */
function removeLeftStages(folder: string): void {
	const stage = new RegExp(`^${escaped(path.basename(stagePrefix(folder)))}[A-Za-z0-9]{6}$`);
	const parent = path.dirname(path.resolve(folder));
	for (const name of readdirSync(parent)) {
		if (stage.test(name)) rmSync(path.join(parent, name), { recursive: true, force: true });
	}
}

/**
 * Indexes a built site folder and writes the index into `<folder>/pagefind`; `unsearched` (see
 * unsearchedAddresses) is left out of every page's text. The pages are dealt out (`dealtOut`) to
 * bundles of at most `bundlePages` (SEARCH_BUNDLE_PAGES): the first bundle in `pagefind/`, each
 * further one in a folder inside it, listed in its SEARCH_BUNDLES_FILE. Two builds of the same
 * pages write the same index on the same file system, and on any where `unsearched` is given.
 */
export async function writeSearchIndex(
	folder: string,
	unsearched?: RegExp,
	bundlePages = SEARCH_BUNDLE_PAGES,
): Promise<{ pages: number; bundles: number }> {
	collectGarbage();
	const bundles = dealtOut(searchedPages(folder, UNSEARCHED_FOLDERS), bundlePages);
	const output = path.join(folder, folderOf(SEARCH_INDEX_HREF));
	removeLeftStages(folder);
	let pages = 0;
	for (const [at, files] of bundles.entries()) {
		const into = at === 0 ? output : path.join(output, searchBundleFolder(at + 1));
		if (unsearched) {
			pages += await writeBundle({ folder, files, unsearched }, into);
		} else {
			// Beside the site, not in it: a stage left by a build that was stopped is never served.
			const stage = await mkdtemp(stagePrefix(folder));
			try {
				stagePages(folder, stage, files);
				pages += await writeBundle({ stage }, into);
			} finally {
				rmSync(stage, { recursive: true, force: true });
			}
		}
		if (at > 0) keepMergedFiles(into);
	}
	const further = bundles.slice(1).map((_, at) => searchBundleFolder(at + 2));
	await writeFile(path.join(output, SEARCH_BUNDLES_FILE), `${JSON.stringify(further)}\n`);
	return { pages, bundles: bundles.length };
}

/**
 * The Astro integration that writes the search index at the end of every build, unless the build
 * was started by `npm run build`, which writes it once Astro has exited: the folder Astro wrote is
 * then recorded in the file PORTAL_SEARCH_INDEX_AFTER names, for `npm run build` to index.
 */
export function searchIndex(): AstroIntegration {
	return {
		name: 'console-portal:search-index',
		hooks: {
			'astro:build:done': async ({ dir, logger }) => {
				const after = process.env['PORTAL_SEARCH_INDEX_AFTER'];
				if (after) {
					await writeFile(after, fileURLToPath(dir));
					logger.info('The search index is written once this build has exited');
					return;
				}
				const { pages, bundles } = await writeSearchIndex(
					fileURLToPath(dir),
					unsearchedAddresses(mockPlace()),
				);
				logger.info(`Indexed ${indexedPages(pages, bundles)} for search`);
			},
		},
	};
}
