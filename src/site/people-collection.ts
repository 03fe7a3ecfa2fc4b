/**
 * The people of the views collection, as the people and access pages read them: computed once
 * per state of the collection (the dev server computes them again when a fixture changes), not
 * once per route or per page.
 */
import {
	accessEntries,
	buildPeople,
	byEnvironment,
	type AccessEntry,
	type EnvironmentGroup,
	type Person,
} from './people.ts';
import { reviewFlags, type ReviewFlag } from './review-flags.ts';
import { viewEntries } from './view-collection.ts';

/** The people of one state of the collection, shared by every page: not to be changed. */
interface PeopleCollection {
	views: readonly unknown[];
	people: readonly Person[];
	/** Who holds which role where, read only by the access pages. */
	access?: readonly AccessEntry[];
	/** The review flags of the directories, read by the access overview and the flag pages. */
	flags?: readonly ReviewFlag[];
}

let current: PeopleCollection | undefined;

/** Each person's views by environment, grouped once per person. */
const environments = new WeakMap<Person, readonly EnvironmentGroup[]>();

/** The people of the collection as it is now, built again only when it changed. */
async function peopleCollection(): Promise<PeopleCollection> {
	const views = await viewEntries();
	if (current?.views !== views) current = { views, people: buildPeople(views) };
	return current;
}

/** Every person of every view, in name order. */
export async function allPeople(): Promise<readonly Person[]> {
	return (await peopleCollection()).people;
}

/** Who holds which role where, for every person (see `accessEntries`). */
export async function allAccessEntries(): Promise<readonly AccessEntry[]> {
	const collection = await peopleCollection();
	collection.access ??= accessEntries(collection.people);
	return collection.access;
}

/** The review flags read from the directories (see `reviewFlags`), found once per collection. */
export async function allReviewFlags(): Promise<readonly ReviewFlag[]> {
	const collection = await peopleCollection();
	collection.flags ??= reviewFlags(collection.people);
	return collection.flags;
}

/** A person's views grouped by environment (see `byEnvironment`), grouped once per person. */
export function personEnvironments(person: Person): readonly EnvironmentGroup[] {
	let groups = environments.get(person);
	if (!groups) {
		const [first] = person.memberships;
		// Most people are in one environment: its group is the person's own views and roles, not
		// copies of them held for the whole build (80,000 people at 10,000 distinct views).
		groups =
			first && person.memberships.every(({ environment }) => environment === first.environment)
				? [
						{
							environment: first.environment,
							memberships: person.memberships,
							roles: person.roles,
						},
					]
				: byEnvironment(person.memberships);
		environments.set(person, groups);
	}
	return groups;
}

/** The environments of the access pages, in the order views are listed. */
export async function accessEnvironments(): Promise<string[]> {
	return [...new Set((await allAccessEntries()).map(({ environment }) => environment))];
}

/** One person in one environment's views: in how many, and the roles they hold there. */
export interface EnvironmentMember {
	slug: string;
	name: string;
	email: string;
	views: number;
	roles: EnvironmentGroup['roles'];
}

/** Everyone in one environment's views, in name order, as its access page lists them. */
export async function environmentMembers(environment: string): Promise<EnvironmentMember[]> {
	return (await allPeople()).flatMap((person) => {
		const group = personEnvironments(person).find(
			(candidate) => candidate.environment === environment,
		);
		return group
			? [
					{
						slug: person.slug,
						name: person.name,
						email: person.email,
						views: group.memberships.length,
						roles: group.roles,
					},
				]
			: [];
	});
}
