/**
 * A guide's Markdown twin, from the guide as the portal renders it: the MDX body rendered to HTML
 * (components included: a command a component shows is the command the page shows), then turned
 * into Markdown. What only works in a page is left out: buttons, scripts, styles, templates and
 * what is hidden; a code block keeps its language; a link to a page with a twin leads to the twin.
 */
import type { Element, ElementContent, Root as HastRoot, RootContent as HastContent } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toMdast } from 'hast-util-to-mdast';
import type { RootContent } from 'mdast';
import { markdownTwinHref } from '../../shared/urls.ts';
import { heading, markdownText, paragraph } from './mdast.ts';

/** The elements a twin leaves out: controls and what only a browser runs or shows. */
const LEFT_OUT = new Set(['button', 'script', 'style', 'template', 'noscript', 'dialog']);

/** A link's target in a twin: a portal page that has a twin leads to it, fragment kept. */
export function twinLink(href: string): string {
	if (!href.startsWith('/') || href.startsWith('//')) return href;
	const [path = '', ...fragment] = href.split('#');
	const twin = markdownTwinHref(path);
	return twin === undefined ? href : [twin, ...fragment].join('#');
}

/** An element's classes, as hast gives them. */
function classes(element: Element): string[] {
	const value = element.properties['className'];
	return Array.isArray(value) ? value.map(String) : [];
}

/** The language a `pre` names: its `data-language`, or a `language-*` class on it or its code. */
function codeLanguage(pre: Element): string | undefined {
	const named = pre.properties['dataLanguage'];
	if (typeof named === 'string' && named !== '') return named;
	const code = pre.children.find(
		(child): child is Element => child.type === 'element' && child.tagName === 'code',
	);
	const prefixed = [...classes(pre), ...(code ? classes(code) : [])].find((name) =>
		name.startsWith('language-'),
	);
	return prefixed?.slice('language-'.length);
}

/** Whether an element is left out of the twin. */
function leftOut(element: Element): boolean {
	return (
		LEFT_OUT.has(element.tagName) ||
		element.properties['hidden'] !== undefined ||
		String(element.properties['ariaHidden']) === 'true'
	);
}

/** The children of a node, cleaned for the twin (see the module's comment). */
function cleanChildren<T extends HastContent | ElementContent>(children: readonly T[]): T[] {
	const result: T[] = [];
	for (const child of children) {
		if (child.type !== 'element') {
			result.push(child);
			continue;
		}
		if (leftOut(child)) continue;
		if (child.tagName === 'pre') {
			// One code element holding the text, named by its language, as hast-util-to-mdast reads it.
			const language = codeLanguage(child);
			const pre: Element = {
				...child,
				children: [
					{
						type: 'element',
						tagName: 'code',
						properties: language ? { className: [`language-${language}`] } : {},
						children: cleanChildren(child.children),
					},
				],
			};
			result.push(pre as T);
			continue;
		}
		const element: Element = { ...child, children: cleanChildren(child.children) };
		const href = element.properties['href'];
		if (element.tagName === 'a' && typeof href === 'string') {
			element.properties = { ...element.properties, href: twinLink(href) };
		}
		if (element.tagName === 'table') {
			// hast-util-to-mdast drops captions, and Markdown tables have none: the caption goes first.
			const caption = element.children.find(
				(part): part is Element => part.type === 'element' && part.tagName === 'caption',
			);
			if (caption) result.push({ ...caption, tagName: 'p' } as T);
		}
		result.push(element as T);
	}
	return result;
}

/** The Markdown of a rendered HTML fragment, cleaned for a twin. */
export function htmlToMarkdownBlocks(html: string): RootContent[] {
	const tree = fromHtml(html, { fragment: true });
	const clean: HastRoot = { type: 'root', children: cleanChildren(tree.children) };
	const result = toMdast(clean);
	return result.type === 'root' ? result.children : [];
}

/** A guide's twin: its title, its description, and its body rendered to `html`. */
export function guideMarkdown(guide: { title: string; description: string }, html: string): string {
	return markdownText([
		heading(1, guide.title),
		paragraph(guide.description),
		...htmlToMarkdownBlocks(html),
	]);
}
