/** The `who_holds` tool: who holds a role, or every role one person holds. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ROLES } from '../../src/schemas/view.ts';
import { answer } from '../answer.ts';
import { code, type ToolContext } from '../context.ts';
import { roleSchema } from './schemas.ts';

const holdingSchema = z.object({
	name: z.string(),
	email: z.string(),
	role: z.enum(ROLES),
	environment: z.string(),
	view: z.string().describe("The view's name"),
	slug: z.string(),
	person: z.string().describe("The person's page"),
});

/** Registers `who_holds`: a role (and an environment) or an email in, one row per view out. */
export function registerWhoHolds(server: McpServer, { reader }: ToolContext): void {
	server.registerTool(
		'who_holds',
		{
			description:
				'Who holds a role (in one environment or any) across the views, or every role one person holds, by email; one row per view.',
			inputSchema: {
				role: roleSchema.optional(),
				environment: z.string().optional(),
				email: z.string().optional().describe("A person's email, for every role they hold"),
			},
			outputSchema: { count: z.number().int(), holdings: z.array(holdingSchema) },
		},
		async (query) =>
			answer(reader, 'who_holds', query, async () => {
				const holdings = (await code.directory()).whoHolds(await reader.directory(), query);
				return { count: holdings.length, holdings };
			}),
	);
}
