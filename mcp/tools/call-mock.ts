/**
 * The `call_mock` tool: a view's example request (or a QUERY with its body, when the contract has
 * one) sent to a mock as one person of the view, asking for JSON or another media type the
 * operation's 200 declares (a stream of JSON lines), its answer checked against the contract; the
 * key is sent but never shown.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { answer, problemOfAnswer } from '../answer.ts';
import type { checkAnswer } from '../check-answer.ts';
import { code, type ToolContext } from '../context.ts';
import { ALLOWED_MOCKS_SETTING } from '../places.ts';
import {
	CALL_TIMEOUT_MS,
	LONGEST_CALL_TIMEOUT_MS,
	MOCK_METHODS,
	ToolInputError,
} from '../tool-names.ts';
import { checkSchema, problemSchema } from './schemas.ts';

/** Registers `call_mock`: a view, a person and the mock's controls in, the checked answer out. */
export function registerCallMock(server: McpServer, { reader, options }: ToolContext): void {
	server.registerTool(
		'call_mock',
		{
			description:
				"Send a view's example request (GET /api/v2/users, or HEAD or OPTIONS, or QUERY with a JSON body when the contract has that operation) to a mock as one person of the view, and check the answer against the contract (a stream of JSON lines line by line); the key is sent but never shown.",
			inputSchema: {
				slug: z.string().describe("The view's slug, e.g. production"),
				email: z.string().describe("The person's email, from the view's directory"),
				method: z.enum(MOCK_METHODS).default('GET'),
				body: z
					.string()
					.optional()
					.describe(
						'A QUERY\'s JSON body, e.g. {"role":"admin"}; by default the contract\'s example. Only a QUERY takes one',
					),
				accept: z
					.string()
					.optional()
					.describe(
						"The media type to ask for (Accept), one the operation's 200 declares, e.g. application/jsonl for a QUERY's stream of JSON lines; application/json by default",
					),
				prefer: z
					.string()
					.optional()
					.describe(
						"The mock's controls as a Prefer header, e.g. code=401 or example=<slug>, dynamic=true",
					),
				baseUrl: z
					.string()
					.default(options.localMock)
					.describe(
						`The mock, by default the local one; only the portal's mock and those ${ALLOWED_MOCKS_SETTING} lists are called`,
					),
				timeoutMs: z
					.number()
					.int()
					.min(1)
					.max(LONGEST_CALL_TIMEOUT_MS)
					.optional()
					.describe(`How long to wait for the whole answer, in milliseconds (${CALL_TIMEOUT_MS})`),
			},
			outputSchema: {
				request: z.string(),
				as: z.string(),
				key: z.string().describe('Where the key sent is shown: never in this result'),
				status: z.number().int(),
				headers: z.record(z.string(), z.string()),
				body: z.string(),
				check: checkSchema,
				problem: problemSchema
					.optional()
					.describe(
						'When the mock answered a problem: its title and what to change, as the problems guide says them',
					),
			},
		},
		async (call) =>
			answer(reader, 'call_mock', call, async () => {
				const [{ acceptOf, callMock, requestBody }, { checkAnswer }, { whereSecretsAre }] =
					await Promise.all([code.callMock(), code.checkAnswer(), code.pages()]);
				const { reference } = await reader.snapshot();
				const body = requestBody(reference, call.method, call.body);
				const accept = acceptOf(reference, call.method, call.accept);
				const sent = await callMock(
					await reader.entries(),
					{ ...call, body, accept },
					options.mocks,
				);
				const { method } = call;
				const check =
					method === 'GET' || method === 'QUERY'
						? checkAnswerSafely(() => checkAnswer(reference, sent, method))
						: {
								conforms: false,
								verdict: 'unchecked' as const,
								headline: `A ${method} answer is not checked: call_mock checks the answers of GET and QUERY.`,
								violations: [],
							};
				const problem = problemOfAnswer(sent);
				return { ...sent, key: whereSecretsAre(call.slug), check, ...(problem ? { problem } : {}) };
			}),
	);
}

/** A check that cannot be made (the contract lacks the operation) said in its headline. */
function checkAnswerSafely(
	check: () => ReturnType<typeof checkAnswer>,
): ReturnType<typeof checkAnswer> {
	try {
		return check();
	} catch (error) {
		const why = error instanceof ToolInputError ? error.message : 'the contract could not be read';
		return { conforms: false, verdict: 'unchecked', headline: why, violations: [] };
	}
}
