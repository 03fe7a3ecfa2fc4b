/**
 * Which view each directory belongs to, under the fingerprint of its users' emails: the try-it
 * panel fetches it only when an answer lists users that are not its own view's, to name their
 * view. It holds fingerprints, slugs and titles; no key, no email.
 */
import type { APIRoute } from 'astro';
import { directoryMap } from '../../lib/try-it-check.ts';
import { sortedViews } from '../../lib/view-collection.ts';
import { viewName } from '../../lib/views.ts';

/** Serves the map of every view's directory fingerprint. */
export const GET: APIRoute = async () => {
	const views = await sortedViews();
	const map = directoryMap(
		views.map(({ slug, view }) => ({
			slug,
			title: viewName(view),
			emails: view.users.map(({ email }) => email),
		})),
	);
	return new Response(JSON.stringify(map), { headers: { 'Content-Type': 'application/json' } });
};
