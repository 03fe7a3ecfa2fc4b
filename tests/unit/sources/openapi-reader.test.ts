/** The model of a contract, read through Redocly: $refs followed, loops and dead ends named. */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { referenceFromDocument } from '../../../src/sources/openapi.ts';

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

	it('puts a field’s constraints in words: values, format, lengths, bounds and pattern', async () => {
		await expect(
			rowsOf("{ $ref: '#/components/schemas/Limits' }", [
				'    Limits:',
				'      type: object',
				'      properties:',
				"        role: { type: string, enum: [admin, 'viewer', 7] }",
				'        email: { type: string, format: email, minLength: 6, maxLength: 254 }',
				"        page: { type: integer, minimum: 1, maximum: 500, pattern: '^[0-9]+$' }",
				'        bare: { type: boolean }',
				'        empty: { type: string, minLength: 0, maximum: 0 }',
				'        one: { type: string, minLength: 1, maxLength: 1 }',
				'        eight: { type: array, minItems: 8, maxItems: 8 }',
				'        some: { type: array, minItems: 1, maxItems: 3 }',
				'        few: { type: array, maxItems: 1 }',
				'        many: { type: array, minItems: 2 }',
			]),
		).resolves.toEqual([
			{
				field: 'role',
				type: 'string',
				required: false,
				description: '',
				constraints: ['one of "admin", "viewer", 7'],
			},
			{
				field: 'email',
				type: 'string',
				required: false,
				description: '',
				constraints: ['format email', 'at least 6 characters', 'at most 254 characters'],
			},
			{
				field: 'page',
				type: 'integer',
				required: false,
				description: '',
				constraints: ['minimum 1', 'maximum 500', 'pattern ^[0-9]+$'],
			},
			{ field: 'bare', type: 'boolean', required: false, description: '', constraints: [] },
			{
				field: 'empty',
				type: 'string',
				required: false,
				description: '',
				constraints: ['at least 0 characters', 'maximum 0'],
			},
			{
				field: 'one',
				type: 'string',
				required: false,
				description: '',
				constraints: ['at least 1 character', 'at most 1 character'],
			},
			{
				field: 'eight',
				type: 'array',
				required: false,
				description: '',
				constraints: ['exactly 8 items'],
			},
			{
				field: 'some',
				type: 'array',
				required: false,
				description: '',
				constraints: ['at least 1 item', 'at most 3 items'],
			},
			{
				field: 'few',
				type: 'array',
				required: false,
				description: '',
				constraints: ['at most 1 item'],
			},
			{
				field: 'many',
				type: 'array',
				required: false,
				description: '',
				constraints: ['at least 2 items'],
			},
		]);
	});

	it('reads an operation: its method, names, parameters and the security it asks for', async () => {
		const text = [
			'openapi: 3.1.0',
			"info: { title: Small, version: '2.1', summary: One call., description: For tests. }",
			"servers: [{ url: 'http://127.0.0.1:4010', description: The mock }]",
			'security: [{ key: [] }]',
			'paths:',
			'  /x:',
			'    post:',
			'      operationId: makeX',
			'      summary: Makes an x.',
			'      description: Makes one x.',
			'      parameters: [{ name: q, in: query, required: true, example: a b }]',
			"      responses: { '201': { description: Made. } }",
			'    get:',
			'      security: [{ bearer: [] }, {}]',
			"      responses: { '200': { description: Here. } }",
			'components:',
			'  securitySchemes:',
			'    key: { type: apiKey, in: header, name: X-Key }',
			'    bearer: { type: http, scheme: bearer }',
		].join('\n');
		await expect(read(text)).resolves.toEqual({
			openapi: '3.1.0',
			title: 'Small',
			version: '2.1',
			summary: 'One call.',
			description: 'For tests.',
			servers: [{ url: 'http://127.0.0.1:4010', description: 'The mock' }],
			operations: [
				{
					method: 'GET',
					path: '/x',
					operationId: undefined,
					summary: undefined,
					description: undefined,
					security: [{ name: 'bearer', scheme: { type: 'http', scheme: 'bearer' } }],
					parameters: [],
					responses: [{ status: '200', description: 'Here.', headers: [], bodies: [] }],
				},
				{
					method: 'POST',
					path: '/x',
					operationId: 'makeX',
					summary: 'Makes an x.',
					description: 'Makes one x.',
					security: [{ name: 'key', scheme: { type: 'apiKey', in: 'header', name: 'X-Key' } }],
					parameters: [{ name: 'q', in: 'query', required: true, example: 'a b' }],
					responses: [{ status: '201', description: 'Made.', headers: [], bodies: [] }],
				},
			],
			responses: {},
		});
	});

	it('names a security requirement whose scheme the components do not hold', async () => {
		const text = [
			'openapi: 3.1.0',
			"info: { title: Small, version: '1' }",
			"servers: [{ url: 'http://127.0.0.1:4010' }]",
			'paths:',
			'  /x:',
			'    get:',
			'      security: [{ token: [] }]',
			"      responses: { '200': { description: Here. } }",
		].join('\n');
		await expect(read(text)).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: paths./x.get.security: expected "token" to be a scheme in components.securitySchemes',
		);
	});

	it('names the version and the servers a document must have', async () => {
		const text = [
			'openapi: 3.0.3',
			"info: { title: Small, version: '1' }",
			'servers: []',
			'paths: {}',
		].join('\n');
		await expect(read(text)).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: openapi: expected an OpenAPI 3.1 or 3.2 version like "3.2.0"\n  small.yaml: servers: expected at least one server',
		);
	});

	it('types lists by their items, a field without a type as any, and follows a field named example', async () => {
		await expect(
			rowsOf("{ $ref: '#/components/schemas/Lists' }", [
				'    Name: { type: string, description: A name. }',
				'    Lists:',
				'      type: object',
				'      required: [names, example]',
				'      properties:',
				'        names: { type: array, items: { type: string } }',
				'        things: { type: array }',
				'        anything: { description: Whatever it is. }',
				"        example: { $ref: '#/components/schemas/Name' }",
			]),
		).resolves.toEqual([
			{ field: 'names', type: 'array of string', required: true, description: '', constraints: [] },
			{ field: 'names[]', type: 'string', required: true, description: '', constraints: [] },
			{ field: 'things', type: 'array', required: false, description: '', constraints: [] },
			{
				field: 'anything',
				type: 'any',
				required: false,
				description: 'Whatever it is.',
				constraints: [],
			},
			{ field: 'example', type: 'string', required: true, description: 'A name.', constraints: [] },
		]);
	});

	it('names the schema of a body that refers to one, and none for an inline schema', async () => {
		const model = await read(contract("{ $ref: '#/components/schemas/Tree' }"));
		expect(model.operations[0]?.responses[0]?.bodies[0]?.schemaName).toBe('Tree');
		const inline = await read(contract('{ type: object }'));
		expect(inline.operations[0]?.responses[0]?.bodies[0]?.schemaName).toBeUndefined();
		expect(inline.operations[0]?.responses[0]?.bodies[0]?.schema).toEqual({ type: 'object' });
	});

	it('takes any OpenAPI 3.1 patch version, and no other spelling of it, as an OpenApiError', async () => {
		const withVersion = (version: string) =>
			read(contract('{ type: object }').replace('openapi: 3.1.0', `openapi: '${version}'`));
		await expect(withVersion('3.1.10')).resolves.toMatchObject({ title: 'Small' });
		await expect(withVersion('v3.1.0')).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: expected a document Redocly can read (Unsupported OpenAPI version: v3.1.0)',
		);
		await expect(withVersion('3.1')).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: expected a document Redocly can read (Unsupported OpenAPI version: 3.1)',
		);
		for (const version of ['3.1.0-rc1', '3.1.0.1']) {
			const reading = withVersion(version);
			await expect(reading).rejects.toThrow(
				'Invalid OpenAPI document:\n  small.yaml: openapi: expected an OpenAPI 3.1 or 3.2 version like "3.2.0"',
			);
			await expect(reading).rejects.toHaveProperty('name', 'OpenApiError');
		}
	});

	it('reads a pattern as JavaScript does with the u flag, as JSON Schema does', async () => {
		await expect(
			rowsOf("{ $ref: '#/components/schemas/Code' }", [
				"    Code: { type: string, pattern: '\\a' }",
			]),
		).rejects.toThrow(
			'small.yaml: components.schemas.Code.pattern: expected a regular expression (ECMA-262, as JSON Schema patterns are)',
		);
	});

	it('names nested fields by their path, and a body schema that is part of a schema by no name', async () => {
		const model = await read(
			contract("{ $ref: '#/components/schemas/Outer/properties/outer' }", [
				'    Outer:',
				'      type: object',
				'      properties:',
				'        outer: { type: object, properties: { inner: { type: string } } }',
			]),
		);
		const body = model.operations[0]?.responses[0]?.bodies[0];
		expect(body?.schemaName).toBeUndefined();
		expect(body?.rows.map(({ field }) => field)).toEqual(['inner']);
		await expect(
			rowsOf("{ $ref: '#/components/schemas/Outer' }", [
				'    Outer:',
				'      type: object',
				'      properties:',
				'        outer: { type: object, properties: { inner: { type: string } } }',
			]),
		).resolves.toMatchObject([{ field: 'outer' }, { field: 'outer.inner' }]);
	});

	it('takes a $ref in default, const, enum or examples data as data, but follows one under a property of that name', async () => {
		const data = [
			'    Data:',
			'      type: object',
			"      default: { $ref: 'other.yaml#/Default' }",
			"      const: { $ref: 'other.yaml#/Const' }",
			"      enum: [{ $ref: 'other.yaml#/Enum' }]",
			"      examples: [{ $ref: 'other.yaml#/Examples' }]",
		];
		await expect(rowsOf("{ $ref: '#/components/schemas/Data' }", data)).resolves.toEqual([]);
		for (const name of ['default', 'example', 'examples']) {
			await expect(
				rowsOf("{ $ref: '#/components/schemas/Named' }", [
					'    Named:',
					'      type: object',
					`      properties: { ${name}: { $ref: 'other.yaml#/Thing' } }`,
				]),
			).rejects.toThrow(
				`small.yaml: components.schemas.Named.properties.${name}.$ref: expected an internal $ref like "#/components/…", found "other.yaml#/Thing"`,
			);
		}
	});
});
