/**
 * The Markdown twins of one role's pages, who holds it environment by environment, paged as the
 * HTML pages are: `/access/roles/admin.md`, then `/access/roles/admin/2.md` and so on.
 */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { ROLES } from '../../../schemas/view.ts';
import { PEOPLE_PER_PAGE } from '../../../site/access.ts';
import { accessRoleMarkdown } from '../../../site/markdown/access.ts';
import { pagedTwins } from '../../../site/markdown/lists.ts';
import { markdownResponse } from '../../../site/markdown/mdast.ts';
import { accessEnvironments, allAccessEntries } from '../../../site/people-collection.ts';
import { ACCESS_ROOT, accessHref } from '../../../shared/urls.ts';

export const getStaticPaths = (async () => {
	const entries = await allAccessEntries();
	const environments = await accessEnvironments();
	return ROLES.flatMap((role) => {
		const holders = entries.filter((entry) => entry.role === role);
		return pagedTwins(
			holders,
			PEOPLE_PER_PAGE,
			(number) => accessHref(undefined, role, number),
			`${ACCESS_ROOT}roles/`,
		).map(({ param, page }) => ({
			params: { list: param },
			props: { role, environments, holders, page },
		}));
	});
}) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props: { role, environments, holders, page } }) =>
	markdownResponse(accessRoleMarkdown(role, environments, holders, page));
