/**
 * `<try-it data-default-server="http://127.0.0.1:4010">`: the try-it panel. Without JavaScript
 * its form stays hidden and a note points at the curl command. This eager part only wires the
 * form and restores the remembered server; sending loads `send.ts` on the first Send.
 */
import { rememberedServer, SERVER_STORAGE_KEY } from './server-url.ts';

/** The custom element behind the try-it panel. */
export class TryItPanel extends HTMLElement {
	connectedCallback(): void {
		const form = this.querySelector('form');
		const key = this.querySelector('select');
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
		server.value = rememberedServer(stored, this.dataset['defaultServer'] ?? server.value);
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
	}
}

if (!customElements.get('try-it')) customElements.define('try-it', TryItPanel);
