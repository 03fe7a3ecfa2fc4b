/**
 * The Markdown twins of an environment's access pages, paged as the HTML pages are: everyone in
 * its views with their roles (`/access/environments/production.md`, then
 * `/access/environments/production/2.md`), and who holds each role there
 * (`/access/environments/production/admin.md`, then `…/admin/2.md`).
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { ROLES } from '../../../schemas/view.ts';
import { PEOPLE_PER_PAGE } from '../../../site/access.ts';
import {
	accessEnvironmentMarkdown,
	accessEnvironmentRoleMarkdown,
} from '../../../site/markdown/access.ts';
import { pagedTwins } from '../../../site/markdown/lists.ts';
import { markdownResponse } from '../../../site/markdown/mdast.ts';
import { describeRoles } from '../../../site/people.ts';
import {
	accessEnvironments,
	allAccessEntries,
	environmentMembers,
} from '../../../site/people-collection.ts';
import { sortedPublicViews } from '../../../site/view-collection.ts';
import { ACCESS_ROOT, accessHref } from '../../../shared/urls.ts';

const ROOT = `${ACCESS_ROOT}environments/`;

export const getStaticPaths = (async () => {
	const entries = await allAccessEntries();
	const environments = await accessEnvironments();
	const viewsIn = new Map<string, number>();
	for (const { environment } of await sortedPublicViews()) {
		viewsIn.set(environment, (viewsIn.get(environment) ?? 0) + 1);
	}
	const paths = [];
	for (const environment of environments) {
		const people = (await environmentMembers(environment)).map((person) => ({
			slug: person.slug,
			name: person.name,
			email: person.email,
			roles: describeRoles(person.roles),
			rolesDiffer: person.roles.length > 1,
		}));
		for (const { param, page } of pagedTwins(
			people,
			PEOPLE_PER_PAGE,
			(number) => accessHref(environment, undefined, number),
			ROOT,
		)) {
			paths.push({
				params: { list: param },
				props: {
					text: () => accessEnvironmentMarkdown(environment, environments, people, page),
				},
			});
		}
		for (const role of ROLES) {
			const holders = entries.filter(
				(entry) => entry.environment === environment && entry.role === role,
			);
			const total = viewsIn.get(environment) ?? 0;
			for (const { param, page } of pagedTwins(
				holders,
				PEOPLE_PER_PAGE,
				(number) => accessHref(environment, role, number),
				ROOT,
			)) {
				paths.push({
					params: { list: param },
					props: {
						text: () =>
							accessEnvironmentRoleMarkdown(environment, role, environments, holders, total, page),
					},
				});
			}
		}
	}
	return paths;
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props: { text } }) => markdownResponse(text());
