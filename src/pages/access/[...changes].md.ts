/**
 * The Markdown twins of the access changes across every view, paged as the HTML list is:
 * `/access/changes.md`, then `/access/changes/2.md` and so on.
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { accessChangesMarkdown } from '../../site/markdown/history.ts';
import { pageSlices } from '../../site/markdown/lists.ts';
import { markdownResponse } from '../../site/markdown/mdast.ts';
import { CHANGES_PER_PAGE } from '../../site/access.ts';
import { accessChanges, historyStatus } from '../../site/history-collection.ts';

export const getStaticPaths = (async () => {
	const status = await historyStatus();
	const changes = await accessChanges();
	return pageSlices(changes, CHANGES_PER_PAGE).map((page) => ({
		params: { changes: page.currentPage === 1 ? 'changes' : `changes/${page.currentPage}` },
		props: { ...page, total: changes.length, status },
	}));
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) => markdownResponse(accessChangesMarkdown(props));
