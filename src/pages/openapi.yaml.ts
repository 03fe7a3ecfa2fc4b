/** The published contract as YAML: openapi.yaml with one named 200 example per view. */
import type { APIRoute } from 'astro';
import { stringify } from 'yaml';
import { publishedContract } from '../site/published-contract.ts';

export const GET: APIRoute = async () =>
	new Response(stringify(await publishedContract(), { lineWidth: 0 }), {
		headers: { 'Content-Type': 'application/yaml; charset=utf-8' },
	});
