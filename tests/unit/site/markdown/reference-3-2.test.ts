/**
 * The API reference's twin of a contract that uses what OpenAPI 3.2 adds, as the reference page
 * shows it: a QUERY's request body (its media type, schema and examples as sent), its
 * `querystring` parameter and the media type it is written in, a stream of items (`itemSchema`),
 * each response's summary, and the tags nested by their parents. Built from the 3.2 copy of the
 * contract in tests/fixtures/openapi-3-2.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { referenceMarkdown } from '../../../../src/site/markdown/reference.ts';
import { composedReference, readContract } from '../../../../src/sources/contract.ts';
import { referenceFromDocument } from '../../../../src/sources/openapi.ts';
import { loadViews } from '../../../../src/sources/fixtures.ts';
import { readSettings } from '../../../../src/sources/settings.ts';
import { ROOT } from '../../../../support/processes.ts';
import {
	allNodes,
	codeBlocksOf,
	parseMarkdown,
	textOf,
	type MarkdownNode,
} from '../../../support/markdown.ts';

const MOCK = 'http://127.0.0.1:5031';
const file = path.join(ROOT, 'tests', 'fixtures', 'openapi-3-2', 'openapi.yaml');
const views = await loadViews(readSettings({}).viewsDir);
const contract = await readContract(file);
const api = await composedReference(contract.document, views, { mockOrigin: MOCK, file });
const text = referenceMarkdown(api, MOCK);
const tree = parseMarkdown(text);

/** The blocks of the twin from a heading to the next of the same depth or above. */
function section(title: string, depth: number, from = 0): MarkdownNode[] {
	const blocks = tree.children ?? [];
	const start = blocks.findIndex(
		(node, index) =>
			index >= from && node.type === 'heading' && node.depth === depth && textOf(node) === title,
	);
	if (start < 0) throw new Error(`The twin has no heading ${title}`);
	const end = blocks.findIndex(
		(node, index) => index > start && node.type === 'heading' && (node.depth ?? 0) <= depth,
	);
	return blocks.slice(start + 1, end < 0 ? undefined : end);
}

/** The index of a heading among the twin's blocks. */
function at(title: string, depth: number): number {
	return (tree.children ?? []).findIndex(
		(node) => node.type === 'heading' && node.depth === depth && textOf(node) === title,
	);
}

/**
 * What a reader reads in some blocks, a line each: a paragraph, a table row (its cells joined by
 * ` | `) or a code block, at any depth (a list's items too), its spaces made one.
 */
function said(blocks: readonly MarkdownNode[]): string {
	return blocks
		.flatMap(allNodes)
		.flatMap((node) => {
			if (node.type === 'paragraph' || node.type === 'heading') return [textOf(node)];
			if (node.type === 'tableRow') return [(node.children ?? []).map(textOf).join(' | ')];
			if (node.type === 'code') return [node.value ?? ''];
			return [];
		})
		.join('\n')
		.replace(/[ \t]+/g, ' ');
}

/** The QUERY operation's blocks. */
const query = section('QUERY /api/v2/users', 2);
/** One section of the QUERY operation, as its h3 says. */
const querySection = (title: string) => section(title, 3, at('QUERY /api/v2/users', 2));

