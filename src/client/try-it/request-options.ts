/**
 * The try-it panel's request options, written into the form when the panel is first reached:
 * headers and query parameters the reader adds, edits and removes (the contract's names offered
 * in a `<datalist>`), the mock's controls as choices (status, example, dynamic, delay, fault, all
 * sent as `Prefer`), and the curl command of the request as built so far. What the tab keeps of
 * them (`readOptions`) never holds a key: an `Authorization` header, or any row whose name or value
 * holds a key in any of its forms (`src/shared/key-forms.ts`: any case, base64, hex…, percent-encoded
 * or not) or a bearer credential, is not kept, nor an example that is a key.
 */
import { choices } from 'virtual:try-it-choices';
import { holdsKey } from '../../shared/key-forms.ts';
import { buildRequest, MAX_ROWS, type MockChoices, type RequestRow } from './request.ts';
import { normalServer } from './server-url.ts';
import { readTab, writeTab } from './memory.ts';

/** Where the tab keeps the request options (sessionStorage). */
export const OPTIONS_STORAGE_KEY = 'console-portal.try-it.options';

/** The request options as the panel reads them from its fields. */
export interface RequestOptions {
	headers: RequestRow[];
	query: RequestRow[];
	controls: MockChoices;
	/** QUERY, with its body, when the contract has one and the reader chose it; not kept for the tab. */
	method?: 'GET' | 'QUERY';
	body?: string;
	/** The media type a QUERY asks its answer in (`Accept`), when the reader chose one; not kept. */
	accept?: string;
}

/** A name or value that must not be kept: a credential's header, or a credential's scheme. */
const SECRET_NAME = /^(?:authorization|proxy-authorization|cookie)$/i;
const CREDENTIAL = /\bbearer\s|\bbasic\s/i;

/** Whether a text holds a credential: a key in any of its forms, or a scheme's word before one. */
const secret = (text: string): boolean => CREDENTIAL.test(text) || holdsKey(text);

/** A row from storage, when both its texts are strings of at most 1,024 characters. */
function storedRow(value: unknown): RequestRow | undefined {
	if (typeof value !== 'object' || value === null) return undefined;
	const { name, value: text } = value as Record<string, unknown>;
	return typeof name === 'string' &&
		typeof text === 'string' &&
		name.length <= 1024 &&
		text.length <= 1024
		? { name, value: text }
		: undefined;
}

/** Whether a row may be kept for the tab: nothing in it is, or looks like, a credential. */
export function keepable({ name, value }: RequestRow): boolean {
	return !SECRET_NAME.test(name.trim()) && !secret(value) && !secret(name);
}

/** The options in a stored text, member by member; what is malformed, or a credential, is left out. */
export function readOptions(stored: unknown): RequestOptions {
	let value: unknown;
	try {
		value = typeof stored === 'string' ? JSON.parse(stored) : undefined;
	} catch {
		// Stored text that is no JSON: no options kept, as in a new tab.
		value = undefined;
	}
	const record =
		typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
	const rows = (list: unknown): RequestRow[] =>
		(Array.isArray(list) ? list : [])
			.slice(0, MAX_ROWS)
			.flatMap((entry) => storedRow(entry) ?? [])
			.filter(keepable);
	const raw =
		typeof record['controls'] === 'object' && record['controls'] !== null
			? (record['controls'] as Record<string, unknown>)
			: {};
	const text = (name: string, pattern: RegExp): string | undefined => {
		const entry = raw[name];
		return typeof entry === 'string' && pattern.test(entry) ? entry : undefined;
	};
	const controls: MockChoices = {};
	const code = text('code', /^\d{3}$/);
	const example = text('example', /^[a-z0-9-]{1,63}$/);
	const delay = text('delay', /^\d{1,5}(?:-\d{1,5})?$/);
	const fault = text('fault', /^[a-z-]{1,20}$/);
	if (code) controls.code = code;
	// A key in lower case, or its hex, is shaped as a view's slug is.
	if (example && !holdsKey(example)) controls.example = example;
	if (delay) controls.delay = delay;
	if (fault) controls.fault = fault;
	if (raw['dynamic'] === true) controls.dynamic = true;
	return { headers: rows(record['headers']), query: rows(record['query']), controls };
}

/** The text kept for the tab: the valid, keepable options only. */
export function optionsText(options: RequestOptions): string {
	return JSON.stringify(readOptions(JSON.stringify(options)));
}

/** Escapes text for an attribute or element written with `insertAdjacentHTML`. */
const escape = (text: string): string =>
	text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** `<option>`s of a `<datalist>` or `<select>`, each value its own label. */
const options = (values: readonly string[]): string =>
	values.map((value) => `<option value="${escape(value)}">${escape(value)}</option>`).join('');

/** A labelled field of the controls. */
const field = (id: string, label: string, control: string, hint = ''): string =>
	`<div class="field"><label for="${id}">${label}</label>${control}${hint}</div>`;

