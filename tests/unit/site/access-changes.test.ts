/**
 * The history's exports and the since comparisons: access-changes.csv as a spreadsheet and a
 * script read it, the net difference between a tag and today, and /access-since.json, from which
 * the browser rebuilds the state at any date exactly as the walk through the commits left it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
	ACCESS_CHANGES_CSV_HEADER,
	accessChangesCsv,
	knownPeople,
	sinceData,
	sinceRowsOf,
	tagDifference,
} from '../../../src/site/access-changes.ts';
import { accessCounts, accessKey, buildHistory } from '../../../src/site/history.ts';
import { countsAt, countsNow, netDifference, sinceRows } from '../../../src/shared/access-since.ts';
import { exportsManifest } from '../../../src/site/exports.ts';
import type { FixtureCommit } from '../../../src/sources/fixture-history.ts';
import { CONFIG_MEMBERS, type View } from '../../../src/schemas/view.ts';
import { ROOT } from '../../../support/processes.ts';

const production = JSON.parse(
	await readFile(path.join(ROOT, 'content/views/production.json'), 'utf8'),
) as View;

/** A copy of a view with changes made by `edit`. */
function edited(base: View, edit: (view: View) => void): View {
	const copy = structuredClone(base);
	edit(copy);
	return copy;
}

const promoted = edited(production, (view) => {
	view.users[1]!.role = 'admin';
	view.users[4]!.role = 'deployer';
});
const replaced = edited(promoted, (view) => {
	view.users[7] = {
		name: '=HYPERLINK("http://evil.example")',
		email: 'rosa.jimenez@example.com',
		role: 'viewer',
		apiKey: 'ick-77778888-Rosa',
	};
	view.config.jwt_secret = 'fake-jwt-rotated-value-0001';
});

/** A commit of one modified production fixture, on a day of October 2026. */
function commit(day: number, before: View, after: View): FixtureCommit {
	const hash = String(day).padStart(40, '0');
	return {
		hash,
		short: hash.slice(-7),
		date: new Date(Date.UTC(2026, 9, day, 12)).toISOString(),
		author: `Author ${day}`,
		subject: day === 3 ? '-Replace Owen' : `Commit ${day}`,
		boundary: false,
		files: [
			{
				status: day === 1 ? 'added' : 'modified',
				fromSlug: day === 1 ? undefined : 'production',
				toSlug: 'production',
				before: day === 1 ? undefined : { readable: true, view: before },
				after: { readable: true, view: after },
			},
		],
	};
}

const history = buildHistory([
	commit(1, production, production),
	commit(2, production, promoted),
	commit(3, promoted, replaced),
]);

describe('access-changes.csv', () => {
	const text = accessChangesCsv(history.entries);
	const records: string[][] = parse(text, { bom: true });
	const [header, ...rows] = records;

	it('has a header, then one row per change, newest first, with commit, author and view slug', () => {
		expect(text.startsWith('\uFEFF')).toBe(true);
		expect(text.split('\r\n').at(-1)).toBe('');
		expect(header).toEqual([...ACCESS_CHANGES_CSV_HEADER]);
		const columns = (row: string[]) =>
			[row[1], row[2], row[5], row[8], row[9], row[10], row[11], row[12]].join(' | ');
		expect(rows.map(columns)).toEqual([
			'0000003 | Author 3 | production |  | configuration rotated | jwt_secret |  | ',
			'0000003 | Author 3 | production | rosa.jimenez@example.com | granted |  |  | viewer',
			'0000003 | Author 3 | production | owen.gallagher@example.com | revoked |  | viewer | ',
			'0000002 | Author 2 | production | priya.raman@example.com | role changed |  | deployer | admin',
			'0000002 | Author 2 | production | lukas.brandt@example.com | role changed |  | admin | deployer',
			'0000001 | Author 1 | production |  | view added |  |  | production',
			...production.users.map(
				(user) => `0000001 | Author 1 | production | ${user.email} | granted |  |  | ${user.role}`,
			),
		]);
	});

	it('gives a cell that a spreadsheet would run as a formula its apostrophe', () => {
		expect(rows[1]?.[7]).toBe(`'=HYPERLINK("http://evil.example")`);
		expect(rows[1]?.[3]).toBe("'-Replace Owen");
	});

	it('holds no key or configuration value of any version', () => {
		for (const view of [production, promoted, replaced]) {
			for (const member of CONFIG_MEMBERS) expect(text).not.toContain(view.config[member]);
			for (const user of view.users) expect(text).not.toContain(user.apiKey);
		}
	});
});

