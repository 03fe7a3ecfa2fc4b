/**
 * The Markdown twins of what changed in access since each tag, paged as the HTML pages are:
 * `/access/since/v1.0.md`, then `/access/since/v1.0/2.md` and so on.
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { SINCE_ROWS_PER_PAGE } from '../../../site/access.ts';
import { historyStatus, tagComparisons } from '../../../site/history-collection.ts';
import { pagedTwins } from '../../../site/markdown/lists.ts';
import { markdownResponse } from '../../../site/markdown/mdast.ts';
import { gainedOf, sinceTagMarkdown } from '../../../site/markdown/since.ts';
import { ACCESS_SINCE_HREF, accessSinceHref } from '../../../shared/urls.ts';

export const getStaticPaths = (async () => {
	const status = await historyStatus();
	return (await tagComparisons()).flatMap(({ name, commit, rows, unreadable }) => {
		const gained = gainedOf(rows);
		return pagedTwins(
			rows,
			SINCE_ROWS_PER_PAGE,
			(number) => accessSinceHref(name, number),
			ACCESS_SINCE_HREF,
		).map(({ param, page }) => ({
			params: { tag: param },
			props: { ...page, name, commit, unreadable, gained, total: rows.length, status },
		}));
	});
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) => markdownResponse(sinceTagMarkdown(props));
