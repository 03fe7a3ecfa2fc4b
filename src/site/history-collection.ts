/**
 * The fixtures' history as the pages read it: the history in words, computed once per build from
 * one reading of git (`sources/fixture-history.ts`), and what compares it with today's views,
 * computed once per state of the views collection (as the people are).
 */
import { readSettings } from '../sources/settings.ts';
import {
	fixtureHistory,
	readFixtureDigest,
	type CommitInfo,
	type FixtureDigest,
} from '../sources/fixture-history.ts';
import { historyStatusOf, type HistoryStatus } from '../sources/git.ts';
import { ROLES, type Role, type View } from '../schemas/view.ts';
import type { SinceData, SinceRow } from '../shared/access-since.ts';
import { viewEntries } from './view-collection.ts';
import { viewName } from '../shared/views.ts';
import { staleKeys, stillViews, type StaleKey, type StillView } from './history-flags.ts';
import { allPeople } from './people-collection.ts';
import { accessCsv } from './access-csv.ts';
import {
	accessChangesCsv,
	knownPeople,
	sinceData,
	tagDifference,
	type KnownPerson,
} from './access-changes.ts';
import {
	ACCESS_KINDS,
	accessCounts,
	buildHistory,
	isAccessChange,
	newestFirst,
	rolesOf,
	type AccessKind,
	type History,
	type HistoryEntry,
} from './history.ts';

// The status type moved to sources/git.ts with the function both histories read it with; the
// pages still import it from here.
export type { HistoryStatus };

/** One commit's changes to one view. */
export interface CommitChanges {
	commit: CommitInfo;
	changes: HistoryEntry[];
}

/** A tag, and what changed in access between it and today. */
export interface TagComparison {
	name: string;
	commit: CommitInfo;
	rows: SinceRow[];
	/** The slugs whose fixture at the tag the view schema refuses today, left out on both sides. */
	unreadable: string[];
}

/** The history as read once: its status, the changes in words, the tags' views. */
interface HistoryModel {
	status: HistoryStatus;
	history: History | undefined;
	/** The access changes, newest first. */
	access: HistoryEntry[];
	/** Each view line's changes, grouped by commit, newest first. */
	byLine: Map<number, CommitChanges[]>;
	/** Each person's access changes (by email key, before and after an email change), newest first. */
	byPerson: Map<string, HistoryEntry[]>;
	tags: { name: string; commit: CommitInfo; views: { slug: string; view: View | undefined }[] }[];
}

let model: Promise<HistoryModel> | undefined;

/** Groups a line's changes by commit, newest commit first, changes in their order. */
function groupByCommit(entries: readonly HistoryEntry[]): CommitChanges[] {
	const groups: CommitChanges[] = [];
	for (const entry of newestFirst(entries)) {
		const last = groups.at(-1);
		if (last && last.commit.hash === entry.commit.hash) last.changes.push(entry);
		else groups.push({ commit: entry.commit, changes: [entry] });
	}
	return groups;
}

/** Reads the history and tells it in words, once. */
async function readModel(): Promise<HistoryModel> {
	const reading = await fixtureHistory(readSettings().viewsDir);
	if (!reading.available) {
		return {
			status: historyStatusOf(reading),
			history: undefined,
			access: [],
			byLine: new Map(),
			byPerson: new Map(),
			tags: [],
		};
	}
	const history = buildHistory(reading.commits);
	const access = newestFirst(history.entries.filter(isAccessChange));
	const lines = new Map<number, HistoryEntry[]>();
	for (const entry of history.entries) {
		const list = lines.get(entry.line);
		if (list) list.push(entry);
		else lines.set(entry.line, [entry]);
	}
	const byPerson = new Map<string, HistoryEntry[]>();
	for (const entry of access) {
		const keys = new Set([entry.person?.key, entry.previousKey]);
		for (const key of keys) {
			if (key === undefined) continue;
			const list = byPerson.get(key);
			if (list) list.push(entry);
			else byPerson.set(key, [entry]);
		}
	}
	return {
		status: historyStatusOf(reading),
		history,
		access,
		byLine: new Map([...lines].map(([line, entries]) => [line, groupByCommit(entries)])),
		byPerson,
		tags: reading.tags.map((tag) => ({
			name: tag.name,
			commit: tag.commit,
			views: tag.fixtures.map(({ slug, version }) => ({
				slug,
				view: version.readable ? version.view : undefined,
			})),
		})),
	};
}

/** The history as read once per build. */
function historyModel(): Promise<HistoryModel> {
	model ??= readModel();
	return model;
}

/** Whether there is history, and where it stops. */
export async function historyStatus(): Promise<HistoryStatus> {
	return (await historyModel()).status;
}

/** A view's changes, grouped by commit, newest first; none for a view no commit holds yet. */
export async function viewHistory(slug: string): Promise<CommitChanges[]> {
	const { history, byLine } = await historyModel();
	const line = history?.lines.get(slug);
	return line === undefined ? [] : (byLine.get(line) ?? []);
}

/** Whether the last commit holds a view's fixture (history may still list no change to it). */
export async function viewCommitted(slug: string): Promise<boolean> {
	return (await historyModel()).history?.lines.has(slug) ?? false;
}

/** Every access change, newest first. */
export async function accessChanges(): Promise<readonly HistoryEntry[]> {
	return (await historyModel()).access;
}

/** A person's access changes (by email key), newest first. */
export async function personChanges(key: string): Promise<readonly HistoryEntry[]> {
	return (await historyModel()).byPerson.get(key) ?? [];
}

