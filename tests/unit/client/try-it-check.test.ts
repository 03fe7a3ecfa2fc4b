/**
 * The try-it panel's check of an answer: the validators compiled from openapi.yaml at build time
 * (imported here as the page imports them, from the generated module), the violation messages,
 * and whose directory an answer lists.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorSource } from '../../../src/integrations/try-it-validators.ts';
import { readContract } from '../../../src/sources/contract.ts';
import {
	answerEmails,
	directoryFingerprint,
	directoryMap,
	readDirectoryMap,
	whoseDirectory,
	type DirectoryMap,
} from '../../../src/client/try-it/check.ts';
import {
	checkAnswer,
	describeViolation,
	type BodyValidator,
	type ContractAnswers,
	type Violation,
} from '../../../src/shared/contract-check.ts';
import type { BodyEnding, CheckedAnswer } from '../../../src/client/try-it/answer.ts';
import { readBody } from '../../../src/client/try-it/exchange.ts';
import { ROOT } from '../../../support/processes.ts';

/** Inside the project, so the generated module's imports of Ajv's runtime resolve. */
const MODULE_FILE = path.join(ROOT, 'node_modules/.cache', `try-it-validators-${process.pid}.mjs`);

let answers: ContractAnswers;

beforeAll(async () => {
	const { reference } = await readContract(path.join(ROOT, 'openapi.yaml'));
	await mkdir(path.dirname(MODULE_FILE), { recursive: true });
	await writeFile(MODULE_FILE, validatorSource(reference));
	const generated = (await import(pathToFileURL(MODULE_FILE).href)) as {
		responses: ContractAnswers;
	};
	answers = generated.responses;
});

afterAll(async () => {
	await rm(MODULE_FILE, { force: true });
});

const ADA = { name: 'Ada Example', email: 'ada@example.com', role: 'admin' };
const BEN = { name: 'Ben Example', email: 'ben@example.com', role: 'viewer' };

/** Eight valid users, each role twice, as a directory always holds. */
const FILLER = [
	'admin',
	'deployer',
	'operator',
	'viewer',
	'admin',
	'deployer',
	'operator',
	'viewer',
].map((role, index) => ({ name: `User ${index}`, email: `user${index}@example.com`, role }));

/** A directory of eight: the users given, then valid ones. */
const eight = (...users: unknown[]): unknown[] => [...users, ...FILLER.slice(users.length)];

/** An answer as the panel reads it: its text decoded, and parsed once when it came whole. */
function read(
	status: number,
	mediaType: string | undefined,
	text: string,
	ending: BodyEnding = 'complete',
): CheckedAnswer {
	const { json } = readBody({ bytes: new TextEncoder().encode(text), ending });
	return { status, mediaType, text, ending, json, headers: {} };
}

/** A complete JSON answer. */
function json(status: number, body: unknown, mediaType = 'application/json'): CheckedAnswer {
	return read(status, mediaType, JSON.stringify(body));
}

