/**
 * The views as the pages use them: entries with slug and file, in file-name order (as the fixture
 * reader and the mock read them) and in display order. A build's come from the views folder
 * once, for every page: its fixtures never change while it runs (`view-files.ts`). The dev
 * server's come from the views collection, whose loader reloads a changed fixture: each is
 * computed once per state of the collection, not once per route, by comparing the collection's
 * entries with those it was computed from (the same data objects while the store is unchanged;
 * new ones after a reload).
 */
import { getCollection } from 'astro:content';
import type { ViewEntry } from '../sources/fixtures.ts';
import { readSettings } from '../sources/settings.ts';
import { viewsOfBuild } from './view-files.ts';
import { compareViews, viewName } from '../shared/views.ts';
import { publicView, type PublicView } from './public-view.ts';
import { sidebarIndex, type IndexGroup, type IndexedView } from './view-index.ts';

/** The views of a build or of one state of the collection: shared by every page, not to change. */
interface ViewCollection {
	/** The dev server's: the entries as Astro gives them, to tell whether the collection changed. */
	from?: readonly { id: string; data: unknown }[];
	/** Every view, in file-name order. */
	entries: readonly ViewEntry[];
	/** Every view, ordered by environment, configuration label and slug. */
	sorted: readonly ViewEntry[];
	/** The sorted views without their keys and configuration, for the Markdown twins. */
	sortedPublic?: readonly PublicView[];
	/** What a view page's sidebar lists, by the view's slug (see `sidebarIndex`). */
	sidebar?: (slug: string) => IndexGroup<IndexedView>[];
}

let current: ViewCollection | undefined;

/** Whether Astro's entries are the ones a collection was computed from. */
function sameEntries(
	entries: readonly { id: string; data: unknown }[],
	from: readonly { id: string; data: unknown }[],
): boolean {
	return (
		entries.length === from.length &&
		entries.every(
			(entry, index) => entry.id === from[index]?.id && entry.data === from[index]?.data,
		)
	);
}

/** A build's views, taken once (see the module's comment). */
let built: Promise<ViewCollection> | undefined;

/**
 * The views of a build, taken at the first call. Asking Astro again on every call copied and
 * compared every entry, a pass over every view for each page (at 2,000 views of 20,000 pages, a
 * tenth of the build's time).
 */
function builtViews(): Promise<ViewCollection> {
	built ??= viewsOfBuild(readSettings().viewsDir).then((entries) => ({
		entries,
		sorted: [...entries].sort(compareViews),
	}));
	return built;
}

/** Orders two views by their fixtures' file names, in code units (as the fixture reader does). */
function byFileName(a: ViewEntry, b: ViewEntry): number {
	const [first, second] = [`${a.slug}.json`, `${b.slug}.json`];
	return first < second ? -1 : first > second ? 1 : 0;
}

/** The views as they are now: a build's, or the dev server's collection, again when it changed. */
async function viewCollection(): Promise<ViewCollection> {
	if (import.meta.env.PORTAL_BUILT_PAGES) return builtViews();
	const from = await getCollection('views');
	if (current?.from && sameEntries(from, current.from)) return current;
	// Astro gives its entries in its own order (it sorts the ids it writes by locale): put back
	// the reader's, which a build and the mock have.
	const entries = from
		.map(({ id, data, filePath }) => ({ slug: id, file: filePath ?? id, view: data }))
		.sort(byFileName);
	current = { from, entries, sorted: [...entries].sort(compareViews) };
	return current;
}

/** Every view, as fixture entries, in file-name order. */
export async function viewEntries(): Promise<readonly ViewEntry[]> {
	return (await viewCollection()).entries;
}

/** Every view, ordered by environment, configuration label and slug, as the pages list them. */
export async function sortedViews(): Promise<readonly ViewEntry[]> {
	return (await viewCollection()).sorted;
}

/**
 * Every view without its keys and configuration (see public-view.ts), in the order the pages list
 * views: what the Markdown twins and llms.txt are made from, projected once per state.
 */
export async function sortedPublicViews(): Promise<readonly PublicView[]> {
	const collection = await viewCollection();
	collection.sortedPublic ??= collection.sorted.map(publicView);
	return collection.sortedPublic;
}

/**
 * What the sidebar of a view's page lists (see view-index.ts), worked out as its page is built
 * from the views grouped once per state: not made for every view up front and held in its page's
 * props for the whole build.
 */
export async function viewSidebar(slug: string): Promise<IndexGroup<IndexedView>[]> {
	const collection = await viewCollection();
	collection.sidebar ??= sidebarIndex(
		collection.sorted.map(({ slug: viewSlug, view }) => ({
			slug: viewSlug,
			name: viewName(view),
			environment: view.environment,
			apiVersion: view.apiVersion,
		})),
	);
	return collection.sidebar(slug);
}
