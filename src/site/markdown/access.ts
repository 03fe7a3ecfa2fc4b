/**
 * The Markdown twins of the access pages: the overview of environments by role, and the pages of
 * one environment, one role, and both. Like their HTML pages they list people, never views, a
 * page at a time when given one, so none grows with views or people; a person holds no key.
 */
import { ROLES, type Role } from '../../schemas/view.ts';
import {
	ACCESS_CHANGES_HREF,
	ACCESS_CSV_HREF,
	ACCESS_SINCE_HREF,
	accessHref,
	markdownHref,
	personHref,
} from '../../shared/urls.ts';
import { CELL_LIMIT, count } from '../access.ts';
import type { AccessEntry } from '../people.ts';
import type { ReviewPage } from '../review-pages.ts';
import { pageLinks, pageRange, pagedTitle, type PageSlice } from './lists.ts';
import {
	bulletList,
	heading,
	link,
	markdownText,
	paragraph,
	strong,
	table,
	type Inline,
} from './mdast.ts';

/** A link to a person's twin. */
const personLink = (person: { slug: string; name: string }) =>
	link(markdownHref(personHref(person.slug)), person.name);

/** The access pages' filters, as links to the twins of the other pages. */
function filters(environments: readonly string[]) {
	return paragraph(
		'By environment: ',
		...environments.flatMap((environment, index) => [
			index > 0 ? ', ' : '',
			link(markdownHref(accessHref(environment)), environment),
		]),
		'. By role: ',
		...ROLES.flatMap((role, index) => [
			index > 0 ? ', ' : '',
			link(markdownHref(accessHref(undefined, role)), role),
		]),
		'. Every person in every view: ',
		link(ACCESS_CSV_HREF, 'access.csv'),
		'.',
	);
}

/** What the access overview counts, and the review pages it links. */
export interface AccessOverview {
	people: number;
	views: number;
	environments: readonly string[];
	entries: readonly AccessEntry[];
	reviews: readonly ReviewPage[];
}

/** The twin of the access overview: a table of environments by role, each cell bounded. */
export function accessMarkdown({
	people,
	views,
	environments,
	entries,
	reviews,
}: AccessOverview): string {
	const cell = (environment: string, role: Role): Inline[] => {
		const holders = entries.filter(
			(entry) => entry.environment === environment && entry.role === role,
		);
		const href = markdownHref(accessHref(environment, role));
		return [
			...holders
				.slice(0, CELL_LIMIT)
				.flatMap((holder, index) => [index > 0 ? ', ' : '', personLink(holder)]),
			holders.length > 0 ? ' · ' : '',
			holders.length > CELL_LIMIT
				? link(href, `all ${holders.length} ${role}s in ${environment}`)
				: link(href, count(holders.length, 'person', 'people')),
		];
	};
	return markdownText([
		heading(1, 'Access by environment and role'),
		paragraph(
			`${count(people, 'person', 'people')} in ${count(views, 'view', 'views')} across ${count(environments.length, 'environment', 'environments')}. Each cell names who holds that role in at least one of the environment's views.`,
		),
		filters(environments),
		paragraph(
			"What changed, from the fixtures' git history: ",
			link(markdownHref(ACCESS_CHANGES_HREF), 'every access change'),
			', and ',
			link(markdownHref(ACCESS_SINCE_HREF), 'what changed since a tag'),
			'.',
		),
		table(
			['Environment', ...ROLES],
			environments.map((environment) => [
				[link(markdownHref(accessHref(environment)), environment)],
				...ROLES.map((role) => cell(environment, role)),
			]),
		),
		heading(2, 'Review flags'),
		bulletList(
			reviews.map(({ href, title, found }) => [
				link(markdownHref(href), title),
				`: ${found} found`,
			]),
		),
	]);
}

/** One person in one environment: how many of its views they are in, and their roles there. */
export interface EnvironmentPerson {
	slug: string;
	name: string;
	email: string;
	/** Their roles there in words, e.g. "admin in 2 views, viewer in 1". */
	roles: string;
	/** Whether they hold more than one role there. */
	rolesDiffer: boolean;
}

/** The whole list as its one page, for a twin given no page. */
function onePage<T>(items: readonly T[]): PageSlice<T> {
	return { currentPage: 1, lastPage: 1, start: 0, data: items };
}

/**
 * The twin of an environment's access page: everyone in its views, with their roles there; given
 * `page`, only that page's people, with links to the other pages.
 */
export function accessEnvironmentMarkdown(
	environment: string,
	environments: readonly string[],
	people: readonly EnvironmentPerson[],
	page: PageSlice<EnvironmentPerson> = onePage(people),
): string {
	return markdownText([
		heading(1, pagedTitle(`Who has access in ${environment}`, page)),
		paragraph(
			`${count(people.length, 'person', 'people')} in ${environment}'s views, with the roles they hold there${pageRange(page, 'people')}. Who holds one role: `,
			...ROLES.flatMap((role, index) => [
				index > 0 ? ', ' : '',
				link(markdownHref(accessHref(environment, role)), role),
			]),
			'.',
		),
		filters(environments),
		table(
			['Person', 'Email', `Roles in ${environment}`],
			page.data.map((person) => [
				[personLink(person)],
				[person.email],
				[person.roles, ...(person.rolesDiffer ? [strong(' (roles differ)')] : [])],
			]),
		),
		...pageLinks(page.currentPage, page.lastPage, (number) =>
			markdownHref(accessHref(environment, undefined, number)),
		),
	]);
}

/** The twin of the page of one role in one environment; given `page`, only that page's people. */
export function accessEnvironmentRoleMarkdown(
	environment: string,
	role: Role,
	environments: readonly string[],
	holders: readonly AccessEntry[],
	total: number,
	page: PageSlice<AccessEntry> = onePage(holders),
): string {
	return markdownText([
		heading(1, pagedTitle(`Who is ${role} in ${environment}`, page)),
		paragraph(
			`${count(holders.length, 'person holds', 'people hold')} the role ${role} in at least one of ${environment}'s ${count(total, 'view', 'views')}${pageRange(page, 'people')}.`,
		),
		filters(environments),
		table(
			['Person', 'Email', 'Views with this role'],
			page.data.map((holder) => [
				[personLink(holder)],
				[holder.email],
				[`${holder.views} of ${total}`],
			]),
		),
		...pageLinks(page.currentPage, page.lastPage, (number) =>
			markdownHref(accessHref(environment, role, number)),
		),
	]);
}

/**
 * The twin of the page of one role, environment by environment; given `page`, only that page's
 * rows.
 */
export function accessRoleMarkdown(
	role: Role,
	environments: readonly string[],
	holders: readonly AccessEntry[],
	page: PageSlice<AccessEntry> = onePage(holders),
): string {
	const people = new Set(holders.map(({ slug }) => slug)).size;
	return markdownText([
		heading(1, pagedTitle(`Who is ${role}, by environment`, page)),
		paragraph(
			`${count(people, 'person holds', 'people hold')} the role ${role} in at least one view${pageRange(page, 'rows')}.`,
		),
		filters(environments),
		table(
			['Environment', 'Person', 'Email', 'Views with this role'],
			page.data.map((holder) => [
				[link(markdownHref(accessHref(holder.environment, role)), holder.environment)],
				[personLink(holder)],
				[holder.email],
				[String(holder.views)],
			]),
		),
		...pageLinks(page.currentPage, page.lastPage, (number) =>
			markdownHref(accessHref(undefined, role, number)),
		),
	]);
}
