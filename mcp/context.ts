/**
 * What every tool and resource of the MCP server is registered with: the portal's reader, the
 * server's options, and the tools' code, each module loaded by the first call that needs it, so
 * that `initialize` and `tools/list` are answered from light imports alone.
 */
import type { MockAddresses } from './places.ts';
import type { PortalReader } from './portal.ts';
import type { SearchCacheOptions, SearchIndex } from './search-index.ts';

/** What the server is built with, beside the reader. */
export interface PortalServerOptions {
	/** The package version the server reports. */
	version: string;
	/** The local mock's address, `call_mock`'s default. */
	localMock: string;
	/** The mocks `call_mock` may send a key to: the portal's, and those MCP_ALLOWED_MOCKS lists. */
	mocks: MockAddresses;
	/** Where the search index is kept between starts; undefined: in this process's memory only. */
	searchCache?: SearchCacheOptions | undefined;
}

/** What a tool's registration is given. */
export interface ToolContext {
	reader: PortalReader;
	options: PortalServerOptions;
	/** The portal's search index, made or read from the cache on the first search. */
	searchIndex: SearchIndex;
}

/** A module loaded on first use, once; a failed load is tried again on the next use. */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
	let loading: Promise<T> | undefined;
	return () => {
		loading ??= load().catch((error: unknown) => {
			loading = undefined;
			throw error;
		});
		return loading;
	};
}

/** The tools' code, each module loaded by the first call that needs it. */
export const code = {
	directory: onFirstUse(() => import('./directory.ts')),
	pages: onFirstUse(() => import('./pages.ts')),
	search: onFirstUse(() => import('./search.ts')),
	callMock: onFirstUse(() => import('./call-mock.ts')),
	checkAnswer: onFirstUse(() => import('./check-answer.ts')),
	guideText: onFirstUse(() => import('./guide-text.ts')),
};

/**
 * A reader made on its first use, by `load`: the entry point hands the portal's reader in this
 * way, so that its sources' code (the fixtures' reader, the contract's parser) loads with the
 * first tool call, not before `initialize`.
 */
export function readerOnFirstUse(load: () => Promise<PortalReader>): PortalReader {
	const reader = onFirstUse(load);
	return {
		directory: async () => (await reader()).directory(),
		snapshot: async () => (await reader()).snapshot(),
		searchKey: async () => (await reader()).searchKey(),
		entries: async () => (await reader()).entries(),
		accessHistory: async () => (await reader()).accessHistory(),
		contractChanges: async () => (await reader()).contractChanges(),
	};
}
