/**
 * The Markdown twins of the access pages: the overview of environments by role, and the pages of
 * one environment, one role, and both. Like their HTML pages they list people, never views, so
 * none grows with the number of views; a person holds no key.
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

/** The twin of an environment's access page: everyone in its views, with their roles there. */
export function accessEnvironmentMarkdown(
	environment: string,
	environments: readonly string[],
	people: readonly EnvironmentPerson[],
): string {
	return markdownText([
		heading(1, `Who has access in ${environment}`),
		paragraph(
			`${count(people.length, 'person', 'people')} in ${environment}'s views, with the roles they hold there. Who holds one role: `,
			...ROLES.flatMap((role, index) => [
				index > 0 ? ', ' : '',
				link(markdownHref(accessHref(environment, role)), role),
			]),
			'.',
		),
		filters(environments),
		table(
			['Person', 'Email', `Roles in ${environment}`],
			people.map((person) => [
				[personLink(person)],
				[person.email],
				[person.roles, ...(person.rolesDiffer ? [strong(' (roles differ)')] : [])],
			]),
		),
	]);
}

/** The twin of the page of one role in one environment. */
export function accessEnvironmentRoleMarkdown(
	environment: string,
	role: Role,
	environments: readonly string[],
	holders: readonly AccessEntry[],
	total: number,
): string {
	return markdownText([
		heading(1, `Who is ${role} in ${environment}`),
		paragraph(
			`${count(holders.length, 'person holds', 'people hold')} the role ${role} in at least one of ${environment}'s ${count(total, 'view', 'views')}.`,
		),
		filters(environments),
		table(
			['Person', 'Email', 'Views with this role'],
			holders.map((holder) => [
				[personLink(holder)],
				[holder.email],
				[`${holder.views} of ${total}`],
			]),
		),
	]);
}

/** The twin of the page of one role, environment by environment. */
export function accessRoleMarkdown(
	role: Role,
	environments: readonly string[],
	holders: readonly AccessEntry[],
): string {
	const people = new Set(holders.map(({ slug }) => slug)).size;
	return markdownText([
		heading(1, `Who is ${role}, by environment`),
		paragraph(
			`${count(people, 'person holds', 'people hold')} the role ${role} in at least one view.`,
		),
		filters(environments),
		table(
			['Environment', 'Person', 'Email', 'Views with this role'],
			holders.map((holder) => [
				[link(markdownHref(accessHref(holder.environment, role)), holder.environment)],
				[personLink(holder)],
				[holder.email],
				[String(holder.views)],
			]),
		),
	]);
}
