/**
 * The conformance run on a contract with OpenAPI 3.2's QUERY /api/v2/users (the 3.2 copy in
 * tests/fixtures/openapi-3-2): it sends a QUERY too, with the request body's example as the
 * samples send it, judges its answer against the QUERY operation with the contract's one check,
 * and its reports list it. On the 3.1 copy, which has no QUERY, the checks are as before.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformChecks, judge, queryOf, streamsOf } from '../../../../mock/conform/decide.ts';
import { junit, markdown, table } from '../../../../mock/conform/reports.ts';
import { readContract } from '../../../../src/sources/contract.ts';
import { contractValidators } from '../../../../src/sources/contract-validators.ts';
import type { ApiReference, Operation } from '../../../../src/sources/openapi.ts';
import { ROOT } from '../../../../support/processes.ts';

const KEY = 'ick-5f6bf1b8-KApG';
const { reference: with32 } = await readContract(
	path.join(ROOT, 'tests/fixtures/openapi-3-2/openapi.yaml'),
);
const { reference: with31 } = await readContract(
	path.join(ROOT, 'tests/fixtures/openapi-3-1/openapi.yaml'),
);
const admins = [
	{ name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin' },
	{ name: 'Bo Berg', email: 'bo@example.com', role: 'admin' },
];

describe('the QUERY a run sends', () => {
	it("is the contract's QUERY with its request body's example, as the samples send it", () => {
		expect(queryOf(with32.operations)).toEqual({
			mediaType: 'application/json',
			text: '{"role":"admin"}',
		});
	});

	it('is none on a contract without QUERY', () => {
		expect(queryOf(with31.operations)).toBeUndefined();
	});

	it('sends a serializedValue as written, and {} when the body has no example', () => {
		const query = with32.operations.find(({ method }) => method === 'QUERY')!;
		const body = query.requestBody!.bodies[0]!;
		const withBody = (examples: Operation['requestBody']): Operation[] => [
			{ ...query, requestBody: examples },
		];
		const serialized = {
			name: 'spaced',
			value: '{ "role": "viewer" }',
			field: 'serializedValue' as const,
			serializedValue: '{ "role": "viewer" }',
		};
		expect(
			queryOf(withBody({ required: true, bodies: [{ ...body, examples: [serialized] }] })),
		).toEqual({ mediaType: 'application/json', text: '{ "role": "viewer" }' });
		expect(queryOf(withBody({ required: true, bodies: [{ ...body, examples: [] }] }))).toEqual({
			mediaType: 'application/json',
			text: '{}',
		});
		expect(queryOf(withBody(undefined))).toEqual({ mediaType: 'application/json', text: '{}' });
	});
});

describe('the checks of a run on a contract with QUERY', () => {
	const query = queryOf(with32.operations);
	const checks = conformChecks([{ key: KEY, shown: 'Ada (production)' }], query);

	it('add a QUERY per key and a QUERY without a key to the checks of GET, HEAD and OPTIONS', () => {
		expect(checks.map(({ name, expected }) => `${name} → ${expected}`)).toEqual([
			'GET /api/v2/users as Ada (production) → 200',
			'HEAD /api/v2/users as Ada (production) → 200',
			'QUERY /api/v2/users with {"role":"admin"} as Ada (production) → 200',
			'OPTIONS /api/v2/users: a preflight from http://localhost:3000 → 204',
			'GET /api/v2/users without a key → 401',
			'GET /api/v2/users with a key of the wrong shape → 401',
			'GET /api/v2/users with a well-shaped key no directory holds → 401',
			'QUERY /api/v2/users with {"role":"admin"} without a key → 401',
		]);
	});

	it('send the body with its media type and length, and the key as Bearer', () => {
		const [, , asAda, , , , , noKey] = checks;
		expect(asAda).toMatchObject({
			operation: 'QUERY /api/v2/users',
			method: 'QUERY',
			body: '{"role":"admin"}',
			headers: [
				['Authorization', `Bearer ${KEY}`],
				['Content-Type', 'application/json'],
				['Content-Length', '16'],
			],
		});
		expect(noKey?.headers).toEqual([
			['Content-Type', 'application/json'],
			['Content-Length', '16'],
		]);
	});

	it('are as before on a contract without QUERY', () => {
		expect(conformChecks([{ key: KEY, shown: 'Ada' }], queryOf(with31.operations))).toEqual(
			conformChecks([{ key: KEY, shown: 'Ada' }]),
		);
		expect(conformChecks([{ key: KEY, shown: 'Ada' }])).toHaveLength(6);
	});

	it("judge a QUERY's answer against the QUERY operation: two admins conform, a role outside the enum breaks", () => {
		const contract = contractValidators(with32).get('QUERY /api/v2/users');
		const asAda = checks[2]!;
		const answer = (users: object[]) => ({
			status: 200,
			rawHeaders: ['Content-Type', 'application/json'],
			body: Buffer.from(JSON.stringify({ users })),
		});
		const good = judge(asAda, answer(admins), contract, 1000, 5);
		expect(good).toMatchObject({ verdict: 'conforms', got: '200 application/json', problems: [] });
		const bad = judge(asAda, answer([{ ...admins[0], role: 'owner' }]), contract, 1000, 5);
		expect(bad).toMatchObject({
			verdict: 'breaks',
			problems: ['/users/0/role: must be one of admin, deployer, operator, viewer'],
		});
		const table32 = table([good, bad]);
		expect(table32).toContain('QUERY /api/v2/users with {"role":"admin"} as Ada (production)');
		expect(markdown([good], 'http://c', new Date(0))).toContain(
			'| QUERY /api/v2/users with {"role":"admin"} as Ada (production) | 200, as the contract says | 200 application/json | conforms |',
		);
	});
});

describe('the stream checks of a run (OpenAPI 3.2 JSON lines, `itemSchema`)', () => {
	const contracts = contractValidators(with32);
	const query = queryOf(with32.operations);
	const streams = streamsOf(contracts);
	const ada = { key: KEY, shown: 'Ada (production)' };
	const checks = conformChecks([ada], query, streams);
	const asked = checks.filter(({ accept }) => accept !== undefined);

	it("find the JSON-lines type the QUERY's 200 declares, and none where no 200 streams", () => {
		expect(streams).toEqual({ query: ['application/jsonl'] });
		expect(streamsOf(contractValidators(with31))).toEqual({});
	});

	it('find application/x-ndjson and application/x-jsonlines too, a stream of GET, and server-sent events beside JSON lines', () => {
		const stream = with32.operations
			.find(({ method }) => method === 'QUERY')!
			.responses.find(({ status }) => status === '200')!
			.bodies.find(({ itemSchema }) => itemSchema !== undefined)!;
		/** The 3.2 copy with each 200 of these methods streaming as this media type instead. */
		const streaming = (methods: string[], mediaType: string): ApiReference => ({
			...with32,
			operations: with32.operations.map((operation) => {
				if (!methods.includes(operation.method)) return operation;
				const responses = operation.responses.map((response) => {
					if (response.status !== '200') return response;
					const bodies = response.bodies.filter(({ itemSchema }) => itemSchema === undefined);
					return { ...response, bodies: [...bodies, { ...stream, mediaType }] };
				});
				return { ...operation, responses };
			}),
		});
		expect(streamsOf(contractValidators(streaming(['QUERY'], 'application/x-ndjson')))).toEqual({
			query: ['application/x-ndjson'],
		});
		expect(
			streamsOf(contractValidators(streaming(['GET', 'QUERY'], 'application/x-jsonlines'))),
		).toEqual({ get: ['application/x-jsonlines'], query: ['application/x-jsonlines'] });
		// Server-sent events (text/event-stream) beside the JSON lines: each is asked for.
		const events = streaming(['QUERY'], 'text/event-stream');
		const both: ApiReference = {
			...events,
			operations: events.operations.map((operation) =>
				operation.method !== 'QUERY'
					? operation
					: {
							...operation,
							responses: operation.responses.map((response) =>
								response.status !== '200'
									? response
									: { ...response, bodies: [...response.bodies, { ...stream }] },
							),
						},
			),
		};
		expect(streamsOf(contractValidators(both))).toEqual({
			query: ['text/event-stream', 'application/jsonl'],
		});
		expect(
			conformChecks([ada], query, streamsOf(contractValidators(both)))
				.filter(({ accept }) => accept)
				.map(({ name }) => name),
		).toEqual([
			'QUERY /api/v2/users with {"role":"admin"} as Ada (production), asking for text/event-stream',
			'QUERY /api/v2/users with {"role":"admin"} as Ada (production), asking for application/jsonl',
		]);
	});

	it('ask for the stream once per key with Accept: its type, after the QUERY of JSON', () => {
		expect(checks.map(({ name, expected }) => `${name} → ${expected}`)).toEqual([
			'GET /api/v2/users as Ada (production) → 200',
			'HEAD /api/v2/users as Ada (production) → 200',
			'QUERY /api/v2/users with {"role":"admin"} as Ada (production) → 200',
			'QUERY /api/v2/users with {"role":"admin"} as Ada (production), asking for application/jsonl → 200',
			'OPTIONS /api/v2/users: a preflight from http://localhost:3000 → 204',
			'GET /api/v2/users without a key → 401',
			'GET /api/v2/users with a key of the wrong shape → 401',
			'GET /api/v2/users with a well-shaped key no directory holds → 401',
			'QUERY /api/v2/users with {"role":"admin"} without a key → 401',
		]);
		expect(asked).toEqual([
			{
				name: 'QUERY /api/v2/users with {"role":"admin"} as Ada (production), asking for application/jsonl',
				operation: 'QUERY /api/v2/users',
				method: 'QUERY',
				body: '{"role":"admin"}',
				accept: 'application/jsonl',
				headers: [
					['Authorization', `Bearer ${KEY}`],
					['Accept', 'application/jsonl'],
					['Content-Type', 'application/json'],
					['Content-Length', '16'],
				],
				expected: 200,
			},
		]);
	});

	it('ask for a stream of GET with Accept and no body, for every key', () => {
		const both = conformChecks([ada, { key: 'ick-00000000-Ab12', shown: 'Bo' }], undefined, {
			get: ['application/x-ndjson'],
		});
		expect(
			both.filter(({ accept }) => accept).map(({ name, headers, body }) => [name, headers, body]),
		).toEqual([
			[
				'GET /api/v2/users as Ada (production), asking for application/x-ndjson',
				[
					['Authorization', `Bearer ${KEY}`],
					['Accept', 'application/x-ndjson'],
				],
				undefined,
			],
			[
				'GET /api/v2/users as Bo, asking for application/x-ndjson',
				[
					['Authorization', 'Bearer ick-00000000-Ab12'],
					['Accept', 'application/x-ndjson'],
				],
				undefined,
			],
		]);
	});

	it('are none on a contract without streams: the checks stay exactly as they were', () => {
		expect(conformChecks([ada], query, streamsOf(contractValidators(with31)))).toEqual(
			conformChecks([ada], query),
		);
		expect(conformChecks([ada], undefined, {})).toEqual(conformChecks([ada]));
	});

	it("judge the stream line by line with the contract's one check, and list it in the reports", () => {
		const contract = contracts.get('QUERY /api/v2/users');
		const check = asked[0]!;
		const lines = (users: object[], type = 'application/jsonl') => ({
			status: 200,
			rawHeaders: ['Content-Type', type],
			body: Buffer.from(users.map((user) => `${JSON.stringify(user)}\n`).join('')),
		});
		const good = judge(check, lines(admins), contract, 1000, 5);
		expect(good).toMatchObject({ verdict: 'conforms', got: '200 application/jsonl', problems: [] });
		const bad = judge(
			check,
			lines([admins[0]!, { ...admins[1], role: 'owner' }]),
			contract,
			1000,
			5,
		);
		expect(bad.verdict).toBe('breaks');
		expect(bad.problems.join('\n')).toContain('must be one of admin, deployer, operator, viewer');
		expect(table([good])).toContain(
			'QUERY /api/v2/users with {"role":"admin"} as Ada (production), asking for application/jsonl',
		);
		expect(markdown([good], 'http://c', new Date(0))).toContain(
			'| QUERY /api/v2/users with {"role":"admin"} as Ada (production), asking for application/jsonl | 200, as the contract says | 200 application/jsonl | conforms |',
		);
		expect(junit([bad], 'http://c')).toContain(
			'name="QUERY /api/v2/users with {&quot;role&quot;:&quot;admin&quot;} as Ada (production), asking for application/jsonl"',
		);
	});

	it('break when the console answers JSON to a request for the stream', () => {
		const contract = contracts.get('QUERY /api/v2/users');
		const json = {
			status: 200,
			rawHeaders: ['Content-Type', 'application/json; charset=utf-8'],
			body: Buffer.from(JSON.stringify({ users: admins })),
		};
		expect(judge(asked[0]!, json, contract, 1000, 5)).toMatchObject({
			verdict: 'breaks',
			got: '200 application/json',
			problems: [
				"Asked for application/jsonl (Accept), which the contract's 200 declares, got application/json.",
			],
		});
		expect(judge(checks[2]!, json, contract, 1000, 5).verdict).toBe('conforms');
	});
});
