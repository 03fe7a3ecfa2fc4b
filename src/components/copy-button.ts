/**
 * `<copy-button data-target="id">`: copies the text of the element with that id. The button is
 * hidden until this script runs, so a page without JavaScript shows no dead control.
 */

/** Where copied text goes: the async clipboard when the page may use it. */
export interface ClipboardLike {
	writeText(text: string): Promise<void>;
}

/** Copies text and says how it went, in words for a live region. */
export async function copyText(
	text: string,
	clipboard: ClipboardLike | undefined,
): Promise<string> {
	if (!clipboard) return 'Select the text and press Ctrl+C to copy';
	try {
		await clipboard.writeText(text);
		return 'Copied';
	} catch {
		return 'Copy was blocked; select the text and press Ctrl+C';
	}
}

/** The custom element behind every copy button. */
export class CopyButton extends HTMLElement {
	#timer: ReturnType<typeof setTimeout> | undefined;

	connectedCallback(): void {
		const button = this.querySelector('button');
		const status = this.querySelector('[role="status"]');
		if (!button || !status) return;
		button.hidden = false;
		button.addEventListener('click', () => {
			const target = document.getElementById(this.dataset['target'] ?? '');
			const text = target?.textContent ?? '';
			void copyText(text, navigator.clipboard as ClipboardLike | undefined).then((message) => {
				status.textContent = message;
				if (message !== 'Copied' && target) window.getSelection()?.selectAllChildren(target);
				clearTimeout(this.#timer);
				this.#timer = setTimeout(() => (status.textContent = ''), 2500);
			});
		});
	}
}

if (!customElements.get('copy-button')) customElements.define('copy-button', CopyButton);
