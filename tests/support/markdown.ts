/**
 * Reading the Markdown twins as a Markdown reader does: parsed by satteri (the parser the portal's
 * own Markdown goes through), then walked for headings, links, code blocks and text. And the
 * secret values of a set of views, which no twin may hold.
 */
import { markdownToMdast } from 'satteri';
import type { ViewEntry } from '../../src/sources/fixtures.ts';

/** A node of the parsed tree, as far as the tests read it. */
export interface MarkdownNode {
	type: string;
	value?: string;
	url?: string;
	depth?: number;
	lang?: string | null;
	children?: MarkdownNode[];
}

/** The Markdown text parsed, GitHub tables included. */
export function parseMarkdown(text: string): MarkdownNode {
	return markdownToMdast(text) as MarkdownNode;
}

/** Every node of a tree, depth first, the tree itself first. */
export function allNodes(node: MarkdownNode): MarkdownNode[] {
	return [node, ...(node.children ?? []).flatMap(allNodes)];
}

/** The text a node shows, its inline code included. */
export function textOf(node: MarkdownNode): string {
	if (node.type === 'text' || node.type === 'inlineCode') return node.value ?? '';
	return (node.children ?? []).map(textOf).join('');
}

/** The target of every link in a Markdown text. */
export function linksOf(text: string): string[] {
	return allNodes(parseMarkdown(text))
		.filter((node) => node.type === 'link')
		.map((node) => node.url ?? '');
}

/** Every fenced or indented code block of a Markdown text, with its language. */
export function codeBlocksOf(text: string): { lang: string | null; value: string }[] {
	return allNodes(parseMarkdown(text))
		.filter((node) => node.type === 'code')
		.map((node) => ({ lang: node.lang ?? null, value: node.value ?? '' }));
}

/**
 * Every secret value of the views: each user's key, and each value of the configuration block (the
 * console's own key among them), with the password inside the redis URL on its own.
 */
export function secretValues(views: readonly ViewEntry[]): { where: string; value: string }[] {
	return views.flatMap(({ slug, view }) => [
		...view.users.map((user, index) => ({
			where: `${slug}: users[${index}].apiKey`,
			value: user.apiKey,
		})),
		...Object.entries(view.config).map(([member, value]) => ({
			where: `${slug}: config.${member}`,
			value,
		})),
		{
			where: `${slug}: the password of config.redis_url`,
			value: decodeURIComponent(new URL(view.config.redis_url).password),
		},
	]);
}

/**
 * What keeps a text from being an llms.txt as llmstxt.org describes it: an H1 first (the project's
 * name), then a block quote (the summary), then any blocks but headings, then H2 sections each
 * holding one list whose every item starts with a link, `- [name](url)`, optionally followed by
 * `: notes`. An empty list means the text is in the format.
 */
export function llmsTxtProblems(text: string): string[] {
	const problems: string[] = [];
	const blocks = parseMarkdown(text).children ?? [];
	const [title, summary] = blocks;
	if (title?.type !== 'heading' || title.depth !== 1) problems.push('the first block is not an H1');
	if (summary?.type !== 'blockquote') problems.push('the H1 is not followed by a block quote');
	const body = blocks.slice(1);
	const firstSection = body.findIndex((block) => block.type === 'heading');
	if (firstSection === -1) return [...problems, 'there is no H2 section'];
	for (const block of body.slice(firstSection)) {
		if (block.type === 'heading') {
			if (block.depth !== 2) problems.push(`a heading of depth ${block.depth}: ${textOf(block)}`);
			continue;
		}
		if (block.type !== 'list') {
			problems.push(`a ${block.type} in a section: ${textOf(block)}`);
			continue;
		}
		for (const item of block.children ?? []) {
			const [first, ...notes] = item.children?.[0]?.children ?? [];
			if (first?.type !== 'link') problems.push(`an item that is not a link: ${textOf(item)}`);
			const after = notes.map(textOf).join('');
			if (after !== '' && !after.startsWith(': ')) {
				problems.push(`an item whose notes do not start with ": ": ${textOf(item)}`);
			}
		}
	}
	return problems;
}
