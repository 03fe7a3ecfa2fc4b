/**
 * The contract's one check of a whole answer, shared by try-it, the mock's proxy, the conformance run and MCP:
 * status, declared headers (a 401's Bearer challenge), media type and body, with validators
 * compiled in Node from openapi.yaml (src/sources/contract-validators.ts).
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnswerToCheck } from '../../../src/shared/contract-check.ts';
import {
	checkExchange,
	exchangeViolations,
	readExchange,
	type OperationContract,
} from '../../../src/shared/exchange-check.ts';
import { readContract } from '../../../src/sources/contract.ts';
import { contractValidators } from '../../../src/sources/contract-validators.ts';
import { ROOT } from '../../../support/processes.ts';

let get: OperationContract;
let head: OperationContract;

beforeAll(async () => {
	const { reference } = await readContract(path.join(ROOT, 'openapi.yaml'));
	const operations = contractValidators(reference);
	get = operations.get('GET /api/v2/users')!;
	head = operations.get('HEAD /api/v2/users')!;
});

const USER = { name: 'Ada Example', email: 'ada@example.com', role: 'admin' };
const EIGHT = { users: Array.from({ length: 8 }, () => USER) };
const PROBLEM = { type: 'https://portal.example/problems/x', title: 'T', status: 401, detail: 'd' };

function answer(status: number, body: unknown, mediaType = 'application/json'): AnswerToCheck {
	const text = body === undefined ? '' : JSON.stringify(body);
	return {
		status,
		mediaType,
		text,
		ending: 'complete',
		json: body === undefined ? undefined : { value: body },
	};
}

const messages = (found: { message: string }[]) => found.map(({ message }) => message);

describe('an answer checked against the whole contract', () => {
	it('a conforming 200 and a 401 with its Bearer challenge have no violation', () => {
		expect(exchangeViolations(answer(200, EIGHT), {}, get)).toEqual([]);
		const challenge = { 'www-authenticate': 'Bearer realm="console"' };
		expect(
			exchangeViolations(answer(401, PROBLEM, 'application/problem+json'), challenge, get),
		).toEqual([]);
	});

	it('a role outside the enum is named by where it is, located in the body', () => {
		const users = EIGHT.users.map((user, index) =>
			index === 3 ? { ...user, role: 'root' } : user,
		);
		expect(exchangeViolations(answer(200, { users }), {}, get)).toEqual([
			{
				location: ['response', 'body'],
				severity: 'Error',
				message: '/users/3/role: must be one of admin, deployer, operator, viewer',
			},
		]);
	});

	it('a ninth user, an extra field and a missing field are each named', () => {
		expect(
			messages(exchangeViolations(answer(200, { users: [...EIGHT.users, USER] }), {}, get)),
		).toEqual(['/users: must hold at most 8 items']);
		const users = EIGHT.users.map((user, index) =>
			index === 0
				? { ...user, apiKey: 'x' }
				: index === 1
					? { name: user.name, role: user.role }
					: user,
		);
		expect(messages(exchangeViolations(answer(200, { users }), {}, get))).toEqual([
			'/users/0/apiKey: is not in the contract',
			'/users/1/email: is required but missing',
		]);
	});

	it('a 401 without WWW-Authenticate, or with another scheme, breaks RFC 6750', () => {
		const problem = answer(401, PROBLEM, 'application/problem+json');
		expect(exchangeViolations(problem, {}, get)).toEqual([
			{
				location: ['response', 'headers', 'WWW-Authenticate'],
				severity: 'Error',
				message: "WWW-Authenticate: is required on the contract's 401 answer but missing",
			},
		]);
		expect(
			messages(exchangeViolations(problem, { 'www-authenticate': 'Basic realm="x"' }, get)),
		).toEqual([
			'WWW-Authenticate: must be a Bearer challenge (RFC 6750, section 3), not "Basic realm="x""',
		]);
	});

	it('a status the operation does not declare, a wrong media type and a body not JSON are named', () => {
		expect(exchangeViolations(answer(418, {}), {}, get)).toEqual([
			{
				location: ['response', 'status'],
				severity: 'Error',
				message:
					'The contract has no 418 answer for GET /api/v2/users; it lists 200, 400, 401, 403, 404, 422, 500, 503.',
			},
		]);
		expect(messages(exchangeViolations(answer(200, EIGHT, 'text/html'), {}, get))).toEqual([
			"The answer is text/html; the contract's 200 answer is application/json.",
		]);
		const garbage = {
			status: 200,
			mediaType: 'application/json',
			text: '<h1>',
			ending: 'complete',
			json: undefined,
		};
		expect(messages(exchangeViolations(garbage, {}, get))).toEqual([
			"The body is not JSON, so it cannot match the contract's 200 application/json schema.",
		]);
	});

	it('HEAD is checked against its own declared answers, which have no body', () => {
		const empty = {
			status: 200,
			mediaType: undefined,
			text: '',
			ending: 'complete',
			json: undefined,
		};
		expect(exchangeViolations(empty, {}, head)).toEqual([]);
		expect(messages(exchangeViolations({ ...empty, status: 401 }, {}, head))).toEqual([
			"WWW-Authenticate: is required on the contract's 401 answer but missing",
		]);
	});
});

describe('the check as try-it and MCP say it: a verdict, a headline, one line each', () => {
	const problem = answer(401, PROBLEM, 'application/problem+json');

	it('a 401 with its Bearer challenge matches, as its body does', () => {
		expect(checkExchange(problem, { 'www-authenticate': 'Bearer realm="console"' }, get)).toEqual({
			verdict: 'matches',
			headline: "The body matches the contract's 401 application/problem+json schema.",
			violations: [],
		});
	});

	it('a 401 whose body matches but whose challenge is missing breaks, the header named first', () => {
		expect(checkExchange(problem, {}, get)).toEqual({
			verdict: 'breaks',
			headline:
				"The headers break the contract's 401 answer (1 problem); the body matches the contract's 401 application/problem+json schema.",
			violations: ["WWW-Authenticate: is required on the contract's 401 answer but missing"],
		});
	});

	it('a 401 broken in its challenge and its body lists both, the header first', () => {
		const { detail: _detail, ...withoutDetail } = PROBLEM;
		expect(
			checkExchange(
				answer(401, withoutDetail, 'application/problem+json'),
				{ 'www-authenticate': 'Basic realm="x"', other: 'y' },
				get,
			),
		).toEqual({
			verdict: 'breaks',
			headline: "The answer breaks the contract's 401 answer in its headers and its body:",
			violations: [
				'WWW-Authenticate: must be a Bearer challenge (RFC 6750, section 3), not "Basic realm="x""',
				'/detail: is required but missing',
			],
		});
	});

	it('a 401 in the wrong media type without a challenge names both, the media type as said', () => {
		expect(checkExchange(answer(401, PROBLEM, 'text/html'), {}, get).violations).toEqual([
			"WWW-Authenticate: is required on the contract's 401 answer but missing",
			"The answer is text/html; the contract's 401 answer is application/problem+json.",
		]);
	});

	it('a status the operation does not declare is said alone, whatever its headers', () => {
		expect(checkExchange(answer(418, {}), {}, get)).toEqual({
			verdict: 'breaks',
			headline:
				'The contract has no 418 answer for GET /api/v2/users; it lists 200, 400, 401, 403, 404, 422, 500, 503.',
			violations: [],
		});
	});
});

describe('an answer as a client saw it, read as the check reads it', () => {
	it('headers by lower-case name, the media type without parameters, the body parsed when JSON', () => {
		expect(
			readExchange(401, { 'Content-Type': 'Application/Problem+JSON; charset=utf-8' }, '{"a":1}'),
		).toEqual({
			answer: {
				status: 401,
				mediaType: 'application/problem+json',
				text: '{"a":1}',
				ending: 'complete',
				json: { value: { a: 1 } },
			},
			headers: { 'content-type': 'Application/Problem+JSON; charset=utf-8' },
		});
	});

	it('a body that is not JSON, or empty, has no JSON for the check to judge; no Content-Type, no media type', () => {
		expect(readExchange(200, {}, '<p>users</p>').answer).toMatchObject({
			mediaType: undefined,
			json: undefined,
		});
		expect(readExchange(200, { 'content-type': ' ' }, '  ').answer).toMatchObject({
			mediaType: undefined,
			json: undefined,
		});
	});
});
