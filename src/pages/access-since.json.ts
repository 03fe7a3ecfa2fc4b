/** `access-since.json`: today's access and each commit's change to it, for the date field. No secret. */
import type { APIRoute } from 'astro';
import { sinceJson } from '../site/history-collection.ts';

export const GET: APIRoute = async () =>
	new Response(JSON.stringify(await sinceJson()), {
		headers: { 'Content-Type': 'application/json' },
	});
