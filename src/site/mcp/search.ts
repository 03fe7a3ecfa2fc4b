/**
 * The portal's search for an assistant. The portal's own search is Pagefind over the built pages,
 * which needs the built site and a browser's loader; this searches the same kinds of page (views,
 * people, access pages, guides, the reference) with the same filters as the search dialog
 * (`SEARCH_FILTERS`, `FILTER_CARRIERS`), made from the secret-free snapshot, so it follows edits
 * without a build. Every query word must begin a word of the page (Pagefind matches prefixes too).
 */
import { ROLES, type Role } from '../../schemas/view.ts';
import { accessHref, guideHref, personHref, REFERENCE_HREF, viewHref } from '../../shared/urls.ts';
import { byEnvironment } from '../people.ts';
import type { PortalSnapshot } from './portal.ts';

/** The page kinds search tells apart, as the dialog's kind filter names them. */
export const SEARCH_KINDS = ['view', 'person', 'access', 'guide', 'reference'] as const;

/** A page kind. */
export type SearchKind = (typeof SEARCH_KINDS)[number];

/** The filters of the search dialog; each given one must hold. */
export interface SearchFilters {
	kind?: SearchKind | undefined;
	environment?: string | undefined;
	configuration?: string | undefined;
	api?: string | undefined;
	role?: Role | undefined;
}

/** One page as search knows it: its filters and its text. */
interface SearchPage {
	kind: SearchKind;
	title: string;
	href: string;
	labels: string;
	text: string;
	environments: readonly string[];
	configuration?: string | undefined;
	api?: string | undefined;
	roles: readonly string[];
	/** Each environment and role held together, as `environment role`. */
	access: readonly string[];
}

/** One result: the page's title, portal address, kind, labels line and a short excerpt. */
export interface SearchResult {
	title: string;
	href: string;
	kind: SearchKind;
	labels: string;
	excerpt: string;
}

/** The most results one search returns. */
export const SEARCH_LIMIT = 20;

/** Words of an excerpt around the first match. */
const EXCERPT_WORDS = 30;

