/** The `list_views` tool: the console's views, from the fixtures alone. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { answer } from '../answer.ts';
import { code, type ToolContext } from '../context.ts';

/** Registers `list_views`: an environment or none in, its views with their labels out. */
export function registerListViews(server: McpServer, { reader }: ToolContext): void {
	server.registerTool(
		'list_views',
		{
			description:
				'List the console views, of one environment or all, with their labels and last-updated times.',
			inputSchema: { environment: z.string().optional().describe('e.g. production') },
			outputSchema: {
				views: z.array(
					z.object({
						slug: z.string(),
						name: z.string(),
						environment: z.string(),
						configuration: z.string().nullable(),
						apiVersion: z.string().nullable(),
						lastUpdated: z.string(),
						href: z.string(),
						markdown: z.string(),
					}),
				),
			},
		},
		async ({ environment }) =>
			answer(reader, 'list_views', environment, async () => ({
				views: (await code.directory()).listViews(await reader.directory(), environment),
			})),
	);
}
