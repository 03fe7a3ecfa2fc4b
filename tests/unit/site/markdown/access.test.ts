/** The twins of the access pages: who holds which role where, each cell bounded. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadViews } from '../../../../src/sources/fixtures.ts';
import { CELL_LIMIT } from '../../../../src/site/access.ts';
import {
	accessEnvironmentMarkdown,
	accessEnvironmentRoleMarkdown,
	accessMarkdown,
	accessRoleMarkdown,
} from '../../../../src/site/markdown/access.ts';
import { accessEntries, buildPeople, type AccessEntry } from '../../../../src/site/people.ts';
import { ROOT } from '../../../../support/processes.ts';
import { allNodes, linksOf, parseMarkdown, textOf } from '../../../support/markdown.ts';

const fixtures = await loadViews(path.join(ROOT, 'content/views'));
const people = buildPeople(fixtures);
const entries = accessEntries(people);
const environments = [...new Set(entries.map(({ environment }) => environment))];

/** The rows of a twin's table, cell by cell, as text. */
function rows(text: string): string[][] {
	return allNodes(parseMarkdown(text))
		.filter((node) => node.type === 'tableRow')
		.map((row) => (row.children ?? []).map(textOf));
}

describe('the access overview’s twin', () => {
	it('links what changed and each review page’s twin, with how much it found', () => {
		const text = accessMarkdown({
			people: 0,
			views: 0,
			environments: [],
			entries: [],
			reviews: [
				{ href: '/access/flags/several-names/', title: 'One email under several names', found: 2 },
				{ href: '/access/review/keys/', title: 'Keys not rotated for more than 90 days', found: 0 },
			],
		});
		expect(text).toContain(
			"\n\nWhat changed, from the fixtures' git history: [every access change](/access/changes.md), and [what changed since a tag](/access/since.md).\n\n",
		);
		expect(text).toMatch(
			/\n## Review flags\n\n- \[One email under several names\]\(\/access\/flags\/several-names\.md\): 2 found\n- \[Keys not rotated for more than 90 days\]\(\/access\/review\/keys\.md\): 0 found\n$/,
		);
	});

	it('is a table of environments by role, each cell naming its people', () => {
		const text = accessMarkdown({
			people: people.length,
			views: 8,
			environments,
			entries,
			reviews: [],
		});
		const table = rows(text);
		expect(table[0]).toEqual(['Environment', 'admin', 'deployer', 'operator', 'viewer']);
		expect(table.slice(1).map(([environment]) => environment)).toEqual(environments);
		const admins = entries.filter(
			({ environment, role }) => environment === 'production' && role === 'admin',
		);
		const cell = table.find(([environment]) => environment === 'production')?.[1] ?? '';
		for (const admin of admins.slice(0, CELL_LIMIT)) expect(cell).toContain(admin.name);
		expect(linksOf(text)).toContain('/access/environments/production/admin.md');
		expect(linksOf(text)).toContain('/access/roles/viewer.md');
		expect(linksOf(text)).toContain('/access.csv');
		expect(textOf(parseMarkdown(text))).toContain(`${people.length} people in 8 views`);
	});

	it('names at most a few people in a cell and links to all of them', () => {
		const many: AccessEntry[] = Array.from({ length: CELL_LIMIT + 4 }, (_, index) => ({
			environment: 'production',
			role: 'admin',
			slug: `person.${index}`,
			name: `Person ${index}`,
			email: `person.${index}@example.com`,
			views: 1,
		}));
		const text = accessMarkdown({
			people: many.length,
			views: 1,
			environments: ['production'],
			entries: many,
			reviews: [],
		});
		const named = linksOf(text).filter((href) => href.startsWith('/people/'));
		expect(named).toHaveLength(CELL_LIMIT);
		expect(textOf(parseMarkdown(text))).toContain(`all ${many.length} admins in production`);
	});
});

describe('the twins of one environment, one role, and both', () => {
	it('list everyone in an environment with their roles there', () => {
		const text = accessEnvironmentMarkdown('production', environments, [
			{
				slug: 'a.b',
				name: 'A B',
				email: 'a.b@example.com',
				roles: 'admin in 2 views, viewer in 1',
				rolesDiffer: true,
			},
			{
				slug: 'c.d',
				name: 'C D',
				email: 'c.d@example.com',
				roles: 'viewer in 1 view',
				rolesDiffer: false,
			},
		]);
		expect(rows(text)).toEqual([
			['Person', 'Email', 'Roles in production'],
			['A B', 'a.b@example.com', 'admin in 2 views, viewer in 1 (roles differ)'],
			['C D', 'c.d@example.com', 'viewer in 1 view'],
		]);
		expect(linksOf(text)).toEqual(
			expect.arrayContaining(['/people/a.b.md', '/access/environments/production/viewer.md']),
		);
	});

	it('list who holds a role in an environment, and in how many of its views', () => {
		const holders = entries.filter(
			({ environment, role }) => environment === 'production' && role === 'viewer',
		);
		const text = accessEnvironmentRoleMarkdown('production', 'viewer', environments, holders, 3);
		expect(rows(text).slice(1)).toEqual(
			holders.map((holder) => [holder.name, holder.email, `${holder.views} of 3`]),
		);
		expect(textOf(parseMarkdown(text))).toContain(
			"the role viewer in at least one of production's 3 views",
		);
	});

	it('list who holds a role, environment by environment', () => {
		const holders = entries.filter(({ role }) => role === 'deployer');
		const text = accessRoleMarkdown('deployer', environments, holders);
		expect(rows(text).slice(1)).toEqual(
			holders.map((holder) => [
				holder.environment,
				holder.name,
				holder.email,
				String(holder.views),
			]),
		);
		expect(linksOf(text)).toContain('/access/environments/dr-eu-west/deployer.md');
	});
});
