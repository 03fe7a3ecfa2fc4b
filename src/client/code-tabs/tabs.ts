/**
 * The logic of the code-sample tabs (`src/client/code-tabs/code-tabs.ts`): which tab a key moves to,
 * as the WAI-ARIA tabs pattern has it, which ends of a row that scrolls sideways hide tabs, how far
 * to scroll it to show one, and the sample language a reader chose last, kept in
 * localStorage so every page opens on it.
 */

/** Where the chosen sample language is kept. */
export const SAMPLE_LANGUAGE_KEY = 'console-portal:sample-language';

/** The tab a key moves focus to from tab `current` of `count`, or undefined for other keys. */
export function tabForKey(key: string, current: number, count: number): number | undefined {
	if (count === 0) return undefined;
	switch (key) {
		case 'ArrowRight':
			return (current + 1) % count;
		case 'ArrowLeft':
			return (current - 1 + count) % count;
		case 'Home':
			return 0;
		case 'End':
			return count - 1;
		default:
			return undefined;
	}
}

/** The tab to open: the one labelled as the reader's choice, else the first. */
export function initialTab(labels: readonly string[], chosen: string | null | undefined): number {
	return Math.max(chosen ? labels.indexOf(chosen) : -1, 0);
}

/** The part of Web Storage the tabs use. */
export type LanguageStore = Pick<Storage, 'getItem' | 'setItem'>;

/** The language the reader chose last; null when none, or when storage is blocked. */
export function readChosenLanguage(store: LanguageStore | undefined): string | null {
	try {
		return store?.getItem(SAMPLE_LANGUAGE_KEY) ?? null;
	} catch {
		// Storage blocked for the site: no choice kept, so the first tab opens, as on a first
		// visit.
		return null;
	}
}

/** Keeps the reader's choice; a blocked or full storage only means the next page opens on curl. */
export function keepChosenLanguage(store: LanguageStore | undefined, label: string): void {
	try {
		store?.setItem(SAMPLE_LANGUAGE_KEY, label);
	} catch {
		// Nothing to do: the choice still holds on this page.
	}
}

/** Where a row of tabs scrolls: how far it is scrolled, and its visible and whole widths. */
export interface RowScroll {
	scrollLeft: number;
	clientWidth: number;
	scrollWidth: number;
}

/**
 * The ends of a row of tabs that hide more tabs, as its `data-more` says them: `start`, `end`,
 * `start end`, or `''` when every tab is in sight. A pixel of rounding is no more.
 */
export function hiddenEnds({ scrollLeft, clientWidth, scrollWidth }: RowScroll): string {
	const ends: string[] = [];
	if (scrollLeft > 1) ends.push('start');
	if (scrollWidth - clientWidth - scrollLeft > 1) ends.push('end');
	return ends.join(' ');
}

/**
 * How far to scroll a row (positive: to the right) so a tab is whole in it, clear of the fade
 * `margin` wide at each end; 0 when it is already.
 */
export function scrollToShow(
	tab: { left: number; right: number },
	row: { left: number; right: number },
	margin: number,
): number {
	const past = tab.right + margin - row.right;
	if (past > 0) return past;
	const before = tab.left - margin - row.left;
	return before < 0 ? before : 0;
}
