/**
 * `<view-compare>`: reads `?a=<slug>&b=<slug>`, fetches both views' facts and shows their
 * differences side by side. Each side picks an environment, then one of its views; an
 * environment's views are fetched when it is picked. Picking other views updates the address, so a comparison can be
 * shared as a link. A slug no view has is named, never swapped for another view. Every value is
 * shown as text.
 */
import {
	diffViews,
	readEnvironmentViews,
	readPair,
	unknownViewsMessage,
	type CompareFacts,
	type EnvironmentViews,
	type Side,
	type UnknownView,
	type ViewDiff,
} from '../../shared/compare.ts';
import { compareEnvironmentHref, compareFactsHref } from '../../shared/urls.ts';

/** What a view slug looks like; anything else is not asked for. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Creates an element with optional text. */
function el<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	text?: string,
	className?: string,
): HTMLElementTagNameMap[K] {
	const node = document.createElement(tag);
	if (text !== undefined) node.textContent = text;
	if (className) node.className = className;
	return node;
}

/** Whether fetched JSON looks like compare facts. */
function isFacts(value: unknown): value is CompareFacts {
	if (typeof value !== 'object' || value === null) return false;
	const facts = value as Record<string, unknown>;
	return (
		typeof facts['slug'] === 'string' &&
		Array.isArray(facts['users']) &&
		typeof facts['secrets'] === 'object'
	);
}

/** A table with a caption, a header row and body rows of text cells (first cell a row header). */
function table(
	caption: string,
	head: readonly string[],
	rows: readonly (readonly string[])[],
	changed: readonly boolean[] = [],
	stacked = false,
): HTMLElement {
	// A wide table scrolls in its box; a keyboard reader focuses the box, named as its table, to scroll it.
	// A named <section> is a region landmark.
	const wrapper = el('section', undefined, 'table-scroll');
	wrapper.tabIndex = 0;
	wrapper.setAttribute('aria-label', caption);
	// On a phone a stacked table shows each row as labelled lines (global.css), never cut off.
	const t = el('table', undefined, stacked ? 'stacked-table' : undefined);
	t.append(el('caption', caption));
	const headRow = el('tr');
	for (const text of head) {
		const th = el('th', text);
		th.scope = 'col';
		headRow.append(th);
	}
	t.append(el('thead'));
	t.tHead?.append(headRow);
	const body = el('tbody');
	rows.forEach((cells, index) => {
		const tr = el('tr');
		if (changed[index]) tr.className = 'changed';
		cells.forEach((text, cellIndex) => {
			const cell = cellIndex === 0 ? el('th', text) : el('td', text);
			if (cellIndex === 0) cell.scope = 'row';
			cell.dataset['label'] = head[cellIndex] ?? '';
			tr.append(cell);
		});
		body.append(tr);
	});
	t.append(body);
	wrapper.append(t);
	return wrapper;
}

/** Renders a diff of view A against view B. */
function renderDiff(a: CompareFacts, b: CompareFacts, diff: ViewDiff): HTMLElement[] {
	const changedFacts = diff.facts.filter((row) => !row.same).length;
	const summary = el(
		'p',
		`${changedFacts} of ${diff.facts.length} facts differ; ${diff.secrets.filter((row) => !row.same).length} of ${diff.secrets.length} secret values differ.`,
		'compare-summary',
	);
	const facts = table(
		'Labels, timestamps, hosts, ports and database names',
		['Fact', a.name, b.name, 'Same?'],
		diff.facts.map((row) => [row.label, row.a, row.b, row.same ? 'same' : 'differs']),
		diff.facts.map((row) => !row.same),
		true,
	);
	const secrets = table(
		'Configuration secrets, compared without showing them',
		['Member', 'Value'],
		diff.secrets.map((row) => [row.member, row.same ? 'same' : 'differs']),
		diff.secrets.map((row) => !row.same),
	);
	const { added, removed, roleChanged, unchanged } = diff.directory;
	const directoryRows = [
		...added.map((user) => [user.name, user.email, '—', user.role, 'added']),
		...removed.map((user) => [user.name, user.email, user.role, '—', 'removed']),
		...roleChanged.map((user) => [user.name, user.email, user.from, user.to, 'role changed']),
	];
	const directoryHeading = el('h2', 'Directory changes');
	const directoryNote = el(
		'p',
		`From ${a.name} to ${b.name}: ${added.length} added, ${removed.length} removed, ${roleChanged.length} with another role, ${unchanged} unchanged (matched by email).`,
	);
	const parts: HTMLElement[] = [
		summary,
		el('h2', 'Facts'),
		facts,
		el('h2', 'Secrets'),
		secrets,
		directoryHeading,
		directoryNote,
	];
	if (directoryRows.length > 0) {
		parts.push(
			table(
				'Users added, removed or with another role',
				['Name', 'Email', `Role in ${a.name}`, `Role in ${b.name}`, 'Change'],
				directoryRows,
			),
		);
	}
	return parts;
}

/** One side's two lists: its environment, and that environment's views. */
interface Picker {
	side: Side;
	environment: HTMLSelectElement;
	view: HTMLSelectElement;
}

/** Fetches JSON from this site; `undefined` when there is no such file (404). */
async function fetchJson(url: string): Promise<unknown> {
	const response = await fetch(url);
	if (response.status === 404) return undefined;
	if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
	return response.json();
}

