/**
 * What changed in the views, commit by commit, in words a reviewer reads: a person granted or
 * revoked, a role changed, a name or email changed, a key rotated, a configuration member
 * rotated, a label, base URL or status note changed, a view added, renamed or removed. Pure: the
 * commits come from `sources/fixture-history.ts`. No change carries a key or a configuration
 * value, before or after: a rotation names the person or the member, never what it was or became.
 *
 * Within a view a person is their email, in any case (as on the people pages). A directory entry
 * whose email is new is matched to a removed one with the same name and key (the email changed),
 * or else with the same name when only one entry on each side has it (the email changed and the
 * key with it); what is left was granted or revoked. An entry whose name and email both changed
 * is another person, even with the same key: the one was revoked and the other granted.
 */
import { ROLES, CONFIG_MEMBERS, type Role, type User, type View } from '../schemas/view.ts';
import { emailKey } from '../shared/person-key.ts';
import { viewName } from '../shared/views.ts';
import type { CommitInfo, FixtureCommit, FixtureVersion } from '../sources/fixture-history.ts';

/** The kinds of change to a person's access to a view. */
export const ACCESS_KINDS = [
	'granted',
	'revoked',
	'role changed',
	'key rotated',
	'name changed',
	'email changed',
] as const;

/** A change to a person's access to a view. */
export type AccessKind = (typeof ACCESS_KINDS)[number];

/** The kinds of change to a view itself. */
export const VIEW_KINDS = [
	'view added',
	'view renamed',
	'view removed',
	'label changed',
	'base URL changed',
	'status note changed',
	'configuration rotated',
	'unreadable',
] as const;

/** A change to a view itself; `unreadable` is a version the view schema refuses today. */
export type ViewKind = (typeof VIEW_KINDS)[number];

/** Any kind of change. */
export type ChangeKind = AccessKind | ViewKind;

/** A person as a change names them: their email key, and their name and email in that version. */
export interface ChangePerson {
	/** The email in lower case, which identifies the person. */
	key: string;
	name: string;
	email: string;
}

/** One change to one view, without the commit it came in. */
export interface ViewChange {
	kind: ChangeKind;
	/** The person it concerns, for an access change. */
	person?: ChangePerson | undefined;
	/** For an email change, the person's email key before. */
	previousKey?: string | undefined;
	/** The role the person holds after the change; for a revocation, the one they held. */
	role?: Role | undefined;
	/** The label (`environment`, `configuration`, `apiVersion`, `name`) or configuration member. */
	field?: string | undefined;
	/** What it was, where that is no secret: a role, a name, an email, a label, a base URL, a slug. */
	from?: string | undefined;
	/** What it became, likewise. */
	to?: string | undefined;
}

/** The labels a view is told by, in the order a change to them is listed. */
const LABELS = ['name', 'environment', 'configuration', 'apiVersion'] as const;

/** A directory entry as a change names it. */
function personOf(user: User): ChangePerson {
	return { key: emailKey(user.email), name: user.name, email: user.email };
}

/** The changes between two entries of one person in a view: email, name, role, key. */
function personChanges(before: User, after: User): ViewChange[] {
	const person = personOf(after);
	const role = after.role;
	const changes: ViewChange[] = [];
	if (before.email !== after.email) {
		changes.push({
			kind: 'email changed',
			person,
			previousKey: emailKey(before.email),
			role,
			from: before.email,
			to: after.email,
		});
	}
	if (before.name !== after.name) {
		changes.push({ kind: 'name changed', person, role, from: before.name, to: after.name });
	}
	if (before.role !== after.role) {
		changes.push({ kind: 'role changed', person, role, from: before.role, to: after.role });
	}
	if (before.apiKey !== after.apiKey) changes.push({ kind: 'key rotated', person, role });
	return changes;
}

/**
 * Pairs the entries of two directories that are one person: same email (any case), else same
 * name and key, else same name where that name is on one entry of each side only.
 */
