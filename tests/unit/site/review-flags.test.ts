/**
 * Review flags from the directories: a fixture set that triggers each flag, one that triggers
 * none, and the portal's own fixtures.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildPeople } from '../../../src/site/people.ts';
import {
	FINDINGS_ON_OVERVIEW,
	reviewFlags,
	roleDiffers,
	ROWS_PER_GROUP,
	severalNames,
} from '../../../src/site/review-flags.ts';
import { loadViews } from '../../../src/sources/fixtures.ts';
import { ROOT } from '../../../support/processes.ts';
import type { Role, View } from '../../../src/schemas/view.ts';

/** The people of a fixture set under tests/fixtures/review-flags/ (or the portal's own). */
async function peopleOf(set: string) {
	const folder =
		set === 'content' ? 'content/views' : path.join('tests/fixtures/review-flags', set, 'views');
	return buildPeople(await loadViews(path.join(ROOT, folder)));
}

describe('review flags on a set made to trigger each', () => {
	it('flags the email the directories give two names, each name with the row that gives it', async () => {
		// Staging, the most recently updated view, says "K. Watanabe"; production "Kenji Watanabe".
		expect(severalNames(await peopleOf('each')).findings).toEqual([
			{
				subject: { label: 'K. Watanabe', href: '/people/kenji.watanabe/' },
				context: 'kenji.watanabe@example.com',
				groups: [
					{
						label: '“K. Watanabe”',
						rows: [
							{
								view: 'staging-us-east · Staging',
								href: '/views/staging-us-east/#user-kenji_2ewatanabe',
							},
						],
						more: 0,
					},
					{
						label: '“Kenji Watanabe”',
						rows: [
							{ view: 'production · Production', href: '/views/production/#user-kenji_2ewatanabe' },
						],
						more: 0,
					},
				],
			},
		]);
	});

	it('flags the person whose role differs between two views of production, each role with its row', async () => {
		expect(roleDiffers(await peopleOf('each')).findings).toEqual([
			{
				subject: { label: 'Priya Raman', href: '/people/priya.raman/' },
				context: 'production',
				groups: [
					{
						label: 'deployer',
						rows: [
							{ view: 'production · Production', href: '/views/production/#user-priya_2eraman' },
						],
						more: 0,
					},
					{
						label: 'operator',
						rows: [
							{ view: 'production · Edge', href: '/views/production-edge/#user-priya_2eraman' },
						],
						more: 0,
					},
				],
			},
		]);
	});

	it('gives each flag its rule and its page', async () => {
		const flags = reviewFlags(await peopleOf('each'));
		expect(flags.map(({ id, href }) => [id, href])).toEqual([
			['several-names', '/access/flags/several-names/'],
			['role-differs', '/access/flags/role-differs/'],
		]);
		expect(flags[0]?.rule).toMatch(/^Flagged when the directories give one email address/);
		expect(flags[1]?.rule).toContain('Different roles in different environments are not flagged');
	});
});

describe('review flags on a set made to trigger none', () => {
	it('flags nothing: one name per email (case aside), one role per person per environment', async () => {
		const people = await peopleOf('none');
		// The set is not trivially clean: Priya Raman is in all three views, her email spelt two
		// ways, deployer in both production views and operator in staging.
		const priya = people.find(({ key }) => key === 'priya.raman@example.com');
		const rows = priya?.memberships.map(({ slug, email, role }) => [slug, email, role]);
		expect(rows?.sort()).toEqual([
			['production', 'priya.raman@example.com', 'deployer'],
			['production-edge', 'priya.raman@example.com', 'deployer'],
			['staging-us-east', 'Priya.Raman@example.com', 'operator'],
		]);
		expect(reviewFlags(people).map(({ findings }) => findings)).toEqual([[], []]);
	});
});

describe('review flags on the portal’s fixtures', () => {
	it('flags Amara Okafor’s two names and Priya Raman’s two roles in production', async () => {
		const flags = reviewFlags(await peopleOf('content'));
		expect(
			flags.map(({ findings }) => findings.map(({ subject, context }) => [subject.label, context])),
		).toEqual([[['Amara Okafor', 'amara.okafor@example.com']], [['Priya Raman', 'production']]]);
	});
});

describe('review flags stay bounded', () => {
	/** A view of `environment` whose directory holds `email` with `role`, and seven others. */
	function view(index: number, environment: string, role: Role): { slug: string; view: View } {
		const users = [{ name: 'Ana Silva', email: 'ana.silva@example.com', role }].concat(
			Array.from({ length: 7 }, (_, n) => ({
				name: `Person ${index}-${n}`,
				email: `person.${index}.${n}@example.com`,
				role: 'viewer',
			})),
		);
		return {
			slug: `${environment}-${index}`,
			view: {
				environment,
				configuration: `C${index}`,
				lastUpdated: '2026-11-18T09:30:12.345Z',
				generatedAt: '2026-11-18T09:31:00.000Z',
				baseUrl: 'http://203.0.113.24:8443',
				config: {} as View['config'],
				users: users.map((user, n) => ({ ...user, apiKey: `ick-0000000${n}-AAAA` })),
				statusNote: '',
			},
		};
	}

	it(`lists ${ROWS_PER_GROUP} rows of a role and counts the others`, () => {
		const views = [
			...Array.from({ length: 10 }, (_, index) => view(index, 'production', 'admin')),
			view(10, 'production', 'deployer'),
		];
		const [finding] = roleDiffers(buildPeople(views)).findings;
		expect(finding?.groups.map(({ label, rows, more }) => [label, rows.length, more])).toEqual([
			['admin', ROWS_PER_GROUP, 10 - ROWS_PER_GROUP],
			['deployer', 1, 0],
		]);
		expect(FINDINGS_ON_OVERVIEW).toBeGreaterThan(0);
	});
});
