/** Pure logic behind search, the overview durations and the compare page. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { opensSearch } from '../../../src/client/search/search-keys.ts';
import { moveActiveResult } from '../../../src/client/search/search.ts';
import { chosenFilters, excerptParts } from '../../../src/shared/search.ts';
import { formatDuration } from '../../../src/site/duration.ts';
import {
	diffViews,
	factRows,
	readPair,
	SIDE_LIST_ID,
	sideCardId,
	sideStarts,
	unknownViewsMessage,
	usersByEmail,
	type CompareFacts,
} from '../../../src/shared/compare.ts';
import { compareFacts } from '../../../src/site/compare-facts.ts';
import { loadViews } from '../../../src/sources/fixtures.ts';
import { ROOT } from '../../../support/processes.ts';

const press = (
	key: string,
	mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {},
) => ({
	key,
	ctrlKey: false,
	metaKey: false,
	altKey: false,
	...mods,
});

describe('search shortcuts and excerpts', () => {
	it('opens on / outside text fields and on Ctrl/Cmd-K anywhere, never while typing a slash', () => {
		expect(opensSearch(press('/'), false)).toBe(true);
		expect(opensSearch(press('/'), true)).toBe(false);
		expect(opensSearch(press('k', { ctrlKey: true }), true)).toBe(true);
		expect(opensSearch(press('K', { metaKey: true }), false)).toBe(true);
		expect(opensSearch(press('k'), false)).toBe(false);
	});

	it('shows excerpt markup as text, with only the matches marked', () => {
		expect(excerptParts('a &lt;script&gt; <mark>Kenji</mark> &amp; co')).toEqual([
			{ text: 'a <script> ', mark: false },
			{ text: 'Kenji', mark: true },
			{ text: ' & co', mark: false },
		]);
	});

	it('starts an excerpt at its first match, keeping the three words before it', () => {
		expect(
			excerptParts(
				'Hosts console 203.0.113.61:7443 database db.production-edge.example:5432 cache cache.production-edge.example:6379. Status note. <mark>Edge</mark> traffic billed',
			),
		).toEqual([
			{ text: '… cache.production-edge.example:6379. Status note. ', mark: false },
			{ text: 'Edge', mark: true },
			{ text: ' traffic billed', mark: false },
		]);
		// Already at the start, or with no match at all, the excerpt stays whole.
		expect(excerptParts('<mark>Kenji</mark> Watanabe, admin in')).toEqual([
			{ text: 'Kenji', mark: true },
			{ text: ' Watanabe, admin in', mark: false },
		]);
		expect(excerptParts('one two three four five')).toEqual([
			{ text: 'one two three four five', mark: false },
		]);
	});

	it('moves the active result down to the last and up past the first back to the query field', () => {
		expect(moveActiveResult('ArrowDown', -1, 3)).toBe(0);
		expect(moveActiveResult('ArrowDown', 0, 3)).toBe(1);
		expect(moveActiveResult('ArrowDown', 2, 3)).toBe(2);
		expect(moveActiveResult('ArrowUp', 2, 3)).toBe(1);
		expect(moveActiveResult('ArrowUp', 0, 3)).toBe(-1);
		// Results replaced by fewer: the next step starts from the new last one.
		expect(moveActiveResult('ArrowUp', 7, 3)).toBe(2);
	});

	it('leaves the query field its own keys: ArrowUp with no active result, other keys, no results', () => {
		expect(moveActiveResult('ArrowUp', -1, 3)).toBeUndefined();
		expect(moveActiveResult('ArrowDown', -1, 0)).toBeUndefined();
		expect(moveActiveResult('Enter', 1, 3)).toBeUndefined();
		expect(moveActiveResult('Home', 1, 3)).toBeUndefined();
	});

	it('leaves filters set to "Any" out of the search', () => {
		expect(chosenFilters({ kind: '', environment: 'production' })).toEqual({
			environment: 'production',
		});
		expect(chosenFilters({ kind: '' })).toBeUndefined();
	});
});

describe('overview durations', () => {
	it('reads the way a person says it: one unit, rounded', () => {
		expect(formatDuration(47_655)).toBe('48 s');
		expect(formatDuration(12_400)).toBe('12 s');
		expect(formatDuration(141_000)).toBe('2 min');
		expect(formatDuration(3 * 60_000 + 12_000)).toBe('3 min');
		expect(formatDuration(2 * 3_600_000 + 5 * 60_000)).toBe('2 h');
		expect(formatDuration(7 * 3_600_000)).toBe('7 h');
		expect(formatDuration(5 * 86_400_000 + 4 * 3_600_000)).toBe('5 days');
		expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000 + 5000)).toBe('3 days');
		expect(formatDuration(86_400_000)).toBe('1 day');
	});

	it('rounds up into the next unit at its edge, never to "60 s" or "24 h"', () => {
		expect(formatDuration(59_600)).toBe('1 min');
		expect(formatDuration(59 * 60_000 + 40_000)).toBe('1 h');
		expect(formatDuration(23 * 3_600_000 + 40 * 60_000)).toBe('1 day');
		expect(formatDuration(90 * 60_000)).toBe('2 h');
	});

	it('says less than a second for the shortest waits', () => {
		expect(formatDuration(0)).toBe('under 1 s');
		expect(formatDuration(499)).toBe('under 1 s');
		expect(formatDuration(500)).toBe('1 s');
	});
});

describe('compare', () => {
	it('reads the pair from the address as given, leaving out an empty side', () => {
		expect(readPair('?a=production&b=production-edge')).toEqual({
			a: 'production',
			b: 'production-edge',
		});
		expect(readPair('?a=production-edge&b=nope')).toEqual({ a: 'production-edge', b: 'nope' });
		expect(readPair('?a=&b=%20dr-eu-west%20')).toEqual({ b: 'dr-eu-west' });
		expect(readPair('?b=%3Cb%3E')).toEqual({ b: '<b>' });
		expect(readPair('')).toEqual({});
	});

	it('names each slug no view has, and which side asked for it', () => {
		expect(unknownViewsMessage([{ side: 'b', slug: 'nope' }])).toBe(
			'The address asks for view B "nope", but no view has that slug. Pick view B from the list.',
		);
		expect(
			unknownViewsMessage([
				{ side: 'a', slug: 'old-view' },
				{ side: 'b', slug: 'nope' },
			]),
		).toBe(
			'The address asks for view A "old-view" and view B "nope", but no view has those slugs. Pick both views from the list.',
		);
	});

	it('says same or differs for secrets without carrying their values', async () => {
		const views = await loadViews(path.join(ROOT, 'content/views'));
		const [a, b] = compareFacts(views);
		if (!a || !b) throw new Error('Two fixtures are needed');
		const json = JSON.stringify([a, b]);
		for (const { view } of views.slice(0, 2)) expect(json).not.toContain(view.config.jwt_secret);
		expect(diffViews(a, a).secrets.every((row) => row.same)).toBe(true);
		const other = { ...b, secrets: { ...a.secrets, jwt_secret: a.secrets.jwt_secret + 1000 } };
		expect(
			diffViews(a, other)
				.secrets.filter((row) => !row.same)
				.map((row) => row.member),
		).toEqual(['jwt_secret']);
	});

	it('reports users added, removed and with another role, matched by email', async () => {
		const views = await loadViews(path.join(ROOT, 'content/views'));
		const [a] = compareFacts(views);
		if (!a) throw new Error('A fixture is needed');
		const [first, second, ...rest] = a.users;
		if (!first || !second) throw new Error('Users are needed');
		const b = {
			...a,
			users: [
				{ ...first, role: first.role === 'admin' ? ('viewer' as const) : ('admin' as const) },
				...rest,
				{ name: 'New', email: 'new@example.com', role: 'viewer' as const },
			],
		};
		const { directory } = diffViews(a, b);
		expect(directory.roleChanged.map((user) => user.email)).toEqual([first.email]);
		expect(directory.removed.map((user) => user.email)).toEqual([second.email]);
		expect(directory.added.map((user) => user.email)).toEqual(['new@example.com']);
		expect(directory.unchanged).toBe(rest.length);
	});

	const facts: CompareFacts = {
		slug: 'staging-blue',
		name: 'staging · Blue',
		environment: 'staging',
		configuration: 'blue',
		apiVersion: null,
		lastUpdated: '2026-11-01T08:00:00Z',
		generatedAt: '2026-11-02T09:30:00Z',
		apiHost: 'console.staging.example',
		apiPort: '8443',
		databaseHost: '192.0.2.10',
		databasePort: '5432',
		databaseName: 'console_staging',
		redisHost: 'cache.staging.example',
		redisPort: '6379',
		secrets: {
			database_url: 1,
			redis_url: 2,
			api_key: 3,
			secret_key: 4,
			jwt_secret: 5,
			smtp_password: 6,
			payment_secret: 7,
			cloud_access_key: 8,
			cloud_secret_key: 9,
		},
		users: [
			{ name: 'Zoe Park', email: 'Zoe.Park@example.com', role: 'viewer' },
			{ name: 'Ada Lind', email: 'ada.lind@example.com', role: 'admin' },
			{ name: 'Ben Ito', email: 'ben.ito@example.com', role: 'operator' },
		],
	};

	it('lists a view’s facts in one fixed order, a missing label as none', () => {
		expect(factRows(facts)).toEqual([
			{ label: 'Environment', value: 'staging' },
			{ label: 'Configuration label', value: 'blue' },
			{ label: 'API label', value: 'none' },
			{ label: 'Last updated', value: '2026-11-01T08:00:00Z' },
			{ label: 'Generated at', value: '2026-11-02T09:30:00Z' },
			{ label: 'Console host', value: 'console.staging.example' },
			{ label: 'Console port', value: '8443' },
			{ label: 'Database host', value: '192.0.2.10' },
			{ label: 'Database port', value: '5432' },
			{ label: 'Database name', value: 'console_staging' },
			{ label: 'Cache host', value: 'cache.staging.example' },
			{ label: 'Cache port', value: '6379' },
		]);
	});

	it('marks only the facts that differ, with each side’s value', () => {
		const other = { ...facts, apiVersion: 'v2.1', databasePort: '5433' };
		const differing = diffViews(facts, other).facts.filter((row) => !row.same);
		expect(differing).toEqual([
			{ label: 'API label', a: 'none', b: 'v2.1', same: false },
			{ label: 'Database port', a: '5432', b: '5433', same: false },
		]);
		expect(diffViews(facts, other).facts).toHaveLength(12);
	});

	it('orders a directory by email whatever its case, leaving the view’s own order alone', () => {
		expect(usersByEmail(facts.users).map((user) => user.email)).toEqual([
			'ada.lind@example.com',
			'ben.ito@example.com',
			'Zoe.Park@example.com',
		]);
		expect(facts.users[0]?.email).toBe('Zoe.Park@example.com');
	});

	it('starts the sides on the first two views, or twice on the only one, each at its own address', () => {
		expect(sideStarts(['first', 'second', 'third'])).toEqual([
			{ side: 'a', start: 'first' },
			{ side: 'b', start: 'second' },
		]);
		expect(sideStarts(['only'])).toEqual([
			{ side: 'a', start: 'only' },
			{ side: 'b', start: 'only' },
		]);
	});

	it('gives each side of the comparison without JavaScript its own addresses', () => {
		expect(sideCardId('production-edge')).toBe('view-production-edge');
		// A view whose slug is the list's id still gets an id of its own.
		expect(sideCardId('views')).toBe('view-views');
		expect(SIDE_LIST_ID).toBe('views');
	});
});
