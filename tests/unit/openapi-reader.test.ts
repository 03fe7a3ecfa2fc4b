/** The reference page's reading of a contract: $refs followed, loops and dead ends named. */
import { describe, expect, it } from 'vitest';
import { parseOpenApi } from '../../src/lib/openapi.ts';

/** A small contract whose one 200 body has the given schema, with components to point at. */
function contract(schema: string): string {
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
		"    A: { $ref: '#/components/schemas/B' }",
		"    B: { $ref: '#/components/schemas/A' }",
		'    Tree:',
		'      type: object',
		'      required: [name]',
		'      properties:',
		"        name: { type: [string, 'null'], description: The node's name. }",
		"        children: { type: array, items: { $ref: '#/components/schemas/Tree' } }",
	].join('\n');
}

const rowsOf = (schema: string) =>
	parseOpenApi(contract(schema), 'small.yaml').operations[0]?.responses[0]?.bodies[0]?.rows;

describe('parseOpenApi', () => {
	it('names a $ref loop with the place it loops', () => {
		expect(() => rowsOf("{ $ref: '#/components/schemas/A' }")).toThrow(
			'Invalid OpenAPI document:\n  small.yaml: components.schemas.B: expected $refs that do not loop',
		);
	});

	it('names a $ref that points nowhere, with where it stands and what it names', () => {
		expect(() => rowsOf("{ $ref: '#/components/schemas/Nope' }")).toThrow(
			'Invalid OpenAPI document:\n  small.yaml: paths./x.get.responses.200.content.application/json.schema.$ref: expected a reference to an existing part, found "#/components/schemas/Nope"',
		);
	});

	it('names a $ref into another file instead of dropping the schema', () => {
		expect(() => rowsOf("{ $ref: 'other.yaml#/Thing' }")).toThrow(
			'Invalid OpenAPI document:\n  small.yaml: paths./x.get.responses.200.content.application/json.schema.$ref: expected an internal $ref like "#/components/…", found "other.yaml#/Thing"',
		);
	});

	it('reads a type array as alternatives, and a schema inside itself once', () => {
		expect(rowsOf("{ $ref: '#/components/schemas/Tree' }")).toEqual([
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
});
