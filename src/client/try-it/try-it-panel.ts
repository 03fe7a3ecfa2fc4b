/**
 * `<try-it data-default-server="http://127.0.0.1:4010">`: the try-it panel. Without JavaScript
 * its form stays hidden and a note points at the curl command. This eager part only shows the
 * form and keeps Send from submitting it: the panel's behaviour (`panel.ts`: the tab's choices,
 * the request options, the history, the reference's view picker, and sending) loads when the
 * reader first comes within a screen of the panel (an IntersectionObserver; a field can be focused
 * or clicked only once it is on screen) or sends. Kept this small: it is on every view page and the reference.
 */

import { NEAR_MARGIN } from '../base/near.ts';

/** The custom element behind the try-it panel. */
export class TryItPanel extends HTMLElement {
	connectedCallback(): void {
		const form = this.querySelector('form');
		if (!form) return;
		// The panel's behaviour, loaded and run once; it hands back how to send, or nothing when it
		// could not load (offline, a new deploy).
		let wired: Promise<(() => Promise<void>) | undefined> | undefined;
		const wire = (): Promise<(() => Promise<void>) | undefined> =>
			(wired ??= import('./panel.ts').then(
				({ wirePanel }) => wirePanel(this),
				() => undefined,
			));
		const near = new IntersectionObserver(
			([entry]) => {
				if (!entry?.isIntersecting) return;
				near.disconnect();
				void wire();
			},
			// Within a screen, as the page's other deferred parts load (base/near.ts): a view page's
			// panel, under its directory below 90rem, is whole by the time the reader reaches it.
			{ rootMargin: NEAR_MARGIN },
		);
		near.observe(this);
		form.addEventListener('submit', (event) => {
			event.preventDefault();
			void wire().then((send) => {
				const summary = this.querySelector('[data-summary]');
				if (send) void send();
				else if (summary) summary.textContent = 'Try-it could not load: reload the page.';
			});
		});
		this.querySelector('[data-no-script]')?.remove();
		form.hidden = false;
	}
}

if (!customElements.get('try-it')) customElements.define('try-it', TryItPanel);
