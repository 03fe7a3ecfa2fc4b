/**
 * The logic of the code-sample tabs (`src/client/code-tabs/code-tabs.ts`): which tab a key moves to,
 * as the WAI-ARIA tabs pattern has it, and the sample language a reader chose last, kept in
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
