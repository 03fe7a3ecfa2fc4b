/**
 * Every list of access changes the portal publishes, as the routes under /access/changes/ choose
 * them: every change, then the changes in each environment, that concern each role, of each kind,
 * and of each person whose page lists only their latest PERSON_CHANGES_LIMIT. Each is paged.
 */
import type { Role } from '../schemas/view.ts';
import type { ChangesFilter } from '../shared/urls.ts';
import { PERSON_CHANGES_LIMIT } from './access.ts';
import { accessChanges, changeGroups, personChanges } from './history-collection.ts';
import type { HistoryEntry } from './history.ts';
import { allPeople } from './people-collection.ts';

/** One list of access changes: what it is filtered by, what its title calls that, its changes. */
export interface ChangeList {
	/** Undefined for every change. */
	filter: ChangesFilter;
	/** What the title calls the filter, e.g. "in production", "role admin"; none for every change. */
	label: string | undefined;
	/** Its changes, newest first. */
	entries: readonly HistoryEntry[];
}

/** The filters that have a list of their own, as the lists link them: environments, roles, kinds. */
export interface ChangeFacets {
	environments: readonly string[];
	roles: readonly Role[];
	kinds: readonly string[];
}

/** The environments with a list of their own, each with its changes, newest first. */
export async function environmentChangeLists(): Promise<[string, readonly HistoryEntry[]][]> {
	const { environments } = await changeGroups();
	// A change to a view whose every version was unreadable has no environment, and no list.
	return [...environments].filter(([environment]) => environment !== '');
}

/**
 * The people with a list of their own, each with their changes, newest first: those whose page
 * lists only their latest PERSON_CHANGES_LIMIT.
 */
export async function personChangeLists(): Promise<
	{ slug: string; name: string; entries: readonly HistoryEntry[] }[]
> {
	const lists = [];
	for (const person of await allPeople()) {
		const entries = await personChanges(person.key);
		if (entries.length > PERSON_CHANGES_LIMIT) {
			lists.push({ slug: person.slug, name: person.name, entries });
		}
	}
	return lists;
}

/** Every list of access changes, unfiltered first, and the filters they offer. */
export async function changeLists(): Promise<{ lists: ChangeList[]; facets: ChangeFacets }> {
	const groups = await changeGroups();
	const environments = await environmentChangeLists();
	const people: ChangeList[] = (await personChangeLists()).map(({ slug, name, entries }) => ({
		filter: { person: slug },
		label: name,
		entries,
	}));
	return {
		lists: [
			{ filter: undefined, label: undefined, entries: await accessChanges() },
			...environments.map(([environment, entries]) => ({
				filter: { environment },
				label: `in ${environment}`,
				entries,
			})),
			...[...groups.roles].map(([role, entries]) => ({
				filter: { role },
				label: `role ${role}`,
				entries,
			})),
			...[...groups.kinds].map(([kind, entries]) => ({ filter: { kind }, label: kind, entries })),
			...people,
		],
		facets: {
			environments: environments.map(([environment]) => environment),
			roles: [...groups.roles.keys()],
			kinds: [...groups.kinds.keys()],
		},
	};
}
