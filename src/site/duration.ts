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

/** How long before `generatedAt` a view was last updated, e.g. `48 s`. */
export function updatedBefore(lastUpdated: string, generatedAt: string): string {
	return formatDuration(Date.parse(generatedAt) - Date.parse(lastUpdated));
}
