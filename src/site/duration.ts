/** How long between two instants, the way a person says it: one unit, rounded. */

/** The units, smallest first: each with how many of it make the next, and its words. */
const UNITS = [
	{ ms: 1000, next: 60, one: '1 s', many: 's' },
	{ ms: 60_000, next: 60, one: '1 min', many: 'min' },
	{ ms: 3_600_000, next: 24, one: '1 h', many: 'h' },
	{ ms: 86_400_000, next: Infinity, one: '1 day', many: 'days' },
] as const;

/**
 * `48 s`, `3 min`, `2 h`, `5 days`: rounded to the nearest whole unit, in the smallest unit that
 * keeps the count below the next one (47.655 s reads `48 s`, 59.6 s reads `1 min`, 90 min reads
 * `2 h`); `under 1 s` below half a second.
 */
export function formatDuration(ms: number): string {
	const total = Math.abs(ms);
	for (const { ms: size, next, one, many } of UNITS) {
		const count = Math.round(total / size);
		if (count >= next) continue;
		if (count === 0) return 'under 1 s';
		return count === 1 ? one : `${count} ${many}`;
	}
	return 'under 1 s';
}

/** A day in milliseconds. */
const DAY = 86_400_000;

/**
 * When a view was last updated, against one instant every view shares (the build's), so that
 * views can be compared: `2026-11-18, 6 days before this build` (`… after this build` for a time
 * past it). From a day apart, the count is of calendar days between the two UTC dates, so it adds
 * up with the date shown; under a day, the time apart (`3 h`). Dates are UTC, as everywhere on the
 * portal.
 */
export function updatedAgainstBuild(lastUpdated: string, builtAt: string): string {
	const gap = Date.parse(builtAt) - Date.parse(lastUpdated);
	const date = new Date(lastUpdated).toISOString().slice(0, 10);
	const dateOfBuild = new Date(builtAt).toISOString().slice(0, 10);
	const days = Math.abs(Date.parse(dateOfBuild) - Date.parse(date)) / DAY;
	const apart =
		Math.abs(gap) < DAY ? formatDuration(gap) : days === 1 ? '1 day' : `${String(days)} days`;
	return `${date}, ${apart} ${gap < 0 ? 'after' : 'before'} this build`;
}
