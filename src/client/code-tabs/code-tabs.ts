/**
 * `<code-tabs>`: turns the stacked samples inside it (`.sample[data-tab-label]`) into tabs, the
 * WAI-ARIA tabs pattern with automatic activation: arrow keys, Home and End move between tabs,
 * only the selected tab is in the tab order. The reader's choice is kept (`src/client/code-tabs/tabs.ts`)
 * and followed by every other set of tabs on the page and on pages opened later. Without
 * JavaScript, the tab list stays hidden and every sample shows. A set with `data-group` (the
 * reference's response examples, `data-group="status"`) is another kind of tabs: its choice is
 * followed by the sets of its group on the page and never kept as the sample language. A panel
 * kept on another page (`data-sample-from`, on view pages) is fetched from it the first time its
 * tab opens. A row too wide for the screen scrolls sideways; its `data-more` names the ends that hide
 * tabs, where the row fades (CodeSamples.astro), and a tab chosen from the keyboard is scrolled
 * clear of the fade.
 */
import {
	hiddenEnds,
	initialTab,
	keepChosenLanguage,
	readChosenLanguage,
	scrollToShow,
	tabForKey,
	type LanguageStore,
} from './tabs.ts';

/** localStorage, or undefined where reading it throws (storage blocked for the site). */
function languageStore(): LanguageStore | undefined {
	try {
		return window.localStorage;
	} catch {
		// Even reading localStorage is refused where the site may not store: the tabs keep no
		// choice.
		return undefined;
	}
}

/** Fills an empty panel with the sample of its label from the page it names, else a link there. */
async function fillPanel(panel: HTMLElement): Promise<void> {
	const from = panel.dataset['sampleFrom'];
	if (!from || panel.childElementCount > 0) return;
	panel.setAttribute('aria-busy', 'true');
	try {
		const response = await fetch(from);
		if (!response.ok) throw new Error(`${from}: ${String(response.status)}`);
		const page = new DOMParser().parseFromString(await response.text(), 'text/html');
		const sample = [...page.querySelectorAll<HTMLElement>('.sample[data-tab-label]')].find(
			(other) => other.dataset['tabLabel'] === panel.dataset['tabLabel'],
		);
		if (!sample) throw new Error(`${from}: no ${panel.dataset['tabLabel'] ?? ''} sample`);
		sample.querySelector('h4')?.setAttribute('hidden', '');
		panel.replaceChildren(...[...sample.childNodes].map((node) => document.importNode(node, true)));
	} catch {
		// The sample's page could not be fetched or has no such sample: the panel links to it
		// instead.
		const link = document.createElement('a');
		link.href = from;
		link.textContent = `The ${panel.dataset['tabLabel'] ?? ''} sample`;
		panel.replaceChildren(link);
	} finally {
		panel.removeAttribute('aria-busy');
	}
}

/** The custom element behind every set of code-sample tabs. */
export class CodeTabs extends HTMLElement {
	#tabs: HTMLButtonElement[] = [];
	#panels: HTMLElement[] = [];

	connectedCallback(): void {
		const tablist = this.querySelector<HTMLElement>('[role="tablist"]');
		this.#tabs = [...this.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
		this.#panels = [...this.querySelectorAll<HTMLElement>(':scope > [data-tab-label]')];
		if (!tablist || this.#tabs.length === 0 || this.#tabs.length !== this.#panels.length) return;
		for (const [index, panel] of this.#panels.entries()) {
			panel.setAttribute('role', 'tabpanel');
			panel.setAttribute('aria-labelledby', this.#tabs[index]?.id ?? '');
			// The tab names the sample now; its heading would say it twice.
			const heading = panel.querySelector('h4');
			if (heading) heading.hidden = true;
		}
		// Shown first, so that selecting can measure the row and scroll the chosen tab into it.
		tablist.hidden = false;
		const showEnds = (): void => {
			const ends = hiddenEnds(tablist);
			if (ends) tablist.dataset['more'] = ends;
			else delete tablist.dataset['more'];
		};
		tablist.addEventListener('scroll', showEnds, { passive: true });
		new ResizeObserver(showEnds).observe(tablist);
		this.select(initialTab(this.labels, this.group ? null : readChosenLanguage(languageStore())));
		tablist.addEventListener('click', (event) => {
			const tab = this.#tabs.indexOf(event.target as HTMLButtonElement);
			if (tab !== -1) this.#choose(tab);
		});
		tablist.addEventListener('keydown', (event) => {
			const current = this.#tabs.indexOf(event.target as HTMLButtonElement);
			const tab = tabForKey(event.key, current, this.#tabs.length);
			if (current === -1 || tab === undefined) return;
			event.preventDefault();
			this.#choose(tab);
			this.#tabs[tab]?.focus();
		});
	}

	/** The kind of tabs, when they are not sample languages, e.g. `status`. */
	get group(): string | undefined {
		return this.dataset['group'];
	}

	/** The tabs' labels, in order. */
	get labels(): string[] {
		return this.#panels.map((panel) => panel.dataset['tabLabel'] ?? '');
	}

	/** Shows the sample at `index` and makes its tab the one in the tab order. */
	select(index: number): void {
		for (const [other, tab] of this.#tabs.entries()) {
			const selected = other === index;
			tab.setAttribute('aria-selected', String(selected));
			tab.tabIndex = selected ? 0 : -1;
			const panel = this.#panels[other];
			if (!panel) continue;
			panel.hidden = !selected;
			if (selected) void fillPanel(panel);
		}
		// On a phone the row scrolls: bring a chosen tab past either end into sight, clear of the
		// fade there (the row's scroll-padding).
		const tab = this.#tabs[index];
		const row = tab?.parentElement;
		if (tab && row) {
			const fade = parseFloat(getComputedStyle(row).scrollPaddingInlineStart) || 0;
			const by = scrollToShow(tab.getBoundingClientRect(), row.getBoundingClientRect(), fade);
			if (by !== 0) row.scrollLeft += by;
		}
	}

	/** A reader's choice: this set, every other set on the page that has it, and later pages. */
	#choose(index: number): void {
		const label = this.labels[index];
		if (label === undefined) return;
		if (!this.group) keepChosenLanguage(languageStore(), label);
		for (const tabs of document.querySelectorAll('code-tabs')) {
			if (!(tabs instanceof CodeTabs) || tabs.group !== this.group) continue;
			const same = tabs.labels.indexOf(label);
			if (same !== -1) tabs.select(same);
		}
	}
}

if (!customElements.get('code-tabs')) customElements.define('code-tabs', CodeTabs);