describe('what changed since a tag', () => {
	const people = knownPeople(history, []);

	it('names who gained a role in an environment and who lost one, not who kept theirs', () => {
		const { rows, unreadable } = tagDifference(
			[{ slug: 'production', view: production }],
			[{ slug: 'production', view: replaced }],
			people,
		);
		expect(unreadable).toEqual([]);
		expect(
			rows.map((row) => `${row.change} ${row.role} ${row.email} ${row.then}→${row.now}`),
		).toEqual([
			'gained admin priya.raman@example.com 0→1',
			'gained deployer lukas.brandt@example.com 0→1',
			'gained viewer rosa.jimenez@example.com 0→1',
			'lost admin lukas.brandt@example.com 1→0',
			'lost deployer priya.raman@example.com 1→0',
			'lost viewer owen.gallagher@example.com 1→0',
		]);
	});

	it('leaves a view unreadable at the tag out on both sides, and names it', () => {
		const other = edited(production, (view) => (view.environment = 'staging'));
		const { rows, unreadable } = tagDifference(
			[
				{ slug: 'production', view: undefined },
				{ slug: 'staging', view: other },
			],
			[
				{ slug: 'production', view: replaced },
				{ slug: 'staging', view: other },
			],
			people,
		);
		expect(unreadable).toEqual(['production']);
		expect(rows).toEqual([]);
	});

	it('counts a role held in two views of an environment as held until both are gone', () => {
		const then = accessCounts([production, edited(production, (view) => (view.name = 'Other'))]);
		const now = accessCounts([production]);
		expect(netDifference(then, now)).toEqual([]);
		expect(sinceRowsOf(then, new Map(), people)).toHaveLength(8);
	});
});

describe('/access-since.json', () => {
	const now = accessCounts([replaced]);
	const data = sinceData({
		history: { history, shallow: false, start: '2026-10-01T12:00:00.000Z' },
		now,
		people: knownPeople(history, []),
	});

	/** The counts of the file's places turned back into environment, email and role. */
	const named = (counts: Map<string, number>): Map<string, number> =>
		new Map(
			[...counts].map(([key, views]) => {
				const [environment = 0, person = 0, role = 0] = key.split(':').map(Number);
				return [
					accessKey(
						data.environments[environment] ?? '',
						data.people[person]?.[1] ?? '',
						data.roles[role] ?? 'viewer',
					),
					views,
				];
			}),
		);

	it('rebuilds the state after each commit, and before the first, from today and the commits', () => {
		expect(named(countsNow(data))).toEqual(now);
		expect(named(countsAt(data, Date.UTC(2026, 9, 3, 13)))).toEqual(accessCounts([replaced]));
		expect(named(countsAt(data, Date.UTC(2026, 9, 2, 13)))).toEqual(accessCounts([promoted]));
		expect(named(countsAt(data, Date.UTC(2026, 9, 1, 13)))).toEqual(accessCounts([production]));
		expect(named(countsAt(data, Date.UTC(2026, 8, 30)))).toEqual(new Map());
	});

	it('gives the same rows for a date as the tag page does for the state then', () => {
		const people = knownPeople(history, []);
		const tag = tagDifference(
			[{ slug: 'production', view: production }],
			[{ slug: 'production', view: replaced }],
			people,
		);
		expect(sinceRows(data, Date.UTC(2026, 9, 1, 13))).toEqual(tag.rows);
	});

	it('takes edits not yet committed out before going back, so a date before them is right', () => {
		const uncommitted = edited(replaced, (view) => (view.users[0]!.role = 'viewer'));
		const dirty = sinceData({
			history: { history, shallow: false, start: '2026-10-01T12:00:00.000Z' },
			now: accessCounts([uncommitted]),
			people: knownPeople(history, []),
		});
		expect(dirty.pending.length).toBeGreaterThan(0);
		const rows = sinceRows(dirty, Date.UTC(2026, 9, 3, 13));
		expect(rows.map((row) => `${row.change} ${row.role} ${row.email}`)).toEqual([
			'gained viewer amara.okafor@example.com',
			'lost admin amara.okafor@example.com',
		]);
	});

	it('holds names, emails, environments, roles, dates and short names, and no secret', () => {
		const text = JSON.stringify(data);
		for (const view of [production, promoted, replaced]) {
			for (const member of CONFIG_MEMBERS) expect(text).not.toContain(view.config[member]);
			for (const user of view.users) expect(text).not.toContain(user.apiKey);
		}
		expect(data.commits).toEqual([
			['2026-10-01T12:00:00.000Z', '0000001'],
			['2026-10-02T12:00:00.000Z', '0000002'],
			['2026-10-03T12:00:00.000Z', '0000003'],
		]);
	});

	it('without history gives today only, and why', () => {
		const none = sinceData({ history: { reason: 'no git' }, now, people: new Map() });
		expect(none).toMatchObject({ available: false, reason: 'no git', commits: [], events: [] });
		expect(none.now).toHaveLength(8);
	});
});

describe('exports.json', () => {
	it('names for each export the commit, the fixtures digest and its own digest', () => {
		const manifest = exportsManifest({
			status: {
				available: true,
				reason: '',
				dirty: false,
				head: {
					hash: 'f'.repeat(40),
					short: 'fffffff',
					date: '2026-10-03T12:00:00.000Z',
					author: 'A',
					subject: 'S',
				},
			},
			fixtures: { files: 1, sha256: 'a'.repeat(64) },
			exports: [{ file: '/access.csv', text: 'abc' }],
		});
		expect(manifest.commit).toEqual({
			hash: 'f'.repeat(40),
			short: 'fffffff',
			date: '2026-10-03T12:00:00.000Z',
		});
		expect(manifest.exports).toEqual([
			{
				file: '/access.csv',
				// sha256 of "abc"
				sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
				commit: 'f'.repeat(40),
				uncommitted: false,
				fixtures: 'a'.repeat(64),
			},
		]);
	});
});
