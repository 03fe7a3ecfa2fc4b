/** A view page's Markdown twin, made from the view without its keys and configuration. */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { viewMarkdown } from '../../site/markdown/view.ts';
import { markdownResponse } from '../../site/markdown/mdast.ts';
import { environmentGroups, environmentPageOf } from '../../site/overview.ts';
import { sortedPublicViews } from '../../site/view-collection.ts';
import { mockWords } from '../../site/mock-place.ts';

export const getStaticPaths = (async () => {
	const views = await sortedPublicViews();
	const groups = environmentGroups(views.map((view) => ({ slug: view.slug, view })));
	return groups.flatMap((group) =>
		group.views.map(({ slug, view }) => ({
			params: { slug },
			props: { view, environmentPage: environmentPageOf(group.views, slug) },
		})),
	);
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) =>
	markdownResponse(
		viewMarkdown(props.view, { environmentPage: props.environmentPage, mock: mockWords() }),
	);
