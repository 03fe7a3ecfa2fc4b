/** A view's Markdown twin, as an assistant or a terminal reads it. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadViews } from '../../../../src/sources/fixtures.ts';
import { publicView } from '../../../../src/site/public-view.ts';
import { KEY_PLACEHOLDER, viewMarkdown } from '../../../../src/site/markdown/view.ts';
import { ROOT } from '../../../../support/processes.ts';
import {
	allNodes,
	codeBlocksOf,
	linksOf,
	parseMarkdown,
	secretValues,
	textOf,
} from '../../../support/markdown.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));

/** The default: a reader's own local mock. */
const LOCAL_MOCK = {
	url: 'http://127.0.0.1:5032',
	local: true,
	heading: 'Run it against the local mock',
};

/** A fixture by slug. */
function fixture(slug: string) {
	const entry = views.find((view) => view.slug === slug);
	if (!entry) throw new Error(`expected the ${slug} fixture`);
	return entry;
}

describe("a view's Markdown twin", () => {
	it("names the mock this portal's readers share, and the request to it, when the build calls one", () => {
		const text = viewMarkdown(publicView(fixture('production')), {
			environmentPage: 1,
			mock: {
				url: 'https://mock.intranet.example',
				local: false,
				heading: 'Run it against the mock',
			},
		});
		expect(textOf(parseMarkdown(text))).toContain(
			"The same request to the mock this portal's readers share, at https://mock.intranet.example, which gets this view's users, is under Run it against the mock",
		);
		expect(text).not.toContain('127.0.0.1');
	});

	it('gives its name, labels, timestamps, console address and status note', () => {
		const text = viewMarkdown(publicView(fixture('production')), {
			environmentPage: 1,
			mock: LOCAL_MOCK,
		});
		const tree = parseMarkdown(text);
		const [title] = tree.children ?? [];
		expect(title).toMatchObject({ type: 'heading', depth: 1 });
		expect(textOf(title!)).toBe('production · Production');
		const rows = allNodes(tree)
			.filter((node) => node.type === 'tableRow')
			.map((row) => (row.children ?? []).map(textOf));
		expect(rows).toEqual(
			expect.arrayContaining([
				['Environment', 'production'],
				['Configuration label', 'Production'],
				['API label', 'v5.8'],
				['Last updated', '2026-11-18T09:30:12.345Z'],
				['Generated at', '2026-11-18T09:31:00.000Z'],
				['Console address', 'http://203.0.113.24:8443'],
			]),
		);
		expect(textOf(tree)).toContain('Production revenue for October closed at $4.82M');
	});

	it('says "none" for a label the view does not carry', () => {
		const text = viewMarkdown(publicView(fixture('production-unlabelled')), {
			environmentPage: 1,
			mock: LOCAL_MOCK,
		});
		const rows = allNodes(parseMarkdown(text))
			.filter((node) => node.type === 'tableRow')
			.map((row) => (row.children ?? []).map(textOf));
		expect(rows).toEqual(
			expect.arrayContaining([
				['Configuration label', 'none'],
				['API label', 'none'],
			]),
		);
	});

	it('lists every person with email and role, each linking to their twin', () => {
		const entry = fixture('staging-us-east');
		const text = viewMarkdown(publicView(entry), { environmentPage: 1, mock: LOCAL_MOCK });
		const rows = allNodes(parseMarkdown(text))
			.filter((node) => node.type === 'tableRow')
			.map((row) => (row.children ?? []).map(textOf));
		for (const user of entry.view.users) {
			expect(rows).toContainEqual([user.name, user.email, user.role]);
		}
		const people = linksOf(text).filter((href) => href.startsWith('/people/'));
		expect(people).toHaveLength(8);
		expect(people[0]).toMatch(/^\/people\/[a-z0-9.-]+\.md$/);
	});

	it('shows the example request with <API_KEY> in place of the key, and where the key is', () => {
		const entry = fixture('production');
		const text = viewMarkdown(publicView(entry), { environmentPage: 1, mock: LOCAL_MOCK });
		expect(codeBlocksOf(text)).toEqual([
			{
				lang: 'sh',
				value: `curl \\\n  -H "Authorization: Bearer ${KEY_PLACEHOLDER}" \\\n  http://203.0.113.24:8443/api/v2/users`,
			},
		]);
		expect(textOf(parseMarkdown(text))).toContain(
			'with the key of Fatima Zahra Idrissi (viewer) as a bearer token',
		);
		expect(textOf(parseMarkdown(text))).toContain(
			'The same request to the local mock (npm start or npm run mock) at http://127.0.0.1:5032',
		);
		expect(linksOf(text)).toEqual(
			expect.arrayContaining([
				'/views/production/',
				'/views/production/#directory-heading',
				'/views/production/#config-heading',
				'/views/production/#mock-request-heading',
				'/environments/production.md',
			]),
		);
	});

	it('links the page of its environment list that holds it', () => {
		const text = viewMarkdown(publicView(fixture('production')), {
			environmentPage: 3,
			mock: LOCAL_MOCK,
		});
		expect(linksOf(text)).toContain('/environments/production/3.md');
	});

	it('holds no key and no configuration value of any view', () => {
		const secrets = secretValues(views);
		for (const entry of views) {
			const text = viewMarkdown(publicView(entry), { environmentPage: 1, mock: LOCAL_MOCK });
			for (const { where, value } of secrets) expect(text, where).not.toContain(value);
		}
	});

	it('keeps a name or note with Markdown in it as text', () => {
		const entry = fixture('production');
		const hostile = {
			...entry,
			view: {
				...entry.view,
				name: '[click](javascript:alert(1)) | *x*',
				statusNote: '<img src=x onerror=alert(1)> # not a heading',
			},
		};
		const tree = parseMarkdown(
			viewMarkdown(publicView(hostile), { environmentPage: 1, mock: LOCAL_MOCK }),
		);
		expect(textOf(tree.children![0]!)).toBe('[click](javascript:alert(1)) | *x*');
		expect(allNodes(tree).filter((node) => node.type === 'html')).toEqual([]);
		expect(
			allNodes(tree)
				.filter((node) => node.type === 'heading')
				.map(textOf),
		).not.toContain('not a heading');
		expect(
			linksOf(viewMarkdown(publicView(hostile), { environmentPage: 1, mock: LOCAL_MOCK })),
		).not.toContain('javascript:alert(1)');
	});
});
