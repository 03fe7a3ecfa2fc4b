/**
 * The access overview's bounds. Without JavaScript, filtering is following a link (`accessHref` in
 * urls.ts): one list per environment, per role, and per environment and role. Every page lists a
 * bounded number of people, or of one person's views, so none grows with views or people.
 */

/** How many of a person's views in one environment their page lists; the rest are a link away. */
export const VIEWS_PER_ENVIRONMENT = 5;

/** How many views a page of one person's views in one environment lists. */
export const VIEWS_PER_PAGE = 50;

/**
 * How many rows a page of one environment's, one role's or one role in one environment's people
 * lists, so none grows with the number of people; the rest are on the next pages.
 */
export const PEOPLE_PER_PAGE = 100;

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
