/**
 * The access overview's addresses and bounds. Without JavaScript, filtering is following a link:
 * one page per environment, per role, and per environment and role. Every page lists people, or a
 * bounded number of one person's views, so none grows with the number of views.
 */
import type { Role } from '../schemas/view.ts';

/** How many of a person's views in one environment their page lists; the rest are a link away. */
export const VIEWS_PER_ENVIRONMENT = 5;

/** How many views a page of one person's views in one environment lists. */
export const VIEWS_PER_PAGE = 50;

/** How many people a cell of the overview names before it links to the whole list. */
export const CELL_LIMIT = 6;

/** The access page for an environment, a role, both or neither. */
export function accessHref(environment?: string, role?: Role): string {
	if (environment && role) return `/access/environments/${environment}/${role}/`;
	if (environment) return `/access/environments/${environment}/`;
	if (role) return `/access/roles/${role}/`;
	return '/access/';
}

/** The address of page `page` (from 1) of a person's views in one environment. */
export function personEnvironmentHref(person: string, environment: string, page = 1): string {
	return `/people/${person}/${environment}/${page > 1 ? `${page}/` : ''}`;
}

/** Splits a list into pages of `size`; an empty list is one empty page. */
export function paginate<T>(items: readonly T[], size: number): T[][] {
	if (size < 1) throw new Error(`A page holds at least one item, not ${size}`);
	const pages: T[][] = [];
	for (let start = 0; start < items.length; start += size)
		pages.push(items.slice(start, start + size));
	return pages.length > 0 ? pages : [[]];
}

/** "1 view" / "3 views", and the like for people. */
export function count(n: number, one: string, many: string): string {
	return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}
