/**
 * The twins' writer gives back a text it would write as it is without running it through every
 * unsafe pattern: the Markdown must be the same, byte for byte, as mdast-util-to-markdown's own,
 * wherever the text lands (a heading, a sentence, a table cell, a link, a list item, beside code).
 */
import type { BlockContent, PhrasingContent, RootContent } from 'mdast';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import { toMarkdown } from 'mdast-util-to-markdown';
import { describe, expect, it } from 'vitest';
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
} from '../../../../src/site/markdown/mdast.ts';

/** The writer as it is, with the twins' options and no handler of ours. */
function ownWriter(blocks: readonly (RootContent | BlockContent)[]): string {
	return toMarkdown(
		{ type: 'root', children: [...blocks] },
		{
			bullet: '-',
			emphasis: '_',
			fence: '`',
			fences: true,
			listItemIndent: 'one',
			rule: '-',
			extensions: [gfmTableToMarkdown({ tablePipeAlign: false })],
		},
	);
}

/** Characters a name, label or note may hold, the ones the writer escapes among them. */
const CHARACTERS = [
	...'aZ09 .-+:()[]!#&*<=>\\_`|~"\'@,;/?%é’\t',
	'\u007F',
	'1. ',
	'- ',
	'](',
	'&amp;',
];

/** A text of up to six characters, from a seeded sequence, so a failure can be run again. */
function texts(count: number, seed: number): string[] {
	let state = seed;
	const next = () => {
		state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
		return state;
	};
	return Array.from({ length: count }, () =>
		Array.from({ length: next() % 7 }, () => CHARACTERS[next() % CHARACTERS.length]).join(''),
	);
}

/** Where a text may land in a twin, each with plain words and code around it. */
function placements(value: string): (RootContent | BlockContent)[][] {
	const around = (parts: Inline[]): PhrasingContent[] =>
		parts.map((part) => (typeof part === 'string' ? { type: 'text', value: part } : part));
	return [
		[paragraph(value)],
		[heading(2, value)],
		[heading(1, value, ' ', inlineCode('x'))],
		[paragraph('Before ', value, ' after')],
		[paragraph(value, inlineCode('code'), value)],
		[paragraph(link('/views/production.md', value), value)],
		[paragraph(value, link('/c.md', 'c'), value)],
		[paragraph(strong(value), value)],
		[paragraph('1'), paragraph(value)],
		[table(['View', 'Role'], [[[value], [link('/a.md', value)]]])],
		[bulletList([[value], [value, ' ', link('/b.md', 'b')]])],
		[{ type: 'paragraph', children: around(['12', value, ']', value, '(']) }],
		[paragraph(link('https://portal.example/', 'https://portal.example/'), value)],
	];
}

describe('the twins’ writer, text written as it is', () => {
	it('writes every text as mdast-util-to-markdown does, wherever it lands', () => {
		let compared = 0;
		for (const value of [...texts(600, 7), ...CHARACTERS, 'Amara Alvarez', 'a.b@example.com']) {
			for (const blocks of placements(value)) {
				expect(markdownText(blocks), JSON.stringify(value)).toBe(ownWriter(blocks));
				compared += 1;
			}
		}
		expect(compared).toBeGreaterThan(7000);
	});

	it('still escapes what would change the document around a text', () => {
		expect(markdownText([paragraph('*not emphasis* and [not a link]')])).toBe(
			'\\*not emphasis\\* and \\[not a link]\n',
		);
		expect(markdownText([paragraph('1. not a list')])).toBe('1\\. not a list\n');
		expect(markdownText([table(['a'], [[['x | y']]])])).toBe('| a |\n| - |\n| x \\| y |\n');
	});
});
