/**
 * The Markdown twins of the review flags from history, paged as the HTML pages are: the keys not
 * rotated for longer than the limit (`/access/review/keys.md`, `/access/review/keys/2.md`, …) and
 * the directories unchanged while the others changed (`/access/review/views.md`, …).
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { SINCE_ROWS_PER_PAGE } from '../../../site/access.ts';
import { historyFlags, historyStatus } from '../../../site/history-collection.ts';
import { pagedTwins } from '../../../site/markdown/lists.ts';
import { markdownResponse } from '../../../site/markdown/mdast.ts';
import { staleKeysMarkdown, stillViewsMarkdown } from '../../../site/markdown/review.ts';
import { ACCESS_ROOT, reviewKeysHref, reviewViewsHref } from '../../../shared/urls.ts';

/** The folder of the review pages from history. */
const ROOT = `${ACCESS_ROOT}review/`;

export const getStaticPaths = (async () => {
	const status = await historyStatus();
	const { limit, head, keys, views } = await historyFlags();
	return [
		...pagedTwins(keys, SINCE_ROWS_PER_PAGE, reviewKeysHref, ROOT).map(({ param, page }) => ({
			params: { list: param },
			props: {
				text: () => staleKeysMarkdown({ ...page, limit, head, total: keys.length, status }),
			},
		})),
		...pagedTwins(views, SINCE_ROWS_PER_PAGE, reviewViewsHref, ROOT).map(({ param, page }) => ({
			params: { list: param },
			props: { text: () => stillViewsMarkdown({ ...page, head, total: views.length, status }) },
		})),
	];
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) => markdownResponse(props.text());
