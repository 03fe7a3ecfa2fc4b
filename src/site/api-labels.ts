/**
 * The Versioning guide's table: one row per API label, not per view, so it stays the same size
 * however many views there are. Each row names a few of the label's views and counts the rest.
 */

/** How many views a label's row names before counting the rest. */
export const LABEL_SAMPLE = 5;

/** A view as the table needs it. */
export interface LabelledView {
	slug: string;
	view: { apiVersion?: string | undefined };
}

/** One API label (or none), how many views carry it, and the first few of them. */
export interface LabelGroup<V extends LabelledView> {
	/** The label, such as `v5.8`; undefined for the views that carry none. */
	label: string | undefined;
	total: number;
	shown: V[];
}

/** A label's major and minor numbers, for ordering `v10.1` after `v9.9`. */
function labelNumbers(label: string): [number, number] {
	const [, major = '0', minor = '0'] = /^v(\d+)\.(\d+)$/.exec(label) ?? [];
	return [Number(major), Number(minor)];
}

/** Labels newest first; the views without a label last. */
export function compareLabels(a: string | undefined, b: string | undefined): number {
	if (a === b) return 0;
	if (a === undefined) return 1;
	if (b === undefined) return -1;
	const [aMajor, aMinor] = labelNumbers(a);
	const [bMajor, bMinor] = labelNumbers(b);
	return bMajor - aMajor || bMinor - aMinor || (a < b ? -1 : 1);
}

/** Groups views (in display order) by API label, newest label first, naming `sample` of each. */
export function labelGroups<V extends LabelledView>(
	views: readonly V[],
	sample = LABEL_SAMPLE,
): LabelGroup<V>[] {
	const groups = new Map<string | undefined, LabelGroup<V>>();
	for (const entry of views) {
		const label = entry.view.apiVersion;
		let group = groups.get(label);
		if (!group) groups.set(label, (group = { label, total: 0, shown: [] }));
		group.total += 1;
		if (group.shown.length < sample) group.shown.push(entry);
	}
	return [...groups.values()].sort((a, b) => compareLabels(a.label, b.label));
}
