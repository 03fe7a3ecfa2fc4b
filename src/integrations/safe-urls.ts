/**
 * A Sätteri HTML-tree plugin for the MDX guides: drops `href`, `src`, `action` and `formaction`
 * values whose scheme could run code (`javascript:`, `vbscript:`, `data:` outside images), in
 * plain elements and JSX elements alike, so a hostile link in a guide stays inert text.
 */
import { defineHastPlugin } from 'satteri';

const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formAction', 'formaction', 'xlinkHref']);

/** Whether a URL, read as a browser reads it, could run code. */
export function isDangerousUrl(value: string, allowDataImages = false): boolean {
	// Browsers skip ASCII control characters and spaces around and inside a scheme.
	// eslint-disable-next-line no-control-regex -- exactly the characters browsers ignore there
	const normalized = value.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
	if (normalized.startsWith('javascript:') || normalized.startsWith('vbscript:')) return true;
	if (normalized.startsWith('data:')) {
		return !(allowDataImages && /^data:image\/(png|gif|jpe?g|webp);/.test(normalized));
	}
	return false;
}

/** Removes dangerous URL attributes from every element of a guide. */
export const safeUrls = defineHastPlugin({
	name: 'console-portal-safe-urls',
	element: {
		filter: [],
		visit(node, context) {
			for (const [name, value] of Object.entries(node.properties)) {
				if (
					URL_ATTRIBUTES.has(name) &&
					typeof value === 'string' &&
					isDangerousUrl(value, node.tagName === 'img')
				) {
					context.setProperty(node, name, undefined);
				}
			}
		},
	},
	mdxJsxFlowElement: {
		filter: [],
		visit(node, context) {
			const attributes = safeAttributes(node.name, node.attributes);
			if (attributes) context.replaceNode(node, { ...node, attributes });
		},
	},
	mdxJsxTextElement: {
		filter: [],
		visit(node, context) {
			const attributes = safeAttributes(node.name, node.attributes);
			if (attributes) context.replaceNode(node, { ...node, attributes });
		},
	},
});

/** The attributes without dangerous URLs, or undefined when none had to go. */
function safeAttributes<A extends { type: string; name?: string; value?: unknown }>(
	element: string | null,
	attributes: readonly A[],
): A[] | undefined {
	const kept = attributes.filter(
		(attribute) =>
			!(
				attribute.type === 'mdxJsxAttribute' &&
				attribute.name !== undefined &&
				URL_ATTRIBUTES.has(attribute.name) &&
				typeof attribute.value === 'string' &&
				isDangerousUrl(attribute.value, element === 'img')
			),
	);
	return kept.length === attributes.length ? undefined : kept;
}
