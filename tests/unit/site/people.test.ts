/** The people index: who is in which view with which role, and the name the portal gives them. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	accessEntries,
	buildPeople,
	byEnvironment,
	describeRoles,
	emailKey,
	personSlug,
	roleDiffers,
} from '../../../src/site/people.ts';
import { diffViews } from '../../../src/shared/compare.ts';
import { count } from '../../../src/site/access.ts';
import { compareFacts } from '../../../src/site/compare-facts.ts';
import { loadViews } from '../../../src/sources/fixtures.ts';
import type { Role, User, View } from '../../../src/schemas/view.ts';
import { ROOT } from '../../../support/processes.ts';

const fixtures = await loadViews(path.join(ROOT, 'content/views'));
const template = fixtures[0]?.view;
if (!template) throw new Error('A fixture is needed');

/** Six filler users (two admins taken by the caller), so a directory keeps its shape. */
const FILLER_ROLES: Role[] = ['deployer', 'operator', 'viewer', 'deployer', 'operator', 'viewer'];

/** A view built from the first fixture, with the given people first and fillers after them. */
function view(
	slug: string,
	environment: string,
	lastUpdated: string,
	people: Pick<User, 'name' | 'email' | 'role'>[],
	configuration?: string,
): { slug: string; view: View } {
	const users: User[] = people.map((user, index) => ({
		...user,
		apiKey: `ick-${slug.length.toString(16).padStart(2, '0')}00000${index}-Key${index}`,
	}));
	const roles = [...FILLER_ROLES];
	while (users.length < 8) {
		const role = roles.shift() ?? 'viewer';
		users.push({
			name: `Filler ${slug} ${users.length}`,
			email: `filler.${slug}.${users.length}@example.com`,
			role,
			apiKey: `ick-ff00000${users.length}-Fill`,
		});
	}
	const { configuration: _, name: __, ...rest } = template as View;
	return {
		slug,
		view: {
			...rest,
			environment,
			...(configuration ? { configuration } : {}),
			lastUpdated,
			generatedAt: '2027-01-01T00:00:00.000Z',
			users,
		},
	};
}

