/**
 * An OpenAPI 3.2 contract read as a 3.1 one is: what 3.2 adds comes into the model (nested tags,
 * a response's summary, `dataValue` and `serializedValue` examples, `$self`), and each 3.2
 * mistake fails with one line naming the file, the field and what was expected.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createConfig, lint } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { withSelf } from '../../../src/sources/contract.ts';
import { referenceFromDocument } from '../../../src/sources/openapi.ts';
import { reasonPhrase } from '../../../src/sources/reason-phrase.ts';

const FIXTURES = path.join(import.meta.dirname, '..', '..', 'fixtures');
/** The project's contract in OpenAPI 3.2, using what 3.2 adds. */
const CONTRACT_3_2 = path.join(FIXTURES, 'openapi-3-2', 'openapi.yaml');

/** A small 3.2 contract with the given lines at its top level and in its one response. */
function contract(top: readonly string[], response: readonly string[] = []): string {
	return [
		'openapi: 3.2.0',
		"info: { title: Small, version: '1' }",
		"servers: [{ url: 'http://127.0.0.1:4010' }]",
		...top,
		'paths:',
		'  /x:',
		'    get:',
		'      responses:',
		"        '200':",
		'          description: ok',
		...response.map((line) => `          ${line}`),
	].join('\n');
}

/** The model of a small contract. */
const read = (text: string) =>
	referenceFromDocument(parse(text) as Record<string, unknown>, 'small.yaml');

/** A small contract whose responses are written without a description: 200 with no words at all. */
const answers = (version: string) =>
	[
		`openapi: ${version}`,
		"info: { title: Small, version: '1' }",
		"servers: [{ url: 'http://127.0.0.1:4010' }]",
		'paths:',
		'  /x:',
		'    get:',
		'      responses:',
		"        '200': {}",
		"        '404': { summary: No such user }",
		"        '410': { $ref: '#/components/responses/Gone' }",
		'components:',
		'  responses:',
		'    Gone: { summary: Gone for good }',
	].join('\n');

/** A 200 JSON body whose one example, `a`, has the given fields. */
const example = (fields: string) => [
	'content:',
	'  application/json:',
	'    examples:',
	`      a: { ${fields} }`,
];