describe('the validators compiled from the contract', () => {
	it('hold one per status the contract lists for GET /api/v2/users, by media type', () => {
		expect(
			Object.entries(answers).map(([status, bodies]) => `${status} ${Object.keys(bodies).join()}`),
		).toEqual([
			'200 application/json',
			'400 application/problem+json',
			'401 application/problem+json',
			'403 application/problem+json',
			'404 application/problem+json',
			'422 application/problem+json',
			'500 application/problem+json',
			'503 application/problem+json',
		]);
	});

	it('the generated module is plain code: no eval, no new Function, no require', async () => {
		const { reference } = await readContract(path.join(ROOT, 'openapi.yaml'));
		const source = validatorSource(reference);
		expect(source).not.toMatch(/\beval\(|new Function|\brequire\(/);
		expect(source).toMatch(/^export const responses = \{"200": \{"application\/json": body0\}/m);
	});

	it('a valid directory matches the 200 schema', () => {
		expect(checkAnswer(json(200, { users: eight(ADA, BEN) }), answers)).toEqual({
			verdict: 'matches',
			headline: "The body matches the contract's 200 application/json schema.",
			violations: [],
		});
	});

	it('a role outside the enum and a user without email are flagged with their paths', () => {
		const body = {
			users: eight(
				ADA,
				BEN,
				{ name: 'Cy', email: 'cy@example.com', role: 'root' },
				{ name: 'Di', role: 'viewer' },
			),
		};
		expect(checkAnswer(json(200, body), answers)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 200 application/json schema (2 problems):",
			violations: [
				'/users/2/role: must be one of admin, deployer, operator, viewer',
				'/users/3/email: is required but missing',
			],
		});
	});

	it('a key in the answer, an empty name and a bad email are each named', () => {
		const body = {
			users: eight({ ...ADA, name: '', email: 'not-an-email', apiKey: 'ick-00000000-Test' }),
		};
		expect(checkAnswer(json(200, body), answers).violations).toEqual([
			'/users/0/apiKey: is not in the contract',
			'/users/0/name: must not be empty',
			'/users/0/email: must be an email address',
		]);
	});

	it('a 401 problem is checked against the Problem schema, not the users', () => {
		const problem = { type: 'https://portal.example/problems/x', title: 'T', status: '401' };
		expect(checkAnswer(json(401, problem, 'application/problem+json'), answers)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 401 application/problem+json schema (2 problems):",
			violations: ['/detail: is required but missing', '/status: must be an integer'],
		});
	});

	it('a status, media type or body the contract does not have is said so', () => {
		expect(checkAnswer(json(418, {}), answers).headline).toBe(
			'The contract has no 418 answer for GET /api/v2/users; it lists 200, 400, 401, 403, 404, 422, 500, 503.',
		);
		expect(checkAnswer(json(200, { users: [] }, 'text/html'), answers).headline).toBe(
			"The answer is text/html; the contract's 200 answer is application/json.",
		);
		const notJson = read(200, 'application/json', '{"users":');
		expect(checkAnswer(notJson, answers).headline).toBe(
			"The body is not JSON, so it cannot match the contract's 200 application/json schema.",
		);
		expect(checkAnswer(read(200, 'application/json', '{"users":', 'capped'), answers)).toEqual({
			verdict: 'unchecked',
			headline:
				"The body did not arrive whole, so it was not checked against the contract's 200 application/json schema.",
			violations: [],
		});
	});

	it("a media type named like a property every object has is not the contract's", () => {
		expect(checkAnswer(json(200, { users: [] }, 'constructor'), answers)).toEqual({
			verdict: 'breaks',
			headline: "The answer is constructor; the contract's 200 answer is application/json.",
			violations: [],
		});
		expect(checkAnswer(json(200, { users: [] }, '__proto__'), answers)).toEqual({
			verdict: 'breaks',
			headline: "The answer is __proto__; the contract's 200 answer is application/json.",
			violations: [],
		});
	});

	it('lists at most 20 violations and counts the rest', () => {
		// 25 users of an unknown role: 25 problems, and one more for a list longer than eight.
		const users = Array.from({ length: 25 }, (_, index) => ({
			...ADA,
			email: `u${index}@example.com`,
			role: 'x',
		}));
		const { violations, headline } = checkAnswer(json(200, { users }), answers);
		expect(headline).toBe(
			"The body breaks the contract's 200 application/json schema (26 problems):",
		);
		expect(violations).toHaveLength(21);
		expect(violations[0]).toBe('/users: must hold at most 8 items');
		expect(violations[19]).toBe('/users/18/role: must be one of admin, deployer, operator, viewer');
		expect(violations[20]).toBe('… and 6 more');
	});
});

describe('checking against contracts of other shapes', () => {
	/** A validator that accepts nothing and reports `errors`, as a compiled one would. */
	const refusing = (errors: Violation[] | null): BodyValidator =>
		Object.assign((_value: unknown) => false, { errors });
	const accepting: BodyValidator = () => true;
	const MISSING_DETAIL: Violation = {
		instancePath: '',
		keyword: 'required',
		params: { missingProperty: 'detail' },
	};
	const PROBLEM = { type: 'about:blank', title: 'Not found', status: 404 };

	it('a status the contract answers by its range (4XX) is checked against the range', () => {
		const contract: ContractAnswers = {
			'200': { 'application/json': accepting },
			'4XX': { 'application/problem+json': refusing([MISSING_DETAIL]) },
			default: { 'application/problem+json': accepting },
		};
		expect(checkAnswer(json(404, PROBLEM, 'application/problem+json'), contract)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 404 application/problem+json schema (1 problem):",
			violations: ['/detail: is required but missing'],
		});
	});

	it('a status with neither its own answer nor its range is checked against default', () => {
		const contract: ContractAnswers = {
			'200': { 'application/json': accepting },
			default: { 'application/problem+json': refusing([MISSING_DETAIL]) },
		};
		expect(checkAnswer(json(503, PROBLEM, 'application/problem+json'), contract).headline).toBe(
			"The body breaks the contract's 503 application/problem+json schema (1 problem):",
		);
	});

	it('a status the contract does not have breaks it, listing the statuses it has', () => {
		const contract: ContractAnswers = {
			'200': { 'application/json': accepting },
			'4XX': { 'application/problem+json': accepting },
		};
		expect(checkAnswer(json(503, PROBLEM, 'application/problem+json'), contract)).toEqual({
			verdict: 'breaks',
			headline: 'The contract has no 503 answer for GET /api/v2/users; it lists 200, 4XX.',
			violations: [],
		});
	});

	it('an answer the contract gives no body matches only when it has none', () => {
		const contract: ContractAnswers = { '204': {} };
		const empty = read(204, undefined, '');
		expect(checkAnswer(empty, contract)).toEqual({
			verdict: 'matches',
			headline: "No body, as the contract's 204 answer says.",
			violations: [],
		});
		expect(checkAnswer(read(204, undefined, '{}'), contract)).toEqual({
			verdict: 'breaks',
			headline: "The contract's 204 answer has no body, but this one has.",
			violations: [],
		});
	});

	it('an answer without Content-Type, or of another type, is told every type the contract has', () => {
		const contract: ContractAnswers = {
			'200': { 'application/json': accepting, 'text/csv': null },
		};
		const answer = json(200, { users: [] });
		expect(checkAnswer({ ...answer, mediaType: undefined }, contract)).toEqual({
			verdict: 'breaks',
			headline:
				"The answer has no Content-Type; the contract's 200 answer is application/json or text/csv.",
			violations: [],
		});
		expect(
			checkAnswer({ ...answer, mediaType: `application/${'x'.repeat(60)}` }, contract),
		).toEqual({
			verdict: 'breaks',
			headline: `The answer is application/${'x'.repeat(48)}…; the contract's 200 answer is application/json or text/csv.`,
			violations: [],
		});
	});

	it('a media type the contract gives no schema matches without a check', () => {
		const contract: ContractAnswers = { '200': { 'text/csv': null } };
		const csv = read(200, 'text/csv', 'email\nada@example.com\n');
		expect(checkAnswer(csv, contract)).toEqual({
			verdict: 'matches',
			headline: "The contract's 200 text/csv answer has no schema to check.",
			violations: [],
		});
	});

	it('a validator that refuses a body without saying why breaks it with no problem listed', () => {
		const contract: ContractAnswers = { '200': { 'application/json': refusing(null) } };
		expect(checkAnswer(json(200, { users: [] }), contract)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 200 application/json schema (0 problems):",
			violations: [],
		});
	});

	it('one problem is said in the singular, and twenty are all listed with no count of more', () => {
		expect(checkAnswer(json(200, { users: eight({ ...ADA, role: 'root' }) }), answers)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 200 application/json schema (1 problem):",
			violations: ['/users/0/role: must be one of admin, deployer, operator, viewer'],
		});
		// 19 users of an unknown role, and one problem more for a list longer than eight.
		const users = Array.from({ length: 19 }, (_, index) => ({
			...ADA,
			email: `u${index}@example.com`,
			role: 'x',
		}));
		const { violations, headline } = checkAnswer(json(200, { users }), answers);
		expect(headline).toBe(
			"The body breaks the contract's 200 application/json schema (20 problems):",
		);
		expect(violations).toHaveLength(20);
		expect(violations.at(-1)).toBe(
			'/users/18/role: must be one of admin, deployer, operator, viewer',
		);
	});

	it('an empty body where the contract has JSON is not JSON', () => {
		expect(checkAnswer(read(200, 'application/json', ''), answers).headline).toBe(
			"The body is not JSON, so it cannot match the contract's 200 application/json schema.",
		);
	});

	it('a body of JSON null is JSON, checked against the schema rather than called "not JSON"', () => {
		const seen: unknown[] = [];
		const contract: ContractAnswers = {
			'200': {
				'application/json': (value: unknown) => {
					seen.push(value);
					return false;
				},
			},
		};
		expect(checkAnswer(read(200, 'application/json', 'null'), contract).headline).toBe(
			"The body breaks the contract's 200 application/json schema (0 problems):",
		);
		expect(seen).toEqual([null]);
	});

	it('checks the body as it was parsed when read, without parsing its text again', () => {
		const seen: unknown[] = [];
		const contract: ContractAnswers = {
			'200': {
				'application/json': (value: unknown) => {
					seen.push(value);
					return true;
				},
			},
		};
		// The text and the parsed value differ only here, so the check shows which one it used.
		const answer = { ...read(200, 'application/json', '{"users":[]}'), json: { value: 'parsed' } };
		expect(checkAnswer(answer, contract).verdict).toBe('matches');
		expect(seen).toEqual(['parsed']);
	});
});

