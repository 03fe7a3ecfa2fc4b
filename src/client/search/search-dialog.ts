/**
 * The search dialog, loaded only when search is opened: it imports Pagefind's own `pagefind.js`
 * from the built index, shows filters for page kind, environment and labels, and lists results
 * with their labels and excerpts as text. The query field and the results are a combobox and its
 * listbox (WAI-ARIA APG): the arrow keys move the active result while the field keeps the focus
 * (`aria-activedescendant`), and Enter opens the active result.
 */
import {
	excerptParts,
	inapplicableFilters,
	pagefindFilters,
	SEARCH_FILTERS,
	type SearchFilterName,
} from '../../shared/search.ts';
import {
	moveActiveResult,
	NO_ACTIVE_RESULT,
	listedBundles,
	readResult,
	resultCount,
	type ResultData,
} from './search.ts';
import { SEARCH_BUNDLES_FILE, SEARCH_INDEX_HREF } from '../../shared/urls.ts';

/** The parts of Pagefind's browser API the dialog uses. */
interface PagefindApi {
	init(): Promise<void>;
	mergeIndex(indexPath: string): Promise<void>;
	filters(): Promise<Record<string, Record<string, number>>>;
	search(
		query: string | null,
		options?: { filters?: Record<string, string> },
	): Promise<{ results: { id: string; data: () => Promise<unknown> }[] } | null>;
}

/** How many results the dialog shows at most. */
const MAX_RESULTS = 20;

/** Whether a loaded module offers the functions the dialog calls. */
function isPagefind(module: unknown): module is PagefindApi {
	if (typeof module !== 'object' || module === null) return false;
	const api = module as Record<string, unknown>;
	return ['init', 'mergeIndex', 'filters', 'search'].every(
		(name) => typeof api[name] === 'function',
	);
}

/** Creates an element with a class and optional text. */
function element<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	className?: string,
	text?: string,
): HTMLElementTagNameMap[K] {
	const node = document.createElement(tag);
	if (className) node.className = className;
	if (text !== undefined) node.textContent = text;
	return node;
}

/** The dialog and its controls, built once per page. */
class SearchDialog {
	readonly dialog = element('dialog', 'search-dialog');
	readonly input = element('input');
	readonly filters = element('div', 'search-filters');
	readonly status = element('p', 'search-status');
	readonly results = element('ol', 'search-results');
	readonly selects = new Map<SearchFilterName, HTMLSelectElement>();
	/** The results as listbox options, in order; `#active` indexes them. */
	#options: HTMLAnchorElement[] = [];
	#active = NO_ACTIVE_RESULT;
	#pagefind: Promise<PagefindApi> | undefined;
	#timer: ReturnType<typeof setTimeout> | undefined;
	#run = 0;

	constructor(readonly indexUrl: string) {
		this.dialog.setAttribute('aria-label', 'Search the portal');
		const head = element('div', 'search-head');
		const label = element('label', 'visually-hidden', 'Search the portal');
		label.htmlFor = 'search-query';
		this.input.id = 'search-query';
		this.input.type = 'search';
		this.input.autocomplete = 'off';
		this.input.spellcheck = false;
		this.input.placeholder = 'Names, emails, roles, hosts, labels…';
		this.input.setAttribute('role', 'combobox');
		this.input.setAttribute('aria-autocomplete', 'list');
		this.input.setAttribute('aria-controls', 'search-results');
		this.input.setAttribute('aria-expanded', 'false');
		const close = element('button', 'search-close', 'Close');
		close.type = 'button';
		close.addEventListener('click', () => this.dialog.close());
		head.append(label, this.input, close);
		this.status.setAttribute('role', 'status');
		this.results.id = 'search-results';
		this.results.setAttribute('role', 'listbox');
		this.results.setAttribute('aria-label', 'Search results');
		this.dialog.append(head, this.filters, this.status, this.results);
		this.dialog.addEventListener('click', (event) => {
			if (event.target === this.dialog) this.dialog.close();
		});
		this.input.addEventListener('input', () => this.schedule());
		this.input.addEventListener('keydown', (event) => this.onKey(event));
		document.body.append(this.dialog);
	}

