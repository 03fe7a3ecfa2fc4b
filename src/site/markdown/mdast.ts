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
} from 'mdast';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { toMarkdown } from 'mdast-util-to-markdown';

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

/** Blocks written as one Markdown document, ending with a newline. */
export function markdownText(blocks: readonly (RootContent | BlockContent)[]): string {
	const root: Root = { type: 'root', children: [...blocks] };
	return toMarkdown(root, {
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