describe('violation messages', () => {
	it('name the JSON path, escaped, and say what was expected in words', () => {
		expect(
			describeViolation({ instancePath: '', keyword: 'type', params: { type: 'object' } }),
		).toBe('(the body): must be an object');
		expect(
			describeViolation({
				instancePath: '/users/1',
				keyword: 'required',
				params: { missingProperty: 'role' },
			}),
		).toBe('/users/1/role: is required but missing');
		expect(
			describeViolation({
				instancePath: '',
				keyword: 'additionalProperties',
				params: { additionalProperty: 'a/b~\n' },
			}),
		).toBe('/a~1b~0 : is not in the contract');
		expect(
			describeViolation({ instancePath: '/n', keyword: 'type', params: { type: 'string,null' } }),
		).toBe('/n: must be a string or null');
		expect(
			describeViolation({
				instancePath: '/s',
				keyword: 'maximum',
				params: { comparison: '<=', limit: 599 },
			}),
		).toBe('/s: must be <= 599');
		expect(describeViolation({ instancePath: '/x', keyword: 'uniqueItems', params: {} })).toBe(
			"/x: breaks the contract's uniqueItems rule",
		);
	});
});

describe('violation messages for each rule', () => {
	/** The message for a violation at `/v`. */
	const at = (keyword: string, params: Record<string, unknown>): string =>
		describeViolation({ instancePath: '/v', keyword, params });

	it('each JSON type is said in words, with its article', () => {
		expect(
			['object', 'array', 'string', 'number', 'integer', 'boolean', 'null', 'bigint'].map((type) =>
				at('type', { type }),
			),
		).toEqual([
			'/v: must be an object',
			'/v: must be an array',
			'/v: must be a string',
			'/v: must be a number',
			'/v: must be an integer',
			'/v: must be true or false',
			'/v: must be null',
			'/v: must be bigint',
		]);
	});

	it('each string format is said in words, and one without words is named', () => {
		expect(
			['email', 'uri-reference', 'uri', 'uuid', 'ipv4', 'ipv6', 'hostname', 'date-time'].map(
				(format) => at('format', { format }),
			),
		).toEqual([
			'/v: must be an email address',
			'/v: must be a URI reference',
			'/v: must be a URI',
			'/v: must be a UUID',
			'/v: must be an IPv4 address',
			'/v: must be an IPv6 address',
			'/v: must be a host name',
			'/v: must be in the format date-time',
		]);
	});

	it('lengths and counts say the limit, one in the singular', () => {
		expect(at('minLength', { limit: 1 })).toBe('/v: must not be empty');
		expect(at('minLength', { limit: 3 })).toBe('/v: must be at least 3 characters long');
		expect(at('maxLength', { limit: 1 })).toBe('/v: must be at most 1 character long');
		expect(at('maxLength', { limit: 64 })).toBe('/v: must be at most 64 characters long');
		expect(at('minItems', { limit: 1 })).toBe('/v: must hold at least 1 item');
		expect(at('minItems', { limit: 2 })).toBe('/v: must hold at least 2 items');
		expect(at('maxItems', { limit: 1 })).toBe('/v: must hold at most 1 item');
		expect(at('maxItems', { limit: 100 })).toBe('/v: must hold at most 100 items');
	});

	it('bounds on numbers say the comparison and the limit', () => {
		expect(at('minimum', { comparison: '>=', limit: 1 })).toBe('/v: must be >= 1');
		expect(at('maximum', { comparison: '<=', limit: 599 })).toBe('/v: must be <= 599');
		expect(at('exclusiveMinimum', { comparison: '>', limit: 0 })).toBe('/v: must be > 0');
		expect(at('exclusiveMaximum', { comparison: '<', limit: 1.5 })).toBe('/v: must be < 1.5');
	});

	it('a pattern, a constant and a list of allowed values are quoted, strings bare', () => {
		expect(at('pattern', { pattern: '^ick-[0-9a-f]{8}$' })).toBe(
			'/v: must match the pattern ^ick-[0-9a-f]{8}$',
		);
		expect(at('const', { allowedValue: 'v2' })).toBe('/v: must be v2');
		expect(at('const', { allowedValue: { version: 2 } })).toBe('/v: must be {"version":2}');
		expect(at('enum', { allowedValues: ['admin', 2, null, true] })).toBe(
			'/v: must be one of admin, 2, null, true',
		);
	});

	it('an enum violation that does not carry its allowed values lists none', () => {
		expect(at('enum', {})).toBe('/v: must be one of ');
	});

	it('a name of 60 characters is shown whole, a longer one is cut with an ellipsis', () => {
		const sixty = 'k'.repeat(60);
		expect(
			describeViolation({
				instancePath: '',
				keyword: 'required',
				params: { missingProperty: sixty },
			}),
		).toBe(`/${sixty}: is required but missing`);
		expect(
			describeViolation({
				instancePath: '',
				keyword: 'required',
				params: { missingProperty: `${sixty}xyz` },
			}),
		).toBe(`/${sixty}…: is required but missing`);
	});

	it('a path of 120 characters is shown whole, a longer one is cut with an ellipsis', () => {
		const path120 = `/${'p'.repeat(119)}`;
		expect(
			describeViolation({ instancePath: path120, keyword: 'type', params: { type: 'string' } }),
		).toBe(`${path120}: must be a string`);
		expect(
			describeViolation({
				instancePath: `${path120}/0`,
				keyword: 'type',
				params: { type: 'string' },
			}),
		).toBe(`${path120}…: must be a string`);
	});
});

