/**
 * A Sätteri HTML-tree plugin for the MDX guides: wraps each Markdown table in the same scroll box
 * the portal's own tables use (`.table-scroll`), so a wide table scrolls inside it on a phone
 * instead of widening the page. The box is a focusable region named after the heading above the
 * table, so a keyboard reader can scroll it too.
 */
import type { Element, ElementContent, RootContent } from 'hast';
import { defineHastPlugin } from 'satteri';

const HEADING = /^h[1-6]$/;

/** The name of a guide table's scroll box: the nearest heading before it, or the guide's title. */
export function tableScrollLabel(heading: string | undefined): string {
	const words = heading?.trim().replace(/\s+/g, ' ');
	return words ? `Table: ${words}` : 'Table';
}

/** The scroll box a guide table is wrapped in. */
export function tableScrollBox(label: string): Element {
	return {
		type: 'element',
		// A named <section> is a region landmark, as html-validate's prefer-native-element asks.
		tagName: 'section',
		properties: { className: ['table-scroll'], tabIndex: 0, ariaLabel: label },
		children: [],
	};
}

/** Wraps every table of a guide in a labelled, focusable scroll box. */
export const tableScroll = defineHastPlugin({
	name: 'console-portal-table-scroll',
	element: {
		filter: ['table'],
		visit(node, context) {
			const parent = context.parent(node);
			const index = context.indexOf(node) ?? 0;
			const siblings: readonly (RootContent | ElementContent)[] = parent?.children ?? [];
			const heading = siblings
				.slice(0, index)
				.findLast(
					(sibling): sibling is Element =>
						sibling.type === 'element' && HEADING.test(sibling.tagName),
				);
			context.wrapNode(
				node,
				tableScrollBox(tableScrollLabel(heading && context.textContent(heading))),
			);
		},
	},
});
