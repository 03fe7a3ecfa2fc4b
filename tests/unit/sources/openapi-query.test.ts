/**
 * What OpenAPI 3.2 adds to operations, read into the model the reference renders and the mock
 * answers from: a `query` operation and those of `additionalOperations`, a request body, a
 * `querystring` parameter with its media type, and a stream described item by item (`itemSchema`).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { referenceFromDocument } from '../../../src/sources/openapi.ts';

const CONTRACT_3_2 = path.join(
	import.meta.dirname,
	'..',
	'..',
	'fixtures',
	'openapi-3-2',
	'openapi.yaml',
);

/** The model of a small 3.2 contract whose one path item has these lines. */
const read = (item: readonly string[]) =>
	referenceFromDocument(
		parse(
			[
				'openapi: 3.2.0',
				"info: { title: Small, version: '1' }",
				"servers: [{ url: 'http://127.0.0.1:4010' }]",
				'components:',
				'  schemas:',
				'    Filter: { type: object, properties: { role: { type: string } } }',
				'paths:',
				'  /x:',
				...item.map((line) => `    ${line}`),
			].join('\n'),
		) as Record<string, unknown>,
		'small.yaml',
	);

const ok = "responses: { '200': { description: ok } }";

describe('operations OpenAPI 3.2 adds', () => {
	it('lists a query operation after the fixed methods, then additionalOperations as written', async () => {
		const model = await read([
			`query: { operationId: search, ${ok} }`,
			`get: { ${ok} }`,
			'additionalOperations:',
			`  LINK: { operationId: link, ${ok} }`,
			`  purge: { ${ok} }`,
		]);
		expect(model.operations.map(({ method, operationId }) => [method, operationId])).toEqual([
			['GET', undefined],
			['QUERY', 'search'],
			['LINK', 'link'],
			['PURGE', undefined],
		]);
	});

	it('names a field of an additionalOperations operation where it is written', async () => {
		await expect(read(['additionalOperations:', '  LINK: { summary: 1 }'])).rejects.toThrow(
			'small.yaml: paths./x.additionalOperations.LINK.responses',
		);
	});

	it('reads a request body: its description, whether required, and each media type’s fields and examples', async () => {
		const model = await read([
			'query:',
			'  requestBody:',
			'    description: Which users',
			'    required: true',
			'    content:',
			'      application/json:',
			"        schema: { $ref: '#/components/schemas/Filter' }",
			'        examples: { admins: { dataValue: { role: admin } } }',
			`  ${ok}`,
		]);
		expect(model.operations[0]?.requestBody).toEqual({
			description: 'Which users',
			required: true,
			bodies: [
				{
					mediaType: 'application/json',
					schemaName: 'Filter',
					rows: [
						{ field: 'role', type: 'string', required: false, description: '', constraints: [] },
					],
					examples: [
						{
							name: 'admins',
							summary: undefined,
							value: { role: 'admin' },
							field: 'dataValue',
							serializedValue: undefined,
						},
					],
					schema: { type: 'object', properties: { role: { type: 'string' } } },
				},
			],
		});
	});

	it('takes a request body without required as optional, and an operation without one as taking none', async () => {
		const model = await read([
			'query:',
			'  requestBody: { content: { application/json: {} } }',
			`  ${ok}`,
			`get: { ${ok} }`,
		]);
		const [get, query] = model.operations;
		expect(query?.requestBody).toMatchObject({ required: false, description: undefined });
		expect(query?.requestBody?.bodies[0]).toMatchObject({ rows: [], schemaName: undefined });
		expect(get).not.toHaveProperty('requestBody');
	});

	it('reads a stream’s fields from its itemSchema, and marks it as described item by item', async () => {
		const model = await read([
			'get:',
			'  responses:',
			"    '200':",
			'      description: ok',
			'      content:',
			"        application/jsonl: { itemSchema: { $ref: '#/components/schemas/Filter' } }",
			'        application/json: { schema: { type: object } }',
		]);
		const [lines, json] = model.operations[0]?.responses[0]?.bodies ?? [];
		expect(lines).toMatchObject({
			mediaType: 'application/jsonl',
			schemaName: 'Filter',
			itemized: true,
			schema: undefined,
		});
		expect(lines?.rows.map(({ field }) => field)).toEqual(['role']);
		expect(json).not.toHaveProperty('itemized');
	});

	it('keeps a querystring parameter with its media type and schema', async () => {
		const model = await read([
			'get:',
			'  parameters:',
			'    - name: selection',
			'      in: querystring',
			'      content:',
			'        application/x-www-form-urlencoded:',
			"          schema: { $ref: '#/components/schemas/Filter' }",
			`  ${ok}`,
		]);
		expect(model.operations[0]?.parameters[0]).toEqual({
			name: 'selection',
			in: 'querystring',
			content: {
				'application/x-www-form-urlencoded': {
					schema: { type: 'object', properties: { role: { type: 'string' } } },
				},
			},
		});
	});

	it('reads the 3.2 test copy’s QUERY /api/v2/users: its filter, querystring and stream of JSON lines', async () => {
		const text = await readFile(CONTRACT_3_2, 'utf8');
		const model = await referenceFromDocument(parse(text) as Record<string, unknown>, 'x.yaml');
		const query = model.operations.find(({ method }) => method === 'QUERY');
		expect(query).toMatchObject({ path: '/api/v2/users', operationId: 'searchUsers' });
		expect(query?.requestBody?.bodies[0]?.schemaName).toBe('UserFilter');
		expect(query?.parameters[0]?.in).toBe('querystring');
		const ok200 = query?.responses.find(({ status }) => status === '200');
		expect(ok200?.bodies.map(({ mediaType, itemized }) => [mediaType, itemized])).toEqual([
			['application/json', undefined],
			['application/jsonl', true],
		]);
	});
});
