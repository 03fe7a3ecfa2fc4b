/**
 * The search index: after `astro build`, Pagefind's Node API indexes the built pages and writes
 * `pagefind/` into the same output folder, whatever `--outDir` the build was given.
 */
import { existsSync } from 'node:fs';
import { glob, readdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AstroIntegration } from 'astro';
import * as pagefind from 'pagefind';
import { SEARCH_INDEX_HREF, shownMockUrl, type MockPlace } from '../shared/urls.ts';
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

/** The names of the folders directly inside any of `folders` (relative to `root`), sorted. */
async function foldersInside(root: string, folders: readonly string[]): Promise<string[]> {
	const names = new Set<string>();
	for (const relative of folders) {
		for (const entry of await readdir(path.join(root, relative), { withFileTypes: true })) {
			if (entry.isDirectory()) names.add(entry.name);
		}
	}
	return [...names].sort();
}

/**
 * The Pagefind glob for every HTML file in `folder` but those under `excluded` (folders relative
 * to it, written with `/`, a `*` step for any one folder): a pattern per folder, down only the
 * paths that lead to an excluded one. A `*` step stays a `*` in the glob: the folders it stands
 * for are never named one by one, so the glob does not grow with them (16,000 people's folders,
 * named each, made a glob Pagefind refused). A level may hold `*` steps or named ones, not both.
 */
export async function globWithout(folder: string, excluded: readonly string[]): Promise<string> {
	const patterns: string[] = [];
	/** `prefix`: the glob so far; `matched`: the real folders it matches; `rules`: steps left. */
	const visit = async (
		prefix: string,
		matched: readonly string[],
		rules: readonly (readonly string[])[],
	): Promise<void> => {
		patterns.push(`${prefix}*.html`);
		const any = rules.filter(([step]) => step === '*');
		if (any.length > 0) {
			if (any.length !== rules.length) {
				throw new Error(
					`Search index: the unsearched folders ${excluded.join(', ')} mix a * step with a named folder at ${prefix || 'the top'}`,
				);
			}
			if (any.some((steps) => steps.length === 1)) return;
			// Every folder here leads on: one `*` for all of them, their real folders read only if a
			// named step comes further down.
			const inside = rules.some((steps) => steps.slice(1).some((step) => step !== '*'))
				? (
						await Promise.all(
							matched.map(async (relative) =>
								(await foldersInside(folder, [relative])).map((name) =>
									path.posix.join(relative, name),
								),
							),
						)
					).flat()
				: [];
			await visit(
				`${prefix}*/`,
				inside,
				rules.map((steps) => steps.slice(1)),
			);
			return;
		}
		for (const name of await foldersInside(folder, matched)) {
			const here = rules.filter(([step]) => step === name);
			if (here.some((steps) => steps.length === 1)) continue;
			const child = `${prefix}${literal(name)}/`;
			if (here.length === 0) {
				patterns.push(`${child}**/*.html`);
				continue;
			}
			const inside = matched
				.map((relative) => path.posix.join(relative, name))
				.filter((relative) => existsSync(path.join(folder, relative)));
			await visit(
				child,
				inside,
				here.map((steps) => steps.slice(1)),
			);
		}
	};
	await visit(
		'',
		[''],
		excluded.map((pattern) => pattern.split('/')),
	);
	return `{${patterns.join(',')}}`;
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

/** How many pages are read ahead of the one Pagefind is given. */
const PAGES_READ_AHEAD = 16;

/**
 * Hands Pagefind every page the glob matches, with `unsearched` taken out of its text: Pagefind
 * reads a folder only as it is, so each page is read here and given to it. The pages go in the
 * order of their paths, one at a time, so that two builds of the same pages write the same index.
 */
async function addPagesWithout(
	index: pagefind.PagefindIndex,
	folder: string,
	pattern: string,
	unsearched: RegExp,
): Promise<number> {
	const files: string[] = [];
	for await (const file of glob(pattern, { cwd: folder }))
		files.push(file.split(path.sep).join('/'));
	files.sort();
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

/**
 * Indexes a built site folder and writes the index into `<folder>/pagefind`; `unsearched` (see
 * unsearchedAddresses) is left out of every page's text.
 */
export async function writeSearchIndex(
	folder: string,
	unsearched?: RegExp,
): Promise<{ pages: number }> {
	collectGarbage();
	const { index, errors } = await pagefind.createIndex({
		excludeSelectors: [...SECRET_SELECTORS],
		forceLanguage: 'en',
	});
	if (!index) throw new Error(`Search index: Pagefind did not start: ${errors.join('; ')}`);
	try {
		const pattern = await globWithout(folder, UNSEARCHED_FOLDERS);
		let pages: number;
		if (unsearched) {
			pages = await addPagesWithout(index, folder, pattern, unsearched);
		} else {
			const added = await index.addDirectory({ path: folder, glob: pattern });
			if (added.errors.length > 0) {
				throw new Error(
					`Search index: indexing ${folder} with the glob ${pattern} failed: ${added.errors.join('; ')}`,
				);
			}
			pages = added.page_count;
		}
		const written = await index.writeFiles({
			outputPath: path.join(folder, folderOf(SEARCH_INDEX_HREF)),
		});
		if (written.errors.length > 0) {
			throw new Error(`Search index: writing the index failed: ${written.errors.join('; ')}`);
		}
		return { pages };
	} finally {
		await pagefind.close();
	}
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
				const { pages } = await writeSearchIndex(
					fileURLToPath(dir),
					unsearchedAddresses(mockPlace()),
				);
				logger.info(`Indexed ${pages} pages for search`);
			},
		},
	};
}
