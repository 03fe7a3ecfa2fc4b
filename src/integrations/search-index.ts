/**
 * The search index: after `astro build`, Pagefind's Node API indexes the built pages and writes
 * `pagefind/` into the same output folder, whatever `--outDir` the build was given.
 */
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AstroIntegration } from 'astro';
import * as pagefind from 'pagefind';
import { SEARCH_INDEX_HREF } from '../shared/urls.ts';

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
 * their heading is indexed (one page per environment and role, never per view).
 */
export const UNSEARCHED_FOLDERS = ['compare', 'environments', 'people/*/*'] as const;

/**
 * A name as a Pagefind glob (wax) matches it literally: its pattern characters escaped. Not `!`:
 * wax refuses `\!`, and takes a `!` inside a path as itself.
 */
function literal(name: string): string {
	return name.replace(/[\\*?[\]{}()<>,:$]/g, '\\$&');
}

/** Whether an excluded pattern names a folder (relative, with `/`); a `*` step names any one. */
function named(pattern: string, folder: string): boolean {
	const steps = pattern.split('/');
	const folders = folder.split('/');
	return (
		steps.length === folders.length &&
		steps.every((step, index) => step === '*' || step === folders[index])
	);
}

/** Whether an excluded pattern names a folder inside this one. */
function leadsInto(pattern: string, folder: string): boolean {
	const steps = pattern.split('/');
	const depth = folder.split('/').length;
	return steps.length > depth && named(steps.slice(0, depth).join('/'), folder);
}

/**
 * The Pagefind glob for every HTML file in `folder` but those under `excluded` (folders relative
 * to it, written with `/`, a `*` step for any one folder): a pattern per folder, down only the
 * paths that lead to an excluded one.
 */
export async function globWithout(folder: string, excluded: readonly string[]): Promise<string> {
	const patterns: string[] = [];
	const visit = async (relative: string): Promise<void> => {
		const prefix = relative === '' ? '' : `${relative}/`;
		patterns.push(`${literal(prefix)}*.html`);
		const entries = await readdir(path.join(folder, relative), { withFileTypes: true });
		const folders = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
		for (const name of folders.sort()) {
			const child = `${prefix}${name}`;
			if (excluded.some((pattern) => named(pattern, child))) continue;
			if (excluded.some((pattern) => leadsInto(pattern, child))) await visit(child);
			else patterns.push(`${literal(child)}/**/*.html`);
		}
	};
	await visit('');
	return `{${patterns.join(',')}}`;
}

/** Indexes a built site folder and writes the index into `<folder>/pagefind`. */
export async function writeSearchIndex(folder: string): Promise<{ pages: number }> {
	collectGarbage();
	const { index, errors } = await pagefind.createIndex({
		excludeSelectors: [...SECRET_SELECTORS],
		forceLanguage: 'en',
	});
	if (!index) throw new Error(`Search index: Pagefind did not start: ${errors.join('; ')}`);
	try {
		const glob = await globWithout(folder, UNSEARCHED_FOLDERS);
		const added = await index.addDirectory({ path: folder, glob });
		if (added.errors.length > 0) {
			throw new Error(
				`Search index: indexing ${folder} with the glob ${glob} failed: ${added.errors.join('; ')}`,
			);
		}
		const written = await index.writeFiles({
			outputPath: path.join(folder, folderOf(SEARCH_INDEX_HREF)),
		});
		if (written.errors.length > 0) {
			throw new Error(`Search index: writing the index failed: ${written.errors.join('; ')}`);
		}
		return { pages: added.page_count };
	} finally {
		await pagefind.close();
	}
}

/** The Astro integration that writes the search index at the end of every build. */
export function searchIndex(): AstroIntegration {
	return {
		name: 'console-portal:search-index',
		hooks: {
			'astro:build:done': async ({ dir, logger }) => {
				const { pages } = await writeSearchIndex(fileURLToPath(dir));
				logger.info(`Indexed ${pages} pages for search`);
			},
		},
	};
}