function pairPeople(
	before: readonly User[],
	after: readonly User[],
): { pairs: Map<User, User>; added: User[]; removed: User[] } {
	const pairs = new Map<User, User>();
	const left = new Set(before);
	const match = (same: (a: User, b: User) => boolean, unique: boolean): void => {
		for (const user of after) {
			if (pairs.has(user)) continue;
			const candidates = [...left].filter((other) => same(other, user));
			const [first] = candidates;
			if (!first) continue;
			const rivals = after.filter((other) => !pairs.has(other) && same(first, other));
			if (unique && (candidates.length > 1 || rivals.length > 1)) continue;
			pairs.set(user, first);
			left.delete(first);
		}
	};
	match((a, b) => emailKey(a.email) === emailKey(b.email), false);
	match((a, b) => a.apiKey === b.apiKey && a.name === b.name, false);
	match((a, b) => a.name === b.name, true);
	return {
		pairs,
		added: after.filter((user) => !pairs.has(user)),
		removed: before.filter((user) => left.has(user)),
	};
}

/** A label's value as a change shows it: the text, or undefined where the view has none. */
function labelOf(view: View, label: (typeof LABELS)[number]): string | undefined {
	return view[label];
}

/**
 * The changes between two versions of one view, in words: labels, base URL, status note and
 * configuration members first, then each person of the directory in its order after the change,
 * then those revoked in their order before. A missing version is an empty directory: every
 * person granted, or revoked. Never a key or a configuration value.
 */
export function diffViews(before: View | undefined, after: View | undefined): ViewChange[] {
	const changes: ViewChange[] = [];
	if (before && after) {
		for (const label of LABELS) {
			const from = labelOf(before, label);
			const to = labelOf(after, label);
			if (from !== to) changes.push({ kind: 'label changed', field: label, from, to });
		}
		if (before.baseUrl !== after.baseUrl) {
			changes.push({ kind: 'base URL changed', from: before.baseUrl, to: after.baseUrl });
		}
		if (before.statusNote !== after.statusNote) changes.push({ kind: 'status note changed' });
		for (const member of CONFIG_MEMBERS) {
			if (before.config[member] !== after.config[member]) {
				changes.push({ kind: 'configuration rotated', field: member });
			}
		}
	}
	const { pairs, added, removed } = pairPeople(before?.users ?? [], after?.users ?? []);
	for (const user of after?.users ?? []) {
		const previous = pairs.get(user);
		if (previous) changes.push(...personChanges(previous, user));
		else if (added.includes(user)) {
			changes.push({ kind: 'granted', person: personOf(user), role: user.role, to: user.role });
		}
	}
	for (const user of removed) {
		changes.push({ kind: 'revoked', person: personOf(user), role: user.role, from: user.role });
	}
	return changes;
}

/** One change as the history lists it: the change, its commit, and the view it was made to. */
export interface HistoryEntry extends ViewChange {
	/** Its place in the history, from 0 for the oldest change. */
	order: number;
	/** Its commit's place in the history, from 0 for the oldest commit. */
	sequence: number;
	commit: CommitInfo;
	/** The view's slug in that commit (before it, for a removal). */
	slug: string;
	/** The view's name in that commit, or its slug where no version of it could be read. */
	view: string;
	/** The view's environment in that commit; empty where no version of it could be read. */
	environment: string;
	/** The view's line of descent: the same through renames, a new one for a view added again. */
	line: number;
}

/** How many views give a person a role in an environment, keyed by `accessKey`. */
export type AccessCounts = Map<string, number>;

/** The key of a person's role in an environment in `AccessCounts`. */
export function accessKey(environment: string, person: string, role: Role): string {
	return `${environment}\u0000${person}\u0000${role}`;
}

/** The parts of an `accessKey`. */
export function accessParts(key: string): { environment: string; person: string; role: Role } {
	const [environment = '', person = '', role = 'viewer'] = key.split('\u0000');
	return { environment, person, role: ROLES.find((each) => each === role) ?? 'viewer' };
}

