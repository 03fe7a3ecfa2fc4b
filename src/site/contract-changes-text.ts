/**
 * The words of the contract's changelog that are its own, not its data, and how it is cut into
 * pages: the HTML page (`src/pages/reference/changes/[...page].astro`), its Markdown twin
 * (`markdown/contract-changes.ts`) and the MCP server's search records (mcp/search.ts) all say
 * them from here, so that the three read alike and a search finds what the page shows.
 */
import type { HistoryStatus } from '../sources/git.ts';
import { count, HISTORY_COMMITS_PER_PAGE } from './access.ts';
import {
	countsInWords,
	isDocumentationOnly,
	type ContractEntry,
	type ContractEntryKind,
} from './contract-changes.ts';
import { pageSlices } from './markdown/lists.ts';

/**
 * One page of the changelog, as its routes cut it: a type, not an interface, so that a route can
 * hand it to Astro as a page's props.
 */
export type ContractChangesPage = {
	status: HistoryStatus;
	entries: readonly ContractEntry[];
	/** How many commits the whole changelog has. */
	total: number;
	currentPage: number;
	lastPage: number;
	/** The index of the page's first commit in the whole changelog, from 0. */
	start: number;
};

/** The changelog cut into pages of HISTORY_COMMITS_PER_PAGE commits, as Astro's `paginate` cuts it. */
export function contractChangesPages(
	status: HistoryStatus,
	entries: readonly ContractEntry[],
): ContractChangesPage[] {
	return pageSlices(entries, HISTORY_COMMITS_PER_PAGE).map((page) => ({
		status,
		entries: page.data,
		total: entries.length,
		currentPage: page.currentPage,
		lastPage: page.lastPage,
		start: page.start,
	}));
}

/** Where a page stands in the changelog: what its heading and lede say of it. */
export type ChangesPlace = Pick<
	ContractChangesPage,
	'total' | 'currentPage' | 'lastPage' | 'start'
> & {
	/** How many commits the page shows. */
	shown: number;
};

/** The changelog's name, its first page's heading. */
export const CHANGES_TITLE = 'Contract changes';

/** The page's heading: `Contract changes`, and `, page 2 of 3` when there is more than one. */
export function changesHeading({
	currentPage,
	lastPage,
}: Pick<ChangesPlace, 'currentPage' | 'lastPage'>): string {
	return lastPage > 1 ? `${CHANGES_TITLE}, page ${currentPage} of ${lastPage}` : CHANGES_TITLE;
}

/**
 * The page's lede on either side of the file's name, which each form writes as code: `3 commits
 * changed` and `, newest first (commits 1–20 on page 1 of 3).`
 */
export function changesLede(place: ChangesPlace): { before: string; after: string } {
	const { currentPage, lastPage, start, shown } = place;
	const paging =
		lastPage > 1
			? ` (commits ${start + 1}–${start + shown} on page ${currentPage} of ${lastPage})`
			: '';
	return {
		before: `${count(place.total, 'commit', 'commits')} changed`,
		after: `, newest first${paging}.`,
	};
}

/** The file the changelog follows, as the lede names it. */
export const CHANGES_FILE = 'openapi.yaml';

/** A link in the page's prose: where it leads, by name, and its words. */
export interface ProseLink {
	/** `versioning` (the versioning guide) or `reference` (the API reference). */
	to: 'versioning' | 'reference';
	text: string;
}

/**
 * The paragraph under the page's lede, runs of text and links: how changes are classified, where
 * the path version and today's contract are told, and how a commit of documentation only shows.
 */
export const CHANGES_PAGE_PROSE: readonly (string | ProseLink)[] = [
	'Each change is classified by the api-smart-diff library, and listed where an operation uses it when it is made to a shared schema. The ',
	{ to: 'versioning', text: 'versioning guide' },
	' says when the path version changes; the ',
	{ to: 'reference', text: 'API reference' },
	' shows the contract today. A commit that changed only documentation is folded into one line that opens.',
];

/** The page's prose as plain text, links as their words. */
export function changesPageProseText(): string {
	return CHANGES_PAGE_PROSE.map((run) => (typeof run === 'string' ? run : run.text)).join('');
}

/** What a commit did, in a sentence, for a commit whose changes are not compared. */
export const ENTRY_KIND_WORDS: Record<ContractEntryKind, string> = {
	added: 'The contract was added.',
	changed: '',
	removed: 'The contract was removed.',
	unreadable:
		'This version could not be read; the next one is compared with the last readable one.',
	start: 'History starts here (the clone is shallow): the contract as this commit left it.',
};

/** `(and 2 changes inside components, told where used)`, or nothing for a commit without any. */
export function insideComponents(entry: Pick<ContractEntry, 'components'>): string {
	return entry.components > 0
		? ` (and ${count(entry.components, 'change', 'changes')} inside components, told where used)`
		: '';
}

/**
 * A commit's line on the page, before its changes: how many documentation changes, its changes
 * counted by class, or what it did; a version's problem is the page's own, after it.
 */
export function entrySummary(entry: ContractEntry): string {
	if (isDocumentationOnly(entry)) {
		return `${count(entry.changes.length, 'documentation change', 'documentation changes')}${insideComponents(entry)}`;
	}
	if (entry.kind === 'changed') return `${countsInWords(entry.counts)}${insideComponents(entry)}`;
	return ENTRY_KIND_WORDS[entry.kind];
}