describe('whose directory an answer lists', () => {
	// Literal fingerprints (FNV-1a 64 computed outside the portal), so that no code under test runs
	// while the tests are collected, where a mutation test would count it against every test.
	/** ada@example.com and ben@example.com. */
	const own = { fingerprint: 'fc80faafc274aac0', title: 'production' };
	const map: DirectoryMap = {
		fc80faafc274aac0: [{ slug: 'production', title: 'production' }],
		/** cy@example.com and di@example.com. */
		ed7e21b88262588c: [{ slug: 'dr-eu-west', title: 'dr-eu-west · DR' }],
	};

	it("the build's map files each view under its directory's fingerprint", () => {
		expect(
			directoryMap([
				{ slug: 'production', title: 'production', emails: ['ben@example.com', 'ada@example.com'] },
				{
					slug: 'dr-eu-west',
					title: 'dr-eu-west · DR',
					emails: ['cy@example.com', 'di@example.com'],
				},
			]),
		).toEqual(map);
	});

	it('a fingerprint is FNV-1a of the sorted emails, the same in any order', () => {
		expect(directoryFingerprint([])).toBe('cbf29ce484222325');
		expect(directoryFingerprint(['a'])).toBe('af63dc4c8601ec8c');
		expect(directoryFingerprint(['ben@example.com', 'ada@example.com'])).toBe('fc80faafc274aac0');
	});

	it("this view's users are said to be this view's", () => {
		expect(whoseDirectory(['ben@example.com', 'ada@example.com'], own, undefined)).toEqual({
			kind: 'this-view',
			text: 'These are the users of this view, production.',
			views: [],
		});
	});

	it('another view is named, from the map of fingerprints', () => {
		expect(whoseDirectory(['di@example.com', 'cy@example.com'], own, map)).toEqual({
			kind: 'other-view',
			text: 'This key belongs to another view: these are the users of dr-eu-west · DR (dr-eu-west), not of this view, production.',
			views: [{ slug: 'dr-eu-west', title: 'dr-eu-west · DR' }],
		});
	});

	it('reads the emails of an answer, and the map only when well formed', () => {
		expect(answerEmails({ users: [ADA, { name: 'x' }, BEN] })).toEqual([
			'ada@example.com',
			'ben@example.com',
		]);
		expect(answerEmails({ users: 'none' })).toBeUndefined();
		expect(answerEmails(null)).toBeUndefined();
		expect(readDirectoryMap(JSON.parse(JSON.stringify(map)))).toEqual(map);
		expect(() => readDirectoryMap({ abc: [{ slug: '../x', title: 't' }] })).toThrow(
			'try-it directories: abc[0]: expected { slug, title } with a lowercase slug',
		);
	});
	it('a fingerprint is of the emails sorted by character code, one a line, as 16 hex digits', () => {
		const three = ['zoe@example.com', 'Zed@example.com', 'ada@example.com'];
		const orders = [
			[0, 1, 2],
			[0, 2, 1],
			[1, 0, 2],
			[1, 2, 0],
			[2, 0, 1],
			[2, 1, 0],
		].map((order) => directoryFingerprint(order.map((index) => three[index]!)));
		expect(new Set(orders)).toEqual(new Set(['6cbed4d0aca3e8d7']));
		expect(directoryFingerprint(['a', 'b'])).toBe('e5beb1190415e670');
		expect(directoryFingerprint(['ab'])).toBe('089c4407b545986a');
	});

	it('an answer lists emails only when its users are a list holding some', () => {
		for (const body of [null, undefined, 'users', 42, {}, { users: 'none' }, { users: [] }]) {
			expect(answerEmails(body)).toBeUndefined();
		}
		const noEmails = { users: [null, 'ada@example.com', { email: 5 }, { name: 'x' }] };
		expect(answerEmails(noEmails)).toBeUndefined();
		expect(answerEmails({ users: [null, 'x', { email: 5 }, BEN, { name: 'x' }, ADA] })).toEqual([
			'ben@example.com',
			'ada@example.com',
		]);
	});

	it('a directory map that is not an object of lists is refused, saying where', () => {
		for (const value of [null, [], 'map', 7]) {
			expect(() => readDirectoryMap(value)).toThrow(
				'try-it directories: expected an object of fingerprints',
			);
		}
		expect(() => readDirectoryMap({ abc: { slug: 'a', title: 't' } })).toThrow(
			'try-it directories: abc: expected a list of views',
		);
	});

	it('a view in the map without a string title or a lowercase slug is refused, saying which', () => {
		const refused = [
			null,
			'production',
			{ title: 'production' },
			{ slug: 'production' },
			{ slug: 7, title: 'production' },
			{ slug: 'production', title: 7 },
			{ slug: 'Production', title: 'production' },
			{ slug: 'production-', title: 'production' },
			{ slug: 'dr_eu', title: 'dr' },
		];
		for (const view of refused) {
			expect(() => readDirectoryMap({ abc: [{ slug: 'ok', title: 'ok' }, view] })).toThrow(
				'try-it directories: abc[1]: expected { slug, title } with a lowercase slug',
			);
		}
		expect(
			readDirectoryMap({ abc: [{ slug: 'dr-eu-2', title: 'DR', extra: true }], def: [] }),
		).toEqual({ abc: [{ slug: 'dr-eu-2', title: 'DR' }], def: [] });
	});

	it('users of no view, or a map that could not be read, are said so, with no view to link to', () => {
		expect(whoseDirectory(['eve@example.com'], own, map)).toEqual({
			kind: 'no-view',
			text: "These users match no view's directory exactly (of the views this portal was built with), so which view the key belongs to cannot be said.",
			views: [],
		});
		expect(whoseDirectory(['eve@example.com'], own, undefined)).toEqual({
			kind: 'no-view',
			text: "These are not the users of this view, production; the portal's list of directories could not be read to say whose they are.",
			views: [],
		});
	});

	it('two views with the same directory are both named', () => {
		const shared = directoryMap([
			{ slug: 'staging', title: 'staging', emails: ['cy@example.com'] },
			{ slug: 'qa', title: 'qa · test', emails: ['cy@example.com'] },
		]);
		expect(whoseDirectory(['cy@example.com'], own, shared)).toEqual({
			kind: 'other-view',
			text: 'This key belongs to another view: these are the users of staging (staging) or qa · test (qa), not of this view, production.',
			views: [
				{ slug: 'staging', title: 'staging' },
				{ slug: 'qa', title: 'qa · test' },
			],
		});
	});
});
