/**
 * `<theme-select>`: the header's theme switch (system, light, dark). A choice shows at once, is
 * kept for the next pages (`src/client/theme/theme.ts`) and follows a choice made in another tab. The
 * switch is hidden until this script runs: without JavaScript the page follows the system.
 */
import {
	applyThemeChoice,
	keepThemeChoice,
	parseThemeChoice,
	readThemeChoice,
	THEME_STORAGE_KEY,
} from './theme.ts';

/** localStorage, or nothing where the browser refuses even to show it. */
function storage(): Storage | undefined {
	try {
		return localStorage;
	} catch {
		// Even reading localStorage is refused where the site may not store: the choice holds for
		// this page.
		return undefined;
	}
}

/** The custom element behind the theme switch. */
export class ThemeSelect extends HTMLElement {
	readonly #onStorage = (event: StorageEvent): void => {
		if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
		this.#show(parseThemeChoice(event.newValue));
	};

	connectedCallback(): void {
		const select = this.querySelector('select');
		if (!select) return;
		const kept = readThemeChoice(storage());
		select.value = kept;
		// The inline script at the top of the page has done this already; here it is made sure of.
		applyThemeChoice(document.documentElement, kept);
		select.addEventListener('change', () => {
			const choice = parseThemeChoice(select.value);
			keepThemeChoice(storage(), choice);
			applyThemeChoice(document.documentElement, choice);
		});
		window.addEventListener('storage', this.#onStorage);
	}

	disconnectedCallback(): void {
		window.removeEventListener('storage', this.#onStorage);
	}

	/** Shows a choice made elsewhere, in the switch and on the page. */
	#show(choice: ReturnType<typeof parseThemeChoice>): void {
		const select = this.querySelector('select');
		if (select) select.value = choice;
		applyThemeChoice(document.documentElement, choice);
	}
}

if (!customElements.get('theme-select')) customElements.define('theme-select', ThemeSelect);
