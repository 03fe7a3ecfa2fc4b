/**
 * The Markdown twins of an environment's list of views, paged as the HTML list is:
 * `/environments/<environment>.md`, then `/environments/<environment>/2.md` and so on.
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { environmentMarkdown, pageSlices } from '../../site/markdown/lists.ts';
import { markdownResponse } from '../../site/markdown/mdast.ts';
import { ENVIRONMENT_PAGE_SIZE, environmentGroups } from '../../site/overview.ts';
import { sortedPublicViews } from '../../site/view-collection.ts';

export const getStaticPaths = (async () => {
	const views = await sortedPublicViews();
	return environmentGroups(views.map((view) => ({ slug: view.slug, view }))).flatMap(
		({ views: members, ...group }) =>
			pageSlices(members, ENVIRONMENT_PAGE_SIZE).map((page) => ({
				params: {
					list:
						page.currentPage === 1 ? group.environment : `${group.environment}/${page.currentPage}`,
				},
				props: {
					group,
					views: page.data,
					total: members.length,
					currentPage: page.currentPage,
					lastPage: page.lastPage,
					start: page.start,
				},
			})),
	);
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) => markdownResponse(environmentMarkdown(props));
