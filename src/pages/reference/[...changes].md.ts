/**
 * The Markdown twins of the contract's changelog, paged as the HTML pages are:
 * `/reference/changes.md`, then `/reference/changes/2.md` and so on.
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { contractChanges } from '../../site/contract-changelog.ts';
import { contractChangesPages } from '../../site/contract-changes-text.ts';
import { contractChangesMarkdown } from '../../site/markdown/contract-changes.ts';
import { markdownResponse } from '../../site/markdown/mdast.ts';

export const getStaticPaths = (async () => {
	const { status, entries } = await contractChanges();
	return contractChangesPages(status, entries).map((page) => ({
		params: { changes: page.currentPage === 1 ? 'changes' : `changes/${page.currentPage}` },
		props: page,
	}));
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) => markdownResponse(contractChangesMarkdown(props));
