/**
 * `<try-it data-default-server="http://127.0.0.1:4010">`: the try-it panel. Without JavaScript
 * its form stays hidden and a note points at the curl command. This eager part only wires the
 * form and restores the tab's choices (`memory.ts`); sending loads `send.ts` on the first Send, and
 * the list of last requests (`history-view.ts`) loads when the tab has one.
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

/** The custom element behind the try-it panel. */
export class TryItPanel extends HTMLElement {
	connectedCallback(): void {
		const form = this.querySelector('form');
		const key = this.querySelector<HTMLSelectElement>('select[name="key"]');
		const otherKey = this.querySelector<HTMLElement>('[data-other-key]');
		const server = this.querySelector<HTMLInputElement>('[name="server"]');
		const summary = this.querySelector('[data-summary]');
		if (!form || !key || !otherKey || !server || !summary) return;
		let stored: unknown;
		try {
			stored = localStorage.getItem(SERVER_STORAGE_KEY);
		} catch {
			// Storage refused: the default server stands.
		}
		const view = this.dataset['view'];
		const memory = readMemory(readTab(MEMORY_STORAGE_KEY));
		// A mock on the page's own origin is named by its path, resolved on this page's address.
		server.value =
			memory.server ??
			rememberedServer(
				stored,
				defaultServer(this.dataset['defaultServer'] ?? '', location.href) ?? server.value,
			);
		for (const option of key.options) {
			if (memory.view === view && (option.dataset['person'] ?? '') === memory.person) {
				option.selected = true;
			}
		}
		const remember = (): void => {
			const person = key.selectedOptions[0]?.dataset['person'] ?? '';
			writeTab(MEMORY_STORAGE_KEY, memoryText({ view, person, server: server.value }));
		};
		form.addEventListener('change', remember);
		form.addEventListener('input', remember);
		const showOtherKey = (): void => {
			otherKey.hidden = key.value !== '';
		};
		showOtherKey();
		key.addEventListener('change', showOtherKey);
		form.addEventListener('submit', (event) => {
			event.preventDefault();
			import('./send.ts').then(
				({ send }) => send(this),
				() => (summary.textContent = 'The panel could not load. Reload the page and send again.'),
			);
		});
		this.querySelector<HTMLElement>('[data-no-script]')?.remove();
		form.hidden = false;
		if (readTab(HISTORY_STORAGE_KEY)) {
			import('./history-view.ts').then(
				({ showHistory }) => showHistory(this),
				() => {
					// The list could not load (offline, a new deploy): the panel works without it.
				},
			);
		}
	}
}

if (!customElements.get('try-it')) customElements.define('try-it', TryItPanel);
