/**
 * Whose directory the users an answer lists are: this view's, another view's or none the portal
 * was built with, by the fingerprint of their emails. Every text comes back plain, for
 * `textContent`. The panel's check of an answer against the contract is the one every caller
 * makes, src/shared/exchange-check.ts, with validators compiled at build time by
 * src/integrations/try-it-validators.ts.
 */

/**
 * A directory's fingerprint: FNV-1a (64 bits) of its users' emails, sorted, one a line, as 16 hex
 * digits. The build writes one per view; the panel computes one from an answer. It names a
 * directory, not a secret: the emails are on the view's page.
 */
export function directoryFingerprint(emails: readonly string[]): string {
	// The default order of strings is by UTF-16 code unit, as the build and the panel both need.
	const text = [...emails].sort().join('\n');
	let hash = 0xcbf29ce484222325n;
	for (const byte of new TextEncoder().encode(text)) {
		hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
	}
	return hash.toString(16).padStart(16, '0');
}

/** A field of a value read from JSON, `undefined` when the value is not an object. */
function field(value: unknown, name: string): unknown {
	return typeof value === 'object' && value !== null
		? (value as Readonly<Record<string, unknown>>)[name]
		: undefined;
}

/** The emails of the users a body lists, or `undefined` when it lists none. */
export function answerEmails(body: unknown): string[] | undefined {
	const users = field(body, 'users');
	if (!Array.isArray(users)) return undefined;
	const emails = users.flatMap((user: unknown) => {
		const email = field(user, 'email');
		return typeof email === 'string' ? [email] : [];
	});
	return emails.length ? emails : undefined;
}

/** A view as the directory map names it. */
export interface NamedView {
	slug: string;
	title: string;
}

/**
 * Fingerprint to the views whose directory it is. The build publishes one file per fingerprint,
 * `/try-it/directories/<fingerprint>.json`, each a map of that one fingerprint.
 */
export type DirectoryMap = Readonly<Record<string, readonly NamedView[]>>;

/** Reads the directory map as fetched; anything else is refused with where it went wrong. */
export function readDirectoryMap(value: unknown): DirectoryMap {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new Error('try-it directories: expected an object of fingerprints');
	}
	const map: Record<string, NamedView[]> = {};
	for (const [fingerprint, views] of Object.entries(value)) {
		if (!Array.isArray(views)) {
			throw new Error(`try-it directories: ${fingerprint}: expected a list of views`);
		}
		map[fingerprint] = views.map((view: unknown, index) => {
			const slug = field(view, 'slug');
			const title = field(view, 'title');
			if (
				typeof slug === 'string' &&
				/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) &&
				typeof title === 'string'
			) {
				return { slug, title };
			}
			throw new Error(
				`try-it directories: ${fingerprint}[${index}]: expected { slug, title } with a lowercase slug`,
			);
		});
	}
	return map;
}

/** Whose directory an answer lists, as the panel says it; a view named gets a link. */
export interface Whose {
	kind: 'this-view' | 'other-view' | 'no-view';
	text: string;
	/** The views to link to, for `other-view`. */
	views: NamedView[];
}

/**
 * Says whose directory the users are: this view's (its fingerprint is `own`), another view's
 * (named, from `directories`), or no view's this portal was built with.
 */
export function whoseDirectory(
	emails: readonly string[],
	own: { fingerprint: string; title: string },
	directories: DirectoryMap | undefined,
): Whose {
	const fingerprint = directoryFingerprint(emails);
	if (fingerprint === own.fingerprint) {
		return {
			kind: 'this-view',
			text: `These are the users of this view, ${own.title}.`,
			views: [],
		};
	}
	if (!directories) {
		return {
			kind: 'no-view',
			text: `These are not the users of this view, ${own.title}; the portal's list of directories could not be read to say whose they are.`,
			views: [],
		};
	}
	const views = directories[fingerprint] ?? [];
	if (views.length === 0) {
		return {
			kind: 'no-view',
			text: `These users match no view's directory exactly (of the views this portal was built with), so which view the key belongs to cannot be said.`,
			views: [],
		};
	}
	const names = views.map(({ title, slug }) => `${title} (${slug})`).join(' or ');
	return {
		kind: 'other-view',
		text: `This key belongs to another view: these are the users of ${names}, not of this view, ${own.title}.`,
		views: [...views],
	};
}

/** The directory map the build publishes: each view under its directory's fingerprint. */
export function directoryMap(
	views: readonly { slug: string; title: string; emails: readonly string[] }[],
): DirectoryMap {
	const map: Record<string, NamedView[]> = {};
	for (const { slug, title, emails } of views) {
		(map[directoryFingerprint(emails)] ??= []).push({ slug, title });
	}
	return map;
}
