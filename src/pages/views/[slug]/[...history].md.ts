/**
 * The Markdown twins of a view's history, paged as the HTML history is:
 * `/views/<slug>/history.md`, then `/views/<slug>/history/2.md` and so on.
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { viewHistoryMarkdown } from '../../../site/markdown/history.ts';
import { pageSlices } from '../../../site/markdown/lists.ts';
import { markdownResponse } from '../../../site/markdown/mdast.ts';
import { HISTORY_COMMITS_PER_PAGE } from '../../../site/access.ts';
import { historyStatus, viewCommitted, viewHistory } from '../../../site/history-collection.ts';
import { sortedViews } from '../../../site/view-collection.ts';
import { viewName } from '../../../shared/views.ts';

export const getStaticPaths = (async () => {
	const status = await historyStatus();
	const paths = [];
	for (const { slug, view } of await sortedViews()) {
		const commits = await viewHistory(slug);
		const committed = await viewCommitted(slug);
		for (const page of pageSlices(commits, HISTORY_COMMITS_PER_PAGE)) {
			paths.push({
				params: {
					slug,
					history: page.currentPage === 1 ? 'history' : `history/${page.currentPage}`,
				},
				props: {
					...page,
					slug,
					name: viewName(view),
					total: commits.length,
					status,
					committed,
				},
			});
		}
	}
	return paths;
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) => markdownResponse(viewHistoryMarkdown(props));
