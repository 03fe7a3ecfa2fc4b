/**
 * The Markdown twins of the history pages: a view's history, commit by commit, and the access
 * changes across every view, each a page at a time as their HTML pages are. They are made from the
 * history's changes, which name a rotated key's person and a rotated configuration member, never a
 * value, so no key or configuration value can reach them.
 */
import type { CommitInfo } from '../../sources/fixture-history.ts';
import { accessChangesHref, markdownHref, viewHistoryHref, viewHref } from '../../shared/urls.ts';
import type { CommitChanges, HistoryStatus } from '../history-collection.ts';
import { describeChange, shortSubject, type HistoryEntry, type ViewChange } from '../history.ts';
import { formatShortTimestamp } from '../time.ts';
import { pageLinks, type PageSlice } from './lists.ts';
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

/** One page of the access changes across every view. */
export interface AccessChangesPage extends PageSlice<HistoryEntry> {
	/** How many access changes there are in all. */
	total: number;
	status: HistoryStatus;
}

/** The twin of one page of the access changes, as a table. */
export function accessChangesMarkdown(page: AccessChangesPage): string {
	const { currentPage, lastPage, total } = page;
	const title = 'Access changes';
	return markdownText([
		heading(1, lastPage > 1 ? `${title}, page ${currentPage} of ${lastPage}` : title),
		paragraph(
			`${total === 1 ? '1 change' : `${total} changes`} of who holds which role in which view, across every view, newest first, from the fixtures' git history. Keys and configuration values are never shown.`,
		),
		...historyNote(page.status).map((parts) => paragraph(...parts)),
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
			markdownHref(accessChangesHref(undefined, number)),
		),
	]);
}
