/**
 * `<copy-button data-target="id">`: copies the text of the element with that id (without one, the
 * code of the code block it stands in), or, where the
 * page has no clipboard, selects it and says how to copy it (`src/client/copy-button/copy-text.ts`). The button
 * is hidden until this script runs, so a page without JavaScript shows no dead control.
 */
import { copyShortcut, copyText, type ClipboardLike } from './copy-text.ts';

/** The custom element behind every copy button. */
export class CopyButton extends HTMLElement {
	#timer: ReturnType<typeof setTimeout> | undefined;

	connectedCallback(): void {
		const button = this.querySelector('button');
		const status = this.querySelector('[role="status"]');
		if (!button || !status) return;
		button.hidden = false;
		button.addEventListener('click', () => {
			const id = this.dataset['target'];
			const target = id ? document.getElementById(id) : this.parentElement?.querySelector('code');
			const text = target?.textContent ?? '';
			const clipboard = navigator.clipboard as ClipboardLike | undefined;
			void copyText(text, clipboard, copyShortcut(navigator.userAgent)).then(
				({ copied, message }) => {
					status.textContent = message;
					if (!copied && target) window.getSelection()?.selectAllChildren(target);
					clearTimeout(this.#timer);
					this.#timer = setTimeout(() => (status.textContent = ''), 2500);
				},
			);
		});
	}
}

if (!customElements.get('copy-button')) customElements.define('copy-button', CopyButton);
