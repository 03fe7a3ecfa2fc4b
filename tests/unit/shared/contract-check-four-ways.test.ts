/**
 * One contract check, four callers: the same answers of GET /api/v2/users go through the try-it
 * panel (its validators compiled at build time, as the page imports them, and its check), the mock
 * as a validating proxy, the conformance run and MCP's `check_answer`, and each gets the verdict
 * written here by hand, naming the same thing. A reader who checks an answer in try-it, through the
 * proxy, with `npm run conform` or by asking an assistant gets one answer.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerViolations, type UpstreamAnswer } from '../../../mock/forwarder/decide.ts';
import { judge, type ConformCheck } from '../../../mock/conform/decide.ts';
import { checkAnswer as mcpCheckAnswer } from '../../../mcp/check-answer.ts';
import { readBody } from '../../../src/client/try-it/exchange.ts';
import { validatorSource } from '../../../src/integrations/try-it-validators.ts';
import { checkExchange, type OperationContract } from '../../../src/shared/exchange-check.ts';
import { readContract } from '../../../src/sources/contract.ts';
import { contractValidators } from '../../../src/sources/contract-validators.ts';
import type { ApiReference } from '../../../src/sources/openapi.ts';
import { ROOT } from '../../../support/processes.ts';

/** Inside the project, so the generated module's imports of Ajv's runtime resolve. */
const MODULE_FILE = path.join(ROOT, 'node_modules/.cache', `four-ways-${process.pid}.mjs`);

let reference: ApiReference;
let tryItContract: OperationContract;
let proxyContract: OperationContract;

beforeAll(async () => {
	({ reference } = await readContract(path.join(ROOT, 'openapi.yaml')));
	await mkdir(path.dirname(MODULE_FILE), { recursive: true });
	await writeFile(MODULE_FILE, validatorSource(reference));
	const generated = (await import(pathToFileURL(MODULE_FILE).href)) as {
		contract: OperationContract;
	};
	tryItContract = generated.contract;
	const get = contractValidators(reference).get('GET /api/v2/users');
	if (!get) throw new Error('openapi.yaml has no GET /api/v2/users');
	proxyContract = get;
});

afterAll(async () => {
	await rm(MODULE_FILE, { force: true });
});

/** An answer as a client sees it: status, headers by name, body as text. */
interface Exchange {
	status: number;
	headers: Record<string, string>;
	body: string;
}

const ROLES = ['admin', 'deployer', 'operator', 'viewer'];
const USERS = Array.from({ length: 8 }, (_, index) => ({
	name: `User ${index}`,
	email: `user${index}@example.com`,
	role: ROLES[index % 4],
}));
const PROBLEM = {
	type: 'https://portal.example/problems/unauthorized',
	title: 'Unauthorized',
	status: 401,
	detail: 'The request carries no directory key.',
};
const JSON_TYPE = { 'content-type': 'application/json' };
const PROBLEM_TYPE = { 'content-type': 'application/problem+json' };

/**
 * Each exchange, its verdict (by hand) and a word every caller's finding names. A conforming
 * answer names nothing.
 */
const CASES: {
	name: string;
	exchange: Exchange;
	verdict: 'conforms' | 'breaks';
	names?: string;
}[] = [
	{
		name: 'a 200 with a directory of eight',
		exchange: { status: 200, headers: JSON_TYPE, body: JSON.stringify({ users: USERS }) },
		verdict: 'conforms',
	},
	{
		name: 'a 200 whose fourth user has a role the contract does not list',
		exchange: {
			status: 200,
			headers: JSON_TYPE,
			body: JSON.stringify({
				users: USERS.map((user, index) => (index === 3 ? { ...user, role: 'root' } : user)),
			}),
		},
		verdict: 'breaks',
		names: '/users/3/role',
	},
	{
		name: 'a 401 with its Bearer challenge',
		exchange: {
			status: 401,
			headers: { ...PROBLEM_TYPE, 'www-authenticate': 'Bearer realm="console"' },
			body: JSON.stringify(PROBLEM),
		},
		verdict: 'conforms',
	},
	{
		name: 'a 401 without WWW-Authenticate',
		exchange: { status: 401, headers: PROBLEM_TYPE, body: JSON.stringify(PROBLEM) },
		verdict: 'breaks',
		names: 'WWW-Authenticate',
	},
	{
		name: 'a 401 whose challenge is Basic, not Bearer',
		exchange: {
			status: 401,
			headers: { ...PROBLEM_TYPE, 'www-authenticate': 'Basic realm="console"' },
			body: JSON.stringify(PROBLEM),
		},
		verdict: 'breaks',
		names: 'Bearer challenge',
	},
	{
		name: 'a 418, which the contract does not declare',
		exchange: { status: 418, headers: JSON_TYPE, body: '{}' },
		verdict: 'breaks',
		names: 'no 418 answer',
	},
	{
		name: 'a 200 in text/html',
		exchange: {
			status: 200,
			headers: { 'content-type': 'text/html; charset=utf-8' },
			body: '<p>users</p>',
		},
		verdict: 'breaks',
		names: 'text/html',
	},
];

