/** How long between two instants, in words a reader takes in at a glance. */

const UNITS = [
	{ name: 'd', ms: 86_400_000 },
	{ name: 'h', ms: 3_600_000 },
	{ name: 'min', ms: 60_000 },
	{ name: 's', ms: 1000 },
] as const;

/** `47.655 s`, `12 min 3 s`, `2 h 5 min`, `3 d 4 h`: the two largest units, or ms below a second. */
export function formatDuration(ms: number): string {
	const total = Math.abs(Math.round(ms));
	if (total < 1000) return `${total} ms`;
	if (total < 60_000) return `${(total / 1000).toFixed(3).replace(/\.?0+$/, '')} s`;
	const parts: string[] = [];
	let rest = total;
	for (const { name, ms: size } of UNITS) {
		const count = Math.floor(rest / size);
		rest -= count * size;
		if (count > 0 || parts.length > 0) parts.push(`${count} ${name}`);
		if (parts.length === 2) break;
	}
	return parts.filter((part) => !part.startsWith('0 ')).join(' ');
}

/** How long before `generatedAt` a view was last updated, e.g. `47.655 s`. */
export function updatedBefore(lastUpdated: string, generatedAt: string): string {
	return formatDuration(Date.parse(generatedAt) - Date.parse(lastUpdated));
}
