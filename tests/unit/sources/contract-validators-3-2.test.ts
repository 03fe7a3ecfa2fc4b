/**
 * The contract's one check (try-it, the proxy, conform and MCP's check_answer) on the 3.2 copy of
 * the contract gives what it gives on the 3.1 copy: the same answers pass, the same violations
 * are named, and try-it's build module is made from it.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAnswer, type AnswerToCheck } from '../../../mcp/check-answer.ts';
import { validatorSource } from '../../../src/integrations/try-it-validators.ts';
import { checkExchange, readExchange } from '../../../src/shared/exchange-check.ts';
import { readContract } from '../../../src/sources/contract.ts';
import { contractValidators } from '../../../src/sources/contract-validators.ts';
import { ROOT } from '../../../support/processes.ts';

/** The model of a fixture contract. */
async function model(version: '3-1' | '3-2') {
	const file = path.join(ROOT, 'tests', 'fixtures', `openapi-${version}`, 'openapi.yaml');
	return (await readContract(file)).reference;
}

const USERS = {
	users: ['admin', 'admin', 'deployer', 'deployer', 'operator', 'operator', 'viewer', 'viewer'].map(
		(role, index) => ({ name: `User ${index}`, email: `user${index}@example.com`, role }),
	),
};

const ANSWERS: Record<string, AnswerToCheck> = {
	'a directory': {
		status: 200,
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(USERS),
	},
	'a role of no kind': {
		status: 200,
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ users: USERS.users.map((user) => ({ ...user, role: 'boss' })) }),
	},
	'a 401 without its challenge': {
		status: 401,
		headers: { 'content-type': 'application/problem+json' },
		body: '{"type":"about:blank","title":"Unauthorized","status":401,"detail":"no key"}',
	},
	'a 401 with its challenge': {
		status: 401,
		headers: {
			'content-type': 'application/problem+json',
			'www-authenticate': 'Bearer realm="console"',
		},
		body: '{"type":"about:blank","title":"Unauthorized","status":401,"detail":"no key"}',
	},
};

describe('the contract’s check on a 3.2 contract', () => {
	it.each(Object.keys(ANSWERS))('judges %s as on the 3.1 copy', async (name) => {
		const answer = ANSWERS[name]!;
		const on32 = checkAnswer(await model('3-2'), answer);
		expect(on32).toEqual(checkAnswer(await model('3-1'), answer));
		expect(on32.conforms).toBe(name === 'a directory' || name === 'a 401 with its challenge');
	});

	it('gives try-it’s build the same validators as the 3.1 copy', async () => {
		expect(validatorSource(await model('3-2'))).toBe(validatorSource(await model('3-1')));
	});

	it('checks QUERY’s JSON-lines answer line by line against its item schema', async () => {
		const query = contractValidators(await model('3-2')).get('QUERY /api/v2/users');
		if (!query) throw new Error('the 3.2 copy has no QUERY /api/v2/users');
		const headers = { 'content-type': 'application/jsonl' };
		const [ada, ben] = USERS.users;
		const good = `${JSON.stringify(ada)}\n${JSON.stringify(ben)}\n`;
		const matched = readExchange(200, headers, good);
		expect(checkExchange(matched.answer, matched.headers, query)).toEqual({
			verdict: 'matches',
			headline:
				"The body matches the contract's 200 application/jsonl item schema, line by line (2 lines).",
			violations: [],
		});
		const bad = `${JSON.stringify(ada)}\n${JSON.stringify({ ...ben, email: 'ben' })}\n`;
		const broken = readExchange(200, headers, bad);
		expect(checkExchange(broken.answer, broken.headers, query)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 200 application/jsonl item schema (1 problem):",
			violations: ['line 2: /email: must be an email address'],
		});
	});
});
