/** The theme switch's logic and the inline script that restores a choice before the first paint. */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { cspHash } from '../../../src/site/content-security-policy.ts';
import {
	applyThemeChoice,
	keepThemeChoice,
	parseThemeChoice,
	readThemeChoice,
	type ThemeStorage,
} from '../../../src/client/theme/theme.ts';
import { THEME_INIT_SCRIPT } from '../../../src/client/theme/theme-init.ts';

/** A localStorage that keeps entries in a map, or refuses every call as a strict browser does. */
function storage(
	entries: Record<string, string> = {},
	refuse = false,
): ThemeStorage & { entries: Map<string, string> } {
	const kept = new Map(Object.entries(entries));
	const check = (): void => {
		if (refuse) throw new DOMException('The operation is insecure.', 'SecurityError');
	};
	return {
		entries: kept,
		getItem: (key) => (check(), kept.get(key) ?? null),
		setItem: (key, value) => (check(), void kept.set(key, value)),
		removeItem: (key) => (check(), void kept.delete(key)),
	};
}

describe('parseThemeChoice', () => {
	it('takes light and dark as they are and anything else as the system theme', () => {
		expect(parseThemeChoice('light')).toBe('light');
		expect(parseThemeChoice('dark')).toBe('dark');
		expect(parseThemeChoice('system')).toBe('system');
		expect(parseThemeChoice(null)).toBe('system');
		expect(parseThemeChoice('Dark')).toBe('system');
		expect(parseThemeChoice('sepia')).toBe('system');
	});
});

describe('a kept theme choice', () => {
	it('is read back on the next page', () => {
		expect(readThemeChoice(storage({ 'console-portal-theme': 'dark' }))).toBe('dark');
		expect(readThemeChoice(storage({ 'console-portal-theme': 'light' }))).toBe('light');
	});

	it('is the system theme when nothing, something unknown or nothing readable is kept', () => {
		expect(readThemeChoice(storage())).toBe('system');
		expect(readThemeChoice(storage({ 'console-portal-theme': 'purple' }))).toBe('system');
		expect(readThemeChoice(storage({ 'console-portal-theme': 'dark' }, true))).toBe('system');
		expect(readThemeChoice(undefined)).toBe('system');
	});

	it('is kept under console-portal-theme, and choosing the system theme forgets it', () => {
		const kept = storage();
		keepThemeChoice(kept, 'dark');
		expect([...kept.entries]).toEqual([['console-portal-theme', 'dark']]);
		keepThemeChoice(kept, 'light');
		expect([...kept.entries]).toEqual([['console-portal-theme', 'light']]);
		keepThemeChoice(kept, 'system');
		expect([...kept.entries]).toEqual([]);
	});

	it('does not break the switch where the browser refuses storage', () => {
		expect(() => keepThemeChoice(storage({}, true), 'dark')).not.toThrow();
		expect(() => keepThemeChoice(undefined, 'dark')).not.toThrow();
	});
});

describe('applyThemeChoice', () => {
	it('sets data-theme to light or dark, and removes it for the system theme', () => {
		const root = { dataset: {} as DOMStringMap };
		applyThemeChoice(root, 'dark');
		expect(root.dataset).toEqual({ theme: 'dark' });
		applyThemeChoice(root, 'light');
		expect(root.dataset).toEqual({ theme: 'light' });
		applyThemeChoice(root, 'system');
		expect(root.dataset).toEqual({});
	});
});

/** What the inline script leaves on `<html>`, and the error listeners it adds to the window. */
interface InitScriptRun {
	dataset: DOMStringMap;
	classes: string[];
	errorListeners: { listener: (event: { target: unknown }) => void; capture: unknown }[];
}

/** Runs the inline script against a storage, with a window and `<html>` it can act on. */
function runInitScriptOn(kept: ThemeStorage): InitScriptRun {
	const classes: string[] = [];
	const errorListeners: InitScriptRun['errorListeners'] = [];
	const documentElement = {
		dataset: {} as DOMStringMap,
		classList: {
			add: (name: string) => classes.push(name),
			remove: (name: string) =>
				classes.splice(0, classes.length, ...classes.filter((c) => c !== name)),
		},
	};
	const addEventListener = (
		type: string,
		listener: (event: { target: unknown }) => void,
		capture: unknown,
	) => {
		if (type === 'error') errorListeners.push({ listener, capture });
	};
	runInNewContext(THEME_INIT_SCRIPT, {
		localStorage: kept,
		document: { documentElement },
		addEventListener,
	});
	return { dataset: documentElement.dataset, classes, errorListeners };
}

/** The `<html>` dataset the inline script leaves. */
function runInitScript(kept: ThemeStorage): DOMStringMap {
	return runInitScriptOn(kept).dataset;
}

describe('the inline script that restores the theme before the first paint', () => {
	it('puts a kept light or dark choice on <html>', () => {
		expect(runInitScript(storage({ 'console-portal-theme': 'dark' }))).toEqual({ theme: 'dark' });
		expect(runInitScript(storage({ 'console-portal-theme': 'light' }))).toEqual({
			theme: 'light',
		});
	});

	it('leaves <html> to the system theme when nothing or something unknown is kept', () => {
		expect(runInitScript(storage())).toEqual({});
		expect(runInitScript(storage({ 'console-portal-theme': '"><img>' }))).toEqual({});
	});

	it('does not throw where the browser refuses storage', () => {
		expect(runInitScript(storage({ 'console-portal-theme': 'dark' }, true))).toEqual({});
	});

	it('takes the class js away when a script fails to load, not when an image does', () => {
		const run = runInitScriptOn(storage());
		expect(run.errorListeners).toHaveLength(1);
		// Capturing: a script's error event does not bubble to the window.
		expect(run.errorListeners[0]?.capture).toBe(true);
		run.errorListeners[0]?.listener({ target: { tagName: 'IMG' } });
		run.errorListeners[0]?.listener({ target: {} });
		expect(run.classes).toEqual(['js']);
		run.errorListeners[0]?.listener({ target: { tagName: 'SCRIPT' } });
		expect(run.classes).toEqual([]);
	});

	it('marks <html> with the class js, once, whatever storage does', () => {
		expect(runInitScriptOn(storage()).classes).toEqual(['js']);
		expect(runInitScriptOn(storage({ 'console-portal-theme': 'dark' })).classes).toEqual(['js']);
		expect(runInitScriptOn(storage({}, true)).classes).toEqual(['js']);
	});
});

describe('cspHash', () => {
	it("gives a script's SHA-256 as a CSP source, of its exact UTF-8 text", () => {
		expect(cspHash('')).toBe('sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=');
		expect(cspHash('alert(1)')).toBe('sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=');
		expect(cspHash('é')).toBe('sha256-SplVfkAzw1Od4utlRyAXytX5VX96BiWgnxw/biumnEw=');
	});
});
