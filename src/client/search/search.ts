/** What the search dialog decides without a DOM: its status line, its results and its keys. */

/** "1 result" / "3 results" / "No results", for the dialog's live status line. */
export function resultCount(count: number, query: string): string {
	if (count === 0) return query ? `No results for "${query}"` : 'No pages match these filters';
	return count === 1 ? '1 result' : `${count} results`;
}

/** A search result as the dialog shows it. */
export interface ResultData {
	/** A path on this site, starting with one `/`. */
	url: string;
	title: string;
	labels: string;
	excerpt: string;
}

/** A path on this site: one `/`, then anything but a second `/` or `\\` (which would leave it). */
const SAME_SITE_PATH = /^\/(?![/\\])/;

/** Reads a result Pagefind returned, refusing anything not shaped like one or leading off the site. */
export function readResult(data: unknown): ResultData | undefined {
	if (typeof data !== 'object' || data === null) return undefined;
	const record = data as Record<string, unknown>;
	const meta = (
		typeof record['meta'] === 'object' && record['meta'] !== null ? record['meta'] : {}
	) as Record<string, unknown>;
	const url = record['url'];
	if (typeof url !== 'string' || !SAME_SITE_PATH.test(url)) return undefined;
	const text = (value: unknown): string => (typeof value === 'string' ? value : '');
	return {
		url,
		title: text(meta['title']) || url,
		labels: text(meta['labels']),
		excerpt: text(record['excerpt']),
	};
}

/** No result is active: the query field is, as far as the reader can tell. */
export const NO_ACTIVE_RESULT = -1;

/**
 * Which result a key press in the query field makes active (the WAI-ARIA combobox pattern with a
 * listbox popup): ArrowDown moves down the results and stops at the last, ArrowUp moves up and
 * from the first back to the query field. `undefined` when the key is not the list's to handle,
 * so the field keeps its own behaviour (ArrowUp with no active result moves the caret).
 */
export function moveActiveResult(key: string, active: number, count: number): number | undefined {
	if (count === 0) return undefined;
	if (key === 'ArrowDown') return Math.min(Math.max(active, NO_ACTIVE_RESULT) + 1, count - 1);
	if (key === 'ArrowUp' && active > NO_ACTIVE_RESULT) return Math.min(active, count) - 1;
	return undefined;
}

/** A further bundle's folder as the search index lists it: `bundle-2/`. */
const BUNDLE_FOLDER = /^bundle-[1-9][0-9]*\/$/;

/**
 * The further bundles of the search index, from its list of them (SEARCH_BUNDLES_FILE, read as
 * JSON): their folders inside the index's, to merge into the first. Throws, naming what was
 * found, on a list that is not one of such folders: a bundle left out would lose results unseen.
 */
export function listedBundles(listed: unknown): string[] {
	if (
		!Array.isArray(listed) ||
		!listed.every((folder) => typeof folder === 'string' && BUNDLE_FOLDER.test(folder))
	) {
		throw new Error(
			`The search index's list of bundles is not a list of folders like "bundle-2/": ${JSON.stringify(listed)?.slice(0, 80) ?? String(listed)}`,
		);
	}
	return listed as string[];
}
