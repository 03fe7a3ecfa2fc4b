/** The `read_page` tool: a portal page as its Markdown twin. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { answer } from '../answer.ts';
import { code, type ToolContext } from '../context.ts';
import { READABLE_PAGES } from '../tool-names.ts';

/** Registers `read_page`: an address in, the page's Markdown twin out. */
export function registerReadPage(server: McpServer, { reader }: ToolContext): void {
	server.registerTool(
		'read_page',
		{
			description: `Read a portal page as its Markdown twin by its address: ${READABLE_PAGES}.`,
			inputSchema: {
				address: z.string().describe('e.g. /views/production/ or /views/production.md'),
			},
			outputSchema: { address: z.string(), markdown: z.string() },
		},
		async ({ address }) =>
			answer(reader, 'read_page', address, async () => ({
				address,
				markdown: (await code.pages()).readPage(await reader.snapshot(), address),
			})),
	);
}
