/**
 * The Markdown twins of the people pages: a person's page (each environment with its first few
 * views) and a page of their views in one environment. A person holds names, emails and roles,
 * never a key (see people.ts), and the twins are bounded as the pages are.
 */
import {
	ACCESS_CSV_HREF,
	accessHref,
	markdownHref,
	personEnvironmentHref,
	personHref,
	viewHref,
} from '../../shared/urls.ts';
import { count, VIEWS_PER_ENVIRONMENT } from '../access.ts';
import {
	describeRoles,
	roleDiffers,
	type EnvironmentGroup,
	type Membership,
	type Person,
} from '../people.ts';
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

/** A table of a person's views: each view's name (a link to its twin), label and role. */
function membershipTable(memberships: readonly Membership[]) {
	return table(
		['View', 'Configuration label', 'Role'],
		memberships.map((membership) => [
			[link(markdownHref(viewHref(membership.slug)), membership.view)],
			[membership.configuration ?? 'none'],
			[membership.role],
		]),
	);
}

/** The twin of a person's page. */
export function personMarkdown(person: Person, groups: readonly EnvironmentGroup[]): string {
	const otherNames: Inline[] = person.otherNames.flatMap((name, index) => [
		index > 0 ? ', ' : '',
		`“${name}” (${count(
			person.memberships.filter((membership) => membership.name === name).length,
			'view',
			'views',
		)})`,
	]);
	return markdownText([
		heading(1, person.name),
		paragraph(`Person, email ${person.email}.`),
		...(person.otherNames.length > 0
			? [
					paragraph(
						'Also appears as ',
						...otherNames,
						'. The page gives the name most of their views use.',
					),
				]
			: []),
		paragraph(
			`In ${count(person.memberships.length, 'view', 'views')} across ${count(groups.length, 'environment', 'environments')}: ${describeRoles(person.roles)}.`,
		),
		...(roleDiffers(person)
			? [
					paragraph(
						strong('Their role differs between views.'),
						" Each view's role is in the tables below.",
					),
				]
			: []),
		...groups.flatMap((group) => [
			heading(2, link(markdownHref(accessHref(group.environment)), group.environment)),
			paragraph(
				describeRoles(group.roles),
				...(group.roles.length > 1 ? [strong(' (roles differ)')] : []),
			),
			membershipTable(group.memberships.slice(0, VIEWS_PER_ENVIRONMENT)),
			...(group.memberships.length > VIEWS_PER_ENVIRONMENT
				? [
						paragraph(
							link(
								markdownHref(personEnvironmentHref(person.slug, group.environment)),
								`All ${count(group.memberships.length, 'view', 'views')} in ${group.environment}`,
							),
						),
					]
				: []),
		]),
		paragraph(
			link(ACCESS_CSV_HREF, 'access.csv'),
			': every person in every view, for a spreadsheet. No key, no configuration value.',
		),
	]);
}

/** One page of a person's views in one environment. */
export interface PersonEnvironmentPage {
	name: string;
	slug: string;
	environment: string;
	/** Their roles in the environment, in words ("admin in 2 views, viewer in 1"). */
	summary: string;
	memberships: readonly Membership[];
	/** How many views of the environment they are in. */
	total: number;
	currentPage: number;
	lastPage: number;
	/** The index of this page's first view in the whole list, from 0. */
	start: number;
}

/** The twin of one page of a person's views in one environment. */
export function personEnvironmentMarkdown(page: PersonEnvironmentPage): string {
	const { name, slug, environment, currentPage, lastPage } = page;
	const pageHref = (number: number): string =>
		markdownHref(personEnvironmentHref(slug, environment, number));
	const first = page.start + 1;
	const last = page.start + page.memberships.length;
	return markdownText([
		heading(1, `${name} in ${environment}`),
		paragraph(
			`${count(page.total, 'view', 'views')}: ${page.summary}. Views ${first}–${last}`,
			lastPage > 1 ? ` (page ${currentPage} of ${lastPage}).` : '.',
		),
		membershipTable(page.memberships),
		bulletList([
			...(currentPage > 1 ? [[link(pageHref(currentPage - 1), 'Previous page')]] : []),
			...(currentPage < lastPage ? [[link(pageHref(currentPage + 1), 'Next page')]] : []),
			[link(markdownHref(personHref(slug)), `${name}'s page`), ': every environment they are in'],
		]),
	]);
}
