/**
 * Comparing two views: the facts the compare page reads for each view, and the differences
 * between two of them. Secret values never enter the facts: each secret member carries only a
 * number that is equal for views sharing the value, so the page can say "same" or "differs".
 */
import type { CONFIG_MEMBERS, Role } from '../schemas/view.ts';
import type { ViewHosts } from './hosts.ts';
import { emailKey } from './person-key.ts';

/** A configuration member. */
export type ConfigMember = (typeof CONFIG_MEMBERS)[number];

/** What the compare page knows about one view: its labels, times, hosts and directory. */
export interface CompareFacts extends ViewHosts {
	slug: string;
	/** The view's name, as its page and every link to it give it. */
	name: string;
	environment: string;
	configuration: string | null;
	apiVersion: string | null;
	lastUpdated: string;
	generatedAt: string;
	/** Per secret member, a number shared by exactly the views holding the same value. */
	secrets: Record<ConfigMember, number>;
	users: { name: string; email: string; role: Role }[];
}

/** One compared fact. */
export interface FactRow {
	label: string;
	a: string;
	b: string;
	same: boolean;
}

/** How the directory changed from view A to view B, matched by email as the people pages match it. */
export interface DirectoryDiff {
	added: CompareFacts['users'];
	removed: CompareFacts['users'];
	roleChanged: { name: string; email: string; from: Role; to: Role }[];
	unchanged: number;
}

/** The differences between two views. */
export interface ViewDiff {
	facts: FactRow[];
	secrets: { member: ConfigMember; same: boolean }[];
	directory: DirectoryDiff;
}

const FACTS: readonly [string, (facts: CompareFacts) => string][] = [
	['Environment', (f) => f.environment],
	['Configuration label', (f) => f.configuration ?? 'none'],
	['API label', (f) => f.apiVersion ?? 'none'],
	['Last updated', (f) => f.lastUpdated],
	['Generated at', (f) => f.generatedAt],
	['Console host', (f) => f.apiHost],
	['Console port', (f) => f.apiPort],
	['Database host', (f) => f.databaseHost],
	['Database port', (f) => f.databasePort],
	['Database name', (f) => f.databaseName],
	['Cache host', (f) => f.redisHost],
	['Cache port', (f) => f.redisPort],
];

/** One view's facts as labelled values, in the order the comparison lists them. */
export function factRows(facts: CompareFacts): { label: string; value: string }[] {
	return FACTS.map(([label, read]) => ({ label, value: read(facts) }));
}

/** A directory in the order both sides of a comparison list it: by email, as people are matched. */
export function usersByEmail(users: CompareFacts['users']): CompareFacts['users'] {
	return [...users].sort((x, y) => {
		const [left, right] = [emailKey(x.email), emailKey(y.email)];
		return left < right ? -1 : left > right ? 1 : 0;
	});
}

/** Compares view A with view B. */
export function diffViews(a: CompareFacts, b: CompareFacts): ViewDiff {
	const rowsB = factRows(b);
	const facts = factRows(a).map(({ label, value }, index) => {
		const other = rowsB[index]?.value ?? '';
		return { label, a: value, b: other, same: value === other };
	});
	const members = Object.keys(a.secrets) as ConfigMember[];
	const secrets = members.map((member) => ({
		member,
		same: a.secrets[member] === b.secrets[member],
	}));
	const byEmail = (users: CompareFacts['users']) =>
		new Map(users.map((user) => [emailKey(user.email), user]));
	const before = byEmail(a.users);
	const after = byEmail(b.users);
	const directory: DirectoryDiff = { added: [], removed: [], roleChanged: [], unchanged: 0 };
	for (const [email, user] of after) {
		const old = before.get(email);
		if (!old) directory.added.push(user);
		else if (old.role !== user.role) {
			directory.roleChanged.push({
				name: user.name,
				email: user.email,
				from: old.role,
				to: user.role,
			});
		} else directory.unchanged += 1;
	}
	for (const [email, user] of before) if (!after.has(email)) directory.removed.push(user);
	return { facts, secrets, directory };
}

/** A side of the comparison, as the address names it. */
export type Side = 'a' | 'b';

/** The views an address asks to compare, by slug, as given (not yet known to exist). */
export interface RequestedPair {
	a?: string;
	b?: string;
}

/** Reads `?a=<slug>&b=<slug>` from a query string; an empty or missing side is left out. */
export function readPair(search: string): RequestedPair {
	const params = new URLSearchParams(search);
	const pair: RequestedPair = {};
	for (const side of ['a', 'b'] as const) {
		const slug = params.get(side)?.trim();
		if (slug) pair[side] = slug;
	}
	return pair;
}

/*
 * The pages that compare two views without JavaScript (under SIDE_ROOT in urls.ts): the compare
 * page shows two frames, and each picks its view through these small pages: the environments,
 * then an environment's views a page at a time. Such a page also holds the views it lists, each
 * shown only when the address targets it (`#view-<slug>`), so picking a view needs no page per
 * view. They are the only pages another page of the portal may frame.
 */

/** The id of the list of views on a side page; linking to it shows the list again. */
export const SIDE_LIST_ID = 'views';

/** The id of a view on a side page: never the list's, whatever the slug. */
export function sideCardId(slug: string): string {
	return `view-${slug}`;
}

/** The two sides of the comparison. */
export const SIDES = ['a', 'b'] as const;

/** The view each side starts on, the first two views (or the one view twice), as the scripted comparison does. */
export function sideStarts<T>(
	views: readonly T[],
): { side: (typeof SIDES)[number]; start: T | undefined }[] {
	return SIDES.map((side, index) => ({ side, start: views[index] ?? views[0] }));
}

/** One environment's views as the compare page lists them: `/compare/environments/<env>.json`. */
export interface EnvironmentViews {
	environment: string;
	views: { slug: string; name: string }[];
}

/** Reads a fetched environment list; anything else is refused, naming what was wrong. */
export function readEnvironmentViews(value: unknown): EnvironmentViews {
	if (typeof value !== 'object' || value === null) {
		throw new Error('expected an object with an environment and its views');
	}
	const { environment, views } = value as Record<string, unknown>;
	if (typeof environment !== 'string' || !Array.isArray(views)) {
		throw new Error('expected an object with an environment and its views');
	}
	return {
		environment,
		views: views.map((entry: unknown, index) => {
			const { slug, name } = (entry ?? {}) as Record<string, unknown>;
			if (typeof slug !== 'string' || typeof name !== 'string') {
				throw new Error(`views[${index}]: expected { slug, name }`);
			}
			return { slug, name };
		}),
	};
}

/** A slug the address gives that no view has, with its side. */
export interface UnknownView {
	side: Side;
	slug: string;
}

/** What the page says when the address names a view that does not exist, naming each slug. */
export function unknownViewsMessage(unknown: readonly UnknownView[]): string {
	const asked = unknown.map(({ side, slug }) => `view ${side.toUpperCase()} "${slug}"`);
	const which = unknown.length === 1 ? 'that slug' : 'those slugs';
	const pick = unknown.length === 1 ? `view ${unknown[0]?.side.toUpperCase() ?? ''}` : 'both views';
	return `The address asks for ${asked.join(' and ')}, but no view has ${which}. Pick ${pick} from the list.`;
}
