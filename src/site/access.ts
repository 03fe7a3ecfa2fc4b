/**
 * The access overview's bounds. Without JavaScript, filtering is following a link (`accessHref` in
 * urls.ts): one page per environment, per role, and per environment and role. Every page lists
 * people, or a bounded number of one person's views, so none grows with the number of views.
 */

/** How many of a person's views in one environment their page lists; the rest are a link away. */
export const VIEWS_PER_ENVIRONMENT = 5;

/** How many views a page of one person's views in one environment lists. */
export const VIEWS_PER_PAGE = 50;

/** How many people a cell of the overview names before it links to the whole list. */
export const CELL_LIMIT = 6;

/** "1 view" / "3 views", and the like for people. */
export function count(n: number, one: string, many: string): string {
	return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

/** How many access changes a page of the access changes lists. */
export const CHANGES_PER_PAGE = 100;

/** How many commits a page of a view's history lists. */
export const HISTORY_COMMITS_PER_PAGE = 20;

/** How many of a person's latest access changes their page lists; the rest are a link away. */
export const PERSON_CHANGES_LIMIT = 10;

/** How many rows a page of what changed since a tag lists. */
export const SINCE_ROWS_PER_PAGE = 100;
