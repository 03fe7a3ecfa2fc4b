/**
 * The `check_answer` tool: a status, headers and body of GET /api/v2/users (or of its QUERY, when
 * the contract has one) checked against the contract, as try-it does.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { answer } from '../answer.ts';
import { code, type ToolContext } from '../context.ts';
import { CHECKED_METHODS } from '../tool-names.ts';
import { checkSchema } from './schemas.ts';

/** Registers `check_answer`: an answer in, its verdict and each violation by JSON path out. */
export function registerCheckAnswer(server: McpServer, { reader }: ToolContext): void {
	server.registerTool(
		'check_answer',
		{
			description:
				'Check a status, headers and body of GET /api/v2/users (or of QUERY /api/v2/users, when the contract has it) against the contract, as try-it does; each violation is named by its JSON path.',
			inputSchema: {
				method: z
					.enum(CHECKED_METHODS)
					.default('GET')
					.describe('The operation that answered: GET, or QUERY when the contract has one'),
				status: z.number().int().describe('The HTTP status, e.g. 200'),
				headers: z
					.record(z.string(), z.string())
					.optional()
					.describe('e.g. {"content-type": "application/json"}'),
				body: z.string().optional().describe('The body as text (JSON)'),
			},
			outputSchema: checkSchema.shape,
		},
		async ({ method, ...input }) =>
			answer(reader, 'check_answer', input, async () =>
				(await code.checkAnswer()).checkAnswer((await reader.snapshot()).reference, input, method),
			),
	);
}
