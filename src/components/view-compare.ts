/**
 * `<view-compare>`: reads `?a=<slug>&b=<slug>`, fetches both views' facts and shows their
 * differences side by side. Picking other views updates the address, so a comparison can be
 * shared as a link. A slug no view has is named, never swapped for another view. Every value is
 * shown as text.
 */
import {
	diffViews,
	readPair,
	unknownViewsMessage,
	type CompareFacts,
	type ViewDiff,
} from '../lib/compare.ts';

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
): HTMLElement {
	// A wide table scrolls in its box; a keyboard reader focuses the box, named as its table, to scroll it.
	// A named <section> is a region landmark.
	const wrapper = el('section', undefined, 'table-scroll');
	wrapper.tabIndex = 0;
	wrapper.setAttribute('aria-label', caption);
	const t = el('table');
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
			if (cellIndex === 0) {
				const th = el('th', text);
				th.scope = 'row';
				tr.append(th);
			} else tr.append(el('td', text));
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

/** The custom element behind the compare page. */
export class ViewCompare extends HTMLElement {
	#run = 0;

	connectedCallback(): void {
		const form = this.querySelector('form');
		const selects = [...this.querySelectorAll('select')];
		const slugs = [...(selects[0]?.options ?? [])].map((option) => option.value).filter(Boolean);
		const pair = readPair(location.search, slugs);
		const [selectA, selectB] = selects;
		if (!form || !selectA || !selectB) return;
		if (pair.a) selectA.value = pair.a;
		if (pair.b) selectB.value = pair.b;
		// A slug no view has stays visible in its list, as an option that cannot be compared.
		for (const { side, slug } of pair.unknown) {
			const select = side === 'a' ? selectA : selectB;
			const option = new Option(`${slug} (no such view)`, '', true, true);
			option.disabled = true;
			select.prepend(option);
		}
		form.addEventListener('submit', (event) => {
			event.preventDefault();
			void this.show(selectA.value, selectB.value, true);
		});
		for (const select of selects)
			select.addEventListener('change', () => void this.show(selectA.value, selectB.value, true));
		const status = this.querySelector('[role="status"]');
		if (pair.unknown.length > 0 && status) status.textContent = unknownViewsMessage(pair.unknown);
		else void this.show(selectA.value, selectB.value, false);
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
					const response = await fetch(`/compare/${encodeURIComponent(slug)}.json`);
					if (!response.ok) throw new Error(`${slug}: HTTP ${response.status}`);
					const body: unknown = await response.json();
					if (!isFacts(body)) throw new Error(`${slug}: not a view's facts`);
					return body;
				}),
			);
			if (run !== this.#run || !factsA || !factsB) return;
			output.replaceChildren(...renderDiff(factsA, factsB, diffViews(factsA, factsB)));
			status.textContent =
				a === b ? 'Both sides show the same view.' : `Compared ${factsA.name} with ${factsB.name}.`;
		} catch (error) {
			if (run !== this.#run) return;
			status.textContent = `The comparison could not load: ${error instanceof Error ? error.message : String(error)}`;
		}
	}
}

if (!customElements.get('view-compare')) customElements.define('view-compare', ViewCompare);