/** Adds a view's people to counts of who holds which role where, `sign` times. */
export function countAccess(counts: AccessCounts, view: View, sign = 1): void {
	for (const user of view.users) {
		const key = accessKey(view.environment, emailKey(user.email), user.role);
		const total = (counts.get(key) ?? 0) + sign;
		if (total === 0) counts.delete(key);
		else counts.set(key, total);
	}
}

/** Who holds which role where across a set of views, by number of views. */
export function accessCounts(views: Iterable<View>): AccessCounts {
	const counts: AccessCounts = new Map();
	for (const view of views) countAccess(counts, view);
	return counts;
}

/** One commit's effect on who holds which role where, for the date-picking page. */
export interface AccessDelta {
	commit: CommitInfo;
	/** Views gained (positive) or lost (negative) per `accessKey`; no zero. */
	deltas: AccessCounts;
}

/** A view as history leaves it: its line, and its last version the view schema accepts. */
interface LineState {
	line: number;
	view: View | undefined;
}

/** The history in words, and what the walk through it found. */
export interface History {
	/** Every change, oldest first. */
	entries: HistoryEntry[];
	/** Each commit's effect on who holds which role where, oldest first; commits without any left out. */
	deltas: AccessDelta[];
	/** Where each view the last commit holds stands: its line, by slug. */
	lines: Map<string, number>;
	/** Who holds which role where as the last commit leaves it (unreadable versions aside). */
	counts: AccessCounts;
	/** The latest name and email seen for each person, by email key. */
	people: Map<string, { name: string; email: string }>;
}

/** A version's view, if the view schema accepts it. */
function readable(version: FixtureVersion | undefined): View | undefined {
	return version?.readable ? version.view : undefined;
}

/**
 * Walks the commits oldest first and tells each one's changes. A version the view schema refuses
 * is an `unreadable` entry naming its fields; the next readable version is compared with the last
 * readable one. A shallow clone's boundary commit gives the state history starts from.
 */
export function buildHistory(commits: readonly FixtureCommit[]): History {
	const state = new Map<string, LineState>();
	const entries: HistoryEntry[] = [];
	const deltas: AccessDelta[] = [];
	const people = new Map<string, { name: string; email: string }>();
	let lines = 0;
	const remember = (view: View | undefined): void => {
		for (const user of view?.users ?? []) {
			people.set(emailKey(user.email), { name: user.name, email: user.email });
		}
	};
	for (const [sequence, commit] of commits.entries()) {
		const { hash, short, date, author, subject } = commit;
		const info: CommitInfo = { hash, short, date, author, subject };
		const counts: AccessCounts = new Map();
		for (const file of commit.files) {
			if (commit.boundary) {
				if (file.toSlug === undefined) continue;
				const view = readable(file.after);
				remember(view);
				state.set(file.toSlug, { line: lines++, view });
				continue;
			}
			const known = file.fromSlug === undefined ? undefined : state.get(file.fromSlug);
			const current: LineState =
				file.status === 'added'
					? { line: lines++, view: undefined }
					: (known ?? { line: lines++, view: readable(file.before) });
			if (file.fromSlug !== undefined) state.delete(file.fromSlug);
			const before = current.view;
			const unreadable = file.after !== undefined && !file.after.readable;
			const after = unreadable ? before : readable(file.after);
			const slug = file.toSlug ?? file.fromSlug ?? '';
			const shown = after ?? before;
			const push = (change: ViewChange): void => {
				entries.push({
					...change,
					order: entries.length,
					sequence,
					commit: info,
					slug,
					view: shown ? viewName(shown) : slug,
					environment: shown?.environment ?? '',
					line: current.line,
				});
			};
			if (file.status === 'added') push({ kind: 'view added', to: slug });
			if (file.status === 'renamed') push({ kind: 'view renamed', from: file.fromSlug, to: slug });
			if (file.status === 'removed') push({ kind: 'view removed', from: slug });
			if (file.after && !file.after.readable) {
				push({ kind: 'unreadable', field: file.after.fields.join(', ') });
			}
			for (const change of diffViews(before, after)) push(change);
			if (before) countAccess(counts, before, -1);
			if (after) countAccess(counts, after);
			remember(after);
			if (file.toSlug !== undefined) state.set(file.toSlug, { line: current.line, view: after });
		}
		if (counts.size > 0) deltas.push({ commit: info, deltas: counts });
	}
	const views = [...state.values()].flatMap(({ view }) => (view ? [view] : []));
	return {
		entries,
		deltas,
		lines: new Map([...state].map(([slug, { line }]) => [slug, line])),
		counts: accessCounts(views),
		people,
	};
}

