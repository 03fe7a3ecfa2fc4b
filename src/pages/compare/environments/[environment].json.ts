/**
 * The views of one environment, by slug and name: what the compare page's view list holds once
 * an environment is picked. One small file per environment, fetched only when it is picked, so
 * the compare page never carries every view.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { environmentGroups } from '../../../site/overview.ts';
import { sortedViews } from '../../../site/view-collection.ts';
import { viewName } from '../../../shared/views.ts';
import type { EnvironmentViews } from '../../../shared/compare.ts';

export const getStaticPaths = (async () =>
	environmentGroups(await sortedViews()).map(({ environment, views }) => ({
		params: { environment },
		props: {
			list: {
				environment,
				views: views.map(({ slug, view }) => ({ slug, name: viewName(view) })),
			} satisfies EnvironmentViews,
		},
	}))) satisfies GetStaticPaths;

/** Serves one environment's list. */
export const GET: APIRoute<{ list: EnvironmentViews }> = ({ props }) =>
	new Response(JSON.stringify(props.list), { headers: { 'Content-Type': 'application/json' } });
