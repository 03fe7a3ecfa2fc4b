/** The Markdown twin of an environment's access page: everyone in its views, with their roles. */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { accessEnvironmentMarkdown } from '../../../site/markdown/access.ts';
import { markdownResponse } from '../../../site/markdown/mdast.ts';
import { describeRoles } from '../../../site/people.ts';
import { accessEnvironments, environmentMembers } from '../../../site/people-collection.ts';

export const getStaticPaths = (async () => {
	const environments = await accessEnvironments();
	return Promise.all(
		environments.map(async (environment) => ({
			params: { environment },
			props: { environment, environments, people: await environmentMembers(environment) },
		})),
	);
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props: { environment, environments, people } }) =>
	markdownResponse(
		accessEnvironmentMarkdown(
			environment,
			environments,
			people.map((person) => ({
				slug: person.slug,
				name: person.name,
				email: person.email,
				roles: describeRoles(person.roles),
				rolesDiffer: person.roles.length > 1,
			})),
		),
	);
