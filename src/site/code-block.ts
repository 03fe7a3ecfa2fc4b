/**
 * What the portal's code blocks share beyond highlighting: the copy button's name, and the
 * highlighted `<pre>` of a guide's Markdown code block, which the guide page puts in the same
 * frame as every other code block (CodeFrame.astro).
 */
import type { Element } from 'hast';
import { highlightRuns, runsToHast } from './highlight.ts';

/** What a code block's copy button copies, by the block's language, for the button's name. */
export function copyWhat(language: string | undefined): string {
	switch (language?.toLowerCase()) {
		case 'sh':
		case 'shell':
		case 'bash':
		case 'shellscript':
			return 'the command';
		case 'json':
			return 'the JSON';
		case 'http':
			return 'the request';
		case 'python':
		case 'py':
			return 'the Python code';
		default:
			return 'the code';
	}
}

/** A Markdown code block's `<pre>`, highlighted: `pre[data-language]` > `code` > its tokens. */
export async function highlightedPre(code: string, language: string | undefined): Promise<Element> {
	return {
		type: 'element',
		tagName: 'pre',
		properties: language ? { dataLanguage: language } : {},
		children: [
			{
				type: 'element',
				tagName: 'code',
				properties: {},
				children: runsToHast(await highlightRuns(code, language)),
			},
		],
	};
}