/** The access changes grouped for the filter pages: by environment, role and kind, newest first. */
export interface ChangeGroups {
	environments: Map<string, HistoryEntry[]>;
	roles: Map<Role, HistoryEntry[]>;
	kinds: Map<AccessKind, HistoryEntry[]>;
}

let groups: Promise<ChangeGroups> | undefined;

/** Groups the access changes by environment (as listed), role and kind (as the lists order them). */
async function groupChanges(): Promise<ChangeGroups> {
	const access = await accessChanges();
	const reading = new Intl.Collator('en', { numeric: true });
	const environments = new Map<string, HistoryEntry[]>();
	for (const environment of [...new Set(access.map((entry) => entry.environment))].sort(
		reading.compare,
	)) {
		environments.set(
			environment,
			access.filter((entry) => entry.environment === environment),
		);
	}
	const roles = new Map<Role, HistoryEntry[]>();
	for (const role of ROLES) {
		const list = access.filter((entry) => rolesOf(entry).includes(role));
		if (list.length > 0) roles.set(role, list);
	}
	const kinds = new Map<AccessKind, HistoryEntry[]>();
	for (const kind of ACCESS_KINDS) {
		const list = access.filter((entry) => entry.kind === kind);
		if (list.length > 0) kinds.set(kind, list);
	}
	return { environments, roles, kinds };
}

/** The access changes by environment, role and kind, grouped once per build. */
export function changeGroups(): Promise<ChangeGroups> {
	groups ??= groupChanges();
	return groups;
}

/** What compares history with the views of one state of the collection. */
interface Comparisons {
	views: readonly unknown[];
	people: Map<string, KnownPerson>;
	/** The email keys of the people with a page today, found once, not once per page. */
	withPage?: ReadonlySet<string>;
	/** The slug and today's name of each view line that is a view today. */
	lineSlugs: Map<number, CurrentView>;
	tags: TagComparison[];
	since: SinceData;
}

let comparisons: Comparisons | undefined;

/** The comparisons with today's views, computed again only when the collection changed. */
async function currentComparisons(): Promise<Comparisons> {
	const views = await viewEntries();
	if (comparisons?.views === views) return comparisons;
	const { status, history, tags } = await historyModel();
	const people = knownPeople(history, await allPeople());
	const now = accessCounts(views.map(({ view }) => view));
	const lineSlugs = new Map<number, CurrentView>();
	for (const { slug, view } of views) {
		const line = history?.lines.get(slug);
		if (line !== undefined) lineSlugs.set(line, { slug, name: viewName(view) });
	}
	comparisons = {
		views,
		people,
		lineSlugs,
		tags: tags.map((tag) => ({
			name: tag.name,
			commit: tag.commit,
			...tagDifference(tag.views, views, people),
		})),
		since: sinceData({
			history: history
				? { history, shallow: status.shallow, start: status.start }
				: { reason: status.reason },
			now,
			people,
		}),
	};
	return comparisons;
}

/** Every tag, newest first, with what changed in access between it and today. */
export async function tagComparisons(): Promise<readonly TagComparison[]> {
	return (await currentComparisons()).tags;
}

/** Every person history or today's views name, by email key. */
export async function knownPeopleByKey(): Promise<ReadonlyMap<string, KnownPerson>> {
	return (await currentComparisons()).people;
}

/**
 * The email keys of the people who have a page today, for the change tables to link them: one set
 * per state of the collection (built on every person's page, it cost each page a pass over every
 * person, 16,000 people's pages 256 million steps).
 */
export async function peopleWithPage(): Promise<ReadonlySet<string>> {
	const current = await currentComparisons();
	current.withPage ??= new Set(
		[...current.people].filter(([, known]) => known.slug !== '').map(([key]) => key),
	);
	return current.withPage;
}

/** A view line that is a view today: its slug and name. */
export interface CurrentView {
	slug: string;
	name: string;
}

/** The slug and name of each view line that is a view today, to link a change to its view. */
export async function currentLineSlugs(): Promise<ReadonlyMap<number, CurrentView>> {
	return (await currentComparisons()).lineSlugs;
}

/** `/access-since.json`'s data. */
export async function sinceJson(): Promise<SinceData> {
	return (await currentComparisons()).since;
}

/** The review flags from history, for the views of the collection as it is now. */
export interface HistoryFlags {
	/** The limit of a key's age, in days (PORTAL_KEY_MAX_AGE_DAYS). */
	limit: number;
	/** The date of the last commit, which ages are counted up to; empty without history. */
	head: string;
	keys: StaleKey[];
	views: StillView[];
}

let flags: { views: readonly unknown[]; flags: HistoryFlags } | undefined;

/** Keys not rotated for longer than the limit, and views still while others changed. */
export async function historyFlags(): Promise<HistoryFlags> {
	const views = await viewEntries();
	if (flags?.views === views) return flags.flags;
	const { status, history } = await historyModel();
	const limit = readSettings().keyMaxAgeDays;
	const head = status.head?.date ?? '';
	const source = history && { history, views, head, start: status.start };
	flags = {
		views,
		flags: {
			limit,
			head,
			keys: source ? staleKeys(source, limit) : [],
			views: source ? stillViews(source) : [],
		},
	};
	return flags.flags;
}

/** `access-changes.csv`'s text. */
export async function accessChangesCsvText(): Promise<string> {
	return accessChangesCsv((await historyModel()).history?.entries ?? []);
}

/** `access.csv`'s text, as its route serves it. */
export async function accessCsvText(): Promise<string> {
	return accessCsv(await viewEntries());
}

/** The digest of the fixtures the build read. */
export function fixtureDigest(): Promise<FixtureDigest> {
	return readFixtureDigest(readSettings().viewsDir);
}
