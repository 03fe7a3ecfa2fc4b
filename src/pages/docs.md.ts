/** The guides' index as Markdown: each guide's twin with its description. */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { sortGuides } from '../site/guides.ts';
import { guidesMarkdown } from '../site/markdown/llms-txt.ts';
import { markdownResponse } from '../site/markdown/mdast.ts';

export const GET: APIRoute = async () =>
	markdownResponse(
		guidesMarkdown(
			sortGuides(await getCollection('docs')).map(({ id, data }) => ({
				id,
				title: data.title,
				description: data.description,
			})),
		),
	);
