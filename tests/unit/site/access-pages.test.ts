/**
 * The access pages of one environment, one role, and both, a page of people at a time: every
 * person on exactly one page, in the list's order, each page linking to the others.
 */
import { describe, expect, it } from 'vitest';
import { PEOPLE_PER_PAGE } from '../../../src/site/access.ts';
import {
	accessEnvironmentMarkdown,
	accessEnvironmentRoleMarkdown,
	accessRoleMarkdown,
	type EnvironmentPerson,
} from '../../../src/site/markdown/access.ts';
import { pagedTwins } from '../../../src/site/markdown/lists.ts';
import type { AccessEntry } from '../../../src/site/people.ts';
import { ACCESS_ROOT, accessHref, markdownHref } from '../../../src/shared/urls.ts';
import { allNodes, linksOf, parseMarkdown, textOf } from '../../support/markdown.ts';

/** `count` people holding `role` in one of two environments, in the order a page lists them. */
function holders(count: number, role: AccessEntry['role'] = 'admin'): AccessEntry[] {
	return Array.from({ length: count }, (_, index) => ({
		environment: index % 2 === 0 ? 'production' : 'staging-us-east',
		role,
		slug: `person.${index}`,
		name: `Person ${index}`,
		email: `person.${index}@example.com`,
		views: 1 + (index % 3),
	}));
}

/** The table rows of a twin, header left out, as the text of each cell. */
function rows(text: string): string[][] {
	return allNodes(parseMarkdown(text))
		.filter((node) => node.type === 'tableRow')
		.slice(1)
		.map((row) => (row.children ?? []).map(textOf));
}

const environments = ['production', 'staging-us-east'];

describe('the addresses of the access pages, page by page', () => {
	it('keeps the first page at the list’s own address and numbers the others', () => {
		expect(accessHref('production')).toBe('/access/environments/production/');
		expect(accessHref('production', undefined, 1)).toBe('/access/environments/production/');
		expect(accessHref('production', undefined, 2)).toBe('/access/environments/production/2/');
		expect(accessHref('production', 'admin', 3)).toBe('/access/environments/production/admin/3/');
		expect(accessHref(undefined, 'viewer', 2)).toBe('/access/roles/viewer/2/');
		expect(accessHref(undefined, undefined, 2)).toBe(ACCESS_ROOT);
	});

	it('gives each page’s twin beside it, as the twins’ routes publish them', () => {
		const pages = pagedTwins(
			holders(PEOPLE_PER_PAGE * 2 + 1),
			PEOPLE_PER_PAGE,
			(number) => accessHref('production', 'admin', number),
			`${ACCESS_ROOT}environments/`,
		);
		expect(pages.map(({ param }) => param)).toEqual([
			'production/admin',
			'production/admin/2',
			'production/admin/3',
		]);
		expect(markdownHref(accessHref(undefined, 'admin', 2))).toBe('/access/roles/admin/2.md');
	});
});