/** The options' markup: constant but for the contract's names, escaped. */
function optionsMarkup(): string {
	return (
		'<details class="options" data-options><summary>Headers, query and mock controls</summary>' +
		'<fieldset class="controls"><legend>Ask the mock for an answer (sent as <code>Prefer</code>)</legend>' +
		field(
			'try-it-code',
			'Status',
			`<select id="try-it-code" name="code"><option value="">As the key decides</option>${options(choices.statuses)}</select>`,
		) +
		field(
			'try-it-example',
			'Example',
			'<input id="try-it-example" name="example" list="try-it-examples" autocomplete="off" ' +
				'spellcheck="false" placeholder="a view’s slug"><datalist id="try-it-examples"></datalist>',
		) +
		field(
			'try-it-delay',
			'Delay (ms)',
			'<input id="try-it-delay" name="delay" inputmode="numeric" autocomplete="off" placeholder="500 or 100-500">',
		) +
		field(
			'try-it-fault',
			'Fault',
			`<select id="try-it-fault" name="fault"><option value="">None</option>${options(choices.faults)}</select>`,
		) +
		'<label class="check"><input type="checkbox" name="dynamic"> Generate the body from the schema (dynamic)</label>' +
		'</fieldset>' +
		queryMarkup() +
		rowsMarkup('headers', 'Headers', 'header') +
		rowsMarkup('query', 'Query parameters', 'query parameter') +
		`<datalist id="try-it-header-names">${options(choices.headers)}</datalist>` +
		`<datalist id="try-it-query-names">${options(choices.query)}</datalist>` +
		'<div class="block-head"><h4>The request, as curl</h4>' +
		'<copy-button data-target="try-it-preview"><button type="button" hidden aria-label="Copy the curl command of this request">Copy</button><span role="status"></span></copy-button></div>' +
		'<pre class="curl" tabindex="0"><code id="try-it-preview"></code></pre>' +
		'<p class="problem" data-options-problem hidden></p></details>'
	);
}

/**
 * The method and body, when the contract has a QUERY /api/v2/users: GET, or QUERY with a JSON
 * body that starts as the contract's example; and, where QUERY answers in more than one media
 * type, which to ask for with `Accept` (none at first).
 */
function queryMarkup(): string {
	if (choices.queryBody === undefined) return '';
	const types = choices.queryAnswerTypes ?? [];
	const accept =
		types.length > 1
			? field(
					'try-it-accept',
					'Answer as (Accept, sent with QUERY)',
					`<select id="try-it-accept" name="accept"><option value="">As the mock chooses</option>${options(types)}</select>`,
				)
			: '';
	return (
		'<fieldset class="controls method"><legend>Method</legend>' +
		field(
			'try-it-method',
			'Method',
			'<select id="try-it-method" name="method"><option value="GET">GET</option><option value="QUERY">QUERY, with a body</option></select>',
		) +
		field(
			'try-it-body',
			'Body (JSON, sent with QUERY)',
			`<textarea id="try-it-body" name="body" rows="3" spellcheck="false" autocomplete="off">${escape(choices.queryBody)}</textarea>`,
		) +
		accept +
		'</fieldset>'
	);
}

/** A list of rows with its add button. */
const rowsMarkup = (kind: string, legend: string, noun: string): string =>
	`<fieldset class="rows" data-rows="${kind}"><legend>${legend}</legend><div data-list></div>` +
	`<button type="button" data-add>Add a ${noun}</button></fieldset>`;

/** Adds a row to a list, with the given texts, and returns its name field. */
function addRow(list: HTMLElement, kind: string, { name, value }: RequestRow): HTMLInputElement {
	const noun = kind === 'headers' ? 'Header' : 'Query parameter';
	const row = document.createElement('div');
	row.className = 'row';
	row.innerHTML =
		`<input data-name aria-label="${noun} name" list="try-it-${kind === 'headers' ? 'header' : 'query'}-names" autocomplete="off" spellcheck="false">` +
		`<input data-value aria-label="${noun} value" autocomplete="off" spellcheck="false">` +
		`<button type="button" data-remove>Remove</button>`;
	const [nameInput, valueInput] = row.querySelectorAll('input');
	if (!nameInput || !valueInput) throw new Error('try-it: a row without its fields');
	nameInput.value = name;
	valueInput.value = value;
	const remove = row.querySelector('button');
	const label = (): void =>
		remove?.setAttribute(
			'aria-label',
			`Remove the ${noun.toLowerCase()} ${nameInput.value}`.trim(),
		);
	label();
	nameInput.addEventListener('input', label);
	list.append(row);
	return nameInput;
}

/** The rows of one list, as typed. */
function rowsOf(panel: HTMLElement, kind: string): RequestRow[] {
	return [...panel.querySelectorAll(`[data-rows="${kind}"] .row`)].map((row) => ({
		name: row.querySelector<HTMLInputElement>('[data-name]')?.value ?? '',
		value: row.querySelector<HTMLInputElement>('[data-value]')?.value ?? '',
	}));
}

