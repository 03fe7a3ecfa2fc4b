/**
 * The review flags from history: keys not rotated for longer than the limit (a person's and the
 * view's own), counted up to the last commit, carried over an email change, "at least" beyond a
 * shallow history; and directories unchanged for more than 180 days while another changed.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildHistory } from '../../../src/site/history.ts';
import { staleKeys, stillViews } from '../../../src/site/history-flags.ts';
import type { FixtureCommit } from '../../../src/sources/fixture-history.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import type { View } from '../../../src/schemas/view.ts';
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

/** The date `day` days after 1 January 2026. */
function on(day: number): string {
	return new Date(Date.UTC(2026, 0, 1 + day)).toISOString();
}

/** A commit on a day changing one fixture from one version to another (none: added). */
function commit(
	day: number,
	slug: string,
	before: View | undefined,
	after: View,
	boundary = false,
): FixtureCommit {
	const hash = String(day).padStart(40, '0');
	return {
		hash,
		short: hash.slice(-7),
		date: on(day),
		author: 'A',
		subject: `Day ${day}`,
		boundary,
		files: [
			{
				status: before ? 'modified' : 'added',
				fromSlug: before ? slug : undefined,
				toSlug: slug,
				before: before && { readable: true, view: before },
				after: { readable: true, view: after },
			},
		],
	};
}

const rotated = edited(production, (view) => (view.users[2]!.apiKey = 'ick-22223333-Rot2'));
const ownKey = edited(rotated, (view) => (view.config.api_key = 'ick-44445555-Own1'));
const moved = edited(ownKey, (view) => (view.users[4]!.email = 'lukas.b@example.com'));

describe('keys not rotated for longer than the limit', () => {
	const history = buildHistory([
		commit(0, 'production', undefined, production),
		commit(50, 'production', production, rotated),
		commit(60, 'production', rotated, ownKey),
		commit(95, 'production', ownKey, moved),
	]);
	const views = [{ slug: 'production', view: moved }];

	it('names each key that came in more than the limit before the last commit, and how long ago', () => {
		const stale = staleKeys({ history, views, head: on(100), start: on(0) }, 90);
		expect(stale.map((key) => [key.person?.email ?? 'view', key.days, key.atLeast])).toEqual(
			[0, 1, 3, 4, 5, 6, 7]
				.map((index) => moved.users[index]?.email ?? '')
				.sort()
				.map((email) => [email, 100, false]),
		);
		expect(stale.every((key) => key.since === on(0) && key.slug === 'production')).toBe(true);
	});

	it("carries a key's age over an email change, and leaves out keys rotated within the limit", () => {
		const stale = staleKeys({ history, views, head: on(100), start: on(0) }, 90);
		expect(stale.map((key) => key.person?.email)).toContain('lukas.b@example.com');
		expect(stale.map((key) => key.person?.email)).not.toContain('hannah.lindqvist@example.com');
		expect(stale.some((key) => key.person === undefined)).toBe(false);
	});

	it("flags the view's own key too, and counts whole days up to the limit as within it", () => {
		const stale = staleKeys({ history, views, head: on(100), start: on(0) }, 39);
		expect(stale.filter((key) => key.person === undefined).map((key) => key.days)).toEqual([40]);
		const atLimit = staleKeys({ history, views, head: on(100), start: on(0) }, 40);
		expect(atLimit.some((key) => key.person === undefined)).toBe(false);
		expect(atLimit.find((key) => key.person?.name === 'Hannah Lindqvist')?.days).toBe(50);
		expect(staleKeys({ history, views, head: on(90), start: on(0) }, 90)).toEqual([]);
	});

	it('says "at least" for keys older than a shallow history', () => {
		const shallow = buildHistory([
			commit(10, 'production', undefined, production, true),
			commit(50, 'production', production, rotated),
		]);
		const stale = staleKeys(
			{
				history: shallow,
				views: [{ slug: 'production', view: rotated }],
				head: on(120),
				start: on(10),
			},
			90,
		);
		expect(stale).toHaveLength(8);
		expect(stale.every((key) => key.atLeast && key.days === 110 && key.since === on(10))).toBe(
			true,
		);
	});
});

describe('directories unchanged while others changed', () => {
	const staging = edited(production, (view) => {
		view.environment = 'staging';
		view.users.forEach((user, index) => (user.apiKey = `ick-5555000${index}-Stg${index}`));
	});
	const promoted = edited(staging, (view) => {
		view.users[1]!.role = 'admin';
		view.users[4]!.role = 'deployer';
	});
	const labelled = edited(production, (view) => (view.statusNote = 'A new note.'));

	it('flags a view whose directory last changed more than 180 days before the last commit', () => {
		const history = buildHistory([
			commit(0, 'production', undefined, production),
			commit(1, 'staging', undefined, staging),
			commit(150, 'production', production, labelled),
			commit(190, 'staging', staging, promoted),
		]);
		const views = [
			{ slug: 'production', view: labelled },
			{ slug: 'staging', view: promoted },
		];
		expect(stillViews({ history, views, head: on(200), start: on(0) })).toEqual([
			{
				slug: 'production',
				view: 'production · Production',
				environment: 'production',
				since: on(0),
				days: 200,
				atLeast: false,
			},
		]);
	});

	it('flags none when no directory changed within the 180 days', () => {
		const history = buildHistory([
			commit(0, 'production', undefined, production),
			commit(1, 'staging', undefined, staging),
		]);
		const views = [
			{ slug: 'production', view: production },
			{ slug: 'staging', view: staging },
		];
		expect(stillViews({ history, views, head: on(400), start: on(0) })).toEqual([]);
	});
});

describe('the key age limit', () => {
	it('is 90 days unless PORTAL_KEY_MAX_AGE_DAYS says otherwise, and a wrong value is named', () => {
		expect(readSettings({}).keyMaxAgeDays).toBe(90);
		expect(readSettings({ PORTAL_KEY_MAX_AGE_DAYS: '30' }).keyMaxAgeDays).toBe(30);
		expect(() => readSettings({ PORTAL_KEY_MAX_AGE_DAYS: 'soon' })).toThrow(
			'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650',
		);
		expect(() => readSettings({ PORTAL_KEY_MAX_AGE_DAYS: '0' })).toThrow(/PORTAL_KEY_MAX_AGE_DAYS/);
	});
});
