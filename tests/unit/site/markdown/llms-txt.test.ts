/** `/llms.txt` in the llmstxt.org format, and the guides' index twin. */
import { describe, expect, it } from 'vitest';
import {
	guidesMarkdown,
	llmsTxt,
	type LlmsTxtInput,
} from '../../../../src/site/markdown/llms-txt.ts';
import {
	allNodes,
	linksOf,
	llmsTxtProblems,
	parseMarkdown,
	textOf,
} from '../../../support/markdown.ts';

const input: LlmsTxtInput = {
	guides: [
		{ id: 'getting-started', title: 'Getting started', description: 'Run the portal.' },
		{ id: 'mock-server', title: 'The mock server', description: 'Start the live mock.' },
	],
	reference: { title: 'Console user directory API', version: '2.0.0' },
	environments: [
		{ environment: 'dr-eu-west', views: 2, apiLabels: ['v2.5'] },
		{ environment: 'production', views: 1200, apiLabels: [] },
	],
	mock: { url: 'http://127.0.0.1:5032', local: true, localUrl: 'http://127.0.0.1:5032' },
	reviews: [
		{ href: '/access/flags/several-names/', title: 'One email under several names', found: 1 },
		{ href: '/access/review/keys/', title: 'Keys not rotated for more than 90 days', found: 0 },
	],
};

describe('llms.txt', () => {
	it('is in the llmstxt.org format: H1, summary quote, prose, then sections of links', () => {
		const text = llmsTxt(input);
		expect(llmsTxtProblems(text)).toEqual([]);
		const tree = parseMarkdown(text);
		expect(textOf(tree.children![0]!)).toBe('Console Portal');
		expect(
			allNodes(tree)
				.filter((node) => node.type === 'heading' && node.depth === 2)
				.map(textOf),
		).toEqual(['Guides', 'API reference', 'Views by environment', 'Optional']);
	});

	it('links every guide’s twin, the reference’s, and every environment’s list', () => {
		const links = linksOf(llmsTxt(input));
		expect(links).toEqual(
			expect.arrayContaining([
				'/docs/getting-started.md',
				'/docs/mock-server.md',
				'/reference.md',
				'/reference/changes.md',
				'/openapi.yaml',
				'/environments/dr-eu-west.md',
				'/environments/production.md',
				'/index.md',
				'/docs.md',
				'/access.md',
			]),
		);
		// Views are reached through their environment's list, so the file grows with environments.
		expect(links.filter((href) => href.startsWith('/views/'))).toEqual([]);
		const text = textOf(parseMarkdown(llmsTxt(input)));
		expect(text).toContain('production: its 1,200 views, each with a link to its page');
		expect(text).toContain('dr-eu-west: its 2 views (API v2.5)');
		expect(text).toContain('http://127.0.0.1:5032');
		expect(text).toContain('Console user directory API 2.0.0');
	});

	it('lists what changed in access and each review page under Optional, as twins', () => {
		const text = llmsTxt(input);
		const optional = text.slice(text.indexOf('\n## Optional\n'));
		expect(optional).toContain(
			"\n- [Access changes](/access/changes.md): every change to who holds which role in which view, from the fixtures' git history, with a list per environment, role and kind\n- [Access since a tag](/access/since.md): what changed in access between each git tag and today\n- [One email under several names](/access/flags/several-names.md): a review flag, with what it found\n- [Keys not rotated for more than 90 days](/access/review/keys.md): a review flag, with what it found\n",
		);
	});

	it('is told apart from a text that is not in the format', () => {
		expect(llmsTxtProblems('Console Portal\n\n## Guides\n\n- [a](/a.md)\n')).toEqual([
			'the first block is not an H1',
			'the H1 is not followed by a block quote',
		]);
		expect(
			llmsTxtProblems(
				'# P\n\n> S\n\n## Guides\n\nProse.\n\n- a guide\n- [b](/b.md) - notes\n### Deep\n',
			),
		).toEqual([
			'a paragraph in a section: Prose.',
			'an item that is not a link: a guide',
			'an item whose notes do not start with ": ": b - notes',
			'a heading of depth 3: Deep',
		]);
	});
});

describe('the guides’ index twin', () => {
	it('lists each guide’s twin with its description', () => {
		const text = guidesMarkdown(input.guides);
		expect(linksOf(text)).toEqual(['/docs/getting-started.md', '/docs/mock-server.md']);
		expect(textOf(parseMarkdown(text))).toContain('The mock server: Start the live mock.');
	});
});
