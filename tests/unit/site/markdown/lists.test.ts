/** The twins of the overview and the environment lists: every view reachable, every page bounded. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadViews } from '../../../../src/sources/fixtures.ts';
import {
	environmentMarkdown,
	homeMarkdown,
	commaLinks,
	htmlPageLink,
	pagedTitle,
	pagedTwins,
	pageRange,
	pageSlices,
	twinParam,
	type ListedView,
} from '../../../../src/site/markdown/lists.ts';
import {
	ENVIRONMENT_PAGE_SIZE,
	environmentGroups,
	HOME_VIEWS_PER_ENVIRONMENT,
} from '../../../../src/site/overview.ts';
import { publicView } from '../../../../src/site/public-view.ts';
import { ROOT } from '../../../../support/processes.ts';
import { markdownText, paragraph } from '../../../../src/site/markdown/mdast.ts';
import { accessSinceHref, reviewKeysHref } from '../../../../src/shared/urls.ts';
import { allNodes, linksOf, parseMarkdown, textOf } from '../../../support/markdown.ts';

const fixtures = await loadViews(path.join(ROOT, 'content/views'));

/** The fixtures and `extra` more production views (copies named prod-001, …), as the lists read them. */
function listed(extra = 0): ListedView[] {
	const production = fixtures.find(({ slug }) => slug === 'production');
	if (!production) throw new Error('expected the production fixture');
	const copies = Array.from({ length: extra }, (_, index) => {
		const slug = `prod-${String(index + 1).padStart(3, '0')}`;
		return { ...production, slug, view: { ...production.view, name: `Production ${index + 1}` } };
	});
	return [...fixtures, ...copies]
		.map(publicView)
		.sort((a, b) => a.environment.localeCompare(b.environment) || a.slug.localeCompare(b.slug))
		.map((view) => ({ slug: view.slug, view }));
}

describe('the overview’s twin', () => {
	it('lists each environment with its views, each linking to its twin', () => {
		const text = homeMarkdown(environmentGroups(listed()));
		const tree = parseMarkdown(text);
		expect(
			allNodes(tree)
				.filter((node) => node.type === 'heading')
				.map(textOf),
		).toEqual(['Console views', 'dr-eu-west', 'production', 'staging-us-east']);
		const links = linksOf(text);
		for (const { slug } of fixtures) expect(links).toContain(`/views/${slug}.md`);
		expect(links).toContain('/environments/production.md');
		expect(textOf(tree)).toContain('8 views across 3 environments');
		expect(textOf(tree)).toContain(
			'production · Production: configuration Production · API v5.8 · last updated 2026-11-18T09:30:12.345Z',
		);
		expect(textOf(tree)).toContain(
			'production · unlabelled: no configuration label · no API label',
		);
	});

	it('lists the first views of a large environment and links to all of them', () => {
		const text = homeMarkdown(environmentGroups(listed(30)));
		const views = linksOf(text).filter((href) => href.startsWith('/views/'));
		// dr-eu-west's 2, staging-us-east's 3, and the first of production's 33.
		expect(views).toHaveLength(2 + 3 + HOME_VIEWS_PER_ENVIRONMENT);
		expect(textOf(parseMarkdown(text))).toContain('All 33 views in production');
	});
});

describe('an environment list’s twin', () => {
	/** The twins of every page of production's list, with `extra` more views. */
	function pages(extra: number): string[] {
		const group = environmentGroups(listed(extra)).find(
			({ environment }) => environment === 'production',
		);
		if (!group) throw new Error('expected production');
		const { views, ...summary } = group;
		return pageSlices(views, ENVIRONMENT_PAGE_SIZE).map((page) =>
			environmentMarkdown({ group: summary, views: page.data, total: views.length, ...page }),
		);
	}

	it('gives a short environment one page, with its labels and every view', () => {
		const [only, ...rest] = pages(0);
		expect(rest).toEqual([]);
		const tree = parseMarkdown(only ?? '');
		expect(textOf(tree.children![0]!)).toBe('production');
		expect(textOf(tree.children![1]!)).toBe('3 views · API v5.8, v5.3 · 1 without an API label');
		// In the order given (here by slug), as the HTML list keeps the overview's order.
		expect(linksOf(only ?? '')).toEqual([
			'/views/production.md',
			'/views/production-edge.md',
			'/views/production-unlabelled.md',
		]);
	});

	it('pages a long one as the HTML list does, each page linking to its neighbours only', () => {
		const twins = pages(ENVIRONMENT_PAGE_SIZE * 2 + 5);
		expect(twins).toHaveLength(3);
		const views = (text: string) => linksOf(text).filter((href) => href.startsWith('/views/'));
		expect(twins.map((text) => views(text).length)).toEqual([40, 40, 8]);
		// Together the pages list every view once.
		expect(new Set(twins.flatMap(views)).size).toBe(88);
		const [first, second, third] = twins.map((text) => parseMarkdown(text));
		expect(textOf(second!.children![0]!)).toBe('production, page 2 of 3');
		expect(textOf(second!.children![1]!)).toContain('88 views');
		expect(textOf(second!.children![1]!)).toContain('views 41–80 on page 2 of 3');
		const others = (text: string) => linksOf(text).filter((href) => !href.startsWith('/views/'));
		expect(others(twins[0] ?? '')).toEqual([
			'/environments/production/2.md',
			'/environments/production/3.md',
		]);
		expect(others(twins[1] ?? '')).toEqual([
			'/environments/production.md',
			'/environments/production/3.md',
		]);
		expect(others(twins[2] ?? '')).toEqual([
			'/environments/production/2.md',
			'/environments/production.md',
		]);
		expect(textOf(first!)).toContain('Last page (3)');
		expect(textOf(third!)).toContain('First page');
	});
});

