/** One view's compare facts as JSON, fetched by the compare page for the two views picked. */
import type { APIRoute, GetStaticPaths } from 'astro';
import type { CompareFacts } from '../../shared/compare.ts';
import { compareFacts } from '../../site/compare-facts.ts';
import { viewEntries } from '../../site/view-collection.ts';

export const getStaticPaths = (async () => {
	const views = await viewEntries();
	return compareFacts(views).map((facts) => ({ params: { slug: facts.slug }, props: { facts } }));
}) satisfies GetStaticPaths;

/** Serves the facts of one view. */
export const GET: APIRoute<{ facts: CompareFacts }> = ({ props }) =>
	new Response(JSON.stringify(props.facts), { headers: { 'Content-Type': 'application/json' } });
