/** The API reference's twin, from the published contract as the reference page reads it. */
import { describe, expect, it } from 'vitest';
import { codeSamples } from '../../../../src/site/code-samples.ts';
import { referenceMarkdown } from '../../../../src/site/markdown/reference.ts';
import { operationSample, tagTree } from '../../../../src/site/reference-layout.ts';
import { composedReference, readContract } from '../../../../src/sources/contract.ts';
import { loadViews } from '../../../../src/sources/fixtures.ts';
import { readSettings } from '../../../../src/sources/settings.ts';
import {
	allNodes,
	codeBlocksOf,
	linksOf,
	parseMarkdown,
	secretValues,
	textOf,
} from '../../../support/markdown.ts';

const MOCK = 'http://127.0.0.1:5031';
const settings = readSettings({});
const views = await loadViews(settings.viewsDir);
const contract = await readContract(settings.openApiFile);
const api = await composedReference(contract.document, views, {
	mockOrigin: MOCK,
	file: contract.file,
});
const text = referenceMarkdown(api, MOCK);
const tree = parseMarkdown(text);

describe('the API reference’s twin', () => {
	it('gives the title, the downloads, the servers and every operation with its sections', () => {
		const headings = allNodes(tree).filter((node) => node.type === 'heading');
		expect(textOf(headings[0]!)).toBe(`${api.title} ${api.version}`);
		expect(headings.filter((node) => node.depth === 2).map(textOf)).toEqual([
			...(tagTree(api.tags, api.operations).length > 0 ? ['Operations by tag'] : []),
			'Servers',
			...api.operations.map(({ method, path }) => `${method} ${path}`),
		]);
		expect(headings.filter((node) => node.depth === 3).map(textOf)).toEqual(
			api.operations.flatMap(({ requestBody }) => [
				'Security',
				'Parameters',
				...(requestBody ? ['Request body'] : []),
				'Responses',
				'Code samples',
			]),
		);
		expect(linksOf(text)).toEqual(expect.arrayContaining(['/openapi.json', '/openapi.yaml']));
		expect(textOf(tree)).toContain(MOCK);
	});

	it('gives each response its status, and a body’s fields once', () => {
		const get = api.operations.find(({ method }) => method === 'GET');
		if (!get) throw new Error('expected GET');
		const statuses = allNodes(tree)
			.filter((node) => node.type === 'heading' && node.depth === 4)
			.map(textOf);
		for (const { status } of get.responses) expect(statuses).toContain(status);
		const fields = allNodes(tree)
			.filter((node) => node.type === 'tableRow')
			.map((row) => textOf(row.children![0]!));
		expect(fields.filter((field) => field === 'users[].email')).toHaveLength(1);
		expect(textOf(tree)).toContain('Its fields are those of the Problem table under');
	});

	it('shows one of the examples published per view, and each error example of the contract', () => {
		const json = codeBlocksOf(text).filter(({ lang }) => lang === 'json');
		const [first, ...others] = views
			.map(({ view }) => view.users[0]?.email ?? '')
			.filter((email) => json.some(({ value }) => value.includes(email)));
		// One view's users are shown (the first example, whichever view it is), no other view's.
		expect(first).toBeDefined();
		expect(others).toEqual([]);
		for (const kind of ['missing-key', 'invalid-key', 'wrong-shape', 'console-key']) {
			expect(
				json.some(({ value }) => value.includes(`problems/${kind}`)),
				kind,
			).toBe(true);
		}
	});

	it('shows the code samples the reference page shows, made from the same request', () => {
		const shown = codeBlocksOf(text).filter(({ value }) => value.includes(MOCK));
		const expected = api.operations.flatMap((operation) =>
			codeSamples(operationSample(operation, MOCK).request).map(({ code, language }) => ({
				lang: language,
				value: code,
			})),
		);
		expect(expected.length).toBeGreaterThan(api.operations.length);
		expect(shown).toEqual(expected);
	});

	it('holds no key and no configuration value', () => {
		for (const { where, value } of secretValues(views)) expect(text, where).not.toContain(value);
	});
});
