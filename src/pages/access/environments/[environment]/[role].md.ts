/** The Markdown twin of the page of one role in one environment: who holds it, in how many views. */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { ROLES } from '../../../../schemas/view.ts';
import { accessEnvironmentRoleMarkdown } from '../../../../site/markdown/access.ts';
import { markdownResponse } from '../../../../site/markdown/mdast.ts';
import { accessEnvironments, allAccessEntries } from '../../../../site/people-collection.ts';
import { sortedPublicViews } from '../../../../site/view-collection.ts';

export const getStaticPaths = (async () => {
	const entries = await allAccessEntries();
	const environments = await accessEnvironments();
	const viewsIn = new Map<string, number>();
	for (const { environment } of await sortedPublicViews()) {
		viewsIn.set(environment, (viewsIn.get(environment) ?? 0) + 1);
	}
	return environments.flatMap((environment) =>
		ROLES.map((role) => ({
			params: { environment, role },
			props: {
				environment,
				role,
				environments,
				total: viewsIn.get(environment) ?? 0,
				holders: entries.filter(
					(entry) => entry.environment === environment && entry.role === role,
				),
			},
		})),
	);
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) =>
	markdownResponse(
		accessEnvironmentRoleMarkdown(
			props.environment,
			props.role,
			props.environments,
			props.holders,
			props.total,
		),
	);
