/**
 * The contract's one check (try-it, the proxy, conform and MCP's check_answer) on the 3.2 copy of
 * the contract gives what it gives on the 3.1 copy: the same answers pass, the same violations
 * are named, and try-it's build module is made from it, with QUERY's answers besides.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkAnswer, type AnswerToCheck } from '../../../mcp/check-answer.ts';
import { validatorSource } from '../../../src/integrations/try-it-validators.ts';
import {
	checkExchange,
	readExchange,
	type OperationContract,
} from '../../../src/shared/exchange-check.ts';
import { readContract } from '../../../src/sources/contract.ts';
import { contractValidators } from '../../../src/sources/contract-validators.ts';
import type { ApiReference } from '../../../src/sources/openapi.ts';
import { ROOT } from '../../../support/processes.ts';

/** Try-it's build module of a contract, loaded as the page loads it. */
async function buildModule(
	reference: ApiReference,
	name: string,
): Promise<{ contract: OperationContract; queryContract: OperationContract | undefined }> {
	// Inside the project, so the module's imports of Ajv's runtime resolve.
	const file = path.join(ROOT, 'node_modules/.cache', `try-it-${name}-${process.pid}.mjs`);
	await mkdir(path.dirname(file), { recursive: true });
	await writeFile(file, validatorSource(reference));
	try {
		return (await import(pathToFileURL(file).href)) as {
			contract: OperationContract;
			queryContract: OperationContract | undefined;
		};
	} finally {
		await rm(file, { force: true });
	}
}

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

	it('gives try-it’s build the same GET validators as the 3.1 copy, and QUERY’s besides', async () => {
		const on31 = await buildModule(await model('3-1'), '3-1');
		const on32 = await buildModule(await model('3-2'), '3-2');
		expect(on31.queryContract).toBeUndefined();
		expect(on32.contract.operation).toBe(on31.contract.operation);
		expect(on32.contract.headers).toEqual(on31.contract.headers);
		for (const name of Object.keys(ANSWERS)) {
			const { status, headers, body } = ANSWERS[name]!;
			const read = readExchange(status, headers ?? {}, body ?? '');
			expect(checkExchange(read.answer, read.headers, on32.contract)).toEqual(
				checkExchange(read.answer, read.headers, on31.contract),
			);
		}
		const query = on32.queryContract;
		if (!query) throw new Error('the 3.2 build module has no QUERY contract');
		expect(query.operation).toBe('QUERY /api/v2/users');
		const [ada, ben] = USERS.users;
		const stream = `${JSON.stringify(ada)}\n${JSON.stringify({ ...ben, role: 'boss' })}\n`;
		const read = readExchange(200, { 'Content-Type': 'application/jsonl' }, stream);
		expect(checkExchange(read.answer, read.headers, query)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 200 application/jsonl item schema (1 problem):",
			violations: ['line 2: /role: must be one of admin, deployer, operator, viewer'],
		});
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