describe('the people index', () => {
	it('lists a person in three views with two roles once, with each view and role', () => {
		const priya = (role: Role) => ({ name: 'Priya Raman', email: 'priya.raman@example.com', role });
		const other = { name: 'Other Admin', email: 'other@example.com', role: 'admin' as const };
		const views = [
			view('prod', 'production', '2026-11-01T00:00:00.000Z', [priya('admin'), other], 'Production'),
			view('edge', 'production', '2026-11-02T00:00:00.000Z', [priya('admin'), other], 'Edge'),
			view('stage', 'staging', '2026-11-03T00:00:00.000Z', [other, priya('admin')]),
		];
		// In the third view Priya is a viewer, not an admin.
		const stage = views[2];
		if (!stage) throw new Error('three views');
		stage.view.users = stage.view.users.map((user) =>
			user.email === 'priya.raman@example.com'
				? { ...user, role: 'viewer' }
				: user.role === 'viewer' && user.email.startsWith('filler')
					? { ...user, role: 'admin' }
					: user,
		);
		const people = buildPeople(views);
		const found = people.filter((person) => person.key === 'priya.raman@example.com');
		expect(found).toHaveLength(1);
		const [person] = found;
		if (!person) throw new Error('Priya is missing');
		expect(
			person.memberships.map(({ slug, view: name, environment, configuration, role }) => [
				slug,
				name,
				environment,
				configuration,
				role,
			]),
		).toEqual([
			['edge', 'production · Edge', 'production', 'Edge', 'admin'],
			['prod', 'production · Production', 'production', 'Production', 'admin'],
			['stage', 'staging', 'staging', undefined, 'viewer'],
		]);
		expect(person.roles).toEqual([
			{ role: 'admin', views: 2 },
			{ role: 'viewer', views: 1 },
		]);
		expect(roleDiffers(person)).toBe(true);
		expect(describeRoles(person.roles)).toBe('admin in 2 views, viewer in 1');
		expect(
			byEnvironment(person.memberships).map(({ environment, roles }) => [environment, roles]),
		).toEqual([
			['production', [{ role: 'admin', views: 2 }]],
			['staging', [{ role: 'viewer', views: 1 }]],
		]);
		const other1 = people.find((p) => p.key === 'other@example.com');
		expect(other1 && roleDiffers(other1)).toBe(false);
	});

	it('keeps people whose names differ only in case or accents apart when their emails differ', () => {
		const views = [
			view('one', 'production', '2026-11-01T00:00:00.000Z', [
				{ name: 'Zoë Adams', email: 'zoe.adams@example.com', role: 'admin' },
				{ name: 'Zoe Adams', email: 'zoe.adams2@example.com', role: 'admin' },
				{ name: 'zoe adams', email: 'zoe.adams3@example.com', role: 'viewer' },
			]),
		];
		const people = buildPeople(views).filter((person) => person.name.toLowerCase().includes('zo'));
		expect(people.map((person) => [person.name, person.slug])).toEqual([
			['Zoë Adams', 'zoe.adams'],
			['Zoe Adams', 'zoe.adams2'],
			['zoe adams', 'zoe.adams3'],
		]);
		expect(people.every((person) => person.otherNames.length === 0)).toBe(true);
	});

	it('matches an email in any case as one person, and lists the names it appears under', () => {
		const views = [
			view('a', 'production', '2026-11-01T00:00:00.000Z', [
				{ name: 'Amara Okafor', email: 'amara.okafor@example.com', role: 'admin' },
			]),
			view('b', 'production-edge', '2026-11-05T00:00:00.000Z', [
				{ name: 'A. Okafor', email: 'Amara.Okafor@example.com', role: 'admin' },
			]),
			view('c', 'staging', '2026-11-02T00:00:00.000Z', [
				{ name: 'Amara Okafor', email: 'amara.okafor@example.com', role: 'admin' },
			]),
			view('d', 'staging-eu', '2026-11-03T00:00:00.000Z', [
				{ name: 'amara okafor', email: 'AMARA.OKAFOR@example.com', role: 'admin' },
			]),
		];
		const people = buildPeople(views).filter((person) => person.key.startsWith('amara'));
		expect(people).toHaveLength(1);
		const [amara] = people;
		// "Amara Okafor" twice wins over the most recent view's "A. Okafor"; then the others, the
		// most recent view's first among those seen once.
		expect(amara?.name).toBe('Amara Okafor');
		expect(amara?.otherNames).toEqual(['A. Okafor', 'amara okafor']);
		expect(amara?.email).toBe('amara.okafor@example.com');
		expect(amara?.slug).toBe('amara.okafor');
		expect(amara?.memberships.map((membership) => membership.name)).toEqual([
			'Amara Okafor',
			'A. Okafor',
			'Amara Okafor',
			'amara okafor',
		]);
	});

	it('breaks a tie between names by the most recently updated view', () => {
		const person = (name: string) => ({ name, email: 'sam@example.com', role: 'admin' as const });
		const early = view('x', 'production', '2026-11-01T00:00:00.000Z', [person('Sam Lee')]);
		const late = view('y', 'staging', '2026-11-09T00:00:00.000Z', [person('Samuel Lee')]);
		for (const order of [
			[early, late],
			[late, early],
		]) {
			const [sam] = buildPeople(order).filter((p) => p.key === 'sam@example.com');
			expect(sam?.name).toBe('Samuel Lee');
			expect(sam?.otherNames).toEqual(['Sam Lee']);
		}
	});

	it('gives every email a slug of its own, safe in an address', () => {
		expect(personSlug('Priya.Raman@example.com')).toBe('priya.raman');
		expect(personSlug("o'brien+script@example.com")).toBe('o_27brien_2bscript');
		expect(personSlug('o_27brien@example.com')).toBe('o_5f27brien');
		expect(personSlug('ann@other.example')).toBe('ann_40other.example');
		expect(emailKey(' Ann@Example.com ')).toBe('ann@example.com');
	});

	it('reads the hand-written fixtures: Priya in three views with two roles, Amara under two names', () => {
		const people = buildPeople(fixtures);
		const emails = new Set(
			fixtures.flatMap(({ view: v }) => v.users.map((u) => emailKey(u.email))),
		);
		expect(people).toHaveLength(emails.size);
		const priya = people.find((person) => person.key === 'priya.raman@example.com');
		expect(priya?.memberships.map(({ slug, role }) => `${slug}:${role}`)).toEqual([
			'production-edge:operator',
			'production:deployer',
			'staging-us-east:deployer',
		]);
		const amara = people.find((person) => person.key === 'amara.okafor@example.com');
		expect(amara?.name).toBe('Amara Okafor');
		expect(amara?.otherNames).toEqual(['A. Okafor']);
	});

	it('answers who holds a role in an environment, each person once with their view count', () => {
		const entries = accessEntries(buildPeople(fixtures));
		const admins = entries
			.filter(({ environment, role }) => environment === 'production' && role === 'admin')
			.map(({ name, views }) => `${name} ×${views}`);
		expect(admins).toEqual([
			'Amara Okafor ×2',
			'Daniel Kowalski ×1',
			'Elena Petrova ×1',
			'Lukas Brandt ×1',
			'Yuki Tanaka ×1',
		]);
		const expected = fixtures.reduce(
			(sum, { view: v }) =>
				sum + v.users.filter((u) => v.environment === 'dr-eu-west' && u.role === 'viewer').length,
			0,
		);
		const viewers = entries.filter(
			({ environment, role }) => environment === 'dr-eu-west' && role === 'viewer',
		);
		expect(viewers.reduce((sum, { views }) => sum + views, 0)).toBe(expected);
	});
});

describe('the compare page and the people pages match people alike', () => {
	it('matches Priya across views whatever the case of her email, as the people index does', () => {
		const facts = compareFacts(fixtures);
		const production = facts.find((f) => f.slug === 'production');
		const staging = facts.find((f) => f.slug === 'staging-us-east');
		if (!production || !staging) throw new Error('fixtures missing');
		// Priya's email is Priya.Raman@ in staging-us-east and priya.raman@ in production.
		expect(staging.users.some((u) => u.email === 'Priya.Raman@example.com')).toBe(true);
		const { directory } = diffViews(staging, production);
		expect(directory.unchanged).toBe(1);
		expect(directory.added.map((u) => u.email)).not.toContain('priya.raman@example.com');
		expect(directory.removed.map((u) => u.email)).not.toContain('Priya.Raman@example.com');
	});
});

describe('the access pages’ bounds', () => {
	it('counts in words', () => {
		expect(count(1, 'view', 'views')).toBe('1 view');
		expect(count(1234, 'view', 'views')).toBe('1,234 views');
	});
});
