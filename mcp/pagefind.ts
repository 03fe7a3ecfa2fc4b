/**
 * Pagefind in the MCP server's own process: the records of the portal's searched pages are indexed
 * by Pagefind's Node API (`createIndex`, `addCustomRecord`, `getFiles`, as the build's
 * `writeSearchIndex` indexes the built pages), in memory, and searched by the same `pagefind.js`
 * the search dialog loads, run in Node (Pagefind supports Node since 1.4). `pagefind.js` fetches
 * its index files with the global `fetch`; the files are answered from memory under an address on
 * the reserved `.invalid` domain, which no request can reach, and every other request goes to
 * `fetch` as before.
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

let fetchInstalled = false;

/** Answers `pagefind.js`'s requests for the in-memory files; passes every other request on. */
function installMemoryFetch(): void {
	if (fetchInstalled) return;
	fetchInstalled = true;
	const passOn = globalThis.fetch;
	globalThis.fetch = async (input, init) => {
		const address = input instanceof Request ? input.url : String(input);
		if (!address.startsWith(MEMORY_ORIGIN)) return passOn(input, init);
		const bytes = served.get(address.replace(/[?#].*$/, ''));
		if (!bytes) return new Response(null, { status: 404 });
		const type = address.includes('/wasm.') ? 'application/wasm' : 'application/octet-stream';
		return new Response(new Uint8Array(bytes), { headers: { 'content-type': type } });
	};
}

let runtime: Promise<PagefindModule> | undefined;

/** `pagefind.js`, from the files of an index (the same for every index of one Pagefind version). */
function loadRuntime(script: Uint8Array): Promise<PagefindModule> {
	runtime ??= import(
		/* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(script).toString('base64')}`
	) as Promise<PagefindModule>;
	return runtime;
}

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
		return files;
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
	installMemoryFetch();
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
