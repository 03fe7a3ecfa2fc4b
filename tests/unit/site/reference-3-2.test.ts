/**
 * What the reference page makes of OpenAPI 3.2's additions: tags nested into its navigation, a
 * response's summary as the closed line of its disclosure, and an example's form named.
 */
import { describe, expect, it } from 'vitest';
import { llmsTxt } from '../../../src/site/markdown/llms-txt.ts';
import { referenceMarkdown } from '../../../src/site/markdown/reference.ts';
import { exampleForm, responseLine, tagTree } from '../../../src/site/reference-layout.ts';

const OPERATIONS = [
	{ method: 'GET', path: '/api/v2/users', summary: 'List', tags: ['Directory'] },
	{ method: 'HEAD', path: '/api/v2/users', summary: undefined, tags: ['Directory'] },
	{ method: 'OPTIONS', path: '/api/v2/users', summary: 'Preflight', tags: ['Browser'] },
	{ method: 'DELETE', path: '/x', summary: undefined, tags: undefined },
];

describe('the reference’s navigation by tag', () => {
	it('nests the tags as their parents say, each by its summary, with its operations', () => {
		expect(
			tagTree(
				[
					{ name: 'Console', summary: "The console's API", kind: 'nav' },
					{ name: 'Directory', parent: 'Console', summary: 'Users', description: 'Who.' },
					{ name: 'Browser', parent: 'Console' },
					{ name: 'Beta', kind: 'badge', summary: 'Beta' },
				],
				OPERATIONS,
			),
		).toEqual([
			{
				name: 'Console',
				title: "The console's API",
				description: undefined,
				operations: [],
				children: [
					{
						name: 'Directory',
						title: 'Users',
						description: 'Who.',
						operations: [
							{ label: 'GET /api/v2/users', slug: 'get-api-v2-users', summary: 'List' },
							{ label: 'HEAD /api/v2/users', slug: 'head-api-v2-users', summary: undefined },
						],
						children: [],
					},
					{
						name: 'Browser',
						title: 'Browser',
						description: undefined,
						operations: [
							{
								label: 'OPTIONS /api/v2/users',
								slug: 'options-api-v2-users',
								summary: 'Preflight',
							},
						],
						children: [],
					},
				],
			},
		]);
	});

	it('puts a tag whose parent is no navigation tag at the top', () => {
		const tree = tagTree(
			[
				{ name: 'Group', kind: 'audience' },
				{ name: 'Directory', parent: 'Group' },
			],
			OPERATIONS,
		);
		expect(tree.map(({ name }) => name)).toEqual(['Directory']);
	});

	it.each([
		['no tags', undefined],
		['3.1 tags', [{ name: 'Directory', description: 'Users.' }]],
	])('is empty for a contract with %s, whose page keeps its layout', (_what, tags) => {
		expect(tagTree(tags, OPERATIONS)).toEqual([]);
	});

	it.each([
		['a summary', { summary: 'Users' }],
		['a parent', { parent: 'Directory' }],
		['a kind', { kind: 'nav' }],
	])('shapes the navigation when one tag has %s', (_what, added) => {
		const tree = tagTree([{ name: 'Directory' }, { name: 'Other', ...added }], OPERATIONS);
		expect(tree.length).toBeGreaterThan(0);
	});
});

describe('a response’s closed line', () => {
	it('is its summary, with the whole description open, when it has one', () => {
		expect(
			responseLine({
				status: '200',
				summary: ' The `users` ',
				description: ' First. Second. ',
			}),
		).toEqual({
			line: [
				{ text: 'The ', code: false },
				{ text: 'users', code: true },
				{ text: '', code: false },
			],
			rest: 'First. Second.',
		});
	});

	it('is the description’s first sentence without one', () => {
		expect(responseLine({ status: '200', description: 'First. Second.' })).toEqual({
			line: [{ text: 'First.', code: false }],
			rest: 'Second.',
		});
	});

	it('is its summary, with nothing open, when a 3.2 contract writes no description', () => {
		expect(responseLine({ status: '404', summary: 'No such `user`', description: '' })).toEqual({
			line: [
				{ text: 'No such ', code: false },
				{ text: 'user', code: true },
				{ text: '', code: false },
			],
			rest: '',
		});
	});

	it('is its status’s reason phrase, with nothing open, when it has neither summary nor description', () => {
		expect(responseLine({ status: '404', description: '' })).toEqual({
			line: [{ text: 'Not Found', code: false }],
			rest: '',
		});
		expect(responseLine({ status: '5XX', description: ' ' })).toEqual({
			line: [{ text: 'Any 5xx status', code: false }],
			rest: '',
		});
	});
});

describe('an example’s form', () => {
	it('names dataValue and serializedValue, and nothing for a plain value', () => {
		expect(exampleForm({ field: 'dataValue' })).toBe(
			'dataValue: the data, before it is serialised',
		);
		expect(exampleForm({ field: 'serializedValue' })).toBe('serializedValue: the bytes as sent');
		expect(exampleForm({})).toBeUndefined();
	});
});

describe('what the assistant-facing files say of the contract’s version', () => {
	const reference = {
		title: 'Console user directory API',
		version: '2.0.0',
		servers: [],
		operations: [],
		responses: {},
	};

	it('llms.txt names the OpenAPI version of the contract it lists', () => {
		const input = {
			guides: [],
			environments: [],
			mock: { url: 'http://127.0.0.1:5032', local: true, localUrl: 'http://127.0.0.1:5032' },
			reviews: [],
		};
		const text = llmsTxt({ ...input, reference: { ...reference, openapi: '3.2.0' } });
		expect(text).toContain('the complete OpenAPI 3.2.0 contract, with one example per view');
		expect(llmsTxt({ ...input, reference })).toContain(
			'the complete OpenAPI contract, with one example per view',
		);
	});

	it('the reference’s twin names the version, and sends no reader to Prism with a 3.2 contract', () => {
		const twin32 = referenceMarkdown({ ...reference, openapi: '3.2.0' }, 'http://127.0.0.1:1');
		expect(twin32).toContain('The complete contract (OpenAPI 3.2.0), with one example per view');
		expect(twin32).toContain('Prism reads OpenAPI 3.1 only');
		expect(twin32).not.toContain('npx prism');
		const twin31 = referenceMarkdown({ ...reference, openapi: '3.1.0' }, 'http://127.0.0.1:1');
		expect(twin31).toContain('The complete contract (OpenAPI 3.1.0), with one example per view');
		expect(twin31).toContain('npx prism mock openapi.json');
	});

	it('the reference’s twin of a 3.2 contract with a 3.1 equivalent sends Prism’s readers to that file', () => {
		const twin = referenceMarkdown(
			{ ...reference, openapi: '3.2.0' },
			'http://127.0.0.1:1',
			'/openapi-3.1.json',
		);
		expect(twin).toContain(
			'Tools that read OpenAPI 3.1 only take its 3.1 equivalent, [openapi-3.1.json](/openapi-3.1.json), e.g. `npx prism mock openapi-3.1.json`.',
		);
		expect(twin).not.toContain('npx prism mock openapi.json');
	});
});
