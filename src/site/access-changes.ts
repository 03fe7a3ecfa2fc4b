/**
 * The history's exports and the since comparisons, from the history in words (`history.ts`):
 * `access-changes.csv` (one row per change, written as `access.csv` is), the net difference
 * between a tag's fixtures and today's, and `/access-since.json`, from which the browser computes
 * the same for any date. None of them holds a key or a configuration value.
 */
import { ROLES, type View } from '../schemas/view.ts';
import {
	compareSinceRows,
	netDifference,
	type SinceData,
	type SinceRow,
} from '../shared/access-since.ts';
import { personSlug } from '../shared/person-key.ts';
import { toCsv, UTF8_BOM } from './access-csv.ts';
import {
	accessCounts,
	accessParts,
	newestFirst,
	type AccessCounts,
	type History,
	type HistoryEntry,
} from './history.ts';

/** The header row of `access-changes.csv`. */
export const ACCESS_CHANGES_CSV_HEADER = [
	'Date',
	'Commit',
	'Author',
	'Subject',
	'Environment',
	'View slug',
	'View',
	'Person',
	'Email',
	'Kind',
	'Field',
	'From',
	'To',
] as const;

/**
 * The rows of `access-changes.csv`, newest commit first, each commit's changes in their order;
 * an unreadable version is no change.
 */
export function accessChangeRows(entries: readonly HistoryEntry[]): string[][] {
	return newestFirst(entries.filter((entry) => entry.kind !== 'unreadable')).map((entry) => [
		entry.commit.date,
		entry.commit.short,
		entry.commit.author,
		entry.commit.subject,
		entry.environment,
		entry.slug,
		entry.view,
		entry.person?.name ?? '',
		entry.person?.email ?? '',
		entry.kind,
		entry.field ?? '',
		entry.from ?? '',
		entry.to ?? '',
	]);
}

/** The whole of `access-changes.csv`: byte-order mark, header row, one row per change. */
export function accessChangesCsv(entries: readonly HistoryEntry[]): string {
	return UTF8_BOM + toCsv([ACCESS_CHANGES_CSV_HEADER, ...accessChangeRows(entries)]);
}

/** A person as the since pages name them: the name and email last seen, and a page if they have one. */
export interface KnownPerson {
	name: string;
	email: string;
	/** Their page's slug, or empty when they are in no view today. */
	slug: string;
}

/**
 * Every person the history or today's views name, by email key: the name and email today's views
 * give them (the people pages' choice), else the last ones history gave.
 */
export function knownPeople(
	history: Pick<History, 'people'> | undefined,
	today: readonly { key: string; name: string; email: string }[],
): Map<string, KnownPerson> {
	const people = new Map<string, KnownPerson>();
	for (const [key, { name, email }] of history?.people ?? []) {
		people.set(key, { name, email, slug: '' });
	}
	for (const person of today) {
		people.set(person.key, {
			name: person.name,
			email: person.email,
			slug: personSlug(person.key),
		});
	}
	return people;
}

/** The rows of the net difference between two states, for a page, in its order. */
export function sinceRowsOf(
	then: AccessCounts,
	now: AccessCounts,
	people: ReadonlyMap<string, KnownPerson>,
): SinceRow[] {
	return netDifference(then, now)
		.map(({ key, change, then: before, now: after }): SinceRow => {
			const { environment, person, role } = accessParts(key);
			const known = people.get(person);
			return {
				change,
				environment,
				role,
				name: known?.name ?? person,
				email: known?.email ?? person,
				slug: known?.slug ?? '',
				then: before,
				now: after,
			};
		})
		.sort(compareSinceRows);
}

/**
 * Access at a tag against today's, leaving out on both sides the views whose fixture at the tag
 * the view schema refuses today (their slugs are returned, to be named on the page).
 */
export function tagDifference(
	tagViews: readonly { slug: string; view: View | undefined }[],
	today: readonly { slug: string; view: View }[],
	people: ReadonlyMap<string, KnownPerson>,
): { rows: SinceRow[]; unreadable: string[] } {
	const unreadable = tagViews.filter(({ view }) => !view).map(({ slug }) => slug);
	const skip = new Set(unreadable);
	const then = accessCounts(tagViews.flatMap(({ view }) => (view ? [view] : [])));
	const now = accessCounts(today.filter(({ slug }) => !skip.has(slug)).map(({ view }) => view));
	return { rows: sinceRowsOf(then, now, people), unreadable };
}

/** What `/access-since.json` is built from. */
export interface SinceSource {
	/** The history, or why there is none. */
	history: { history: History; shallow: boolean; start: string } | { reason: string };
	/** Who holds which role where in the built views. */
	now: AccessCounts;
	people: ReadonlyMap<string, KnownPerson>;
}

/** `/access-since.json`: today's access and each commit's change to it, places for names. */
export function sinceData({ history, now, people }: SinceSource): SinceData {
	const environments = new Map<string, number>();
	const persons = new Map<string, number>();
	const placesOf = (key: string): [number, number, number] => {
		const { environment, person, role } = accessParts(key);
		if (!environments.has(environment)) environments.set(environment, environments.size);
		if (!persons.has(person)) persons.set(person, persons.size);
		return [environments.get(environment) ?? 0, persons.get(person) ?? 0, ROLES.indexOf(role)];
	};
	const data: SinceData = {
		available: 'history' in history,
		reason: 'reason' in history ? history.reason : '',
		shallow: 'history' in history && history.shallow,
		start: 'history' in history ? history.start : '',
		roles: [...ROLES],
		environments: [],
		people: [],
		now: [...now].map(([key, views]) => [...placesOf(key), views]),
		pending: [],
		commits: [],
		events: [],
	};
	if ('history' in history) {
		const pending = new Map(now);
		for (const [key, views] of history.history.counts)
			pending.set(key, (pending.get(key) ?? 0) - views);
		data.pending = [...pending]
			.filter(([, delta]) => delta !== 0)
			.map(([key, delta]) => [...placesOf(key), delta]);
		history.history.deltas.forEach(({ commit, deltas }, index) => {
			data.commits.push([commit.date, commit.short]);
			for (const [key, delta] of deltas) data.events.push([index, ...placesOf(key), delta]);
		});
	}
	data.environments = [...environments.keys()];
	data.people = [...persons.keys()].map((key) => {
		const known = people.get(key);
		return [known?.name ?? key, known?.email ?? key, known?.slug ?? ''];
	});
	return data;
}
