/**
 * The published contract as JSON: openapi.yaml with one named 200 example per view. A contract
 * that gives its own address ($self, OpenAPI 3.2) gives this file's. Written in parts
 * (`contract-text.ts`), the same text as the whole document written at once.
 */
import type { APIRoute } from 'astro';
import { publishedContract } from '../site/published-contract.ts';
import { withSelf } from '../sources/contract.ts';
import { contractJsonParts, textBody } from '../site/contract-text.ts';
import { OPENAPI_JSON_HREF } from '../shared/urls.ts';

export const GET: APIRoute = async () =>
	new Response(
		textBody(contractJsonParts(withSelf(await publishedContract(), OPENAPI_JSON_HREF))),
		{ headers: { 'Content-Type': 'application/json; charset=utf-8' } },
	);
