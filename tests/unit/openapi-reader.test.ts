/** The model of a contract, read through Redocly: $refs followed, loops and dead ends named. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { referenceFromDocument } from '../../src/lib/openapi.ts';

/** A small contract whose one 200 body has the given schema, with components to point at. */
function contract(schema: string, components: readonly string[] = []): string {
	return [
		'openapi: 3.1.0',
		"info: { title: Small, version: '1' }",
		"servers: [{ url: 'http://127.0.0.1:4010' }]",
		'paths:',
		'  /x:',
		'    get:',
		'      responses:',
		"        '200':",
		'          description: ok',
		'          content:',
		'            application/json:',
		`              schema: ${schema}`,
		'components:',
		'  schemas:',
		...components,
		'    Tree:',
		'      type: object',
		'      required: [name]',
		'      properties:',
		"        name: { type: [string, 'null'], description: The node's name. }",
		"        children: { type: array, items: { $ref: '#/components/schemas/Tree' } }",
	].join('\n');
}

/** A $ref loop of two schemas. */
const LOOP = [
	"    A: { $ref: '#/components/schemas/B' }",
	"    B: { $ref: '#/components/schemas/A' }",
];

/** The model of a small contract. */
const read = (text: string) =>
	referenceFromDocument(parse(text) as Record<string, unknown>, 'small.yaml');

const rowsOf = async (schema: string, components: readonly string[] = []) =>
	(await read(contract(schema, components))).operations[0]?.responses[0]?.bodies[0]?.rows;

describe('referenceFromDocument', () => {
	it('names a $ref loop with the place it loops', async () => {
		await expect(rowsOf("{ $ref: '#/components/schemas/A' }", LOOP)).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: components.schemas.A: expected $refs that do not loop, found #/components/schemas/B → #/components/schemas/A',
		);
	});

	it('names a $ref that points nowhere, with where it stands and what it names', async () => {
		await expect(rowsOf("{ $ref: '#/components/schemas/Nope' }")).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: paths./x.get.responses.200.content.application/json.schema.$ref: expected a reference to an existing part, found "#/components/schemas/Nope"',
		);
	});

	it('names a $ref into another file instead of dropping the schema', async () => {
		await expect(rowsOf("{ $ref: 'other.yaml#/Thing' }")).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: paths./x.get.responses.200.content.application/json.schema.$ref: expected an internal $ref like "#/components/…", found "other.yaml#/Thing"',
		);
	});

	it('reads a type array as alternatives, and a schema inside itself once', async () => {
		await expect(rowsOf("{ $ref: '#/components/schemas/Tree' }")).resolves.toEqual([
			{
				field: 'name',
				type: 'string or null',
				required: true,
				description: "The node's name.",
				constraints: [],
			},
			{
				field: 'children',
				type: 'array of Tree',
				required: false,
				description: '',
				constraints: [],
			},
			{ field: 'children[]', type: 'object', required: true, description: '', constraints: [] },
		]);
	});

	it('names a pattern that is no regular expression, where it is written', async () => {
		await expect(
			rowsOf("{ $ref: '#/components/schemas/Code' }", [
				"    Code: { type: string, pattern: '[z-a]' }",
			]),
		).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: components.schemas.Code.pattern: expected a regular expression (ECMA-262, as JSON Schema patterns are)',
		);
	});

	it('names a problem where it is written, not at each place that refers to it', async () => {
		const text = [
			'openapi: 3.1.0',
			"info: { title: Small, version: '1' }",
			"servers: [{ url: 'http://127.0.0.1:4010' }]",
			'paths:',
			'  /x:',
			'    get:',
			'      responses:',
			"        '404': { $ref: '#/components/responses/Gone' }",
			"        '410': { $ref: '#/components/responses/Gone' }",
			'components:',
			'  responses:',
			'    Gone:',
			'      content: {}',
		].join('\n');
		await expect(read(text)).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: components.responses.Gone.description: Invalid input: expected string, received undefined',
		);
	});

	it('reads the named responses with their headers and examples, for the mock’s problems', async () => {
		const text = [
			'openapi: 3.1.0',
			"info: { title: Small, version: '1' }",
			"servers: [{ url: 'http://127.0.0.1:4010' }]",
			'paths: {}',
			'components:',
			'  headers:',
			'    Allow: { description: Methods., schema: { type: string }, example: GET }',
			'  responses:',
			'    MethodNotAllowed:',
			'      description: Not this method.',
			"      headers: { Allow: { $ref: '#/components/headers/Allow' } }",
			'      content:',
			'        application/problem+json:',
			'          examples:',
			'            wrong-method: { summary: Wrong, value: { status: 405, $ref: not-a-ref } }',
		].join('\n');
		await expect(read(text)).resolves.toMatchObject({
			operations: [],
			responses: {
				MethodNotAllowed: {
					description: 'Not this method.',
					headers: [
						{
							name: 'Allow',
							description: 'Methods.',
							required: false,
							examples: [{ name: 'example', value: 'GET' }],
						},
					],
					bodies: [
						{
							mediaType: 'application/problem+json',
							rows: [],
							examples: [
								{
									name: 'wrong-method',
									summary: 'Wrong',
									value: { status: 405, $ref: 'not-a-ref' },
								},
							],
						},
					],
				},
			},
		});
	});
});
