/** The `access_changes` tool: who was granted, revoked or changed, from the git history. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ACCESS_KINDS } from '../../src/site/history.ts';
import { answer } from '../answer.ts';
import { code, type ToolContext } from '../context.ts';
import { roleSchema } from './schemas.ts';

/** Registers `access_changes`: filters in, the access changes newest first out. */
export function registerAccessChanges(server: McpServer, { reader }: ToolContext): void {
	server.registerTool(
		'access_changes',
		{
			description:
				'Access changes from git history (granted, revoked, role changed, key rotated, name or email changed), newest first, filtered by environment, role, kind, person, and since a date or tag.',
			inputSchema: {
				environment: z.string().optional(),
				role: roleSchema.optional(),
				kind: z.enum(ACCESS_KINDS).optional(),
				email: z.string().optional().describe("A person's email"),
				since: z.string().optional().describe('A date (YYYY-MM-DD or ISO 8601) or a git tag'),
				limit: z
					.number()
					.int()
					.min(1)
					.max(1000)
					.optional()
					.describe('At most this many rows (100)'),
			},
			outputSchema: {
				total: z.number().int(),
				page: z.string().describe('The HTML page listing every change'),
				history: z.string().describe('Where the history starts and ends'),
				rows: z.array(
					z.object({
						date: z.string(),
						commit: z.string(),
						author: z.string(),
						subject: z.string(),
						environment: z.string(),
						slug: z.string(),
						view: z.string(),
						person: z.string(),
						email: z.string(),
						kind: z.enum(ACCESS_KINDS),
						role: z.string(),
						from: z.string(),
						to: z.string(),
					}),
				),
			},
		},
		async (filters) =>
			answer(reader, 'access_changes', filters, async () =>
				(await code.pages()).accessChanges(await reader.accessHistory(), filters),
			),
	);
}
