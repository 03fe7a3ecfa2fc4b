/**
 * The views and people collections as the pages read them: computed once for a state of Astro's
 * collection, whichever route asks, and again when the dev server reloads a fixture.
 */
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadViews, type ViewEntry } from '../../../src/sources/fixtures.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import { compareViews } from '../../../src/shared/views.ts';
import { buildPeople, byEnvironment } from '../../../src/site/people.ts';

/** What Astro's getCollection('views') gives: an entry per view, as new wrappers each call. */
let store: { id: string; data: ViewEntry['view']; filePath: string }[] = [];
const getCollection = vi.fn(async (name: string) => {
	expect(name).toBe('views');
	return Promise.resolve(store.map((entry) => ({ ...entry, collection: 'views' })));
});
vi.mock('astro:content', () => ({ getCollection }));

const { sortedPublicViews, sortedViews, viewEntries } =
	await import('../../../src/site/view-collection.ts');
const { accessEnvironments, allAccessEntries, allPeople, environmentMembers, personEnvironments } =
	await import('../../../src/site/people-collection.ts');

let views: ViewEntry[];

beforeAll(async () => {
	views = await loadViews(readSettings({}).viewsDir);
});

beforeEach(() => {
	store = views.map(({ slug, file, view }) => ({ id: slug, data: view, filePath: file }));
});

describe('the views collection', () => {
	it('gives every route the same entries while the collection is unchanged', async () => {
		const entries = await viewEntries();
		expect(entries.map(({ slug }) => slug)).toEqual(views.map(({ slug }) => slug));
		expect(await viewEntries()).toBe(entries);
		const sorted = await sortedViews();
		expect(sorted.map(({ slug }) => slug)).toEqual(
			[...views].sort(compareViews).map(({ slug }) => slug),
		);
		expect(await sortedViews()).toBe(sorted);
		expect(entries.map(({ slug }) => slug)).toEqual(views.map(({ slug }) => slug));
	});

	it('reads the views folder once in a build, however many pages read them, and never asks Astro', async () => {
		// A build's fixtures never change while it runs: asking again for each of 20,000 pages copied
		// and compared every view each time, a tenth of a 2,000-view build. And Astro's collection
		// holds no views in a build (its loader keeps them for the dev server only).
		vi.stubEnv('PORTAL_BUILT_PAGES', 'true');
		try {
			getCollection.mockClear();
			const first = await viewEntries();
			for (let page = 0; page < 100; page += 1) await sortedViews();
			expect(await viewEntries()).toBe(first);
			expect(getCollection).not.toHaveBeenCalled();
			expect(first.map(({ slug }) => slug)).toEqual(views.map(({ slug }) => slug));
			expect(first[0]?.file).toBe(`content/views/${views[0]?.slug}.json`);
			expect(first[0]?.view).toEqual(views[0]?.view);
		} finally {
			vi.unstubAllEnvs();
		}
	});

	it('lists the views in file-name order, as a build and the mock do, whatever order Astro gives', async () => {
		// Astro sorts the ids it writes by locale: dr-eu-west before dr-eu-west-failover, where the
		// files read dr-eu-west-failover.json first ('-' before '.').
		store = [...store].reverse();
		expect((await viewEntries()).map(({ slug }) => slug)).toEqual(views.map(({ slug }) => slug));
	});

	it('follows a fixture the dev server reloaded: new data for a view gives new entries', async () => {
		const before = await sortedViews();
		const [first] = store;
		if (!first) throw new Error('expected a view');
		store = [{ ...first, data: { ...first.data, statusNote: 'Reloaded.' } }, ...store.slice(1)];
		const after = await sortedViews();
		expect(after).not.toBe(before);
		expect(after.find(({ slug }) => slug === first.id)?.view.statusNote).toBe('Reloaded.');
	});

	it('follows a view removed or added', async () => {
		const all = await viewEntries();
		store = store.slice(1);
		expect((await viewEntries()).length).toBe(all.length - 1);
		store = views.map(({ slug, file, view }) => ({ id: slug, data: view, filePath: file }));
		expect((await viewEntries()).length).toBe(all.length);
	});
});

describe('the views without their secrets', () => {
	it('are projected once per state of the collection, in display order, for every twin', async () => {
		const projected = await sortedPublicViews();
		expect(projected.map(({ slug }) => slug)).toEqual(
			[...views].sort(compareViews).map(({ slug }) => slug),
		);
		expect(await sortedPublicViews()).toBe(projected);
		store = store.slice(1);
		const after = await sortedPublicViews();
		expect(after).not.toBe(projected);
		expect(after.length).toBe(projected.length - 1);
		expect(after.map(({ slug }) => slug)).not.toContain(views[0]?.slug);
	});
});

describe('the people collection', () => {
	it('builds the people once for the collection, and their access entries once', async () => {
		const people = await allPeople();
		expect(people).toEqual(buildPeople(views));
		expect(await allPeople()).toBe(people);
		const access = await allAccessEntries();
		expect(await allAccessEntries()).toBe(access);
	});

	it('groups a person’s views by environment once, as byEnvironment does', async () => {
		const people = await allPeople();
		const [person] = people;
		if (!person) throw new Error('expected a person');
		const groups = personEnvironments(person);
		expect(personEnvironments(person)).toBe(groups);
		for (const each of people) {
			expect(personEnvironments(each)).toEqual(byEnvironment(each.memberships));
		}
		expect(people.some((each) => personEnvironments(each).length > 1)).toBe(true);
		// One environment: the group is the person's own views and roles, not copies held apart.
		const single = people.find((each) => personEnvironments(each).length === 1);
		expect(personEnvironments(single ?? person)[0]?.memberships).toBe(
			(single ?? person).memberships,
		);
	});

	it('builds the people again when a directory changes', async () => {
		const people = await allPeople();
		const [first] = store;
		const [user] = first?.data.users ?? [];
		if (!first || !user) throw new Error('expected a view with a user');
		store = [
			{
				...first,
				data: {
					...first.data,
					users: [{ ...user, name: 'Renamed Person' }, ...first.data.users.slice(1)],
				},
			},
			...store.slice(1),
		];
		const after = await allPeople();
		expect(after).not.toBe(people);
		expect(
			after.some(({ otherNames, name }) => [name, ...otherNames].includes('Renamed Person')),
		).toBe(true);
	});

	it('names the environments in listing order, and everyone in one with their roles there', async () => {
		expect(await accessEnvironments()).toEqual(['dr-eu-west', 'production', 'staging-us-east']);
		const members = await environmentMembers('production');
		const people = await allPeople();
		const expected = people.filter((person) =>
			person.memberships.some(({ environment }) => environment === 'production'),
		);
		expect(members.map(({ slug }) => slug)).toEqual(expected.map(({ slug }) => slug));
		const amara = members.find(({ slug }) => slug === 'amara.okafor');
		const inProduction = views.filter(
			({ view }) =>
				view.environment === 'production' &&
				view.users.some(({ email }) => email === 'amara.okafor@example.com'),
		);
		expect(amara?.views).toBe(inProduction.length);
		expect(amara?.views).toBeGreaterThan(0);
		expect(amara?.email).toBe('amara.okafor@example.com');
		expect(await environmentMembers('nowhere')).toEqual([]);
	});
});
