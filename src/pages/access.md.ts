/**
 * The access overview's Markdown twin: environments by role, each cell naming a few people, then
 * the review flags, each linked to its twin.
 */
import type { APIRoute } from 'astro';
import { accessMarkdown } from '../site/markdown/access.ts';
import { markdownResponse } from '../site/markdown/mdast.ts';
import { accessEnvironments, allAccessEntries, allPeople } from '../site/people-collection.ts';
import { reviewPages } from '../site/review-pages.ts';

export const GET: APIRoute = async () => {
	const people = await allPeople();
	const views = new Set(people.flatMap(({ memberships }) => memberships.map(({ slug }) => slug)));
	return markdownResponse(
		accessMarkdown({
			people: people.length,
			views: views.size,
			environments: await accessEnvironments(),
			entries: await allAccessEntries(),
			reviews: await reviewPages(),
		}),
	);
};
