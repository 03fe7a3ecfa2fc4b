/**
 * `<try-it-views>`: the view picker of a try-it panel on a page without its own view (the API
 * reference). The reader picks an environment, then one of its views (an environment's list is
 * fetched when it is picked, as on the compare page, so the page stays the same size however
 * many views there are); the panel's key choices are then read from that view's own page
 * (`view-keys.ts`), and its directory check follows the view.
 */
import { readEnvironmentViews, type EnvironmentViews } from '../../shared/compare.ts';
import { compareEnvironmentHref, viewHref } from '../../shared/urls.ts';
import { MEMORY_STORAGE_KEY, readMemory, readTab } from './memory.ts';
import { chosenKey, readViewKeys, VIEW_SLUG, type ViewKeys } from './view-keys.ts';

/** Fetches a text of this site, refusing anything but a 200. */
async function fetchText(url: string): Promise<string> {
	const response = await fetch(url, { credentials: 'same-origin' });
	if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
	return response.text();
}

/** An error's message, for the status line. */
function message(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** The custom element behind the view picker of a try-it panel. */
export class TryItViews extends HTMLElement {
	#lists = new Map<string, Promise<EnvironmentViews>>();
	#run = 0;

	connectedCallback(): void {
		const environment = this.querySelector<HTMLSelectElement>('select[name="environment"]');
		const view = this.querySelector<HTMLSelectElement>('select[name="view"]');
		if (!environment || !view) return;
		environment.addEventListener('change', () => {
			void this.#pickEnvironment(environment.value, view);
		});
		view.addEventListener('change', () => {
			void this.#pickView(view.value);
		});
		// The page names one view to start with; its environment's other views are listed now.
		void this.#pickEnvironment(environment.value, view, view.value);
	}

	/** Lists an environment's views and picks `slug` (or its first). */
	async #pickEnvironment(
		environment: string,
		view: HTMLSelectElement,
		slug?: string,
	): Promise<void> {
		let list = this.#lists.get(environment);
		if (!list) {
			list = fetchText(compareEnvironmentHref(environment)).then((text) =>
				readEnvironmentViews(JSON.parse(text)),
			);
			this.#lists.set(environment, list);
			list.catch(() => this.#lists.delete(environment));
		}
		try {
			const { views } = await list;
			view.replaceChildren(...views.map((entry) => new Option(entry.name, entry.slug)));
			if (slug && views.some((entry) => entry.slug === slug)) view.value = slug;
		} catch (error) {
			this.#say(`The views of ${environment} could not load: ${message(error)}`);
			if (slug) await this.#pickView(slug);
			return;
		}
		await this.#pickView(view.value);
	}

	/** Reads a view's keys from its page and hands them to the panel. */
	async #pickView(slug: string): Promise<void> {
		const run = ++this.#run;
		if (!VIEW_SLUG.test(slug)) return;
		const url = viewHref(slug);
		this.#say('Reading the keys of the view…');
		let keys: ViewKeys;
		try {
			const html = await fetchText(url);
			keys = readViewKeys(new DOMParser().parseFromString(html, 'text/html'), url);
		} catch (error) {
			if (run === this.#run) {
				this.#say(`The keys could not load (${message(error)}); type a key under Another key.`);
			}
			return;
		}
		if (run !== this.#run) return;
		this.#handOver(slug, keys);
		this.#say(`The keys of ${keys.title}, from its page.`);
	}

	/**
	 * Gives the panel the view (its slug, name and directory) and its key choices, each naming its
	 * person, keeping "Another key…" last; then tells the form, so the request as curl, the tab's
	 * memory and the history follow the key now chosen.
	 */
	#handOver(slug: string, { title, directory, keys }: ViewKeys): void {
		const panel = this.closest<HTMLElement>('try-it');
		const select = panel?.querySelector<HTMLSelectElement>('select[name="key"]');
		if (!panel || !select) return;
		panel.dataset['view'] = slug;
		panel.dataset['viewTitle'] = title;
		panel.dataset['directory'] = directory;
		const other = [...select.options].filter((option) => option.value === '');
		select.replaceChildren(
			...keys.map(({ label, value, person }) => {
				const option = new Option(label, value);
				if (person) option.dataset['person'] = person;
				return option;
			}),
			...other,
		);
		select.selectedIndex = chosenKey(keys, slug, readMemory(readTab(MEMORY_STORAGE_KEY)));
		select.dispatchEvent(new Event('change', { bubbles: true }));
	}

	/** Says what the picker is doing, in its live status line. */
	#say(text: string): void {
		const status = this.querySelector('[role="status"]');
		if (status) status.textContent = text;
	}
}

if (!customElements.get('try-it-views')) customElements.define('try-it-views', TryItViews);