/** MDX source as prose: import lines, component tags and expressions dropped. */
function mdxProse(body: string): string {
	return body
		.replace(/^(import|export) .*$/gm, ' ')
		.replace(/<[^>]*>/g, ' ')
		.replace(/\{[^}]*\}/g, ' ')
		.replace(/[#*`|>_]+/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
}

/** Every page search knows, from the snapshot. */
export function searchPages(portal: PortalSnapshot): SearchPage[] {
	const pages: SearchPage[] = [];
	for (const view of portal.views) {
		pages.push({
			kind: 'view',
			title: view.name,
			href: viewHref(view.slug),
			labels: ['View', view.environment, view.configuration, view.apiVersion]
				.filter(Boolean)
				.join(' · '),
			text: [
				view.name,
				view.slug,
				view.environment,
				view.configuration ?? '',
				view.apiVersion ?? '',
				view.statusNote,
				...view.users.map((user) => `${user.name} ${user.email} ${user.role}`),
			].join(' '),
			environments: [view.environment],
			configuration: view.configuration,
			api: view.apiVersion,
			roles: [],
			access: [],
		});
	}
	const environments = new Set<string>();
	for (const person of portal.people) {
		const groups = byEnvironment(person.memberships);
		for (const group of groups) environments.add(group.environment);
		pages.push({
			kind: 'person',
			title: person.name,
			href: personHref(person.slug),
			labels: `Person · ${person.email}`,
			text: [
				person.name,
				...person.otherNames,
				person.email,
				...person.memberships.map((m) => `${m.view} ${m.environment} ${m.role}`),
			].join(' '),
			environments: groups.map((group) => group.environment),
			roles: person.roles.map(({ role }) => role),
			access: groups.flatMap((group) =>
				group.roles.map(({ role }) => `${group.environment} ${role}`),
			),
		});
	}
	const access = (title: string, href: string, envs: string[], roles: string[]): SearchPage => ({
		kind: 'access',
		title,
		href,
		labels: title,
		text: `Access ${title} ${envs.join(' ')} ${roles.join(' ')}`,
		environments: envs,
		roles,
		access: envs.flatMap((environment) => roles.map((role) => `${environment} ${role}`)),
	});
	pages.push(access('Access · every environment and role', accessHref(), [], []));
	for (const environment of environments) {
		pages.push(access(`Access · ${environment}`, accessHref(environment), [environment], []));
		for (const role of ROLES) {
			pages.push(
				access(
					`Access · ${role} in ${environment}`,
					accessHref(environment, role),
					[environment],
					[role],
				),
			);
		}
	}
	for (const role of ROLES) {
		pages.push(
			access(`Access · ${role} in any environment`, accessHref(undefined, role), [], [role]),
		);
	}
	for (const guide of portal.guides) {
		pages.push({
			kind: 'guide',
			title: guide.title,
			href: guideHref(guide.id),
			labels: `Guide · ${guide.title}`,
			text: `${guide.title} ${guide.description} ${mdxProse(guide.body)}`,
			environments: [],
			roles: [],
			access: [],
		});
	}
	const api = portal.reference;
	pages.push({
		kind: 'reference',
		title: `${api.title} ${api.version}`,
		href: REFERENCE_HREF,
		labels: `API reference · ${api.title} ${api.version}`,
		text: [
			api.title,
			api.summary ?? '',
			api.description ?? '',
			...api.operations.flatMap((operation) => [
				operation.method,
				operation.path,
				operation.summary ?? '',
				operation.description ?? '',
				...operation.responses.flatMap((response) => [
					response.status,
					response.description,
					...response.headers.map((header) => header.name),
					...response.bodies.flatMap((body) =>
						body.rows.map((row) => `${row.field} ${row.description}`),
					),
				]),
			]),
		].join(' '),
		environments: [],
		roles: [],
		access: [],
	});
	return pages;
}

/** Whether a page passes the filters, as the dialog applies them. */
function passes(page: SearchPage, filters: SearchFilters): boolean {
	if (filters.kind && page.kind !== filters.kind) return false;
	if (filters.environment && filters.role) {
		return page.access.includes(`${filters.environment} ${filters.role}`);
	}
	if (filters.environment && !page.environments.includes(filters.environment)) return false;
	if (filters.role && !page.roles.includes(filters.role)) return false;
	if (filters.configuration && page.configuration !== filters.configuration) return false;
	if (filters.api && page.api !== filters.api) return false;
	return true;
}

/** The words of a text, lower case. */
function words(text: string): string[] {
	return text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}@._-]*/gu) ?? [];
}

/** How well a page matches the query words (0: not at all), and where the first match is. */
function score(page: SearchPage, query: readonly string[]): { score: number; at: number } {
	const title = words(page.title);
	const body = words(page.text);
	let total = 0;
	let at = -1;
	for (const term of query) {
		const inTitle = title.filter((word) => word.startsWith(term)).length;
		const index = body.findIndex((word) => word.startsWith(term));
		if (inTitle === 0 && index === -1) return { score: 0, at: -1 };
		if (at === -1 || (index !== -1 && index < at)) at = index;
		total += inTitle * 5 + body.filter((word) => word.startsWith(term)).length;
	}
	return { score: total, at };
}

/** A short excerpt of a page's text, around the first match. */
function excerpt(text: string, at: number): string {
	const parts = text.split(/\s+/).filter(Boolean);
	const start = Math.max(0, at - 3);
	const shown = parts.slice(start, start + EXCERPT_WORDS).join(' ');
	return `${start > 0 ? '… ' : ''}${shown}${start + EXCERPT_WORDS < parts.length ? ' …' : ''}`;
}

/** Searches the portal: pages matching every query word and every filter, best first. */
export function searchPortal(
	portal: PortalSnapshot,
	query: string,
	filters: SearchFilters = {},
): SearchResult[] {
	const terms = words(query);
	const hasFilter = Object.values(filters).some((value) => value !== undefined);
	const ranked = searchPages(portal)
		.filter((page) => passes(page, filters))
		.map((page) => ({ page, ...(terms.length ? score(page, terms) : { score: 1, at: 0 }) }))
		.filter(({ score: value }) => value > 0);
	if (terms.length === 0 && !hasFilter) return [];
	ranked.sort((a, b) => b.score - a.score);
	return ranked.slice(0, SEARCH_LIMIT).map(({ page, at }) => ({
		title: page.title,
		href: page.href,
		kind: page.kind,
		labels: page.labels,
		excerpt: excerpt(page.text, Math.max(at, 0)),
	}));
}