describe('pages of a list', () => {
	it('cut as Astro cuts them: numbered from 1, one page for an empty list', () => {
		expect(pageSlices([], 40)).toEqual([{ currentPage: 1, lastPage: 1, start: 0, data: [] }]);
		expect(pageSlices([1, 2, 3, 4, 5], 2)).toEqual([
			{ currentPage: 1, lastPage: 3, start: 0, data: [1, 2] },
			{ currentPage: 2, lastPage: 3, start: 2, data: [3, 4] },
			{ currentPage: 3, lastPage: 3, start: 4, data: [5] },
		]);
		expect(pageSlices([1, 2, 3, 4], 2)).toHaveLength(2);
	});
});

describe('the twins of a paged list', () => {
	it('are at the address of each HTML page with .md, as their routes’ rest parameter', () => {
		expect(twinParam('/access/review/keys/', '/access/review/')).toBe('keys');
		expect(twinParam('/access/review/keys/2/', '/access/review/')).toBe('keys/2');
		// A tag's slug is written as the route writes it, not percent-encoded twice.
		expect(twinParam('/access/since/release_2f2/3/', '/access/since/')).toBe('release_2f2/3');
		expect(twinParam('/access/changes/people/a%20b/', '/access/')).toBe('changes/people/a b');
		expect(() => twinParam('/views/production/', '/access/')).toThrow(
			'The twin /views/production.md is not under /access/',
		);
		expect(pagedTwins(['a', 'b', 'c'], 2, reviewKeysHref, '/access/review/')).toEqual([
			{ param: 'keys', page: { currentPage: 1, lastPage: 2, start: 0, data: ['a', 'b'] } },
			{ param: 'keys/2', page: { currentPage: 2, lastPage: 2, start: 2, data: ['c'] } },
		]);
		expect(pagedTwins([], 2, (page) => accessSinceHref('v1.0', page), '/access/since/')).toEqual([
			{ param: 'v1.0', page: { currentPage: 1, lastPage: 1, start: 0, data: [] } },
		]);
	});

	it('number their title and say which items they hold only when there are several pages', () => {
		const one = { currentPage: 1, lastPage: 1, start: 0, data: ['a'] };
		const second = { currentPage: 2, lastPage: 3, start: 100, data: ['a', 'b'] };
		expect(pagedTitle('Access changes', one)).toBe('Access changes');
		expect(pagedTitle('Access changes', second)).toBe('Access changes, page 2 of 3');
		expect(pageRange(one, 'rows')).toBe('');
		expect(pageRange(second, 'rows')).toBe(' (rows 101–102 on page 2 of 3)');
		expect(pageRange(second)).toBe(' (101–102 on page 2 of 3)');
	});

	it('link their HTML page, and write links in a sentence separated by commas', () => {
		expect(markdownText([htmlPageLink('/access/since/')])).toBe(
			'The same page in HTML: [/access/since/](/access/since/).\n',
		);
		expect(
			markdownText([
				paragraph(
					'By role: ',
					...commaLinks([
						['/a.md', 'admin'],
						['/v.md', 'viewer'],
					]),
					'.',
				),
			]),
		).toBe('By role: [admin](/a.md), [viewer](/v.md).\n');
		expect(commaLinks([])).toEqual([]);
	});
});
