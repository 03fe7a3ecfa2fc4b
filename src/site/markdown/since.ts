/**
 * The Markdown twins of what changed in access since a tag: the list of tags, and each tag's net
 * difference with today, a page at a time as the HTML pages are. They hold people, environments,
 * roles and counts of views, from the history's secret-free comparisons, never a key.
 */
import type { SinceRow } from '../../shared/access-since.ts';
import {
	ACCESS_CHANGES_HREF,
	ACCESS_SINCE_HREF,
	ACCESS_SINCE_JSON_HREF,
	accessSinceHref,
	markdownHref,
	personHref,
} from '../../shared/urls.ts';
import type { CommitInfo } from '../../sources/fixture-history.ts';
import { count } from '../access.ts';
import type { HistoryStatus, TagComparison } from '../history-collection.ts';
import { shortSubject } from '../history.ts';
import { formatShortTimestamp } from '../time.ts';
import { historyNote } from './history.ts';
import { htmlPageLink, pagedTitle, pageLinks, pageRange, type PageSlice } from './lists.ts';
import { heading, inlineCode, link, markdownText, paragraph, table, type Inline } from './mdast.ts';

/** How many of the rows were gained. */
export function gainedOf(rows: readonly SinceRow[]): number {
	return rows.filter((row) => row.change === 'gained').length;
}

/** The line that leads to every change on the way. */
const changesLink = (): Inline[] => [
	'Each change on the way is on ',
	link(markdownHref(ACCESS_CHANGES_HREF), 'Access changes'),
	'.',
];

/** A commit as a table cell or sentence gives it: short name, date, subject. */
const commitCell = (commit: CommitInfo): Inline[] => [
	inlineCode(commit.short),
	` ${formatShortTimestamp(commit.date)} ${shortSubject(commit.subject, 80)}`,
];

/** The twin of the page of access since a tag or a date: every tag, with what changed since. */
export function sinceMarkdown(tags: readonly TagComparison[], status: HistoryStatus): string {
	return markdownText([
		heading(1, 'What changed in access since a tag or a date'),
		paragraph(
			'The net difference between then and now: who holds a role in an environment that they did not hold then, and who no longer holds one they held. ',
			...changesLink(),
		),
		...historyNote(status).map((parts) => paragraph(...parts)),
		heading(2, 'Since a tag'),
		tags.length === 0
			? paragraph(
					status.available ? 'The repository has no tag.' : 'Without history there are no tags.',
				)
			: table(
					['Tag', 'Commit', 'Since then'],
					tags.map((tag) => {
						const gained = gainedOf(tag.rows);
						return [
							[link(markdownHref(accessSinceHref(tag.name)), tag.name)],
							commitCell(tag.commit),
							[`${gained} gained, ${tag.rows.length - gained} lost`],
						];
					}),
				),
		heading(2, 'Since a date'),
		paragraph(
			'Picking any date runs in the browser, on the HTML page. It reads ',
			link(ACCESS_SINCE_JSON_HREF, 'access-since.json'),
			": today's access and each commit's change to it, without keys.",
		),
		htmlPageLink(ACCESS_SINCE_HREF),
	]);
}

/** One page of what changed in access since a tag. */
export interface SinceTagPage extends PageSlice<SinceRow> {
	name: string;
	commit: CommitInfo;
	/** The slugs whose fixture at the tag the view schema refuses, left out on both sides. */
	unreadable: readonly string[];
	/** How many rows were gained, over all pages. */
	gained: number;
	/** How many rows there are in all. */
	total: number;
	status: HistoryStatus;
}

/** The twin of one page of what changed in access since a tag, one row per person, environment and role. */
export function sinceTagMarkdown(page: SinceTagPage): string {
	const { name, commit, unreadable, gained, total, currentPage, lastPage } = page;
	return markdownText([
		heading(1, pagedTitle(`What changed in access since ${name}`, page)),
		paragraph(
			'The tag names commit ',
			inlineCode(commit.short),
			` of ${formatShortTimestamp(commit.date)}, by ${commit.author}: ${commit.subject}.`,
		),
		paragraph(
			`Since then ${count(gained, 'role was', 'roles were')} gained and ${count(total - gained, 'role was', 'roles were')} lost, by person and environment`,
			pageRange(page, 'rows'),
			'. ',
			...changesLink(),
		),
		...historyNote(page.status).map((parts) => paragraph(...parts)),
		...(unreadable.length > 0
			? [
					paragraph(
						`The view schema refuses ${count(unreadable.length, 'fixture', 'fixtures')} at this tag (${unreadable.join(', ')}); ${unreadable.length === 1 ? 'its view is' : 'their views are'} left out on both sides.`,
					),
				]
			: []),
		page.data.length > 0
			? table(
					['Change', 'Person', 'Environment', 'Role', 'Views then → now'],
					page.data.map((row) => [
						[row.change],
						[
							row.slug === '' ? row.name : link(markdownHref(personHref(row.slug)), row.name),
							` (${row.email})`,
						],
						[row.environment],
						[row.role],
						[`${row.then} → ${row.now}`],
					]),
				)
			: paragraph(`Nobody gained or lost a role in any environment since ${name}.`),
		...pageLinks(currentPage, lastPage, (number) => markdownHref(accessSinceHref(name, number))),
		htmlPageLink(accessSinceHref(name, currentPage)),
	]);
}
