/**
 * The Markdown twins of the access changes, paged as the HTML lists are: every change
 * (`/access/changes.md`, then `/access/changes/2.md` and so on), and the changes filtered by one
 * environment, role, kind or person (`/access/changes/roles/admin.md`, …).
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { accessChangesMarkdown } from '../../site/markdown/history.ts';
import { pagedTwins } from '../../site/markdown/lists.ts';
import { markdownResponse } from '../../site/markdown/mdast.ts';
import { CHANGES_PER_PAGE } from '../../site/access.ts';
import { changeLists } from '../../site/change-lists.ts';
import { historyStatus } from '../../site/history-collection.ts';
import { ACCESS_ROOT, accessChangesHref } from '../../shared/urls.ts';

export const getStaticPaths = (async () => {
	const status = await historyStatus();
	const { lists, facets } = await changeLists();
	return lists.flatMap(({ filter, label, entries }) =>
		pagedTwins(
			entries,
			CHANGES_PER_PAGE,
			(number) => accessChangesHref(filter, number),
			ACCESS_ROOT,
		).map(({ param, page }) => ({
			params: { changes: param },
			props: { ...page, total: entries.length, status, filter, label, facets },
		})),
	);
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) => markdownResponse(accessChangesMarkdown(props));