/** The request options as the panel's fields hold them now. */
export function readChoices(panel: HTMLElement): RequestOptions {
	const value = (name: string): string =>
		panel
			.querySelector<HTMLInputElement | HTMLSelectElement>(`[data-options] [name="${name}"]`)
			?.value.trim() ?? '';
	const controls: MockChoices = {};
	for (const name of ['code', 'example', 'delay', 'fault'] as const) {
		const text = value(name);
		if (text) controls[name] = text;
	}
	if (panel.querySelector<HTMLInputElement>('[data-options] [name="dynamic"]')?.checked) {
		controls.dynamic = true;
	}
	const chosen = { headers: rowsOf(panel, 'headers'), query: rowsOf(panel, 'query'), controls };
	if (value('method') !== 'QUERY') return chosen;
	const body = panel.querySelector<HTMLTextAreaElement>('[data-options] [name="body"]')?.value;
	const accept = value('accept');
	return { ...chosen, method: 'QUERY', body: body ?? '', ...(accept ? { accept } : {}) };
}

/** The key the panel would send now: the chosen person's, or the typed one. */
function keyOf(panel: HTMLElement): string {
	const key = panel.querySelector<HTMLSelectElement>('select[name="key"]')?.value ?? '';
	return key || (panel.querySelector<HTMLInputElement>('[name="otherKey"]')?.value.trim() ?? '');
}

/** Shows the curl command of the request as built now, or why it cannot be sent. */
function showPreview(panel: HTMLElement): void {
	const preview = panel.querySelector('#try-it-preview');
	const problem = panel.querySelector<HTMLElement>('[data-options-problem]');
	const serverText = panel.querySelector<HTMLInputElement>('[name="server"]')?.value ?? '';
	if (!preview || !problem) return;
	const built = buildRequest({
		server: normalServer(serverText) ?? serverText.trim(),
		key: keyOf(panel),
		...readChoices(panel),
	});
	preview.textContent = built.ok ? built.request.curl : '';
	problem.textContent = built.ok ? '' : built.problems.join(' ');
	problem.hidden = built.ok;
}

/** The examples offered: the page's own view, and the views its picker lists. */
function offerExamples(panel: HTMLElement): void {
	const list = panel.querySelector('#try-it-examples');
	const slugs = new Set<string>();
	if (panel.dataset['view']) slugs.add(panel.dataset['view']);
	for (const option of panel.querySelectorAll<HTMLOptionElement>('select[name="view"] option')) {
		slugs.add(option.value);
	}
	list?.replaceChildren(...[...slugs].map((slug) => new Option(slug, slug)));
}

/** Writes the request options into the panel's form, restores the tab's, and keeps them current. */
export function addRequestOptions(panel: HTMLElement): void {
	const form = panel.querySelector('form');
	const submit = form?.querySelector('button[type="submit"]');
	if (!form || !submit || panel.querySelector('[data-options]')) return;
	submit.insertAdjacentHTML('beforebegin', optionsMarkup());
	const details = panel.querySelector<HTMLDetailsElement>('[data-options]');
	if (!details) return;
	const kept = readOptions(readTab(OPTIONS_STORAGE_KEY));
	for (const kind of ['headers', 'query'] as const) {
		const list = panel.querySelector<HTMLElement>(`[data-rows="${kind}"] [data-list]`);
		const add = panel.querySelector<HTMLButtonElement>(`[data-rows="${kind}"] [data-add]`);
		if (!list || !add) continue;
		for (const row of kept[kind]) addRow(list, kind, row);
		add.addEventListener('click', () => {
			if (list.children.length >= MAX_ROWS) return;
			addRow(list, kind, { name: '', value: '' }).focus();
			showPreview(panel);
		});
		list.addEventListener('click', (event) => {
			const remove = (event.target as Element).closest('[data-remove]');
			if (!remove) return;
			remove.closest('.row')?.remove();
			add.focus();
			update();
		});
	}
	const set = (name: string, value: string | undefined): void => {
		const control = details.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="${name}"]`);
		if (control && value) control.value = value;
	};
	set('code', kept.controls.code);
	set('example', kept.controls.example);
	set('delay', kept.controls.delay);
	set('fault', kept.controls.fault);
	const dynamic = details.querySelector<HTMLInputElement>('[name="dynamic"]');
	if (dynamic) dynamic.checked = kept.controls.dynamic === true;
	// Open when the tab had asked for something, so the reader sees what will be sent.
	const chosen = readChoices(panel);
	details.open =
		chosen.headers.length > 0 || chosen.query.length > 0 || Object.keys(chosen.controls).length > 0;
	const update = (): void => {
		writeTab(OPTIONS_STORAGE_KEY, optionsText(readChoices(panel)));
		showPreview(panel);
	};
	form.addEventListener('input', update);
	form.addEventListener('change', update);
	details.querySelector('#try-it-example')?.addEventListener('focus', () => offerExamples(panel));
	offerExamples(panel);
	showPreview(panel);
}
