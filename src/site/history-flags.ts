/**
 * The review flags that need history: keys not rotated for longer than a limit, and views whose
 * directory has not changed for more than 180 days while other views' did. Ages are counted up to
 * the last commit, not to the day of the build, so a build of one commit always says the same. A
 * key or directory older than a shallow clone's history is "at least" as old as that history.
 */
import type { View } from '../schemas/view.ts';
import { emailKey } from '../shared/person-key.ts';
import { viewName } from '../shared/views.ts';
import { isAccessChange, type History } from './history.ts';

/** How many days a directory may go unchanged while the others change. */
export const DIRECTORY_STILL_DAYS = 180;

/** One day in milliseconds. */
const DAY = 86_400_000;

/** When each line's keys came in: by person's email key, and the view's own key under ''. */
type KeyDates = Map<number, Map<string, string>>;

/** When each key of each view line came in, from the history's changes, oldest first. */
function keyDates(history: Pick<History, 'entries'>): KeyDates {
	const lines: KeyDates = new Map();
	for (const entry of history.entries) {
		let keys = lines.get(entry.line);
		if (!keys) {
			keys = new Map();
			lines.set(entry.line, keys);
		}
		const date = entry.commit.date;
		const person = entry.person?.key;
		if (entry.kind === 'view added') keys.set('', date);
		else if (entry.kind === 'configuration rotated' && entry.field === 'api_key')
			keys.set('', date);
		else if (entry.kind === 'granted' || entry.kind === 'key rotated') {
			if (person !== undefined) keys.set(person, date);
		} else if (entry.kind === 'revoked') {
			if (person !== undefined) keys.delete(person);
		} else if (entry.kind === 'email changed' && person !== undefined) {
			const before = entry.previousKey === undefined ? undefined : keys.get(entry.previousKey);
			if (entry.previousKey !== undefined) keys.delete(entry.previousKey);
			if (before !== undefined) keys.set(person, before);
		}
	}
	return lines;
}

/** A key that has not been rotated for longer than the limit. */
export interface StaleKey {
	slug: string;
	view: string;
	environment: string;
	/** The person holding it; undefined for the view's own key (`config.api_key`). */
	person: { key: string; name: string; email: string } | undefined;
	/** When it came in; where history does not reach, when history starts. */
	since: string;
	/** How many whole days before the last commit it came in. */
	days: number;
	/** Whether it is older than the history read (a shallow clone's): `days` is a lower bound. */
	atLeast: boolean;
}

/** What the flags are computed from. */
export interface FlagSource {
	history: Pick<History, 'entries' | 'lines'>;
	/** The views built, with their slugs. */
	views: readonly { slug: string; view: View }[];
	/** The date of the last commit: ages are counted up to it. */
	head: string;
	/** The date history starts from. */
	start: string;
}

/** Whole days from one ISO date to another. */
function daysBetween(from: string, to: string): number {
	return Math.floor((Date.parse(to) - Date.parse(from)) / DAY);
}

/**
 * The keys, of people and of views, that came in more than `limit` days before the last commit,
 * oldest first. A view no commit holds yet has no age and is left out.
 */
export function staleKeys({ history, views, head, start }: FlagSource, limit: number): StaleKey[] {
	const dates = keyDates(history);
	const stale: StaleKey[] = [];
	for (const { slug, view } of views) {
		const line = history.lines.get(slug);
		if (line === undefined) continue;
		const keys = dates.get(line) ?? new Map<string, string>();
		const holders = [
			{ key: '', person: undefined },
			...view.users.map((user) => ({
				key: emailKey(user.email),
				person: { key: emailKey(user.email), name: user.name, email: user.email },
			})),
		];
		for (const { key, person } of holders) {
			const known = keys.get(key);
			const since = known ?? start;
			const days = daysBetween(since, head);
			if (days <= limit) continue;
			stale.push({
				slug,
				view: viewName(view),
				environment: view.environment,
				person,
				since,
				days,
				atLeast: known === undefined,
			});
		}
	}
	return stale.sort(
		(a, b) =>
			b.days - a.days ||
			(a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) ||
			(a.person?.key ?? '').localeCompare(b.person?.key ?? ''),
	);
}

/** A view whose directory has not changed for longer than the others'. */
export interface StillView {
	slug: string;
	view: string;
	environment: string;
	/** When its directory last changed; where history does not reach, when history starts. */
	since: string;
	days: number;
	atLeast: boolean;
}

/**
 * The views whose directory (anyone granted, revoked, with another role, name, email or key) last
 * changed more than DIRECTORY_STILL_DAYS before the last commit, while some other view's changed
 * within them; longest unchanged first. When no directory changed within them, none is flagged:
 * the portal as a whole is still, not one view.
 */
export function stillViews({ history, views, head, start }: FlagSource): StillView[] {
	const last = new Map<number, string>();
	for (const entry of history.entries) {
		if (isAccessChange(entry)) last.set(entry.line, entry.commit.date);
	}
	const ages = views.flatMap(({ slug, view }) => {
		const line = history.lines.get(slug);
		if (line === undefined) return [];
		const known = last.get(line);
		const since = known ?? start;
		return [
			{
				slug,
				view: viewName(view),
				environment: view.environment,
				since,
				days: daysBetween(since, head),
				atLeast: known === undefined,
			},
		];
	});
	if (!ages.some((age) => age.days <= DIRECTORY_STILL_DAYS)) return [];
	return ages
		.filter((age) => age.days > DIRECTORY_STILL_DAYS)
		.sort((a, b) => b.days - a.days || (a.slug < b.slug ? -1 : 1));
}
