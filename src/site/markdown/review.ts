/**
 * The Markdown twins of the review pages: each review flag with its findings, the keys not rotated
 * for longer than the limit, and the directories unchanged while the others changed, each a page
 * at a time as their HTML pages are. A finding names people, views and directory rows; a key is
 * named by whose it is and when it came in, never by its value.
 */
import { personSlug } from '../../shared/person-key.ts';
import {
	markdownHref,
	personHref,
	reviewFlagHref,
	reviewKeysHref,
	reviewViewsHref,
	viewHref,
} from '../../shared/urls.ts';
import { count } from '../access.ts';
import type { HistoryStatus } from '../history-collection.ts';
import { DIRECTORY_STILL_DAYS, type StaleKey, type StillView } from '../history-flags.ts';
import type { FlagFinding } from '../review-flags.ts';
import { formatShortTimestamp } from '../time.ts';
import { twinLink } from './guide.ts';
import { historyNote } from './history.ts';
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

/** A link to a view's twin. */
const viewLink = (slug: string, name: string) => link(markdownHref(viewHref(slug)), name);

/** An age in days, "at least" where history does not reach back so far. */
const days = ({ days, atLeast }: { days: number; atLeast: boolean }) =>
	atLeast ? `at least ${days}` : String(days);

/** One page of a review flag's findings. */
export interface FlagPage extends PageSlice<FlagFinding> {
	id: string;
	title: string;
	rule: string;
	/** How many findings the flag has in all. */
	total: number;
}

/** A finding as a line: who (a link to their twin) and where, then each name or role with its rows. */
function findingLine({ subject, context, groups }: FlagFinding): Inline[] {
	return [
		link(twinLink(subject.href), subject.label),
		` (${context}): `,
		...groups.flatMap(({ label, rows, more }, index) => [
			index > 0 ? '; ' : '',
			`${label} in `,
			...commaLinks(rows.map((row) => [row.href, row.view])),
			...(more > 0
				? [' and ', link(twinLink(subject.href), `${more.toLocaleString('en')} more`)]
				: []),
		]),
	];
}

/** The twin of one page of a review flag: its rule, then its findings. */
export function flagMarkdown(page: FlagPage): string {
	const { id, title, rule, total, currentPage, lastPage } = page;
	return markdownText([
		heading(1, pagedTitle(title, page)),
		paragraph(
			`A review flag of the access overview: ${total === 0 ? 'none found' : count(total, 'finding', 'findings')}${pageRange(page)}. Each view links to the person's row in its user directory, on the view's HTML page.`,
		),
		paragraph(strong('Rule.'), ` ${rule}`),
		...(page.data.length > 0 ? [bulletList(page.data.map(findingLine))] : []),
		...pageLinks(currentPage, lastPage, (number) => markdownHref(reviewFlagHref(id, number))),
		htmlPageLink(reviewFlagHref(id, currentPage)),
	]);
}

/** The date of the last commit, which ages are counted up to, as a sentence gives it. */
const lastCommit = (head: string) =>
	`the last commit${head === '' ? '' : ` (${formatShortTimestamp(head)})`}`;

/** A page of a review flag from history. */
interface HistoryFlagPage<T> extends PageSlice<T> {
	/** How many rows the flag has in all. */
	total: number;
	status: HistoryStatus;
}

/** One page of the keys not rotated for longer than the limit. */
export interface StaleKeysPage extends HistoryFlagPage<StaleKey> {
	/** The limit, in days (PORTAL_KEY_MAX_AGE_DAYS). */
	limit: number;
	/** The date of the last commit; empty without history. */
	head: string;
}

/** The title of the keys not rotated for longer than `limit` days, as their page gives it. */
export function staleKeysTitle(limit: number): string {
	return `Keys not rotated for more than ${limit} days`;
}

/** The title of the directories unchanged while the others changed, as their page gives it. */
export const STILL_VIEWS_TITLE = `Directories unchanged for more than ${DIRECTORY_STILL_DAYS} days`;

/**
 * The twin of one page of a review flag from history: its title, what it lists, the history's
 * note, its table (when the page has rows), its neighbours and its HTML page.
 */
function historyFlagMarkdown<T>(
	page: HistoryFlagPage<T>,
	title: string,
	lede: readonly Inline[],
	columns: readonly string[],
	row: (item: T) => Inline[][],
	pageHref: (page: number) => string,
): string {
	const { currentPage, lastPage } = page;
	return markdownText([
		heading(1, pagedTitle(title, page)),
		paragraph(...lede),
		...historyNote(page.status).map((parts) => paragraph(...parts)),
		...(page.data.length > 0 ? [table(columns, page.data.map(row))] : []),
		...pageLinks(currentPage, lastPage, (number) => markdownHref(pageHref(number))),
		htmlPageLink(pageHref(currentPage)),
	]);
}

/** The twin of one page of the keys not rotated for longer than the limit, oldest first. */
export function staleKeysMarkdown(page: StaleKeysPage): string {
	const { limit, head, total } = page;
	return historyFlagMarkdown(
		page,
		staleKeysTitle(limit),
		[
			`${count(total, 'key', 'keys')} came in (granted or rotated) more than ${limit} days before ${lastCommit(head)}, oldest first${pageRange(page)}. `,
			inlineCode('PORTAL_KEY_MAX_AGE_DAYS'),
			' sets the limit. A key is named by whose it is, never by its value.',
		],
		['Key of', 'View', 'In since', 'Days'],
		(key) => [
			key.person
				? [
						link(markdownHref(personHref(personSlug(key.person.key))), key.person.name),
						` (${key.person.email})`,
					]
				: ['the view itself (', inlineCode('config.api_key'), ')'],
			[viewLink(key.slug, key.view)],
			[formatShortTimestamp(key.since)],
			[days(key)],
		],
		reviewKeysHref,
	);
}

/** One page of the views whose directory has not changed while the others' did. */
export interface StillViewsPage extends HistoryFlagPage<StillView> {
	/** The date of the last commit; empty without history. */
	head: string;
}

/** The twin of one page of the directories unchanged for longer than the others', longest first. */
export function stillViewsMarkdown(page: StillViewsPage): string {
	const { head, total } = page;
	return historyFlagMarkdown(
		page,
		STILL_VIEWS_TITLE,
		[
			`${count(total, 'view', 'views')} whose directory last changed more than ${DIRECTORY_STILL_DAYS} days before ${lastCommit(head)}, while another view's changed within that time; longest unchanged first${pageRange(page)}.`,
		],
		['View', 'Environment', 'Directory last changed', 'Days'],
		(view) => [
			[viewLink(view.slug, view.view)],
			[view.environment],
			[formatShortTimestamp(view.since)],
			[days(view)],
		],
		reviewViewsHref,
	);
}
