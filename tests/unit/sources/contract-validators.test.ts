/**
 * The contract's validators, compiled in one place for every caller: once per reading of the
 * contract, with one Ajv setup, and a schema they cannot be made from named by where it is in the
 * file, in Node as in the try-it panel's build.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { validatorSource } from '../../../src/integrations/try-it-validators.ts';
import { checkExchange, readExchange } from '../../../src/shared/exchange-check.ts';
import type { OperationContract } from '../../../src/shared/exchange-check.ts';
import { readContract } from '../../../src/sources/contract.ts';
import {
	CONTRACT_AJV_OPTIONS,
	ContractSchemaError,
	contractAjv,
	contractValidators,
} from '../../../src/sources/contract-validators.ts';
import type { ApiReference, Operation, ResponseBody } from '../../../src/sources/openapi.ts';
import { ROOT } from '../../../support/processes.ts';

/** A contract of one GET /api/v2/users whose 200 body has `schema`, or these bodies. */
function contractWith(schema: unknown, bodies?: ResponseBody[]): ApiReference {
	const operation: Operation = {
		method: 'GET',
		path: '/api/v2/users',
		security: [],
		parameters: [],
		responses: [
			{
				status: '200',
				description: 'ok',
				headers: [],
				bodies: bodies ?? [{ mediaType: 'application/json', schema, rows: [], examples: [] }],
			},
		],
	};
	return { title: 't', version: '1', servers: [], operations: [operation], responses: {} };
}

describe('the validators of the contract', () => {
	it('are compiled once per reading of the contract: the proxy, conform and MCP share them', async () => {
		const { reference } = await readContract(path.join(ROOT, 'openapi.yaml'));
		const first = contractValidators(reference);
		expect(contractValidators(reference)).toBe(first);
		expect(first.get('GET /api/v2/users')?.headers['401']).toContainEqual({
			name: 'WWW-Authenticate',
			required: true,
		});
	});

	it('are set up one way, every error kept and no message text, with the contract formats', () => {
		expect(CONTRACT_AJV_OPTIONS).toEqual({ allErrors: true, strict: true, messages: false });
		const ajv = contractAjv();
		const email = ajv.compile({ type: 'string', format: 'email', example: 'a@b.example' });
		expect([email('a@b.example'), email('no')]).toEqual([true, false]);
		expect(email.errors?.[0]?.message).toBeUndefined();
	});

	it('a schema Ajv refuses is named by its place in the file, in Node and in the build alike', () => {
		const bad = contractWith({ type: 'string', minLength: 'two' });
		const where =
			/^openapi\.yaml: paths\.\/api\/v2\/users\.get\.responses\.200\.content\.application\/json\.schema: Ajv cannot compile it/;
		expect(() => contractValidators(bad)).toThrow(ContractSchemaError);
		expect(() => contractValidators(bad)).toThrow(where);
		expect(() => validatorSource(bad)).toThrow(where);
	});

	it('a schema that contains itself is refused by name, not with a bare TypeError', () => {
		const looped: Record<string, unknown> = { type: 'object' };
		looped['properties'] = { self: looped };
		expect(() => contractValidators(contractWith(looped))).toThrow(
			/schema: expected a schema that does not contain itself/,
		);
	});

	it("the build's module gives the panel GET /api/v2/users whole: its answers and each status's headers", () => {
		const source = validatorSource(contractWith({ type: 'string' }));
		expect(source).toContain(
			'export const contract = { operation: "GET /api/v2/users", answers: responses, headers: {"200":[]} };',
		);
	});

	it('check a stream of JSON lines by its item schema, and leave other streams unchecked', () => {
		const item = { type: 'object', required: ['email'], properties: { email: { type: 'string' } } };
		const stream = (mediaType: string, extra: object = {}): ResponseBody => ({
			mediaType,
			rows: [],
			examples: [],
			itemized: true,
			itemSchema: item,
			...extra,
		});
		const bodies = [
			stream('application/jsonl', { schema: { type: 'array' } }),
			stream('application/x-ndjson'),
			stream('application/json-seq'),
		];
		const answers = contractValidators(contractWith(undefined, bodies)).get('GET /api/v2/users')
			?.answers['200'];
		const eachLine = (type: string) => {
			const check = answers?.[type];
			return check && typeof check !== 'function' && 'eachLine' in check ? check : undefined;
		};
		const jsonl = eachLine('application/jsonl');
		const ndjson = eachLine('application/x-ndjson');
		if (!jsonl || !ndjson) {
			throw new Error('expected a check of each line for JSON lines');
		}
		expect([jsonl.eachLine({ email: 'a@b.example' }), jsonl.eachLine([])]).toEqual([true, false]);
		// Identical item schemas share one validator.
		expect(ndjson.eachLine).toBe(jsonl.eachLine);
		expect(answers?.['application/json-seq']).toBeNull();
	});

	it('check server-sent events event by event against their item schema, in Node and in the build', () => {
		const item = { type: 'object', required: ['data'], properties: { data: { type: 'string' } } };
		const bodies: ResponseBody[] = [
			{ mediaType: 'text/event-stream', rows: [], examples: [], itemized: true, itemSchema: item },
		];
		const reference = contractWith(undefined, bodies);
		const events =
			contractValidators(reference).get('GET /api/v2/users')?.answers['200']?.['text/event-stream'];
		if (!events || typeof events === 'function' || !('eachEvent' in events)) {
			throw new Error('expected a check of each event for server-sent events');
		}
		expect([events.eachEvent({ data: 'x' }), events.eachEvent({ id: '1' })]).toEqual([true, false]);
		expect(validatorSource(reference)).toMatch(/"text\/event-stream": \{ eachEvent: \w+ \}/);
		const bad = contractWith(undefined, [{ ...bodies[0]!, itemSchema: { type: 'nothing' } }]);
		expect(() => contractValidators(bad)).toThrow(
			/content\.text\/event-stream\.itemSchema: Ajv cannot compile it/,
		);
	});

	it('an item schema Ajv refuses is named by its place in the file, as itemSchema', () => {
		const bad = contractWith(undefined, [
			{
				mediaType: 'application/jsonl',
				rows: [],
				examples: [],
				itemized: true,
				itemSchema: { type: 'object', required: 'email' },
			},
		]);
		const where =
			/^openapi\.yaml: paths\.\/api\/v2\/users\.get\.responses\.200\.content\.application\/jsonl\.itemSchema: Ajv cannot compile it/;
		expect(() => contractValidators(bad)).toThrow(where);
		expect(() => validatorSource(bad)).toThrow(where);
	});

	it('the build gives the panel a check of a stream of JSON lines, line by line', async () => {
		const item = { type: 'object', required: ['email'], properties: { email: { type: 'string' } } };
		const reference = contractWith(undefined, [
			{ mediaType: 'application/jsonl', rows: [], examples: [], itemized: true, itemSchema: item },
		]);
		// Inside the project, so the module's imports of Ajv's runtime resolve.
		const file = path.join(ROOT, 'node_modules/.cache', `try-it-stream-${process.pid}.mjs`);
		await mkdir(path.dirname(file), { recursive: true });
		await writeFile(file, validatorSource(reference));
		try {
			const { contract } = (await import(pathToFileURL(file).href)) as {
				contract: OperationContract;
			};
			const read = readExchange(
				200,
				{ 'Content-Type': 'application/jsonl' },
				'{"email":"a"}\n{}\n',
			);
			expect(checkExchange(read.answer, read.headers, contract).violations).toEqual([
				'line 2: /email: is required but missing',
			]);
		} finally {
			await rm(file, { force: true });
		}
	});
});
