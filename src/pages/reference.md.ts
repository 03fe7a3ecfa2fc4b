/** The API reference's Markdown twin, from the published contract, as the reference page reads it. */
import type { APIRoute } from 'astro';
import { referenceMarkdown } from '../site/markdown/reference.ts';
import { markdownResponse } from '../site/markdown/mdast.ts';
import { publishedReference, publishesContract31 } from '../site/published-contract.ts';
import { OPENAPI_31_JSON_HREF } from '../shared/urls.ts';
import { mockWords } from '../site/mock-place.ts';

export const GET: APIRoute = async () => {
	const api = await publishedReference();
	const server = api.servers[0]?.url ?? mockWords().url;
	const as31 = (await publishesContract31()) ? OPENAPI_31_JSON_HREF : undefined;
	return markdownResponse(referenceMarkdown(api, server, as31));
};
