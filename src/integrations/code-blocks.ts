/**
 * A Sätteri HTML-tree plugin for the MDX guides: each Markdown code block is highlighted at build
 * time (`site/code-block.ts`), with the classes every code block of the portal uses. The guide
 * page then puts its `<pre>` in the frame of every code block (CodeFrame.astro): copy button in
 * the corner, sideways scroll.
 */
import type { Element } from 'hast';
import { defineHastPlugin } from 'satteri';
import { highlightedPre } from '../site/code-block.ts';

/** The language a Markdown code block names (`language-sh` on its code), if any. */
export function fenceLanguage(code: Element): string | undefined {
	const classes = code.properties['className'];
	const named = Array.isArray(classes)
		? classes.map(String).find((name) => name.startsWith('language-'))
		: undefined;
	return named?.slice('language-'.length);
}

/** Highlights every Markdown code block of a guide. */
export const codeBlocks = defineHastPlugin({
	name: 'console-portal-code-blocks',
	element: {
		filter: ['pre'],
		async visit(node, context) {
			const code = node.children.find(
				(child): child is Element => child.type === 'element' && child.tagName === 'code',
			);
			if (!code) return;
			const text = context.textContent(code).replace(/\n$/, '');
			return highlightedPre(text, fenceLanguage(code));
		},
	},
});
