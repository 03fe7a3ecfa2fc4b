/**
 * The try-it panel's last requests, kept for the tab (sessionStorage): when, which view, who, the
 * server, the status and how long it took. Like the memory, an entry holds who and where, never a
 * key: a person is their slug and the label the page gives them, and sending again reads the key
 * from the page that lists them. Stored text is checked entry by entry; a bad entry is dropped.
 */
import { normalServer } from './server-url.ts';
import { HISTORY_STORAGE_KEY, personSlugOf, viewSlug } from './memory.ts';
import { statusTone, type StatusTone } from './badge.ts';
import { formatElapsed } from './exchange.ts';

export { HISTORY_STORAGE_KEY };

/** How many requests the history keeps. */
export const HISTORY_LIMIT = 20;

/** The longest label or view title kept, in characters. */
const LABEL_MAX = 200;

/** One request sent from the panel. */
export interface HistoryEntry {
	/** When it was sent, in milliseconds since the epoch. */
	at: number;
	/** The view's slug, and its name as its page gives it. */
	view: string;
	viewTitle: string;
	/** The person's slug, `''` for a typed key (never kept), and how the page names them. */
	person: string;
	personLabel: string;
	server: string;
	/** The status of the answer, or 0 when none came. */
	status: number;
	/** How long it took, in milliseconds. */
	ms: number;
}

/** A label from storage: visible text of at most 200 characters, else undefined. */
function label(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() && value.length <= LABEL_MAX ? value : undefined;
}

/** A whole number in [min, max], else undefined. */
function whole(value: unknown, min: number, max: number): number | undefined {
	return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
		? (value as number)
		: undefined;
}

/** The entry in a stored value when every member is valid, else undefined. */
export function historyEntry(value: unknown): HistoryEntry | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const entry = value as Record<string, unknown>;
	const at = whole(entry['at'], 0, 8.64e15);
	const view = viewSlug(entry['view']);
	const viewTitle = label(entry['viewTitle']);
	const person = personSlugOf(entry['person']);
	const personLabel = label(entry['personLabel']);
	const server = typeof entry['server'] === 'string' ? normalServer(entry['server']) : undefined;
	const status = whole(entry['status'], 0, 999);
	const ms = whole(entry['ms'], 0, 3_600_000);
	if (
		at === undefined ||
		view === undefined ||
		viewTitle === undefined ||
		person === undefined ||
		personLabel === undefined ||
		server === undefined ||
		status === undefined ||
		ms === undefined
	) {
		return undefined;
	}
	return { at, view, viewTitle, person, personLabel, server, status, ms };
}

/** The history in a stored text, newest first: its valid entries, at most 20; else empty. */
export function readHistory(stored: unknown): HistoryEntry[] {
	let value: unknown;
	try {
		value = typeof stored === 'string' ? JSON.parse(stored) : undefined;
	} catch {
		// Stored text that is no JSON (cut, or written by another version): no history, as in a new
		// tab.
		return [];
	}
	if (!Array.isArray(value)) return [];
	return value.flatMap((item) => historyEntry(item) ?? []).slice(0, HISTORY_LIMIT);
}

/** The history with `entry` first, keeping the 20 newest; an invalid entry is not added. */
export function withEntry(history: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] {
	const valid = historyEntry(entry);
	return [...(valid ? [valid] : []), ...history].slice(0, HISTORY_LIMIT);
}

/** The text stored for a history: only the members of valid entries, so nothing else is written. */
export function historyText(history: readonly HistoryEntry[]): string {
	return JSON.stringify(history.flatMap((entry) => historyEntry(entry) ?? []));
}

/** What a history row shows. */
export interface HistoryRow {
	/** `14:03:07`, in the reader's time zone. */
	time: string;
	/** The full date and time, for `<time datetime>`. */
	datetime: string;
	view: string;
	person: string;
	/** `200`, or `no answer`. */
	status: string;
	/** `ok` (2xx), `client` (4xx), `server` (5xx), `other`, as the badge colours them. */
	tone: StatusTone;
	duration: string;
	/** Whether this page can send it again: its view is this page's and its key is on the page. */
	here: boolean;
}

/** What a row shows for an entry, on the page of view `pageView`. */
export function historyRow(entry: HistoryEntry, pageView: string): HistoryRow {
	const date = new Date(entry.at);
	const two = (n: number): string => String(n).padStart(2, '0');
	return {
		time: `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`,
		datetime: date.toISOString(),
		view: entry.viewTitle,
		person: entry.person === '' ? 'another key (not kept)' : entry.personLabel,
		status: entry.status === 0 ? 'no answer' : String(entry.status),
		tone: statusTone(entry.status),
		duration: formatElapsed(entry.ms),
		here: entry.view === pageView && entry.person !== '',
	};
}
