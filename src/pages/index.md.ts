/** The overview's Markdown twin: every environment with its first views. */
import type { APIRoute } from 'astro';
import { homeMarkdown } from '../site/markdown/lists.ts';
import { markdownResponse } from '../site/markdown/mdast.ts';
import { environmentGroups } from '../site/overview.ts';
import { sortedPublicViews } from '../site/view-collection.ts';

export const GET: APIRoute = async () => {
	const views = await sortedPublicViews();
	return markdownResponse(
		homeMarkdown(environmentGroups(views.map((view) => ({ slug: view.slug, view })))),
	);
};
