/** The views collection as the pages use it: entries with slug and file, and in reading order. */
import { getCollection } from 'astro:content';
import type { ViewEntry } from '../sources/fixtures.ts';
import { compareViews } from '../shared/views.ts';

/** Every view of the collection, as fixture entries, in the collection's order. */
export async function viewEntries(): Promise<ViewEntry[]> {
	return (await getCollection('views')).map(({ id, data, filePath }) => ({
		slug: id,
		file: filePath ?? id,
		view: data,
	}));
}

/** Every view, ordered by environment, configuration label and slug, as the pages list them. */
export async function sortedViews(): Promise<ViewEntry[]> {
	return (await viewEntries()).sort(compareViews);
}
