/** The `search` tool: the portal's pages, found as the search dialog finds them. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { answer } from '../answer.ts';
import type { ToolContext } from '../context.ts';
import { SEARCH_KINDS } from '../tool-names.ts';
import { roleSchema } from './schemas.ts';

/** Registers `search`: words and the dialog's filters in, the dialog's first results out. */
export function registerSearch(server: McpServer, { reader, searchIndex }: ToolContext): void {
	server.registerTool(
		'search',
		{
			description:
				"Search the portal's views, people, access pages, guides and API reference; filter by page kind, environment, configuration label, API label or role.",
			inputSchema: {
				query: z
					.string()
					.describe('Words to find; empty with a filter lists what the filter holds'),
				kind: z.enum(SEARCH_KINDS).optional(),
				environment: z.string().optional().describe('e.g. production'),
				configuration: z.string().optional().describe('Configuration label, e.g. Production'),
				api: z.string().optional().describe('API label, e.g. v5.8'),
				role: roleSchema.optional(),
			},
			outputSchema: {
				results: z.array(
					z.object({
						title: z.string(),
						href: z.string().describe('The page on the portal'),
						kind: z.enum(SEARCH_KINDS),
						labels: z.string(),
						excerpt: z.string(),
					}),
				),
			},
		},
		async ({ query, ...filters }) =>
			answer(reader, 'search', { query, ...filters }, async () => {
				const [{ searchPortal }, index] = await Promise.all([
					import('../search-query.ts'),
					searchIndex(),
				]);
				return { results: await searchPortal(index, query, filters) };
			}),
	);
}
