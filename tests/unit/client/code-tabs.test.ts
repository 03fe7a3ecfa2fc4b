/**
 * The code-sample tabs: keys as the WAI-ARIA tabs pattern moves, the ends of a row that scrolls, and
 * the language kept.
 */
import { describe, expect, it } from 'vitest';
import {
	hiddenEnds,
	initialTab,
	keepChosenLanguage,
	readChosenLanguage,
	SAMPLE_LANGUAGE_KEY,
	scrollToShow,
	tabForKey,
	type LanguageStore,
} from '../../../src/client/code-tabs/tabs.ts';

describe('tabForKey', () => {
	it.each([
		['ArrowRight', 0, 1],
		['ArrowRight', 3, 0],
		['ArrowLeft', 2, 1],
		['ArrowLeft', 0, 3],
		['Home', 2, 0],
		['End', 1, 3],
	])('%s from tab %i of four moves to tab %i', (key, current, expected) => {
		expect(tabForKey(key, current, 4)).toBe(expected);
	});

	it('leaves other keys, such as Tab and Enter, to the browser', () => {
		expect(tabForKey('Tab', 1, 4)).toBeUndefined();
		expect(tabForKey('Enter', 1, 4)).toBeUndefined();
		expect(tabForKey('ArrowDown', 1, 4)).toBeUndefined();
	});

	it('moves nowhere without tabs', () => {
		expect(tabForKey('ArrowRight', 0, 0)).toBeUndefined();
	});
});

describe('initialTab', () => {
	const labels = ['curl', 'Node (fetch)', 'Python (requests)', 'HTTPie'];

	it('opens on the language the reader chose', () => {
		expect(initialTab(labels, 'Python (requests)')).toBe(2);
	});

	it('opens on the first tab without a choice, or with one this set does not offer', () => {
		expect(initialTab(labels, null)).toBe(0);
		expect(initialTab(labels, 'Ruby')).toBe(0);
		expect(initialTab(labels, '')).toBe(0);
	});
});

/** A Web Storage stand-in that keeps items in a map. */
function memoryStore(): LanguageStore & { items: Map<string, string> } {
	const items = new Map<string, string>();
	return {
		items,
		getItem: (key) => items.get(key) ?? null,
		setItem: (key, value) => void items.set(key, value),
	};
}

/** A Web Storage stand-in that throws, as a browser with storage blocked does. */
const blockedStore: LanguageStore = {
	getItem: () => {
		throw new Error('SecurityError: storage is blocked');
	},
	setItem: () => {
		throw new Error('QuotaExceededError');
	},
};

describe('readChosenLanguage and keepChosenLanguage', () => {
	it('keeps the choice under the portal’s key and reads it back', () => {
		const store = memoryStore();
		expect(readChosenLanguage(store)).toBeNull();
		keepChosenLanguage(store, 'HTTPie');
		expect(store.items.get('console-portal:sample-language')).toBe('HTTPie');
		expect(SAMPLE_LANGUAGE_KEY).toBe('console-portal:sample-language');
		expect(readChosenLanguage(store)).toBe('HTTPie');
	});

	it('reads no choice and keeps none, without throwing, where storage is blocked or absent', () => {
		expect(readChosenLanguage(blockedStore)).toBeNull();
		expect(() => keepChosenLanguage(blockedStore, 'curl')).not.toThrow();
		expect(readChosenLanguage(undefined)).toBeNull();
		expect(() => keepChosenLanguage(undefined, 'curl')).not.toThrow();
	});
});

describe('hiddenEnds', () => {
	it('names no end when every tab is in sight, a pixel of rounding included', () => {
		expect(hiddenEnds({ scrollLeft: 0, clientWidth: 600, scrollWidth: 600 })).toBe('');
		expect(hiddenEnds({ scrollLeft: 0, clientWidth: 600, scrollWidth: 601 })).toBe('');
		expect(hiddenEnds({ scrollLeft: 1, clientWidth: 600, scrollWidth: 601 })).toBe('');
	});

	it('fades the end a phone’s row hides, then the start once it is scrolled to its end', () => {
		expect(hiddenEnds({ scrollLeft: 0, clientWidth: 342, scrollWidth: 640 })).toBe('end');
		expect(hiddenEnds({ scrollLeft: 2, clientWidth: 342, scrollWidth: 640 })).toBe('start end');
		expect(hiddenEnds({ scrollLeft: 296, clientWidth: 342, scrollWidth: 640 })).toBe('start end');
		expect(hiddenEnds({ scrollLeft: 297, clientWidth: 342, scrollWidth: 640 })).toBe('start');
		expect(hiddenEnds({ scrollLeft: 298, clientWidth: 342, scrollWidth: 640 })).toBe('start');
	});
});

describe('scrollToShow', () => {
	const row = { left: 10, right: 350 };

	it('leaves a tab that is whole and clear of the fades where it is', () => {
		expect(scrollToShow({ left: 60, right: 300 }, row, 40)).toBe(0);
		expect(scrollToShow({ left: 50, right: 310 }, row, 40)).toBe(0);
	});

	it('scrolls a tab past the right end into sight, clear of the fade there', () => {
		expect(scrollToShow({ left: 300, right: 380 }, row, 40)).toBe(70);
		expect(scrollToShow({ left: 300, right: 311 }, row, 40)).toBe(1);
	});

	it('scrolls a tab past the left end back into sight, clear of the fade there', () => {
		expect(scrollToShow({ left: -30, right: 40 }, row, 40)).toBe(-80);
		expect(scrollToShow({ left: 49, right: 120 }, row, 40)).toBe(-1);
	});

	it('without a fade, scrolls only as far as the row’s own edge', () => {
		expect(scrollToShow({ left: 300, right: 351 }, row, 0)).toBe(1);
		expect(scrollToShow({ left: 9, right: 60 }, row, 0)).toBe(-1);
		expect(scrollToShow({ left: 10, right: 350 }, row, 0)).toBe(0);
	});
});