describe('an OpenAPI 3.2 contract', () => {
	it('is read with what 3.2 adds: the version, $self, nested tags, a response summary and data examples', async () => {
		const text = await readFile(CONTRACT_3_2, 'utf8');
		const model = await referenceFromDocument(parse(text) as Record<string, unknown>, 'x.yaml');
		expect(model.openapi).toBe('3.2.0');
		expect(model.self).toBe('https://portal.example/openapi.yaml');
		expect(model.tags?.map(({ name, parent, kind }) => [name, parent, kind])).toEqual([
			['Console', undefined, 'nav'],
			['Directory', 'Console', 'nav'],
			['Browser', 'Console', 'nav'],
		]);
		expect(model.tags?.[1]?.summary).toBe('Users');
		const get = model.operations.find(({ method }) => method === 'GET');
		expect(get?.tags).toEqual(['Directory']);
		expect(get?.responses[0]).toMatchObject({ status: '200', summary: "The directory's users" });
		const unauthorized = model.responses['Unauthorized'];
		expect(unauthorized?.summary).toBe('No usable directory key');
		expect(unauthorized?.bodies[0]?.examples[0]).toMatchObject({
			name: 'missing-key',
			field: 'dataValue',
			value: { status: 401, title: 'A directory key is required' },
		});
		expect(model.responses['MethodNotAllowed']?.headers[0]?.examples).toEqual([
			{
				name: 'get-only',
				summary: undefined,
				value: 'GET, HEAD',
				field: 'serializedValue',
				serializedValue: 'GET, HEAD',
			},
		]);
	});

	it('passes Redocly’s recommended-strict rules, which fail a tag whose parent does not exist', async () => {
		const config = await createConfig({ extends: ['recommended-strict'] });
		await expect(lint({ ref: CONTRACT_3_2, config })).resolves.toEqual([]);
	});

	it('takes any 3.2 patch version, and names 3.0 as a version it does not read', async () => {
		await expect(read(contract([]).replace('3.2.0', '3.2.7'))).resolves.toMatchObject({
			openapi: '3.2.7',
		});
		await expect(read(contract([]).replace('3.2.0', '3.0.3'))).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: openapi: expected an OpenAPI 3.1 or 3.2 version like "3.2.0"',
		);
	});

	it('names a tag whose parent is no tag of the contract', async () => {
		const text = contract([
			'tags:',
			'  - { name: Users, parent: Directory }',
			'  - { name: Keys, parent: Users }',
		]);
		await expect(read(text)).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: tags.0.parent: expected the name of a tag in tags, found "Directory"',
		);
	});

	it('names each tag nested under itself, and not a tag under such a loop', async () => {
		const text = contract([
			'tags:',
			'  - { name: Outside, parent: A }',
			'  - { name: A, parent: B }',
			'  - { name: B, parent: A }',
			'  - { name: Self, parent: Self }',
		]);
		const reading = read(text);
		await expect(reading).rejects.toThrow(
			[
				'Invalid OpenAPI document:',
				'  small.yaml: tags.1.parent: expected parents that do not loop, found A → B → A',
				'  small.yaml: tags.2.parent: expected parents that do not loop, found B → A → B',
				'  small.yaml: tags.3.parent: expected parents that do not loop, found Self → Self',
			].join('\n'),
		);
		await expect(reading).rejects.toSatisfy((error: Error) => !error.message.includes('tags.0'));
	});

	it('keeps tags nested two deep, and tags without a parent, as written', async () => {
		const text = contract([
			'tags:',
			'  - { name: Top, summary: The top, kind: nav }',
			'  - { name: Middle, parent: Top }',
			'  - { name: Leaf, parent: Middle, kind: badge }',
		]);
		await expect(read(text)).resolves.toMatchObject({
			tags: [
				{ name: 'Top', summary: 'The top', kind: 'nav' },
				{ name: 'Middle', parent: 'Top' },
				{ name: 'Leaf', parent: 'Middle', kind: 'badge' },
			],
		});
	});

	it.each([
		['a space', 'not a uri'],
		['a fragment', 'https://portal.example/openapi.json#top'],
		['a broken percent-encoding', 'https://portal.example/%zz'],
		['a character no URI holds', 'https://portal.example/<openapi>'],
	])('names a $self with %s as no URI reference', async (_what, self) => {
		await expect(read(contract([`$self: '${self}'`]))).rejects.toThrow(
			'Invalid OpenAPI document:\n  small.yaml: $self: expected a URI reference without a fragment (RFC 3986), e.g. "https://portal.example/openapi.json"',
		);
	});

	it.each([
		'https://portal.example/openapi.json',
		'openapi.json',
		'/contracts/2026%2011/openapi.yaml?v=1',
		"urn:example:console:(users)!$&'*+,;=@~",
		'http://[2001:db8::1]:8080/openapi.json',
	])('takes %s as $self', async (self) => {
		await expect(read(contract([`$self: "${self}"`]))).resolves.toMatchObject({ self });
	});

	it.each([
		['value', 'dataValue', 'value: 1, dataValue: 1'],
		['value', 'serializedValue', "value: 1, serializedValue: '1'"],
	])('names an example with both %s and %s', async (one, other, fields) => {
		await expect(read(contract([], example(fields)))).rejects.toThrow(
			`Invalid OpenAPI document:\n  small.yaml: paths./x.get.responses.200.content.application/json.examples.a.${other}: expected ${one} or ${other}, not both (OpenAPI 3.2, Example Object)`,
		);
	});

	it('reads an example’s data from dataValue, keeps its serializedValue, and a serializedValue alone as its text', async () => {
		const text = contract(
			[],
			[
				'content:',
				'  application/json:',
				'    examples:',
				'      both: { summary: Both, dataValue: { n: 1 }, serializedValue: \'{"n":1}\' }',
				'      sent: { serializedValue: \'{"n":2}\' }',
				"      data: { dataValue: { $ref: '#/nowhere' } }",
				'      plain: { value: 3 }',
				'      bare: { summary: No data }',
			],
		);
		const model = await read(text);
		expect(model.operations[0]?.responses[0]?.bodies[0]?.examples).toEqual([
			{
				name: 'both',
				summary: 'Both',
				value: { n: 1 },
				field: 'dataValue',
				serializedValue: '{"n":1}',
			},
			{
				name: 'sent',
				summary: undefined,
				value: '{"n":2}',
				field: 'serializedValue',
				serializedValue: '{"n":2}',
			},
			{
				name: 'data',
				summary: undefined,
				value: { $ref: '#/nowhere' },
				field: 'dataValue',
				serializedValue: undefined,
			},
			{ name: 'plain', summary: undefined, value: 3 },
			{ name: 'bare', summary: 'No data', value: undefined },
		]);
	});

	it('reads a response written with a summary alone, or with neither, as 3.2 allows', async () => {
		const model = await read(answers('3.2.0'));
		expect(model.operations[0]?.responses).toMatchObject([
			{ status: '200', summary: undefined, description: '' },
			{ status: '404', summary: 'No such user', description: '' },
			{ status: '410', summary: 'Gone for good', description: '' },
		]);
		expect(model.responses['Gone']).toMatchObject({ summary: 'Gone for good', description: '' });
	});

	it('still names a 3.1 response without a description, one line each, as 3.1 requires one', async () => {
		await expect(read(answers('3.1.0'))).rejects.toThrow(
			'Invalid OpenAPI document:\n' +
				'  small.yaml: paths./x.get.responses.200.description: Invalid input: expected string, received undefined\n' +
				'  small.yaml: paths./x.get.responses.404.description: Invalid input: expected string, received undefined\n' +
				'  small.yaml: components.responses.Gone.description: Invalid input: expected string, received undefined',
		);
	});

	it('shows a 3.1 contract’s model without the fields 3.2 adds', async () => {
		const text = contract([]).replace('3.2.0', '3.1.0');
		const model = await read(text);
		expect(model).toMatchObject({ openapi: '3.1.0', self: undefined, tags: undefined });
		expect(model.operations[0]?.tags).toBeUndefined();
		expect(model.operations[0]?.responses[0]?.summary).toBeUndefined();
	});
});

describe('the published contract’s own address', () => {
	it('is the address it is published at when the contract gives one ($self)', () => {
		const document = { openapi: '3.2.0', $self: 'https://portal.example/openapi.yaml', info: {} };
		expect(withSelf(document, '/openapi.json')).toEqual({
			openapi: '3.2.0',
			$self: '/openapi.json',
			info: {},
		});
		expect(document.$self).toBe('https://portal.example/openapi.yaml');
	});

	it('is not added to a contract that gives none', () => {
		const document = { openapi: '3.1.0', info: {} };
		expect(withSelf(document, '/openapi.json')).toBe(document);
	});
});

describe('a status’s standard reason phrase, the line of a response written without words', () => {
	it('is the phrase HTTP gives the status, and names a range, the default and an unknown status', () => {
		expect(
			['200', '404', '2XX', '5xx', 'default', '299', '12XX', '2XXX'].map((status) =>
				reasonPhrase(status),
			),
		).toEqual([
			'OK',
			'Not Found',
			'Any 2xx status',
			'Any 5xx status',
			'Any other status',
			'Status 299',
			'Status 12XX',
			'Status 2XXX',
		]);
	});
});