	/** Loads Pagefind once: its script, then its filter list. */
	load(): Promise<PagefindApi> {
		this.#pagefind ??= (async () => {
			this.status.textContent = 'Loading search…';
			// The dev server has no index: Pagefind writes it after `astro build`.
			const module: unknown = await import(/* @vite-ignore */ `${this.indexUrl}pagefind.js`).catch(
				() => {
					throw new Error(NO_INDEX);
				},
			);
			if (!isPagefind(module)) throw new Error('The search index did not load');
			await module.init();
			// A large site's index comes in bundles, searched as one: their results ranked together.
			const bundles = await this.furtherBundles();
			await Promise.all(bundles.map((folder) => module.mergeIndex(`${this.indexUrl}${folder}`)));
			this.renderFilters(await module.filters());
			this.status.textContent = '';
			return module;
		})();
		return this.#pagefind;
	}

	/** The folders of the index's further bundles; none for an index written before bundles. */
	async furtherBundles(): Promise<string[]> {
		const answer = await fetch(`${this.indexUrl}${SEARCH_BUNDLES_FILE}`);
		if (answer.status === 404) return [];
		if (!answer.ok) throw new Error(`The search index's list of bundles answered ${answer.status}`);
		return listedBundles(await answer.json());
	}

	/** Builds one select per filter, each with "Any" and the values the index holds. */
	renderFilters(available: Record<string, Record<string, number>>): void {
		const fieldset = element('fieldset');
		fieldset.append(element('legend', 'visually-hidden', 'Filters'));
		for (const { name, label } of SEARCH_FILTERS) {
			const values = Object.entries(available[name] ?? {}).sort(([a], [b]) => a.localeCompare(b));
			if (values.length === 0) continue;
			const wrapper = element('label', undefined, `${label} `);
			const select = element('select');
			select.name = name;
			select.append(new Option('Any', ''));
			for (const [value, count] of values) select.append(new Option(`${value} (${count})`, value));
			select.addEventListener('change', () => this.schedule(0));
			wrapper.append(select);
			fieldset.append(wrapper);
			this.selects.set(name, select);
		}
		this.filters.replaceChildren(fieldset);
	}

	/** Runs the search after a short pause in typing. */
	schedule(delay = 120): void {
		clearTimeout(this.#timer);
		this.#timer = setTimeout(() => void this.search(), delay);
	}

	/** Shows a line in the status, marked as a note about the filters or not. */
	say(text: string, note = false): void {
		this.status.textContent = text;
		this.status.classList.toggle('search-note', note);
	}

	/**
	 * Searches for the query and filters, then shows the results if no newer search started.
	 * Filters that no page can carry together are named instead of searched for nothing.
	 */
	async search(): Promise<void> {
		const run = ++this.#run;
		const query = this.input.value.trim();
		const choices: Record<string, string> = {};
		for (const [name, select] of this.selects) choices[name] = select.value;
		const filters = pagefindFilters(choices);
		const inapplicable = inapplicableFilters(choices);
		if ((!query && !filters) || inapplicable) {
			this.showResults([]);
			this.say(inapplicable ?? '', inapplicable !== undefined);
			return;
		}
		try {
			const pagefind = await this.load();
			const found = await pagefind.search(query || null, filters ? { filters } : {});
			const hits = found?.results ?? [];
			const data = await Promise.all(hits.slice(0, MAX_RESULTS).map((hit) => hit.data()));
			if (run !== this.#run) return;
			const shown = data.map(readResult).filter((item) => item !== undefined);
			this.showResults(shown);
			this.say(resultCount(hits.length, query));
		} catch (error) {
			if (run !== this.#run) return;
			this.say(`Search failed: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	/** Replaces the results, with none of them active. */
	showResults(items: readonly ResultData[]): void {
		this.#options = items.map((item, index) => this.renderOption(item, index));
		this.results.replaceChildren(
			...this.#options.map((option) => {
				const li = element('li');
				li.setAttribute('role', 'none');
				li.append(option);
				return li;
			}),
		);
		this.input.setAttribute('aria-expanded', String(items.length > 0));
		this.setActive(NO_ACTIVE_RESULT);
	}

	/**
	 * One result as a listbox option: a link (so a click, a middle click or "open in new tab" work
	 * as on any link) holding its title, the view's labels, and the excerpt with matches marked.
	 */
	renderOption(item: ResultData, index: number): HTMLAnchorElement {
		const option = element('a', 'search-result');
		option.href = item.url;
		option.id = `search-result-${index}`;
		option.tabIndex = -1;
		option.setAttribute('role', 'option');
		option.append(element('span', 'search-title', item.title));
		if (item.labels) option.append(element('span', 'search-labels', item.labels));
		const excerpt = element('span', 'search-excerpt');
		for (const part of excerptParts(item.excerpt)) {
			excerpt.append(
				part.mark ? element('mark', undefined, part.text) : document.createTextNode(part.text),
			);
		}
		option.append(excerpt);
		return option;
	}

	/** Marks one result as active (or none), for assistive technology and the eye. */
	setActive(index: number): void {
		this.#active = index;
		for (const [position, option] of this.#options.entries()) {
			option.setAttribute('aria-selected', String(position === index));
		}
		const active = this.#options[index];
		if (active) {
			this.input.setAttribute('aria-activedescendant', active.id);
			active.scrollIntoView({ block: 'nearest' });
		} else {
			this.input.removeAttribute('aria-activedescendant');
		}
	}

	/** Arrow keys move through the results, Enter opens the active one; other keys type. */
	onKey(event: KeyboardEvent): void {
		if (event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
		if (event.key === 'Enter') {
			const active = this.#options[this.#active];
			if (!active) return;
			event.preventDefault();
			active.click();
			return;
		}
		const next = moveActiveResult(event.key, this.#active, this.#options.length);
		if (next === undefined) return;
		event.preventDefault();
		this.setActive(next);
	}

	/** Shows the dialog with the query field focused, and starts loading the index. */
	open(): void {
		if (!this.dialog.open) this.dialog.showModal();
		this.input.focus();
		this.input.select();
		this.load().catch((error: unknown) => {
			this.status.textContent = `Search is unavailable: ${error instanceof Error ? error.message : String(error)}`;
		});
	}
}

/** What search says when its index is not there, as in `npm run dev`. */
export const NO_INDEX =
	'the search index could not be loaded. The build writes it, so search works in `npm start`, not in `npm run dev`.';

let current: SearchDialog | undefined;

/**
 * Opens the page's search dialog, creating it on first use, with the index at `indexUrl` (the
 * search box's `data-index`) or else where the build writes it.
 */
export function openSearchDialog(indexUrl = SEARCH_INDEX_HREF): void {
	current ??= new SearchDialog(indexUrl);
	current.open();
}
