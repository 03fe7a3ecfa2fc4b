/**
 * A guide's Markdown twin: the guide rendered as its page renders it (components included, so a
 * command shows as on the page), in Astro's container, then turned into Markdown.
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { getCollection, render } from 'astro:content';
import { loadRenderers } from 'astro:container';
import { experimental_AstroContainer as AstroContainer } from 'astro/container';
import { getContainerRenderer } from '@astrojs/mdx/container-renderer';
import { guideMarkdown } from '../../site/markdown/guide.ts';
import { markdownResponse } from '../../site/markdown/mdast.ts';

export const getStaticPaths = (async () =>
	(await getCollection('docs')).map((guide) => ({
		params: { slug: guide.id },
		props: { guide },
	}))) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

/** One container renders every guide of the build. */
let container: Promise<AstroContainer> | undefined;

export const GET: APIRoute<Props> = async ({ props: { guide } }) => {
	container ??= loadRenderers([getContainerRenderer()]).then((renderers) =>
		AstroContainer.create({ renderers }),
	);
	const { Content } = await render(guide);
	const html = await (await container).renderToString(Content);
	return markdownResponse(guideMarkdown(guide.data, html));
};
