/**
 * The published contract as YAML: openapi.yaml with one named 200 example per view. A contract
 * that gives its own address ($self, OpenAPI 3.2) gives this file's.
 */
import type { APIRoute } from 'astro';
import { stringify } from 'yaml';
import { publishedContract } from '../site/published-contract.ts';
import { withSelf } from '../sources/contract.ts';
import { OPENAPI_YAML_HREF } from '../shared/urls.ts';

export const GET: APIRoute = async () =>
	new Response(
		stringify(withSelf(await publishedContract(), OPENAPI_YAML_HREF), { lineWidth: 0 }),
		{
			headers: { 'Content-Type': 'application/yaml; charset=utf-8' },
		},
	);
