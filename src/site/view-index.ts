/**
 * What the sidebar lists. A small portal lists every view; past FULL_INDEX_LIMIT views a view page
 * lists only a window of its own environment, so each page stays the same size however many
 * views there are (listing all of them on every page made the build grow with their square).
 */

/** Up to this many views, every page's sidebar lists them all. */
export const FULL_INDEX_LIMIT = 40;

/** How many neighbours on each side of the current view a large portal's sidebar lists. */
export const WINDOW_RADIUS = 7;

/** A view as the sidebar needs it. */
export interface IndexedView {
	slug: string;
	/** The view's name, the link's text. */
	name: string;
	environment: string;
	apiVersion?: string | undefined;
}

/** One environment in the sidebar: its views shown, and how many it has in all. */
export interface IndexGroup<V extends IndexedView> {
	environment: string;
	total: number;
	shown: V[];
}

/**
 * Groups views (already in display order) once, and returns what the sidebar of each page
 * lists: every view in a small portal, a window of the current environment in a large one.
 * Grouping once keeps a whole build linear in the number of views.
 */
export function sidebarIndex<V extends IndexedView>(
	views: readonly V[],
): (current: string | undefined) => IndexGroup<V>[] {
	const groups = new Map<string, V[]>();
	for (const view of views) {
		const members = groups.get(view.environment);
		if (members) members.push(view);
		else groups.set(view.environment, [view]);
	}
	const all = [...groups].map(([environment, members]) => ({
		environment,
		total: members.length,
		shown: members,
	}));
	if (views.length <= FULL_INDEX_LIMIT) return () => all;
	const place = new Map<string, { environment: string; index: number }>();
	for (const { environment, shown } of all) {
		shown.forEach(({ slug }, index) => place.set(slug, { environment, index }));
	}
	return (current) => {
		const here = current === undefined ? undefined : place.get(current);
		return all.map((group) => {
			if (!here || group.environment !== here.environment) return { ...group, shown: [] };
			const start = Math.max(0, here.index - WINDOW_RADIUS);
			return { ...group, shown: group.shown.slice(start, here.index + WINDOW_RADIUS + 1) };
		});
	};
}
