/** The API reference's Markdown twin, from the published contract, as the reference page reads it. */
import type { APIRoute } from 'astro';
import { referenceMarkdown } from '../site/markdown/reference.ts';
import { markdownResponse } from '../site/markdown/mdast.ts';
import { publishedReference } from '../site/published-contract.ts';
import { mockOrigin } from '../sources/contract.ts';
import { readSettings } from '../sources/settings.ts';

export const GET: APIRoute = async () => {
	const api = await publishedReference();
	const server = api.servers[0]?.url ?? mockOrigin(readSettings().mockPort);
	return markdownResponse(referenceMarkdown(api, server));
};
