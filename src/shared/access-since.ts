/**
 * Who holds which role where now that did not then, and who lost it: the net difference between
 * two states of access, each counted as the number of views that give a person a role in an
 * environment. The build compares each git tag's fixtures with today's; the browser compares the
 * state at a picked date, rebuilt from `/access-since.json`, with today's. Both use this module, so
 * a tag's page and the same date picked in the browser agree. The file holds names, emails,
 * environments, roles, dates and short commit names: never a key or a configuration value.
 */
import type { Role } from '../schemas/view.ts';

/** One person's role in one environment that one state has and the other has not. */
export interface NetChange {
	/** The key both states count by. */
	key: string;
	/** `gained`: held now, not then; `lost`: held then, not now. */
	change: 'gained' | 'lost';
	/** How many views gave it then. */
	then: number;
	/** How many views give it now. */
	now: number;
}

/**
 * The roles held in one state and not the other: for each key, gained when it had no view then
 * and has one now, lost the other way round. A change in the number of views alone is no change
 * of who holds what, and is left out.
 */
export function netDifference(
	then: ReadonlyMap<string, number>,
	now: ReadonlyMap<string, number>,
): NetChange[] {
	const changes: NetChange[] = [];
	for (const [key, views] of now) {
		if (views > 0 && !((then.get(key) ?? 0) > 0)) {
			changes.push({ key, change: 'gained', then: then.get(key) ?? 0, now: views });
		}
	}
	for (const [key, views] of then) {
		if (views > 0 && !((now.get(key) ?? 0) > 0)) {
			changes.push({ key, change: 'lost', then: views, now: now.get(key) ?? 0 });
		}
	}
	return changes;
}

/** A net change as a page shows it. */
export interface SinceRow {
	change: 'gained' | 'lost';
	environment: string;
	role: Role;
	name: string;
	email: string;
	/** The person's page's slug, where they have a page now; empty otherwise. */
	slug: string;
	then: number;
	now: number;
}

/** Environments and names as people read them: numbers by value, case and accents aside. */
const reading = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The roles in the order the portal lists them, for sorting rows without the schema. */
const ROLE_ORDER: readonly string[] = ['admin', 'deployer', 'operator', 'viewer'];

/** Orders rows by environment, gained before lost, role, then name and email. */
export function compareSinceRows(a: SinceRow, b: SinceRow): number {
	return (
		reading.compare(a.environment, b.environment) ||
		(a.change === b.change ? 0 : a.change === 'gained' ? -1 : 1) ||
		ROLE_ORDER.indexOf(a.role) - ROLE_ORDER.indexOf(b.role) ||
		reading.compare(a.name, b.name) ||
		a.email.localeCompare(b.email)
	);
}

/**
 * `/access-since.json`: today's access, and each commit's change to it, small enough for the
 * browser. People, environments and roles are given once and named by their place in these lists.
 */
export interface SinceData {
	/** Whether the build had the fixtures' history; without it only `now` is given. */
	available: boolean;
	/** Why there is no history, when there is none. */
	reason: string;
	/** Whether the clone is shallow, so that history starts at `start`. */
	shallow: boolean;
	/** The date of the oldest commit history reaches, ISO 8601; empty without history. */
	start: string;
	/** The roles, in the portal's order. */
	roles: Role[];
	environments: string[];
	/** Each person: name, email, and their page's slug (empty when they have no page now). */
	people: [name: string, email: string, slug: string][];
	/** Today's access: environment, person, role (places in the lists above) and number of views. */
	now: [environment: number, person: number, role: number, views: number][];
	/**
	 * What the built fixtures hold beyond the last commit (edits not yet committed), as changes in
	 * the number of views; usually none.
	 */
	pending: [environment: number, person: number, role: number, delta: number][];
	/** Each commit that changed who holds what: its date (ISO 8601) and short name. */
	commits: [date: string, short: string][];
	/** Each commit's changes: commit, environment, person, role (places) and views gained or lost. */
	events: [commit: number, environment: number, person: number, role: number, delta: number][];
}

/** The key of an entry of `SinceData` in the counts below: its three places. */
function placeKey(environment: number, person: number, role: number): string {
	return `${environment}:${person}:${role}`;
}

/** Adds a change to counts, dropping a count that reaches zero. */
function add(counts: Map<string, number>, key: string, delta: number): void {
	const total = (counts.get(key) ?? 0) + delta;
	if (total === 0) counts.delete(key);
	else counts.set(key, total);
}

/** Today's access in the file, by place key. */
export function countsNow(data: SinceData): Map<string, number> {
	const counts = new Map<string, number>();
	for (const [environment, person, role, views] of data.now) {
		add(counts, placeKey(environment, person, role), views);
	}
	return counts;
}

/**
 * Access as it stood at a moment (milliseconds since 1970): today's, less what was not yet
 * committed, less every commit made after that moment.
 */
export function countsAt(data: SinceData, moment: number): Map<string, number> {
	const counts = countsNow(data);
	for (const [environment, person, role, delta] of data.pending) {
		add(counts, placeKey(environment, person, role), -delta);
	}
	const after = data.commits.map(([date]) => Date.parse(date) > moment);
	for (const [commit, environment, person, role, delta] of data.events) {
		if (after[commit]) add(counts, placeKey(environment, person, role), -delta);
	}
	return counts;
}

/** The rows of the net difference between a moment and today, in the order pages list them. */
export function sinceRows(data: SinceData, moment: number): SinceRow[] {
	return netDifference(countsAt(data, moment), countsNow(data))
		.map(({ key, change, then, now }): SinceRow => {
			const [environment = 0, person = 0, role = 0] = key.split(':').map(Number);
			const [name = '', email = '', slug = ''] = data.people[person] ?? [];
			return {
				change,
				environment: data.environments[environment] ?? '',
				role: data.roles[role] ?? 'viewer',
				name,
				email,
				slug,
				then,
				now,
			};
		})
		.sort(compareSinceRows);
}

/** Whether a moment lies before the oldest commit history reaches, so the state then is unknown. */
export function beforeHistory(data: SinceData, moment: number): boolean {
	return data.start !== '' && moment < Date.parse(data.start);
}
