/** How the portal writes times: always UTC, the same on every machine that builds it. */

/** `2026-11-18T09:30:12.345Z` → `2026-11-18 09:30:12.345 UTC`. */
export function formatTimestamp(iso: string): string {
	return `${iso.slice(0, 10)} ${iso.slice(11, 23)} UTC`;
}

/** Short month names as British English writes them, made once: making one costs more than using it. */
const shortMonth = new Intl.DateTimeFormat('en-GB', { month: 'short', timeZone: 'UTC' });

/** `2026-11-18T09:30:12.345Z` → `18 Nov 2026, 09:30 UTC`, for tables where space is short. */
export function formatShortTimestamp(iso: string): string {
	const date = new Date(iso);
	const day = date.getUTCDate();
	const month = shortMonth.format(date);
	return `${day} ${month} ${date.getUTCFullYear()}, ${iso.slice(11, 16)} UTC`;
}
