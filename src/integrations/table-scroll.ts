/**
 * A Sätteri HTML-tree plugin for the MDX guides: wraps each Markdown table in the same scroll box
 * the portal's own tables use (`.table-scroll`), so a wide table scrolls inside it on a phone
 * instead of widening the page. The box is a focusable region named after the heading above the
 * table, so a keyboard reader can scroll it too.
 */
import type { Element, ElementContent, RootContent } from 'hast';
import { defineHastPlugin } from 'satteri';

const HEADING = /^h[1-6]$/;

/**
 * The name of a guide table's scroll box: the nearest heading before it, or plainly "Table"; the
 * second and later tables under one heading are numbered, since a page's landmarks need names of
 * their own.
 */
export function tableScrollLabel(heading: string | undefined, nth = 1): string {
	const words = heading?.trim().replace(/\s+/g, ' ');
	const table = nth > 1 ? `Table ${nth}` : 'Table';
	return words ? `${table}: ${words}` : table;
}

/** Whether a node is a guide table, wrapped in its box already or not. */
function isTable(node: RootContent | ElementContent): boolean {
	if (node.type !== 'element') return false;
	if (node.tagName === 'table') return true;
	const classes = node.properties['className'];
	return node.tagName === 'section' && Array.isArray(classes) && classes.includes('table-scroll');
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
			const before = siblings.slice(0, index);
			const heading = before.findLast(
				(sibling): sibling is Element =>
					sibling.type === 'element' && HEADING.test(sibling.tagName),
			);
			const since = heading ? before.slice(before.indexOf(heading) + 1) : before;
			const nth = since.filter(isTable).length + 1;
			context.wrapNode(
				node,
				tableScrollBox(tableScrollLabel(heading && context.textContent(heading), nth)),
			);
		},
	},
});
