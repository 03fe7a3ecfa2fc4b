/**
 * The reader's theme: the system's (the default), light or dark. A chosen theme is kept in
 * localStorage and shown as `data-theme` on `<html>`, which the colour tokens in global.css follow;
 * without it the page follows `prefers-color-scheme`. The script that restores it before the first
 * paint is built here too, so the layout renders it and astro.config.mjs hashes it into the
 * Content-Security-Policy from one source.
 */

/** The choices the theme switch offers, in its order. */
export const THEME_CHOICES = ['system', 'light', 'dark'] as const;

/** What the reader chose: follow the system, or one theme whatever the system says. */
export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** The localStorage key the choice is kept under. */
export const THEME_STORAGE_KEY = 'console-portal-theme';

/** The part of localStorage the switch uses. */
export type ThemeStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** The part of `<html>` the theme is written on. */
export interface ThemeRoot {
	dataset: DOMStringMap;
}

/** A stored or selected value as a choice; anything unknown (or nothing) is the system's. */
export function parseThemeChoice(value: unknown): ThemeChoice {
	return value === 'light' || value === 'dark' ? value : 'system';
}

/** The reader's kept choice; the system's when nothing is kept or storage is refused. */
export function readThemeChoice(storage: ThemeStorage | undefined): ThemeChoice {
	try {
		return parseThemeChoice(storage?.getItem(THEME_STORAGE_KEY));
	} catch {
		// Storage refused (private mode, strict settings): the system's theme, as with nothing
		// kept.
		return 'system';
	}
}

/** Keeps a choice; the system's is kept as no entry at all. Refused storage keeps nothing. */
export function keepThemeChoice(storage: ThemeStorage | undefined, choice: ThemeChoice): void {
	try {
		if (choice === 'system') storage?.removeItem(THEME_STORAGE_KEY);
		else storage?.setItem(THEME_STORAGE_KEY, choice);
	} catch {
		// Private modes and strict settings refuse storage: the choice holds for this page only.
	}
}

/** Shows a choice on `<html>`: `data-theme="light"` or `"dark"`, none for the system's. */
export function applyThemeChoice(root: ThemeRoot, choice: ThemeChoice): void {
	if (choice === 'system') delete root.dataset['theme'];
	else root.dataset['theme'] = choice;
}
