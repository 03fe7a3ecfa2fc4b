/** `/llms.txt`: the portal for AI assistants (llmstxt.org), linking to the Markdown twins. */
import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { sortGuides } from '../site/guides.ts';
import { llmsTxt } from '../site/markdown/llms-txt.ts';
import { environmentGroups } from '../site/overview.ts';
import { publishedReference } from '../site/published-contract.ts';
import { reviewPages } from '../site/review-pages.ts';
import { sortedPublicViews } from '../site/view-collection.ts';
import { mockWords } from '../site/mock-place.ts';

export const GET: APIRoute = async () => {
	const guides = sortGuides(await getCollection('docs'));
	const views = await sortedPublicViews();
	const api = await publishedReference();
	const text = llmsTxt({
		guides: guides.map(({ id, data }) => ({
			id,
			title: data.title,
			description: data.description,
		})),
		reference: { title: api.title, version: api.version, openapi: api.openapi },
		environments: environmentGroups(views.map((view) => ({ slug: view.slug, view }))).map(
			(group) => ({
				environment: group.environment,
				views: group.views.length,
				apiLabels: group.apiLabels,
			}),
		),
		mock: mockWords(),
		reviews: await reviewPages(),
	});
	return new Response(text, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