/** The custom element behind the compare page. */
export class ViewCompare extends HTMLElement {
	#run = 0;
	/** Each view's facts and each environment's list, fetched once per page. */
	#facts = new Map<string, Promise<CompareFacts | undefined>>();
	#lists = new Map<string, Promise<EnvironmentViews>>();

	connectedCallback(): void {
		const form = this.querySelector('form');
		const pickers = (['a', 'b'] as const).map((side) => ({
			side,
			environment: this.querySelector<HTMLSelectElement>(`select[data-environment="${side}"]`),
			view: this.querySelector<HTMLSelectElement>(`select[data-view="${side}"]`),
		}));
		const [a, b] = pickers;
		if (!form || !a?.environment || !a.view || !b?.environment || !b.view) return;
		const ready = pickers as Picker[];
		form.addEventListener('submit', (event) => {
			event.preventDefault();
			void this.compareSelected(ready, true);
		});
		for (const picker of ready) {
			picker.environment.addEventListener('change', () => {
				void this.pickEnvironment(picker, picker.environment.value).then(() =>
					this.compareSelected(ready, true),
				);
			});
			picker.view.addEventListener('change', () => void this.compareSelected(ready, true));
		}
		void this.start(ready);
	}

	/** Opens on the views the address names (or the page's first two), each in its list. */
	async start(pickers: Picker[]): Promise<void> {
		const status = this.querySelector('[role="status"]');
		const pair = readPair(location.search);
		const unknown: UnknownView[] = [];
		try {
			await Promise.all(
				pickers.map(async (picker) => {
					const slug = pair[picker.side] ?? picker.view.value;
					const facts = SLUG.test(slug) ? await this.facts(slug) : undefined;
					if (facts) return this.pickEnvironment(picker, facts.environment, slug);
					// A slug no view has stays visible in its list, as an option that cannot be compared.
					unknown.push({ side: picker.side, slug });
					const option = new Option(`${slug} (no such view)`, '', true, true);
					option.disabled = true;
					picker.view.prepend(option);
					return this.pickEnvironment(picker, picker.environment.value, '');
				}),
			);
		} catch (error) {
			if (status) status.textContent = `The views could not load: ${message(error)}`;
			return;
		}
		if (unknown.length > 0 && status) {
			unknown.sort((x, y) => x.side.localeCompare(y.side));
			status.textContent = unknownViewsMessage(unknown);
		} else await this.compareSelected(pickers, false);
	}

	/** Fills a side's view list with an environment's views, selecting `slug` (or the first). */
	async pickEnvironment(picker: Picker, environment: string, slug?: string): Promise<void> {
		let list = this.#lists.get(environment);
		if (!list) {
			list = fetchJson(compareEnvironmentHref(environment)).then((body) => {
				if (body === undefined) throw new Error(`no environment "${environment}"`);
				return readEnvironmentViews(body);
			});
			this.#lists.set(environment, list);
			list.catch(() => this.#lists.delete(environment));
		}
		const { views } = await list;
		picker.environment.value = environment;
		const kept = [...picker.view.options].filter((option) => option.disabled && slug === '');
		picker.view.replaceChildren(
			...kept,
			...views.map(({ slug: value, name }) => new Option(name, value)),
		);
		if (slug !== '') picker.view.value = slug ?? views[0]?.slug ?? '';
	}

	/** A view's facts; `undefined` when no view has the slug. */
	facts(slug: string): Promise<CompareFacts | undefined> {
		let facts = this.#facts.get(slug);
		if (!facts) {
			facts = fetchJson(compareFactsHref(slug)).then((body) => {
				if (body === undefined) return undefined;
				if (!isFacts(body)) throw new Error(`${slug}: not a view's facts`);
				return body;
			});
			this.#facts.set(slug, facts);
			facts.catch(() => this.#facts.delete(slug));
		}
		return facts;
	}

	/** Compares the two views the lists show. */
	compareSelected(pickers: Picker[], remember: boolean): Promise<void> {
		const [a, b] = pickers;
		return this.show(a?.view.value ?? '', b?.view.value ?? '', remember);
	}

	/** Fetches both views' facts and shows the comparison. */
	async show(a: string, b: string, remember: boolean): Promise<void> {
		const output = this.querySelector('[data-output]');
		const status = this.querySelector('[role="status"]');
		if (!output || !status) return;
		const run = ++this.#run;
		if (!a || !b) {
			output.replaceChildren();
			status.textContent = 'Pick two views to compare.';
			return;
		}
		if (remember) history.replaceState(null, '', `?${new URLSearchParams({ a, b }).toString()}`);
		status.textContent = 'Comparing…';
		try {
			const [factsA, factsB] = await Promise.all(
				[a, b].map(async (slug) => {
					const facts = await this.facts(slug);
					if (!facts) throw new Error(`no view has the slug "${slug}"`);
					return facts;
				}),
			);
			if (run !== this.#run || !factsA || !factsB) return;
			output.replaceChildren(...renderDiff(factsA, factsB, diffViews(factsA, factsB)));
			status.textContent =
				a === b ? 'Both sides show the same view.' : `Compared ${factsA.name} with ${factsB.name}.`;
		} catch (error) {
			if (run !== this.#run) return;
			status.textContent = `The comparison could not load: ${message(error)}`;
		}
	}
}

/** An error's message, for the status line. */
function message(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

if (!customElements.get('view-compare')) customElements.define('view-compare', ViewCompare);
