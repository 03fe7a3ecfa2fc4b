/**
 * The Markdown twins of a person's views in one environment, paged as the HTML pages are, for an
 * environment where the person's page lists only the first few: `/people/<person>/<environment>.md`,
 * then `/people/<person>/<environment>/2.md` and so on.
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { VIEWS_PER_ENVIRONMENT, VIEWS_PER_PAGE } from '../../../site/access.ts';
import { pageSlices } from '../../../site/markdown/lists.ts';
import { markdownResponse } from '../../../site/markdown/mdast.ts';
import { personEnvironmentMarkdown } from '../../../site/markdown/people.ts';
import { describeRoles } from '../../../site/people.ts';
import { allPeople, personEnvironments } from '../../../site/people-collection.ts';

export const getStaticPaths = (async () =>
	(await allPeople()).flatMap((person) =>
		personEnvironments(person)
			.filter((group) => group.memberships.length > VIEWS_PER_ENVIRONMENT)
			.flatMap((group) =>
				pageSlices(group.memberships, VIEWS_PER_PAGE).map((page) => ({
					params: {
						person: person.slug,
						list:
							page.currentPage === 1
								? group.environment
								: `${group.environment}/${page.currentPage}`,
					},
					props: {
						name: person.name,
						slug: person.slug,
						environment: group.environment,
						summary: describeRoles(group.roles),
						memberships: page.data,
						total: group.memberships.length,
						currentPage: page.currentPage,
						lastPage: page.lastPage,
						start: page.start,
					},
				})),
			),
	)) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props }) =>
	markdownResponse(personEnvironmentMarkdown(props));
