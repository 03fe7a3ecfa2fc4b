/**
 * Which views have a directory, one small file per directory fingerprint (of its users' emails):
 * the try-it panel fetches the one file for an answer's users, and only when they are not its
 * own view's, to name their view. One file per directory keeps what a page fetches the same size
 * however many views there are. Each holds a fingerprint, slugs and names; no key, no email.
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { directoryMap, type DirectoryMap } from '../../../client/try-it/check.ts';
import { sortedViews } from '../../../site/view-collection.ts';
import { viewName } from '../../../shared/views.ts';

export const getStaticPaths = (async () => {
	const map = directoryMap(
		(await sortedViews()).map(({ slug, view }) => ({
			slug,
			title: viewName(view),
			emails: view.users.map(({ email }) => email),
		})),
	);
	return Object.entries(map).map(([fingerprint, views]) => ({
		params: { fingerprint },
		props: { entry: { [fingerprint]: views } satisfies DirectoryMap },
	}));
}) satisfies GetStaticPaths;

/** Serves the views of one directory, as a directory map of one fingerprint. */
export const GET: APIRoute<{ entry: DirectoryMap }> = ({ props }) =>
	new Response(JSON.stringify(props.entry), { headers: { 'Content-Type': 'application/json' } });
