/**
 * The try-it panel's behaviour, loaded when the reader first reaches the panel or uses it
 * (`try-it-panel.ts`): restores the tab's choices (`memory.ts`), writes the field for another key
 * and the request options (`request-options.ts`), lists the tab's last requests when it has some
 * (`history-view.ts`), and on the API reference starts the view picker, which fetches the
 * environment's views and a view's keys only now. Sending loads `send.ts` on the first Send.
 */
import { defaultServer, rememberedServer, SERVER_STORAGE_KEY } from './server-url.ts';
import {
	HISTORY_STORAGE_KEY,
	MEMORY_STORAGE_KEY,
	memoryText,
	readMemory,
	readTab,
	writeTab,
} from './memory.ts';
import { addRequestOptions } from './request-options.ts';

/**
 * The field for a key typed by the reader, hidden until "Another key…" is chosen: constant markup,
 * written here instead of into every view page.
 */
const OTHER_KEY =
	'<div class="field" data-other-key hidden><label for="try-it-other-key">Other key</label>' +
	'<input id="try-it-other-key" name="otherKey" type="text" autocomplete="off" ' +
	'autocapitalize="off" spellcheck="false" ' +
	'aria-describedby="try-it-other-key-hint try-it-other-key-problem">' +
	'<p id="try-it-other-key-hint" class="hint">Any key; leave it empty to send no Authorization ' +
	'header and see the 401.</p><p id="try-it-other-key-problem" class="problem" hidden></p></div>';

/** Sends the panel's request, loading what sending needs (`send.ts`) on the first Send. */
async function sendFrom(panel: HTMLElement): Promise<void> {
	const { send } = await import('./send.ts');
	await send(panel);
}

/**
 * Wires a panel, once: its memory, its fields, its options, its history and its view picker; then
 * hands back how to send its request.
 */
export async function wirePanel(panel: HTMLElement): Promise<() => Promise<void>> {
	const sender = (): Promise<void> => sendFrom(panel);
	const form = panel.querySelector('form');
	const key = panel.querySelector<HTMLSelectElement>('select[name="key"]');
	const server = panel.querySelector<HTMLInputElement>('[name="server"]');
	if (panel.dataset['ready'] !== undefined || !form || !key || !server) return sender;
	if (!panel.querySelector('[data-other-key]')) {
		key.closest('.field')?.insertAdjacentHTML('afterend', OTHER_KEY);
	}
	const otherKey = panel.querySelector<HTMLElement>('[data-other-key]');
	let stored: unknown;
	try {
		stored = localStorage.getItem(SERVER_STORAGE_KEY);
	} catch {
		// Storage refused: the default server stands.
	}
	const view = panel.dataset['view'];
	const memory = readMemory(readTab(MEMORY_STORAGE_KEY));
	// A mock on the page's own origin is named by its path, resolved on this page's address.
	server.value =
		memory.server ??
		rememberedServer(
			stored,
			defaultServer(panel.dataset['defaultServer'] ?? '', location.href) ?? server.value,
		);
	for (const option of key.options) {
		if (memory.view === view && (option.dataset['person'] ?? '') === memory.person) {
			option.selected = true;
		}
	}
	const remember = (): void => {
		const person = key.selectedOptions[0]?.dataset['person'] ?? '';
		// The view as it is now: on the API reference, the one its picker last handed over.
		const now = panel.dataset['view'];
		writeTab(MEMORY_STORAGE_KEY, memoryText({ view: now, person, server: server.value }));
	};
	form.addEventListener('change', remember);
	form.addEventListener('input', remember);
	const showOtherKey = (): void => {
		if (otherKey) otherKey.hidden = key.value !== '';
	};
	showOtherKey();
	key.addEventListener('change', showOtherKey);
	addRequestOptions(panel);
	const waits: Promise<unknown>[] = [];
	if (readTab(HISTORY_STORAGE_KEY)) {
		waits.push(import('./history-view.ts').then(({ showHistory }) => showHistory(panel)));
	}
	if (panel.querySelector('try-it-views')) waits.push(import('./view-picker.ts'));
	// The list and the picker could fail to load (offline, a new deploy): the panel works without them.
	await Promise.allSettled(waits);
	// Tests and the reader's scripts can tell the panel is whole.
	panel.dataset['ready'] = '';
	return sender;
}
