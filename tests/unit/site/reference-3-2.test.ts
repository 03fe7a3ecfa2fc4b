/**
 * What the reference page makes of OpenAPI 3.2's additions: tags nested into its navigation, a
 * response's summary as the closed line of its disclosure, and an example's form named.
 */
import { describe, expect, it } from 'vitest';
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
		expect(responseLine({ summary: ' The `users` ', description: ' First. Second. ' })).toEqual({
			line: [
				{ text: 'The ', code: false },
				{ text: 'users', code: true },
				{ text: '', code: false },
			],
			rest: 'First. Second.',
		});
	});

	it('is the description’s first sentence without one', () => {
		expect(responseLine({ description: 'First. Second.' })).toEqual({
			line: [{ text: 'First.', code: false }],
			rest: 'Second.',
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
