/** The people of the views collection, as the people and access pages read them. */
import { buildPeople, type Person } from './people.ts';
import { viewEntries } from './view-collection.ts';

/** Every person of every view, in name order. */
export async function allPeople(): Promise<Person[]> {
	return buildPeople(await viewEntries());
}
