/**
 * The problems guide's tables (/docs/problems/), generated from the one table of problems
 * (src/shared/problems.ts): one row per problem, anchored by its name, so a problem's `type`
 * leads to its row. A setting its advice names links to the settings reference.
 */
import { guideHref } from '../shared/urls.ts';
import {
	PROBLEM_TYPES,
	problemTypeUri,
	type KnownProblem,
	type ProblemSender,
} from '../shared/problems.ts';
import { SETTING_LIST } from '../sources/settings.ts';

/** A piece of a problem's text: words, code, or a setting linked to its row of the settings reference. */
export interface ProblemTextPart {
	readonly kind: 'text' | 'code' | 'setting';
	readonly text: string;
	/** Where a setting is described: `/docs/settings/#MOCK_UPSTREAM`. */
	readonly href?: string;
}

/** One row of the problems guide. */
export interface ProblemRow {
	readonly name: string;
	readonly type: string;
	readonly status: number;
	readonly title: string;
	readonly what: readonly ProblemTextPart[];
	readonly change: readonly ProblemTextPart[];
	readonly changeInRun?: readonly ProblemTextPart[] | undefined;
}

/** The groups of the guide, by who sends a problem. */
export const PROBLEM_GROUPS: readonly { sender: ProblemSender; title: string }[] = [
	{ sender: 'console', title: "The console's problems, which the mock answers too" },
	{ sender: 'mock', title: "The mock's own problems" },
	{ sender: 'proxy', title: 'The mock in front of a console, and the conformance run' },
];

const SETTINGS = new Set<string>(SETTING_LIST.map(({ name }) => name));

/**
 * What a problem's text shows as code: a setting (`MOCK_UPSTREAM`), a flag (`--upstream`), a
 * query parameter of the mock (`__code`), a header the advice names.
 */
const CODE =
	/(\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b(?:=\w+)?|--[a-z][a-z-]*|__[a-z]+(?:=<?\w+>?)?|\b(?:Authorization|Prefer|Content-Length|Transfer-Encoding|Allow|sl-violations)\b)/;

/** A problem's text in pieces: words, code, and settings linked to the settings reference. */
export function problemText(text: string): ProblemTextPart[] {
	// The pattern's one group keeps each match, at the odd places of the split.
	return text
		.split(CODE)
		.flatMap((piece, index): ProblemTextPart[] =>
			piece === '' ? [] : [index % 2 === 1 ? codePart(piece) : { kind: 'text', text: piece }],
		);
}

/** A piece shown as code, linked when it is a setting. */
function codePart(piece: string): ProblemTextPart {
	const name = piece.split('=', 1)[0] ?? piece;
	return SETTINGS.has(name)
		? { kind: 'setting', text: piece, href: `${guideHref('settings')}#${name}` }
		: { kind: 'code', text: piece };
}

/** A problem's row. */
function rowOf(problem: KnownProblem): ProblemRow {
	return {
		name: problem.name,
		type: problemTypeUri(problem.name),
		status: problem.status,
		title: problem.title,
		what: problemText(problem.what),
		change: problemText(problem.change),
		changeInRun: problem.changeInRun === undefined ? undefined : problemText(problem.changeInRun),
	};
}

/** The rows of one group, in the table's order. */
export function problemRows(sender: ProblemSender): readonly ProblemRow[] {
	const rows = PROBLEM_TYPES.filter((problem) => problem.sender === sender).map(rowOf);
	if (rows.length === 0) throw new Error(`problemRows: no problems sent by "${sender}"`);
	return rows;
}

/** A Markdown cell: its pipes escaped, on one line. */
function cell(text: string): string {
	return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

/** Pieces of text as Markdown: code in backticks. */
function markdownOf(parts: readonly ProblemTextPart[]): string {
	return parts.map(({ kind, text }) => (kind === 'text' ? text : `\`${text}\``)).join('');
}

/**
 * One group of the guide as a Markdown table (for the MCP server's text of the problems guide,
 * which has no build to render the page's component): the same rows the page shows.
 */
export function problemsMarkdown(sender: string): string {
	const group = PROBLEM_GROUPS.find((candidate) => candidate.sender === sender);
	if (!group) throw new Error(`problemsMarkdown: no group of problems "${sender}"`);
	const lines = [
		'| Problem | Status | Title | What went wrong | What to change |',
		'| --- | --- | --- | --- | --- |',
	];
	for (const row of problemRows(group.sender)) {
		const change = row.changeInRun
			? `${markdownOf(row.change)} In a conformance run: ${markdownOf(row.changeInRun)}`
			: markdownOf(row.change);
		lines.push(
			`| \`${row.name}\` | ${row.status} | ${cell(row.title)} | ${cell(markdownOf(row.what))} | ${cell(change)} |`,
		);
	}
	return lines.join('\n');
}
