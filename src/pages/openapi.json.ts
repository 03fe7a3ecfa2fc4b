/** The published contract as JSON: openapi.yaml with one named 200 example per view. */
import type { APIRoute } from 'astro';
import { publishedContract } from '../site/published-contract.ts';

export const GET: APIRoute = async () =>
	new Response(`${JSON.stringify(await publishedContract(), null, 2)}\n`, {
		headers: { 'Content-Type': 'application/json; charset=utf-8' },
	});