describe('a role’s twin over many people', () => {
	const all = holders(PEOPLE_PER_PAGE * 2 + 30);
	const pages = pagedTwins(
		all,
		PEOPLE_PER_PAGE,
		(number) => accessHref(undefined, 'admin', number),
		`${ACCESS_ROOT}roles/`,
	);
	const texts = pages.map(({ page }) => accessRoleMarkdown('admin', environments, all, page));

	it('lists every holder once, across its pages, none longer than a page', () => {
		expect(texts).toHaveLength(3);
		for (const text of texts) expect(rows(text).length).toBeLessThanOrEqual(PEOPLE_PER_PAGE);
		expect(texts.flatMap(rows).map(([, name]) => name)).toEqual(all.map(({ name }) => name));
	});

	it('counts everyone on every page and says which rows this page holds', () => {
		const second = textOf(parseMarkdown(texts[1] ?? ''));
		expect(second).toContain(`Who is admin, by environment, page 2 of 3`);
		expect(second).toContain(`${all.length} people hold the role admin in at least one view`);
		expect(second).toContain(`(rows ${PEOPLE_PER_PAGE + 1}–${PEOPLE_PER_PAGE * 2} on page 2 of 3)`);
	});

	it('links each page to the ones beside it, the first and the last', () => {
		expect(linksOf(texts[0] ?? '')).toEqual(
			expect.arrayContaining(['/access/roles/admin/2.md', '/access/roles/admin/3.md']),
		);
		expect(linksOf(texts[1] ?? '')).toEqual(
			expect.arrayContaining(['/access/roles/admin.md', '/access/roles/admin/3.md']),
		);
		expect(linksOf(texts[2] ?? '')).toEqual(
			expect.arrayContaining(['/access/roles/admin/2.md', '/access/roles/admin.md']),
		);
	});

	it('reads as before, with no page number, when everyone fits on one page', () => {
		const few = holders(3);
		const [only] = pagedTwins(
			few,
			PEOPLE_PER_PAGE,
			(number) => accessHref(undefined, 'admin', number),
			`${ACCESS_ROOT}roles/`,
		);
		const text = accessRoleMarkdown('admin', environments, few, only?.page);
		expect(text).toBe(accessRoleMarkdown('admin', environments, few));
		expect(text).not.toContain('page 1');
		expect(linksOf(text).filter((href) => href.startsWith('/access/roles/'))).toEqual([
			'/access/roles/admin.md',
			'/access/roles/deployer.md',
			'/access/roles/operator.md',
			'/access/roles/viewer.md',
		]);
	});
});

describe('an environment’s twins over many people', () => {
	it('lists everyone in the environment once, a page at a time, with links between pages', () => {
		const people: EnvironmentPerson[] = Array.from({ length: PEOPLE_PER_PAGE + 5 }, (_, index) => ({
			slug: `person.${index}`,
			name: `Person ${index}`,
			email: `person.${index}@example.com`,
			roles: 'viewer in 1 view',
			rolesDiffer: false,
		}));
		const pages = pagedTwins(
			people,
			PEOPLE_PER_PAGE,
			(number) => accessHref('production', undefined, number),
			`${ACCESS_ROOT}environments/`,
		);
		const texts = pages.map(({ page }) =>
			accessEnvironmentMarkdown('production', environments, people, page),
		);
		expect(texts.map((text) => rows(text).length)).toEqual([PEOPLE_PER_PAGE, 5]);
		expect(texts.flatMap(rows).map(([name]) => name)).toEqual(people.map(({ name }) => name));
		expect(linksOf(texts[0] ?? '')).toContain('/access/environments/production/2.md');
		expect(linksOf(texts[1] ?? '')).toContain('/access/environments/production.md');
		expect(textOf(parseMarkdown(texts[1] ?? ''))).toContain(
			`${people.length} people in production's views`,
		);
	});

	it('lists who holds a role there once, a page at a time, with links between pages', () => {
		const all = holders(PEOPLE_PER_PAGE + 1, 'viewer');
		const pages = pagedTwins(
			all,
			PEOPLE_PER_PAGE,
			(number) => accessHref('production', 'viewer', number),
			`${ACCESS_ROOT}environments/`,
		);
		const texts = pages.map(({ page }) =>
			accessEnvironmentRoleMarkdown('production', 'viewer', environments, all, 4, page),
		);
		expect(texts.map((text) => rows(text).length)).toEqual([PEOPLE_PER_PAGE, 1]);
		expect(texts.flatMap(rows).map(([name]) => name)).toEqual(all.map(({ name }) => name));
		expect(linksOf(texts[0] ?? '')).toContain('/access/environments/production/viewer/2.md');
		expect(linksOf(texts[1] ?? '')).toContain('/access/environments/production/viewer.md');
		expect(textOf(parseMarkdown(texts[1] ?? ''))).toContain(
			`Who is viewer in production, page 2 of 2`,
		);
	});
});
