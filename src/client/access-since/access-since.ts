/**
 * `<access-since data-src="/access-since.json">`: a date field whose answer is who holds which
 * role where now that did not at the start of that day (UTC), and who lost it, computed here
 * from the secret-free file. The form is hidden until this script runs, so a page without
 * JavaScript shows the tags' own pages instead of a dead control. The picked date goes into the
 * address (`?date=2026-10-02`), so an answer can be shared. Every value is shown as text.
 */
import {
	beforeHistory,
	sinceRows,
	type SinceData,
	type SinceRow,
} from '../../shared/access-since.ts';
import { personHref } from '../../shared/urls.ts';
import { isSinceData, SHOWN_ROWS, startOfDay } from './since-date.ts';

/** Creates an element with optional text. */
function el<K extends keyof HTMLElementTagNameMap>(
	tag: K,
	text?: string,
): HTMLElementTagNameMap[K] {
	const node = document.createElement(tag);
	if (text !== undefined) node.textContent = text;
	return node;
}

/** The table of rows, as the tag pages show it. */
function rowsTable(rows: readonly SinceRow[], caption: string): HTMLElement {
	const wrapper = el('section');
	wrapper.className = 'table-scroll';
	wrapper.tabIndex = 0;
	wrapper.setAttribute('aria-label', caption);
	const table = el('table');
	table.className = 'since-rows stacked-table';
	table.append(el('caption', caption));
	const head = el('tr');
	for (const text of ['Change', 'Person', 'Environment', 'Role', 'Views then → now']) {
		const th = el('th', text);
		th.scope = 'col';
		head.append(th);
	}
	table.createTHead().append(head);
	const body = el('tbody');
	for (const row of rows) {
		const tr = el('tr');
		tr.dataset['change'] = row.change;
		const change = el('td', row.change);
		change.dataset['label'] = 'Change';
		const person = el('th');
		person.scope = 'row';
		person.dataset['label'] = 'Person';
		const who = el('span');
		if (row.slug) {
			const link = el('a', row.name);
			link.href = personHref(row.slug);
			who.append(link);
		} else who.append(el('bdi', row.name));
		const email = el('span', row.email);
		email.className = 'email';
		who.append(email);
		person.append(who);
		const cells: [string, string][] = [
			['Environment', row.environment],
			['Role', row.role],
			['Views then → now', `${row.then} → ${row.now}`],
		];
		tr.append(change, person);
		for (const [label, text] of cells) {
			const td = el('td', text);
			td.dataset['label'] = label;
			tr.append(td);
		}
		body.append(tr);
	}
	table.append(body);
	wrapper.append(table);
	return wrapper;
}

/** The custom element behind the date field of the since page. */
export class AccessSince extends HTMLElement {
	#data: Promise<SinceData> | undefined;

	connectedCallback(): void {
		const form = this.querySelector('form');
		const input = this.querySelector('input');
		const output = this.querySelector<HTMLElement>('[data-output]');
		if (!form || !input || !output) return;
		form.hidden = false;
		form.addEventListener('submit', (event) => {
			event.preventDefault();
			void this.#show(input.value, output, true);
		});
		const date = new URLSearchParams(window.location.search).get('date');
		if (date) {
			input.value = date;
			void this.#show(date, output, false);
		}
	}

	/** The file, fetched once. */
	#load(): Promise<SinceData> {
		this.#data ??= fetch(this.dataset['src'] ?? '').then(async (response) => {
			if (!response.ok) throw new Error(`HTTP ${response.status}`);
			const json: unknown = await response.json();
			if (!isSinceData(json)) throw new Error('the file is not in the expected shape');
			return json;
		});
		return this.#data;
	}

	/** Shows the net difference since a date, and puts the date in the address. */
	async #show(value: string, output: HTMLElement, remember: boolean): Promise<void> {
		const moment = startOfDay(value);
		if (moment === undefined) {
			output.replaceChildren(el('p', 'Pick a date, like 2026-10-02.'));
			return;
		}
		if (remember) {
			const url = new URL(window.location.href);
			url.searchParams.set('date', value);
			window.history.replaceState(null, '', url);
		}
		output.replaceChildren(el('p', 'Reading the history…'));
		let data: SinceData;
		try {
			data = await this.#load();
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			output.replaceChildren(el('p', `The history could not be read (${reason}).`));
			return;
		}
		if (!data.available) {
			output.replaceChildren(el('p', `History unavailable: ${data.reason}.`));
			return;
		}
		const rows = sinceRows(data, moment);
		const gained = rows.filter((row) => row.change === 'gained').length;
		const parts: HTMLElement[] = [];
		if (data.shallow && beforeHistory(data, moment)) {
			parts.push(
				el(
					'p',
					`History from ${data.start.slice(0, 10)} on; the clone is shallow, so ${value} is compared as of then.`,
				),
			);
		}
		parts.push(
			el(
				'p',
				`Since the start of ${value} (UTC): ${gained} roles gained and ${rows.length - gained} lost, by person and environment.`,
			),
		);
		if (rows.length > 0) {
			const shown = rows.slice(0, SHOWN_ROWS);
			const caption =
				rows.length > SHOWN_ROWS
					? `The first ${SHOWN_ROWS} of ${rows.length} changes since ${value}; access-changes.csv has every change`
					: `What changed in access since ${value}`;
			parts.push(rowsTable(shown, caption));
		}
		output.replaceChildren(...parts);
	}
}

if (!customElements.get('access-since')) customElements.define('access-since', AccessSince);
