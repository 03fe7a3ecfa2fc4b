/**
 * The Markdown twin of the contract's changelog, a page at a time as its HTML page: what each
 * class of change means, then each commit to openapi.yaml with its date, short name, author and
 * subject, then its changes with their class (a commit of documentation only in one line). Where history is missing or stops, it says so as the page does.
 */
import { markdownHref, REFERENCE_HREF, referenceChangesHref } from '../../shared/urls.ts';
import {
	CHANGE_CLASSES,
	CLASS_LABELS,
	CLASS_MEANINGS,
	countsInWords,
	isDocumentationOnly,
	type ContractChange,
	type ContractEntry,
} from '../contract-changes.ts';
import type { HistoryStatus } from '../history-collection.ts';
import { count } from '../access.ts';
import { proseParagraphs } from '../prose.ts';
import { formatShortTimestamp } from '../time.ts';
import {
	bulletList,
	heading,
	inlineCode,
	link,
	markdownText,
	paragraph,
	strong,
	type Inline,
} from './mdast.ts';

/** One page of the changelog, as its route cuts it. */
export interface ContractChangesPage {
	status: HistoryStatus;
	entries: readonly ContractEntry[];
	total: number;
	currentPage: number;
	lastPage: number;
	/** The index of the page's first commit in the whole changelog, from 0. */
	start: number;
}

/** What a commit did, in a sentence, for a commit whose changes are not compared. */
const KIND_WORDS: Record<ContractEntry['kind'], string> = {
	added: 'The contract was added.',
	changed: '',
	removed: 'The contract was removed.',
	unreadable:
		'This version could not be read; the next one is compared with the last readable one.',
	start: 'History starts here (the clone is shallow): the contract as this commit left it.',
};

/** Where history comes from, or why there is none, as HistoryNote says it. */
function statusLines(status: HistoryStatus): Inline[][] {
	if (!status.available) {
		return [
			[
				strong('History unavailable:'),
				` ${status.reason}. Only today's contract is shown, on the API reference.`,
			],
		];
	}
	const lines: Inline[][] = [];
	if (status.shallow) {
		lines.push([strong(`History from ${status.start.slice(0, 10)} on; the clone is shallow.`)]);
	}
	if (status.dirty && status.head) {
		lines.push([
			'openapi.yaml differs from commit ',
			inlineCode(status.head.short),
			': changes not committed yet are not in this history.',
		]);
	}
	return lines;
}

/** A change's description as runs, its `backticked` names as code, as the page shows them. */
function descriptionRuns(description: string): Inline[] {
	return (proseParagraphs(description)[0] ?? []).map((part) =>
		part.code ? inlineCode(part.text) : part.text,
	);
}

/** A change's description and where it is, e.g. `\[Added] Response 429 (`paths › …`)`. */
function changeRuns(change: ContractChange): Inline[] {
	return [...descriptionRuns(change.description), ' (', inlineCode(change.where), ')'];
}

/** A commit's changes, one item each; a commit of documentation only in one item, as one line. */
function changeItems(entry: ContractEntry): Inline[][] {
	if (isDocumentationOnly(entry)) {
		return [
			[
				strong(CLASS_LABELS.annotation),
				` only, ${count(entry.changes.length, 'change', 'changes')}: `,
				...entry.changes.flatMap((change, index) => [
					...(index > 0 ? ['; '] : []),
					...changeRuns(change),
				]),
			],
		];
	}
	return entry.changes.map((change) => [
		strong(CLASS_LABELS[change.class]),
		' ',
		...changeRuns(change),
	]);
}

/** One commit of the changelog: a heading, its facts, then its changes. */
function entryBlocks(entry: ContractEntry) {
	const { commit } = entry;
	const summary =
		entry.kind === 'changed'
			? countsInWords(entry.counts)
			: `${KIND_WORDS[entry.kind]}${entry.problem ? ` ${entry.problem}` : ''}`;
	return [
		heading(2, `${formatShortTimestamp(commit.date)} · ${commit.short}`),
		paragraph(inlineCode(commit.short), ` ${commit.subject} — by ${commit.author}. ${summary}`),
		...(entry.changes.length > 0 ? [bulletList(changeItems(entry))] : []),
	];
}

/** The changelog's twin, one page of it. */
export function contractChangesMarkdown(page: ContractChangesPage): string {
	const { currentPage, lastPage } = page;
	const paged = lastPage > 1;
	const pageHref = (number: number): string => markdownHref(referenceChangesHref(number));
	const neighbours: Inline[][] = [
		...(currentPage > 1 ? [[link(pageHref(currentPage - 1), 'Previous page')]] : []),
		...(currentPage < lastPage ? [[link(pageHref(currentPage + 1), 'Next page')]] : []),
	];
	return markdownText([
		heading(1, paged ? `Contract changes, page ${currentPage} of ${lastPage}` : 'Contract changes'),
		paragraph(
			`${count(page.total, 'commit', 'commits')} changed `,
			inlineCode('openapi.yaml'),
			', newest first',
			...(paged
				? [
						` (commits ${page.start + 1}–${page.start + page.entries.length} on page ${currentPage} of ${lastPage})`,
					]
				: []),
			'. Each change is classified by api-smart-diff; a commit of documentation only is told in one line. Today’s contract: ',
			link(markdownHref(REFERENCE_HREF), 'API reference'),
			'.',
		),
		bulletList(
			CHANGE_CLASSES.map((each) => [strong(CLASS_LABELS[each]), `: ${CLASS_MEANINGS[each]}`]),
		),
		...statusLines(page.status).map((parts) => paragraph(...parts)),
		...page.entries.flatMap(entryBlocks),
		...(neighbours.length > 0 ? [bulletList(neighbours)] : []),
	]);
}
