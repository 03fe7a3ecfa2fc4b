/**
 * Pagefind in the MCP server's own process: the records of the portal's searched pages are indexed
 * by Pagefind's Node API (`createIndex`, `addCustomRecord`, `getFiles`, as the build's
 * `writeSearchIndex` indexes the built pages), in memory, and searched by the same `pagefind.js`
 * the search dialog loads, run in Node (Pagefind supports Node since 1.4). `pagefind.js` fetches
 * its index files with a `fetch` of its own (`memoryFetch`, put before its code): the files are
 * answered from memory under an address on the reserved `.invalid` domain, which no request can
 * reach; the global `fetch` is left as it is.
 */

/** A page as Pagefind indexes it: its address, text, metadata and filters. */
export interface SearchRecord {
	url: string;
	content: string;
	meta: { title: string; labels: string };
	filters: Record<string, string[]>;
}

/** One hit, as `pagefind.js` gives its data. */
export interface PagefindHit {
	url: string;
	excerpt: string;
	meta: Record<string, string>;
	filters?: Record<string, string[]>;
}

/** A loaded index: what the dialog calls on `pagefind.js`. */
export interface PagefindIndex {
	/** Every hit of a query (or of filters alone, with `null`), best first. */
	search: (
		query: string | null,
		filters: Record<string, string> | undefined,
	) => Promise<{
		total: number;
		hits: (count: number) => Promise<PagefindHit[]>;
	}>;
	destroy: () => Promise<void>;
}

/** The part of `pagefind.js` used here. */
interface PagefindModule {
	createInstance: (options: { basePath: string }) => {
		options: (options: { baseUrl: string }) => Promise<void>;
		init: () => Promise<void>;
		destroy: () => Promise<void>;
		search: (
			query: string | null,
			options: { filters?: Record<string, string> },
		) => Promise<{ results: { data: () => Promise<PagefindHit> }[] } | null>;
	};
}

/** Where the in-memory indexes are served: a host of the `.invalid` domain, which never resolves. */
const MEMORY_ORIGIN = 'http://pagefind.invalid/';

/** The files of each loaded index, by their address. */
const served = new Map<string, Uint8Array>();

/** What `pagefind.js` reads of an answer to its requests. */
interface MemoryAnswer {
	ok: boolean;
	status: number;
	url: string;
	json: () => Promise<unknown>;
	arrayBuffer: () => Promise<ArrayBuffer>;
}

/**
 * Answers `pagefind.js`'s requests for the in-memory files, and passes any other on to `fetch`.
 * Its answers are plain objects with what `pagefind.js` reads of a Response (`ok`, `status`,
 * `json`, `arrayBuffer`): Node loads its whole HTTP client (undici) at the first use of
 * `Response`, a wait the first search need not have.
 */
function memoryFetch(input: unknown, init?: RequestInit): Promise<MemoryAnswer | Response> {
	const address = String(input);
	if (!address.startsWith(MEMORY_ORIGIN)) return fetch(address, init);
	const bytes = served.get(address.replace(/[?#].*$/, ''));
	return Promise.resolve({
		ok: bytes !== undefined,
		status: bytes === undefined ? 404 : 200,
		url: address,
		json: () => Promise.resolve(JSON.parse(new TextDecoder().decode(bytes)) as unknown),
		arrayBuffer: () => Promise.resolve(new Uint8Array(bytes ?? []).buffer),
	});
}

/** Where `pagefind.js` finds `memoryFetch`, under a name no other code uses. */
const MEMORY_FETCH = Symbol.for('console-portal.mcp.pagefind-fetch');

/**
 * What is put before `pagefind.js`'s own code: its `fetch` is `memoryFetch`, so the global `fetch`
 * stays as it is, and its `Response` is not the global one, which it only asks about to tell a
 * fetched answer from bytes it was given (it is always given bytes here), and whose first use
 * would load undici.
 */
const PRELUDE = `const fetch = globalThis[Symbol.for('${MEMORY_FETCH.description ?? ''}')]; const Response = undefined;\n`;

let runtime: Promise<PagefindModule> | undefined;

/** `pagefind.js`, from the files of an index (the same for every index of one Pagefind version). */
function loadRuntime(script: Uint8Array): Promise<PagefindModule> {
	(globalThis as Record<symbol, unknown>)[MEMORY_FETCH] = memoryFetch;
	const code = Buffer.concat([Buffer.from(PRELUDE), script]).toString('base64');
	runtime ??= import(
		/* @vite-ignore */ `data:text/javascript;base64,${code}`
	) as Promise<PagefindModule>;
	return runtime;
}

/** Pagefind's ready-made search interfaces and highlighter, which a page loads and MCP does not. */
const UI_FILE = /^pagefind-(ui|modular-ui|component-ui|highlight)\.(js|css)$/;

/** The index files of a set of records, written by Pagefind's indexer into memory. */
export async function indexRecords(
	records: readonly SearchRecord[],
): Promise<{ path: string; content: Uint8Array }[]> {
	// Pagefind's indexer loads only to make an index: one kept on disk is searched without it.
	const pagefind = await import('pagefind');
	const { index, errors } = await pagefind.createIndex({ forceLanguage: 'en' });
	if (!index) throw new Error(`Search index: Pagefind did not start: ${errors.join('; ')}`);
	try {
		for (const record of records) {
			const added = await index.addCustomRecord({ ...record, language: 'en' });
			if (added.errors.length > 0) {
				throw new Error(`Search index: ${record.url}: ${added.errors.join('; ')}`);
			}
		}
		const { files, errors: failed } = await index.getFiles();
		if (failed.length > 0) throw new Error(`Search index: ${failed.join('; ')}`);
		// The search itself: Pagefind's ready-made interfaces (two thirds of the bytes) are not kept.
		return files.filter((file) => !UI_FILE.test(file.path));
	} finally {
		await pagefind.close();
	}
}

let loaded = 0;

/** Loads index files into `pagefind.js`, as the dialog loads the built index. */
export async function loadIndex(
	files: readonly { path: string; content: Uint8Array }[],
): Promise<PagefindIndex> {
	const script = files.find((file) => file.path === 'pagefind.js');
	if (!script) throw new Error('Search index: Pagefind wrote no pagefind.js');
	const base = `${MEMORY_ORIGIN}${++loaded}/`;
	for (const file of files) served.set(`${base}${file.path}`, file.content);
	const instance = (await loadRuntime(script.content)).createInstance({ basePath: base });
	// Result addresses are the records' own, on the portal: not under the index's base.
	await instance.options({ baseUrl: '/' });
	await instance.init();
	return {
		search: async (query, filters) => {
			const found = await instance.search(query, filters ? { filters } : {});
			const results = found?.results ?? [];
			return {
				total: results.length,
				hits: (count) => Promise.all(results.slice(0, count).map((result) => result.data())),
			};
		},
		destroy: async () => {
			await instance.destroy();
			for (const file of files) served.delete(`${base}${file.path}`);
		},
	};
}
