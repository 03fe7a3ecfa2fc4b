/**
 * The Markdown twin of the contract's changelog, a page at a time as its HTML page: what each
 * class of change means, then each commit to openapi.yaml with its date, short name, author and
 * subject, then its changes with their class (a commit of documentation only in one line). Where
 * history is missing or stops, it says so as the page does, in the page's words
 * (`contract-changes-text.ts`).
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
import {
	CHANGES_FILE,
	changesHeading,
	changesLede,
	ENTRY_KIND_WORDS,
	type ContractChangesPage,
} from '../contract-changes-text.ts';
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

// The page's type is the changelog's, beside its words; the MCP server imports it from here.
export type { ContractChangesPage };

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
			: `${ENTRY_KIND_WORDS[entry.kind]}${entry.problem ? ` ${entry.problem}` : ''}`;
	return [
		heading(2, `${formatShortTimestamp(commit.date)} · ${commit.short}`),
		paragraph(inlineCode(commit.short), ` ${commit.subject} — by ${commit.author}. ${summary}`),
		...(entry.changes.length > 0 ? [bulletList(changeItems(entry))] : []),
	];
}

/** The changelog's twin, one page of it. */
export function contractChangesMarkdown(page: ContractChangesPage): string {
	const { currentPage, lastPage } = page;
	const pageHref = (number: number): string => markdownHref(referenceChangesHref(number));
	const neighbours: Inline[][] = [
		...(currentPage > 1 ? [[link(pageHref(currentPage - 1), 'Previous page')]] : []),
		...(currentPage < lastPage ? [[link(pageHref(currentPage + 1), 'Next page')]] : []),
	];
	const lede = changesLede({ ...page, shown: page.entries.length });
	return markdownText([
		heading(1, changesHeading(page)),
		paragraph(
			`${lede.before} `,
			inlineCode(CHANGES_FILE),
			lede.after,
			' Each change is classified by api-smart-diff; a commit of documentation only is told in one line. Today’s contract: ',
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
