/**
 * The Markdown twins of the history pages: a view's history, commit by commit, and the access
 * changes across every view, each a page at a time as their HTML pages are. They are made from the
 * history's changes, which name a rotated key's person and a rotated configuration member, never a
 * value, so no key or configuration value can reach them.
 */
import type { CommitInfo } from '../../sources/fixture-history.ts';
import {
	accessChangesHref,
	markdownHref,
	viewHistoryHref,
	viewHref,
	type ChangesFilter,
} from '../../shared/urls.ts';
import { count } from '../access.ts';
import type { ChangeFacets } from '../change-lists.ts';
import type { CommitChanges, HistoryStatus } from '../history-collection.ts';
import { describeChange, shortSubject, type HistoryEntry, type ViewChange } from '../history.ts';
import { formatShortTimestamp } from '../time.ts';
import {
	commaLinks,
	htmlPageLink,
	pagedTitle,
	pageLinks,
	pageRange,
	type PageSlice,
} from './lists.ts';
import {
	bulletList,
	heading,
	inlineCode,
	link,
	markdownText,
	paragraph,
	strong,
	table,
	type Inline,
} from './mdast.ts';

/** Where the history comes from and where it stops, as the HTML pages' note says it. */
export function historyNote(status: HistoryStatus): Inline[][] {
	if (!status.available)
		return [[strong('History unavailable:'), ` ${status.reason}. Only today's access is shown.`]];
	return [
		...(status.shallow
			? [
					[
						strong(`History from ${status.start.slice(0, 10)} on; the clone is shallow.`),
						' Changes before then are not shown (',
						inlineCode('git fetch --unshallow'),
						' fetches them).',
					],
				]
			: []),
		...(status.dirty && status.head
			? [
					[
						'The fixtures differ from commit ',
						inlineCode(status.head.short),
						': changes not committed yet are not in this history.',
					],
				]
			: []),
	];
}

/** A commit as a line: short name, subject, author. */
function commitLine(commit: CommitInfo): Inline[] {
	return [inlineCode(commit.short), ` ${shortSubject(commit.subject)} by ${commit.author}`];
}

/** A change as a line: the person it concerns, if any, then what changed. */
function changeLine(change: ViewChange): Inline[] {
	const who = change.person ? `${change.person.name} (${change.person.email}): ` : '';
	return [`${who}${describeChange(change)}`];
}

/** One page of a view's history. */
export interface ViewHistoryPage extends PageSlice<CommitChanges> {
	slug: string;
	name: string;
	/** How many commits changed the view in all. */
	total: number;
	status: HistoryStatus;
	/** Whether the view's fixture is in any commit at all. */
	committed: boolean;
}

/** The twin of one page of a view's history. */
export function viewHistoryMarkdown(page: ViewHistoryPage): string {
	const { slug, name, currentPage, lastPage, total } = page;
	const title = `History of ${name}`;
	const shown = page.data.length;
	return markdownText([
		heading(1, lastPage > 1 ? `${title}, page ${currentPage} of ${lastPage}` : title),
		paragraph(
			`${total === 1 ? '1 commit' : `${total} commits`} changed the view's fixture `,
			inlineCode(`${slug}.json`),
			', newest first',
			lastPage > 1
				? ` (commits ${page.start + 1}–${page.start + shown} on page ${currentPage} of ${lastPage})`
				: '',
			'. Keys and configuration values are never shown: a rotation names the person or the member. The view: ',
			link(markdownHref(viewHref(slug)), name),
			'.',
		),
		...historyNote(page.status).map((parts) => paragraph(...parts)),
		...(page.status.available && total === 0
			? [
					paragraph(
						page.committed
							? 'No commit changed this view in the history there is.'
							: "No commit holds this view's fixture yet: it is not committed.",
					),
				]
			: []),
		...page.data.flatMap(({ commit, changes }) => [
			heading(2, formatShortTimestamp(commit.date)),
			paragraph(...commitLine(commit)),
			bulletList(changes.map(changeLine)),
		]),
		...pageLinks(currentPage, lastPage, (number) => markdownHref(viewHistoryHref(slug, number))),
	]);
}

/** One page of the access changes, across every view or filtered one way. */
export interface AccessChangesPage extends PageSlice<HistoryEntry> {
	/** How many access changes the list holds in all. */
	total: number;
	status: HistoryStatus;
	/** What the list is filtered by; undefined for every change. */
	filter: ChangesFilter;
	/** What the filter is called in the title, e.g. "in production", "role admin". */
	label: string | undefined;
	/** The filters there are, each linked to its list. */
	facets: ChangeFacets;
}

/** The access changes' filters, as links to their twins, as the HTML page's filter links. */
function changeFilters({ environments, roles, kinds }: ChangeFacets) {
	const twin = (filter: ChangesFilter) => markdownHref(accessChangesHref(filter));
	return paragraph(
		link(twin(undefined), 'Every change'),
		'. By environment: ',
		...commaLinks(environments.map((environment) => [twin({ environment }), environment])),
		'. By role: ',
		...commaLinks(roles.map((role) => [twin({ role }), role])),
		'. By kind: ',
		...commaLinks(kinds.map((kind) => [twin({ kind }), kind])),
		'.',
	);
}

/** Which changes a list holds, in words: "in the environment production", "of the kind granted". */
function filterPhrase(filter: ChangesFilter, label: string | undefined): string {
	if (filter === undefined) return 'across every view';
	if ('environment' in filter) return `in the environment ${filter.environment}`;
	if ('role' in filter) return `that concern the role ${filter.role}`;
	if ('kind' in filter) return `of the kind ${filter.kind}`;
	return `of ${label ?? filter.person}`;
}

/** The twin of one page of the access changes, as a table, filtered one way or not at all. */
export function accessChangesMarkdown(page: AccessChangesPage): string {
	const { currentPage, lastPage, total, filter, label } = page;
	const title = label === undefined ? 'Access changes' : `Access changes: ${label}`;
	return markdownText([
		heading(1, pagedTitle(title, page)),
		paragraph(
			`${count(total, 'change', 'changes')} of who holds which role in which view, `,
			filterPhrase(filter, label),
			", newest first, from the fixtures' git history",
			pageRange(page, 'changes'),
			'. Keys and configuration values are never shown: a rotation names the person or the member.',
		),
		...historyNote(page.status).map((parts) => paragraph(...parts)),
		changeFilters(page.facets),
		table(
			['Date', 'Person', 'Change', 'View', 'Commit'],
			page.data.map((entry) => [
				[formatShortTimestamp(entry.commit.date)],
				[entry.person ? `${entry.person.name} (${entry.person.email})` : ''],
				[describeChange(entry)],
				[`${entry.view} (${entry.slug})`],
				commitLine(entry.commit),
			]),
		),
		...pageLinks(currentPage, lastPage, (number) =>
			markdownHref(accessChangesHref(filter, number)),
		),
		htmlPageLink(accessChangesHref(filter, currentPage)),
	]);
}
