/** The twins' Markdown writer: text stays text, wherever it lands, as a Markdown reader parses it. */
import { describe, expect, it } from 'vitest';
import {
	blockquote,
	bulletList,
	codeBlock,
	heading,
	inlineCode,
	link,
	markdownResponse,
	markdownText,
	paragraph,
	strong,
	table,
} from '../../../../src/site/markdown/mdast.ts';
import {
	allNodes,
	codeBlocksOf,
	linksOf,
	parseMarkdown,
	textOf,
} from '../../../support/markdown.ts';

/** Text a fixture may hold that means something in Markdown or HTML. */
const HOSTILE = [
	'*not bold* _nor this_',
	'[a link](javascript:alert(1))',
	'a | pipe',
	'<b>tag</b> & &amp;',
	'# not a heading',
	'1. not a list',
	'`not code`',
	'back\\slash',
	'> not a quote',
];

describe('the twins’ Markdown writer', () => {
	it('writes names, labels and notes as text, in a paragraph, a heading and a table cell', () => {
		for (const value of HOSTILE) {
			const text = markdownText([
				heading(1, value),
				paragraph(value),
				table(['Name'], [[[value]]]),
				bulletList([[value]]),
			]);
			const tree = parseMarkdown(text);
			const [title, sentence, grid, list] = tree.children ?? [];
			expect(title?.type, text).toBe('heading');
			expect(textOf(title!), text).toBe(value);
			expect(sentence?.type, text).toBe('paragraph');
			expect(textOf(sentence!), text).toBe(value);
			expect(grid?.type, text).toBe('table');
			const cells = allNodes(grid!).filter((node) => node.type === 'tableCell');
			expect(cells.map(textOf), text).toEqual(['Name', value]);
			expect(list?.type, text).toBe('list');
			expect(textOf(list!), text).toBe(value);
			const markup = allNodes(tree).filter((node) =>
				['link', 'emphasis', 'strong', 'html', 'inlineCode', 'blockquote'].includes(node.type),
			);
			expect(markup, text).toEqual([]);
		}
	});

	it('writes links, code, emphasis and quotes as such, their text escaped', () => {
		const text = markdownText([
			blockquote('Quoted ', strong('strong'), ' ', inlineCode('a `tick`')),
			paragraph(link('/views/a.md', 'a [view] | name')),
			table(['View'], [[[link('/views/b.md', 'b | c')]]]),
		]);
		expect(linksOf(text)).toEqual(['/views/a.md', '/views/b.md']);
		const nodes = allNodes(parseMarkdown(text));
		expect(nodes.filter((node) => node.type === 'link').map(textOf)).toEqual([
			'a [view] | name',
			'b | c',
		]);
		expect(nodes.find((node) => node.type === 'inlineCode')?.value).toBe('a `tick`');
		expect(nodes.find((node) => node.type === 'strong')).toBeDefined();
		expect(nodes.find((node) => node.type === 'blockquote')).toBeDefined();
	});

	it('keeps a code block exactly, fences and all, with its language', () => {
		const code =
			'curl -H "Authorization: Bearer ${API_KEY:?x}" \'http://127.0.0.1:4010\'\n```\nend';
		const text = markdownText([codeBlock(code, 'sh'), codeBlock('plain')]);
		expect(codeBlocksOf(text)).toEqual([
			{ lang: 'sh', value: code },
			{ lang: null, value: 'plain' },
		]);
	});

	it('drops empty runs, so joining parts never leaves stray nodes', () => {
		const tree = parseMarkdown(markdownText([paragraph('', 'one', '', ' two')]));
		expect(textOf(tree)).toBe('one two');
	});

	it('answers a twin as UTF-8 Markdown', async () => {
		const response = markdownResponse('# Zoë\n');
		expect(response.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
		expect(await response.text()).toBe('# Zoë\n');
	});
});
