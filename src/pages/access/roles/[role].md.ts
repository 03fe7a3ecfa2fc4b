/** The Markdown twin of one role's page: who holds it, environment by environment. */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { ROLES } from '../../../schemas/view.ts';
import { accessRoleMarkdown } from '../../../site/markdown/access.ts';
import { markdownResponse } from '../../../site/markdown/mdast.ts';
import { accessEnvironments, allAccessEntries } from '../../../site/people-collection.ts';

export const getStaticPaths = (async () => {
	const entries = await allAccessEntries();
	const environments = await accessEnvironments();
	return ROLES.map((role) => ({
		params: { role },
		props: { role, environments, holders: entries.filter((entry) => entry.role === role) },
	}));
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props: { role, environments, holders } }) =>
	markdownResponse(accessRoleMarkdown(role, environments, holders));
