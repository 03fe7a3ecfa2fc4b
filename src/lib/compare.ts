/**
 * Comparing two views: the facts the compare page reads for each view, and the differences
 * between two of them. Secret values never enter the facts: each secret member carries only a
 * number that is equal for views sharing the value, so the page can say "same" or "differs".
 */
import type { CONFIG_MEMBERS, Role } from '../schemas/view.ts';
import type { ViewHosts } from './hosts.ts';

/** A configuration member. */
export type ConfigMember = (typeof CONFIG_MEMBERS)[number];

/** What the compare page knows about one view: its labels, times, hosts and directory. */
export interface CompareFacts extends ViewHosts {
	slug: string;
	title: string;
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

/** How the directory changed from view A to view B, matched by email. */
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

/** Compares view A with view B. */
export function diffViews(a: CompareFacts, b: CompareFacts): ViewDiff {
	const facts = FACTS.map(([label, read]) => ({
		label,
		a: read(a),
		b: read(b),
		same: read(a) === read(b),
	}));
	const members = Object.keys(a.secrets) as ConfigMember[];
	const secrets = members.map((member) => ({
		member,
		same: a.secrets[member] === b.secrets[member],
	}));
	const byEmail = (users: CompareFacts['users']) =>
		new Map(users.map((user) => [user.email.toLowerCase(), user]));
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

/** Reads `?a=<slug>&b=<slug>` from a query string, keeping only known slugs. */
export function readPair(search: string, slugs: readonly string[]): { a?: string; b?: string } {
	const params = new URLSearchParams(search);
	const pick = (name: string): string | undefined => {
		const value = params.get(name);
		return value !== null && slugs.includes(value) ? value : undefined;
	};
	const pair: { a?: string; b?: string } = {};
	const a = pick('a');
	const b = pick('b');
	if (a) pair.a = a;
	if (b) pair.b = b;
	return pair;
}
