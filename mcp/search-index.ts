/**
 * The portal's search index for the MCP server, ready at the first search of a start: kept on
 * disk (under node_modules/.cache, as the mock keeps its fixtures and contract) by a name made of
 * the reader's search key (the sources' files, the commit, where the portal and mock are) and the
 * code the records are made by. A start whose sources and code are unchanged loads the index kept
 * and searches at once; only a change to either makes the records and the index again (reading
 * the contract, its history and the guides, and running Pagefind's indexer), once, for every start
 * after it. Within a process, the index is made again only when the search key changes.
 */
import { readdirSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { PagefindIndex } from './pagefind.ts';
import type { PortalReader } from './portal.ts';

/** Where a checkout keeps the MCP server's search indexes, relative to it. */
export const SEARCH_CACHE_FOLDER = path.join('node_modules', '.cache', 'console-portal-mcp-search');

/** The most the cache folder keeps of other indexes (older sources or code), in bytes. */
const OTHER_INDEXES_MAX_BYTES = 32 * 1024 * 1024;

/** The index for the sources as they are now. */
export type SearchIndex = () => Promise<PagefindIndex>;

/** The files of an index, as Pagefind's indexer writes them. */
type IndexFiles = { path: string; content: Uint8Array }[];

/** Where a search cache is kept and the code its indexes depend on. */
export interface SearchCacheOptions {
	folder: string;
	/** The files whose content decides what the records hold: a change to any makes them again. */
	code: readonly string[];
}

/** The `.ts` files of a folder and the folders in it, in name order; none when it is missing. */
function typescriptFiles(folder: string): string[] {
	try {
		return readdirSync(folder, { recursive: true, encoding: 'utf8' })
			.filter((name) => name.endsWith('.ts'))
			.sort()
			.map((name) => path.join(folder, name));
	} catch (error) {
		// A folder that is not there holds no code; the hash of the others still names the cache.
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
		throw error;
	}
}

/**
 * The search cache of a checkout (the current folder, as `npm run mcp` runs in it): the code of
 * the MCP server and of the portal's lower floors it reads through, and npm's record of the
 * packages installed (Pagefind, the YAML and OpenAPI readers, api-smart-diff).
 */
export function checkoutSearchCache(root = process.cwd()): SearchCacheOptions {
	return {
		folder: path.join(root, SEARCH_CACHE_FOLDER),
		code: [
			...['mcp', 'src/site', 'src/shared', 'src/sources', 'src/schemas'].flatMap((folder) =>
				typescriptFiles(path.join(root, folder)),
			),
			path.join(root, 'node_modules', '.package-lock.json'),
		],
	};
}

/** The index files kept under a name, or undefined when there are none (or none readable). */
async function keptIndex(file: string): Promise<IndexFiles | undefined> {
	let bytes: Buffer;
	try {
		bytes = await readFile(file);
	} catch (error) {
		// No index kept under this name yet: it is made, as without a cache.
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}
	const kept: unknown = deserialize(bytes);
	if (!Array.isArray(kept)) return undefined;
	const files = kept.filter(
		(item): item is IndexFiles[number] =>
			typeof item === 'object' &&
			item !== null &&
			typeof (item as Record<string, unknown>)['path'] === 'string' &&
			(item as Record<string, unknown>)['content'] instanceof Uint8Array,
	);
	return files.length === kept.length && files.length > 0 ? files : undefined;
}

/** Keeps index files under a name: written aside, then renamed, so no reader sees half a file. */
async function keepIndex(folder: string, file: string, files: IndexFiles): Promise<void> {
	await mkdir(folder, { recursive: true });
	const aside = `${file}.${process.pid}.tmp`;
	try {
		await writeFile(aside, serialize(files));
		await rename(aside, file);
	} finally {
		await rm(aside, { force: true });
	}
	const { pruneOthers } = await import('../src/sources/disk-cache.ts');
	pruneOthers(folder, path.basename(file), OTHER_INDEXES_MAX_BYTES, (name) => name.endsWith('.v8'));
}

/** The index files of the sources as they are now: from the cache, or made (and kept). */
async function indexFiles(
	reader: PortalReader,
	cache: { folder: string; file: string } | undefined,
): Promise<IndexFiles> {
	if (cache) {
		try {
			const kept = await keptIndex(cache.file);
			if (kept) return kept;
		} catch (error) {
			// An index that cannot be read is made again; the log says why, once per start.
			console.error(
				`Search index: the one kept at ${cache.file} cannot be read; made again:`,
				error,
			);
		}
	}
	const [{ searchRecords }, { indexRecords }] = await Promise.all([
		import('./search.ts'),
		import('./pagefind.ts'),
	]);
	const records = searchRecords(await reader.snapshot(), await reader.contractChanges());
	const files = await indexRecords(records);
	if (cache) {
		try {
			await keepIndex(cache.folder, cache.file, files);
		} catch (error) {
			// Searching goes on from memory; the next start makes the index again. Said once, here.
			console.error(`Search index: not kept at ${cache.file}:`, error);
		}
	}
	return files;
}

/**
 * The portal's search index as the sources are now: loaded from the cache kept under `cache`
 * when there is one for the sources and code, else made (and kept there). Without a cache, it is
 * made in memory at the first search and again whenever the search key changes.
 */
export function createSearchIndex(
	reader: PortalReader,
	cache: SearchCacheOptions | undefined,
): SearchIndex {
	/** The hash of the code, worked out once per process, at the first search. */
	let code: string | undefined | null = null;
	let current: { key: string; index: Promise<PagefindIndex> } | undefined;
	return async () => {
		const key = await reader.searchKey();
		if (current?.key === key) return current.index;
		if (cache && code === null) {
			const { codeHash } = await import('../src/sources/disk-cache.ts');
			code = codeHash(cache.code, process.versions.v8);
		}
		const file =
			cache && code ? path.join(cache.folder, `${code}-${key.slice(0, 32)}.v8`) : undefined;
		const previous = current?.index;
		const index = (async () => {
			const { loadIndex } = await import('./pagefind.ts');
			return loadIndex(
				await indexFiles(reader, file && cache ? { folder: cache.folder, file } : undefined),
			);
		})();
		current = { key, index };
		// The index replaced is let go once the new one is ready; a failed one is tried again.
		void index.then(
			() => letGo(previous),
			() => {
				if (current?.index === index) current = undefined;
			},
		);
		return index;
	};
}

/** Lets a replaced index go; one that fails to is logged, and answers nothing more either way. */
async function letGo(previous: Promise<PagefindIndex> | undefined): Promise<void> {
	// An index that failed to load holds nothing to let go; its own search reported why.
	const old = await previous?.catch(() => undefined);
	try {
		await old?.destroy();
	} catch (error) {
		console.error('Search index: the index replaced could not be let go:', error);
	}
}