/** Changes newest commit first, each commit's changes in the order they were told. */
export function newestFirst<T extends Pick<HistoryEntry, 'order' | 'sequence'>>(
	entries: readonly T[],
): T[] {
	return [...entries].sort((a, b) => b.sequence - a.sequence || a.order - b.order);
}

/** Whether an entry is a change to a person's access. */
export function isAccessChange(entry: ViewChange): boolean {
	return (ACCESS_KINDS as readonly string[]).includes(entry.kind);
}

/** The roles an access change concerns: both sides of a role change, else the role held. */
export function rolesOf(entry: ViewChange): Role[] {
	if (entry.kind === 'role changed') {
		return ROLES.filter((role) => role === entry.from || role === entry.to);
	}
	return entry.role ? [entry.role] : [];
}

/** The label's name as a reader knows it. */
const LABEL_NAMES: Record<string, string> = {
	name: 'Name',
	environment: 'Environment',
	configuration: 'Configuration label',
	apiVersion: 'API label',
};

/** A label's value in a sentence: quoted, or "none". */
function quoted(value: string | undefined): string {
	return value === undefined ? 'none' : `“${value}”`;
}

/**
 * A change in one sentence, without the person's name (shown beside it) or any secret; an
 * unreadable version names its commit when the change carries one.
 */
export function describeChange(change: ViewChange & { commit?: CommitInfo }): string {
	switch (change.kind) {
		case 'granted':
			return `Granted ${change.to ?? ''}`;
		case 'revoked':
			return `Revoked (was ${change.from ?? ''})`;
		case 'role changed':
			return `Role changed: ${change.from ?? ''} → ${change.to ?? ''}`;
		case 'key rotated':
			return `Key rotated (${change.role ?? ''})`;
		case 'name changed':
			return `Name changed: ${quoted(change.from)} → ${quoted(change.to)}`;
		case 'email changed':
			return `Email changed: ${change.from ?? ''} → ${change.to ?? ''}`;
		case 'view added':
			return `View added as ${change.to ?? ''}`;
		case 'view renamed':
			return `File renamed: ${change.from ?? ''}.json → ${change.to ?? ''}.json`;
		case 'view removed':
			return `View removed (${change.from ?? ''}.json)`;
		case 'label changed':
			return `${LABEL_NAMES[change.field ?? ''] ?? 'Label'} changed: ${quoted(change.from)} → ${quoted(change.to)}`;
		case 'base URL changed':
			return `Base URL changed: ${change.from ?? ''} → ${change.to ?? ''}`;
		case 'status note changed':
			return 'Status note changed';
		case 'configuration rotated':
			return `Configuration member ${change.field ?? ''} rotated`;
		case 'unreadable':
			return `Unreadable at ${change.commit?.short ?? 'this commit'}: the view schema refuses ${change.field ?? '(file)'} today; the next readable version is compared with the last readable one`;
	}
}

/** A commit's subject cut to `max` characters with an ellipsis, for a heading or a cell. */
export function shortSubject(subject: string, max = 120): string {
	const characters = [...subject];
	return characters.length <= max
		? subject
		: `${characters
				.slice(0, max - 1)
				.join('')
				.trimEnd()}…`;
}
