/** The twins of the people pages: a person's views and roles, bounded, and never a key. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../../../src/sources/fixtures.ts';
import { VIEWS_PER_ENVIRONMENT, VIEWS_PER_PAGE } from '../../../../src/site/access.ts';
import { pageSlices } from '../../../../src/site/markdown/lists.ts';
import { personEnvironmentMarkdown, personMarkdown } from '../../../../src/site/markdown/people.ts';
import { buildPeople, byEnvironment, describeRoles } from '../../../../src/site/people.ts';
import { ROOT } from '../../../../support/processes.ts';
import {
	allNodes,
	linksOf,
	parseMarkdown,
	secretValues,
	textOf,
} from '../../../support/markdown.ts';

const fixtures = await loadViews(path.join(ROOT, 'content/views'));

/** The fixtures and `extra` copies of the production view (so its people are in many views). */
function withCopies(extra: number): ViewEntry[] {
	const production = fixtures.find(({ slug }) => slug === 'production');
	if (!production) throw new Error('expected the production fixture');
	return [
		...fixtures,
		...Array.from({ length: extra }, (_, index) => ({
			...production,
			slug: `prod-${index + 1}`,
			view: { ...production.view, name: `Production copy ${index + 1}` },
		})),
	];
}

/** A person of a set of views, by the slug of their page. */
function person(views: readonly ViewEntry[], slug: string) {
	const found = buildPeople(views).find((candidate) => candidate.slug === slug);
	if (!found) throw new Error(`expected ${slug}`);
	return found;
}

describe('a person’s twin', () => {
	it('gives their name, email, and each environment’s views with their role in each', () => {
		const amara = person(fixtures, 'amara.okafor');
		const groups = byEnvironment(amara.memberships);
		const text = personMarkdown(amara, groups);
		const tree = parseMarkdown(text);
		expect(textOf(tree.children![0]!)).toBe(amara.name);
		expect(textOf(tree)).toContain(amara.email);
		const headings = allNodes(tree).filter((node) => node.type === 'heading' && node.depth === 2);
		expect(headings.map(textOf)).toEqual(groups.map(({ environment }) => environment));
		const rows = allNodes(tree)
			.filter((node) => node.type === 'tableRow')
			.map((row) => (row.children ?? []).map(textOf));
		for (const membership of amara.memberships) {
			expect(rows).toContainEqual([
				membership.view,
				membership.configuration ?? 'none',
				membership.role,
			]);
		}
		for (const { slug } of amara.memberships) expect(linksOf(text)).toContain(`/views/${slug}.md`);
		expect(linksOf(text)).toContain('/access.csv');
	});

	it('lists the first views of an environment and links to the pages of all of them', () => {
		const views = withCopies(VIEWS_PER_ENVIRONMENT + 3);
		const amara = person(views, 'amara.okafor');
		const text = personMarkdown(amara, byEnvironment(amara.memberships));
		const production = amara.memberships.filter(({ environment }) => environment === 'production');
		expect(production.length).toBeGreaterThan(VIEWS_PER_ENVIRONMENT);
		const listed = linksOf(text).filter((href) =>
			production.some(({ slug }) => href === `/views/${slug}.md`),
		);
		expect(listed).toHaveLength(VIEWS_PER_ENVIRONMENT);
		expect(linksOf(text)).toContain('/people/amara.okafor/production.md');
		expect(textOf(parseMarkdown(text))).toContain(`All ${production.length} views in production`);
	});

	it('pages their views in one environment, each page linking to its neighbours', () => {
		const views = withCopies(VIEWS_PER_PAGE + 10);
		const amara = person(views, 'amara.okafor');
		const group = byEnvironment(amara.memberships).find(
			({ environment }) => environment === 'production',
		);
		if (!group) throw new Error('expected production');
		const twins = pageSlices(group.memberships, VIEWS_PER_PAGE).map((page) =>
			personEnvironmentMarkdown({
				name: amara.name,
				slug: amara.slug,
				environment: 'production',
				summary: describeRoles(group.roles),
				memberships: page.data,
				total: group.memberships.length,
				...page,
			}),
		);
		expect(twins).toHaveLength(2);
		const views0 = linksOf(twins[0] ?? '').filter((href) => href.startsWith('/views/'));
		expect(views0).toHaveLength(VIEWS_PER_PAGE);
		expect(linksOf(twins[0] ?? '')).toContain('/people/amara.okafor/production/2.md');
		expect(linksOf(twins[1] ?? '')).toContain('/people/amara.okafor/production.md');
		expect(linksOf(twins[1] ?? '')).toContain('/people/amara.okafor.md');
		const second = textOf(parseMarkdown(twins[1] ?? ''));
		expect(second).toContain(
			`Views ${VIEWS_PER_PAGE + 1}–${group.memberships.length} (page 2 of 2).`,
		);
	});

	it('holds no key and no configuration value', () => {
		const secrets = secretValues(fixtures);
		for (const someone of buildPeople(fixtures)) {
			const text = personMarkdown(someone, byEnvironment(someone.memberships));
			for (const { where, value } of secrets) expect(text, where).not.toContain(value);
		}
	});
});