describe('the reference twin of a 3.2 contract', () => {
	it('gives the QUERY operation its request body, after its parameters, before its responses', () => {
		const titles = query.filter((node) => node.type === 'heading' && node.depth === 3).map(textOf);
		expect(titles).toEqual(['Security', 'Parameters', 'Request body', 'Responses', 'Code samples']);
	});

	it('says the request body is required, what it is, its media type and its schema field by field', () => {
		const body = querySection('Request body');
		expect(said(body)).toContain('Required.');
		expect(said(body)).toContain('Which users to return; every field given must match.');
		expect(said(body)).toContain('Body: application/json, schema UserFilter');
		const fields = allNodes({ type: 'root', children: body })
			.filter((node) => node.type === 'tableRow')
			.map((row) => textOf(row.children![0]!));
		expect(fields).toEqual(['Field', 'role', 'name']);
	});

	it('shows the request body’s example as the request sends it', () => {
		const body = querySection('Request body');
		expect(said(body)).toContain('admins: The administrators');
		const blocks = codeBlocksOf(text).filter(({ value }) => value === '{"role":"admin"}');
		expect(blocks).toEqual([{ lang: 'json', value: '{"role":"admin"}' }]);
	});

	it('names a querystring parameter as the whole query string, in its media type, with its fields', () => {
		const parameters = said(querySection('Parameters'));
		expect(parameters).toContain(
			'controls | the whole query string, as application/x-www-form-urlencoded | no |',
		);
		expect(parameters).toContain('Fields of controls (application/x-www-form-urlencoded):');
		expect(parameters).toContain(
			'__code | string | no | The status to answer with once the key is accepted.',
		);
		expect(parameters).toContain(
			'__example | string | no | The named example of that status to answer with.',
		);
	});

	it('tells a stream of items by what each item is', () => {
		const responses = said(querySection('Responses'));
		expect(responses).toContain('Body: application/jsonl, a stream of JSON lines, each a User');
		expect(responses).not.toContain('application/jsonl, schema');
	});

	it('gives each response its summary before its description', () => {
		const ok = said(section('200', 4, at('QUERY /api/v2/users', 2)));
		expect(ok).toMatch(/^The matching users\nThe users of the directory that holds the key/);
		const refused = said(section('422', 4, at('QUERY /api/v2/users', 2)));
		expect(refused).toMatch(/^Not a filter\nThe body is not JSON/);
		const list = said(section('200', 4, at('GET /api/v2/users', 2)));
		expect(list).toMatch(/^The directory's users\n/);
	});

	it('names a data example’s form, as the page does', () => {
		const refused = said(section('422', 4, at('QUERY /api/v2/users', 2)));
		expect(refused).toContain(
			'invalid-filter: Not a filter\ndataValue: the data, before it is serialised\n{',
		);
	});

	it('lists the operations by tag, the tags nested as their parents say, each by its summary', () => {
		expect(at('Operations by tag', 2)).toBeLessThan(at('Servers', 2));
		expect(said(section('Operations by tag', 2))).toBe(
			[
				"The console's API (tag Console): Everything the console answers over HTTP.",
				"Users (tag Directory): The users of a view's directory.",
				"GET /api/v2/users: List the directory's users",
				"HEAD /api/v2/users: Check the directory's users without the body",
				"QUERY /api/v2/users: Search the directory's users",
				'Browser checks (tag Browser): What a browser asks before a page calls the API.',
				'OPTIONS /api/v2/users: Ask whether a page may call the path (CORS preflight)',
			].join('\n'),
		);
		const lists = allNodes(tree).filter((node) => node.type === 'list');
		// The tags under Console are a list inside its item, their operations a list inside theirs.
		expect(
			Math.max(...lists.map((list) => allNodes(list).filter((n) => n.type === 'list').length)),
		).toBe(4);
	});
});

describe('the reference twin of a 3.1 contract', () => {
	it('keeps its layout: no tags, no request body, no stream', async () => {
		const file31 = path.join(ROOT, 'tests', 'fixtures', 'openapi-3-1', 'openapi.yaml');
		const contract31 = await readContract(file31);
		const api31 = await composedReference(contract31.document, views, {
			mockOrigin: MOCK,
			file: file31,
		});
		const twin = referenceMarkdown(api31, MOCK);
		expect(twin).not.toContain('Operations by tag');
		expect(twin).not.toContain('Request body');
		expect(twin).not.toContain('a stream of');
	});
});

describe('the reference twin of a 3.2 contract’s responses written sparely', async () => {
	const sparse = await referenceFromDocument(
		parse(
			[
				'openapi: 3.2.0',
				"info: { title: Small, version: '1' }",
				"servers: [{ url: 'http://127.0.0.1:4010' }]",
				'paths:',
				'  /x:',
				'    get:',
				'      responses:',
				"        '200':",
				'          summary: The users',
				'          content:',
				'            application/json:',
				'              examples:',
				'                both: { dataValue: { a: 1 }, serializedValue: \'{"a":1}\' }',
				'                sent: { summary: As sent, serializedValue: \'{"a":2}\' }',
				'                plain: { value: { a: 3 } }',
				"        '404': {}",
			].join('\n'),
		) as Record<string, unknown>,
		'small.yaml',
	);
	const blocks = parseMarkdown(referenceMarkdown(sparse, MOCK)).children ?? [];
	/** What the twin says under a response's heading, to the next heading. */
	const under = (status: string): string => {
		const start = blocks.findIndex((node) => node.type === 'heading' && textOf(node) === status);
		const end = blocks.findIndex((node, index) => index > start && node.type === 'heading');
		return said(blocks.slice(start + 1, end < 0 ? undefined : end));
	};

	it('gives a response without a description its summary, or its status’s reason phrase', () => {
		expect(under('200')).toMatch(/^The users\n/);
		expect(under('404')).toBe('Not Found');
	});

	it('names each example’s form, and shows a serializedValue beside its dataValue as sent', () => {
		expect(under('200')).toContain(
			[
				'both',
				'dataValue: the data, before it is serialised',
				'{\n "a": 1\n}',
				'serializedValue: the bytes as sent',
				'{"a":1}',
				'sent: As sent',
				'serializedValue: the bytes as sent',
				'{"a":2}',
				'plain',
				'{\n "a": 3\n}',
			].join('\n'),
		);
	});
});