/** What one caller found: its verdict and everything it said, one text. */
interface Finding {
	verdict: 'conforms' | 'breaks';
	said: string;
}

/**
 * The try-it panel: the answer read as exchange.ts reads it (headers by lower-case name, as
 * fetch's Headers gives them), checked as send.ts checks it, with the build's validators.
 */
function throughTryIt({ status, headers, body }: Exchange): Finding {
	const { json } = readBody({ bytes: new TextEncoder().encode(body), ending: 'complete' });
	const read = Object.fromEntries(new Headers(headers));
	const mediaType = read['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
	const checked = checkExchange(
		{ status, mediaType, text: body, ending: 'complete', json },
		read,
		tryItContract,
	);
	return {
		verdict: checked.verdict === 'matches' ? 'conforms' : 'breaks',
		said: [checked.headline, ...checked.violations].join('\n'),
	};
}

/** The console's answer as the proxy and the conformance run read it off the socket. */
function upstream({ status, headers, body }: Exchange): UpstreamAnswer {
	return { status, rawHeaders: Object.entries(headers).flat(), body: Buffer.from(body) };
}

/** The mock as a validating proxy: the violations it puts in `sl-violations`. */
function throughProxy(exchange: Exchange): Finding {
	const found = answerViolations(upstream(exchange), 'GET', proxyContract);
	return {
		verdict: found.length === 0 ? 'conforms' : 'breaks',
		said: found.map(({ message }) => message).join('\n'),
	};
}

/** The conformance run, with a check that expects the status the answer has. */
function throughConform(exchange: Exchange): Finding {
	const check: ConformCheck = {
		name: `GET /api/v2/users answered ${exchange.status}`,
		operation: 'GET /api/v2/users',
		method: 'GET',
		headers: [],
		expected: exchange.status,
	};
	const result = judge(check, upstream(exchange), proxyContract, 10_000, 1);
	return {
		verdict: result.verdict === 'conforms' ? 'conforms' : 'breaks',
		said: result.problems.join('\n'),
	};
}

/** MCP's `check_answer`, as an assistant calls it. */
function throughMcp(exchange: Exchange): Finding {
	const checked = mcpCheckAnswer(reference, exchange);
	return {
		verdict: checked.conforms ? 'conforms' : 'breaks',
		said: [checked.headline, ...checked.violations].join('\n'),
	};
}

describe('one contract check, through try-it, the proxy, the conformance run and MCP', () => {
	it.each(CASES)('$name: the same verdict from all four', ({ exchange, verdict, names }) => {
		const found = {
			'try-it': throughTryIt(exchange),
			proxy: throughProxy(exchange),
			conform: throughConform(exchange),
			mcp: throughMcp(exchange),
		};
		const verdicts = Object.fromEntries(
			Object.entries(found).map(([caller, finding]) => [caller, finding.verdict]),
		);
		expect(verdicts).toEqual({ 'try-it': verdict, proxy: verdict, conform: verdict, mcp: verdict });
		if (names === undefined) return;
		for (const [caller, { said }] of Object.entries(found)) {
			expect(said, `${caller} names what breaks`).toContain(names);
		}
	});
});
