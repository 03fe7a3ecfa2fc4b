/**
 * What the try-it panel remembers for the tab (sessionStorage): the view, the person and the
 * server last chosen, so that a reload or the next page starts where the reader left off. It holds
 * who and where, never a key: a person is their person slug (as `/people/<slug>/` names them), and
 * the key is read again from the page that lists them. Whatever storage hands back is checked here
 * before use; anything else gives the defaults. Loaded eagerly, so kept small.
 */
import { normalServer } from './server-url.ts';

/** Where the tab keeps the panel's choices (sessionStorage). */
export const MEMORY_STORAGE_KEY = 'console-portal.try-it.memory';

/** Where the tab keeps the panel's last requests (sessionStorage); read by `history.ts`. */
export const HISTORY_STORAGE_KEY = 'console-portal.try-it.history';

/** The text the tab keeps under `name`, or null when there is none or storage refuses. */
export function readTab(name: string): string | null {
	try {
		return sessionStorage.getItem(name);
	} catch {
		// Storage refused (private mode, disabled): nothing kept, as in a new tab.
		return null;
	}
}

/** Keeps `text` under `name` for the tab, or forgets it (`null`); a refusal is let pass. */
export function writeTab(name: string, text: string | null): void {
	try {
		if (text === null) sessionStorage.removeItem(name);
		else sessionStorage.setItem(name, text);
	} catch {
		// Storage refused (private mode, quota, disabled): the panel works without memory.
	}
}

/** The panel's choices as remembered: each one absent when not chosen or not valid. */
export interface TryItMemory {
	/** The view's slug, e.g. `production`. */
	view?: string | undefined;
	/** The person's slug, e.g. `ada.lovelace`; `''` for "Another key…", whose key is never kept. */
	person?: string | undefined;
	/** The server address, in its normal form. */
	server?: string | undefined;
}

/** A view slug: lowercase letters, digits and single hyphens, at most 63 characters. */
const VIEW = /^(?=.{1,63}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** A person slug as `personSlug` writes it (lowercase letters, digits, `.`, `-`, `_`), or `''`. */
const PERSON = /^[a-z0-9._-]{0,800}$/;

/** The view slug in `value` when it is one, else undefined. */
export function viewSlug(value: unknown): string | undefined {
	return typeof value === 'string' && VIEW.test(value) ? value : undefined;
}

/** The person slug in `value` when it is one (`''` for another key), else undefined. */
export function personSlugOf(value: unknown): string | undefined {
	return typeof value === 'string' && PERSON.test(value) ? value : undefined;
}

/** The memory in a stored text, member by member: what is missing or malformed is left out. */
export function readMemory(stored: unknown): TryItMemory {
	let value: unknown;
	try {
		value = typeof stored === 'string' ? JSON.parse(stored) : undefined;
	} catch {
		// Stored text that is no JSON (cut, or written by another version): nothing remembered, as
		// in a new tab.
		return {};
	}
	if (typeof value !== 'object' || value === null) return {};
	const { view, person, server } = value as Record<string, unknown>;
	const memory: TryItMemory = {};
	const slug = viewSlug(view);
	const who = personSlugOf(person);
	const where = typeof server === 'string' ? normalServer(server) : undefined;
	if (slug !== undefined) memory.view = slug;
	if (who !== undefined) memory.person = who;
	if (where !== undefined) memory.server = where;
	return memory;
}

/** The text stored for a memory: its valid members only, so nothing else can be written. */
export function memoryText(memory: TryItMemory): string {
	return JSON.stringify(readMemory(JSON.stringify(memory)));
}
