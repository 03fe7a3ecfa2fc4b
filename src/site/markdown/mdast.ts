/**
 * The Markdown twins are built as Markdown syntax trees (mdast) and written out by
 * mdast-util-to-markdown, so a name, a label or a status note is escaped wherever it lands (a `|`
 * in a table cell, a `*` or `[` in a sentence) and never changes the document around it. These
 * are the few constructors the twins use, and the one way they are written.
 */
import type {
	BlockContent,
	Blockquote,
	Code,
	Heading,
	InlineCode,
	Link,
	List,
	Paragraph,
	PhrasingContent,
	Root,
	RootContent,
	Strong,
	Table,
	Text,
} from 'mdast';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { defaultHandlers, toMarkdown, type Handle } from 'mdast-util-to-markdown';

/** A run of a sentence: plain text, or a node such as a link or inline code. */
export type Inline = string | PhrasingContent;

/** Plain text as phrasing nodes; an empty string is no node. */
function phrasing(parts: readonly Inline[]): PhrasingContent[] {
	return parts.flatMap((part) =>
		typeof part !== 'string' ? [part] : part === '' ? [] : [{ type: 'text', value: part }],
	);
}

/** `code` in a sentence. */
export function inlineCode(value: string): InlineCode {
	return { type: 'inlineCode', value };
}

/** A link; its text is the parts given. */
export function link(url: string, ...parts: readonly Inline[]): Link {
	return { type: 'link', url, children: phrasing(parts) };
}

/** Strong emphasis. */
export function strong(...parts: readonly Inline[]): Strong {
	return { type: 'strong', children: phrasing(parts) };
}

/** A heading of `depth` (1 to 6). */
export function heading(depth: Heading['depth'], ...parts: readonly Inline[]): Heading {
	return { type: 'heading', depth, children: phrasing(parts) };
}

/** A paragraph. */
export function paragraph(...parts: readonly Inline[]): Paragraph {
	return { type: 'paragraph', children: phrasing(parts) };
}

/** A block quote of one paragraph. */
export function blockquote(...parts: readonly Inline[]): Blockquote {
	return { type: 'blockquote', children: [paragraph(...parts)] };
}

/** A bulleted list, one item per entry, each item one paragraph. */
export function bulletList(items: readonly (readonly Inline[])[]): List {
	return {
		type: 'list',
		ordered: false,
		spread: false,
		children: items.map((parts) => ({
			type: 'listItem',
			spread: false,
			children: [paragraph(...parts)],
		})),
	};
}

/** A table: a header row of column names, then one row of cells per entry. */
export function table(columns: readonly string[], rows: readonly (readonly Inline[][])[]): Table {
	const row = (cells: readonly (readonly Inline[])[]) => ({
		type: 'tableRow' as const,
		children: cells.map((cell) => ({ type: 'tableCell' as const, children: phrasing(cell) })),
	});
	return { type: 'table', children: [row(columns.map((name) => [name])), ...rows.map(row)] };
}

/** A fenced code block in `language` (none for plain text). */
export function codeBlock(value: string, language?: string): Code {
	return { type: 'code', lang: language ?? null, meta: null, value };
}

/**
 * Text with none of the characters the writer may escape or encode in a text: its unsafe patterns
 * (mdast-util-to-markdown's and the table extension's) name besides these only `"` and `'` (in
 * link titles, never text), `(` (after `]`), `)`, `+`, `-`, `.` and `:` (at a line's start) and a
 * space or tab next to a line ending.
 */
const PLAIN_TEXT = /^[^\t\n\r!#&*<=>[\\\]_`|~\u007F]*$/;

/**
 * Whether the writer would write a text as it is: no character it escapes in any place, and none
 * of those it escapes only in some places where it is. After a line ending, a text that starts with
 * a letter starts no list item, heading, table or thematic break; a space at its end is encoded
 * only before one; `(` only after `]`; and in an autolink every space and control character is
 * percent-encoded.
 */
function writtenAsIs(value: string, before: string, after: string, inAutolink: boolean): boolean {
	if (inAutolink || !PLAIN_TEXT.test(value)) return false;
	if (/[\r\n]/.test(before) && !/^[A-Za-z]/.test(value)) return false;
	if (/ $/.test(value) && /^[\r\n]/.test(after)) return false;
	return !(value.startsWith('(') && before.endsWith(']'));
}

/**
 * The writer's own text handler, which runs each text through every unsafe pattern, but a text it
 * would write as it is (most names, emails, labels and sentences of a twin) is given back at once:
 * the same Markdown, without the cost that made the twins a large part of a build's time per view.
 */
const text: Handle = (node: Text, parent, state, info) => {
	if (writtenAsIs(node.value, info.before, info.after, state.stack.includes('autolink'))) {
		return node.value;
	}
	return defaultHandlers.text(node, parent, state, info);
};

/** Blocks written as one Markdown document, ending with a newline. */
export function markdownText(blocks: readonly (RootContent | BlockContent)[]): string {
	const root: Root = { type: 'root', children: [...blocks] };
	return toMarkdown(root, {
		handlers: { text },
		bullet: '-',
		emphasis: '_',
		fence: '`',
		fences: true,
		listItemIndent: 'one',
		rule: '-',
		// Cells are not padded to line up: a table of many rows stays as small as its text.
		extensions: [gfmTableToMarkdown({ tablePipeAlign: false })],
	});
}

/** The media type of a twin, as the endpoints, `npm start` and nginx send it. */
export const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

/** A twin as an endpoint answers it. */
export function markdownResponse(text: string): Response {
	return new Response(text, { headers: { 'Content-Type': MARKDOWN_TYPE } });
}
