/**
 * The published contract as OpenAPI 3.1 (/openapi-3.1.json), for tools that read only 3.1, such
 * as plain Prism: the same document the mock hands Prism, without what only 3.2 readers see. Not
 * written when the contract uses what 3.1 cannot say (a QUERY operation, ...).
 */
import type { APIRoute, GetStaticPaths } from 'astro';
import { publishedContract31, publishesContract31 } from '../site/published-contract.ts';
import { contractJsonParts, textBody } from '../site/contract-text.ts';

export const getStaticPaths = (async () =>
	(await publishesContract31()) ? [{ params: { version: '3.1' } }] : []) satisfies GetStaticPaths;

export const GET: APIRoute = async () => {
	const document = await publishedContract31();
	if (!document) return new Response(null, { status: 404 });
	return new Response(textBody(contractJsonParts(document)), {
		headers: { 'Content-Type': 'application/json; charset=utf-8' },
	});
};
