/** The code-sample tabs: keys as the WAI-ARIA tabs pattern moves, and the language kept. */
import { describe, expect, it } from 'vitest';
import {
	initialTab,
	keepChosenLanguage,
	readChosenLanguage,
	SAMPLE_LANGUAGE_KEY,
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
