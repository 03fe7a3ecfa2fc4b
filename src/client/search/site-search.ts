/**
 * `<site-search>`: the header's search button. It loads nothing until search is opened: the
 * button, `/` or Ctrl/Cmd-K import the dialog module, which then loads Pagefind and its index.
 */
import { opensSearch } from './search-keys.ts';

/** Whether a key press happens while the reader types into a field. */
function inTextField(target: EventTarget | null): boolean {
	if (!(target instanceof HTMLElement)) return false;
	return target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

/** The custom element behind the header's search button. */
export class SiteSearch extends HTMLElement {
	readonly #onKey = (event: KeyboardEvent): void => {
		if (!opensSearch(event, inTextField(event.target))) return;
		event.preventDefault();
		void this.open();
	};

	connectedCallback(): void {
		this.querySelector('button')?.addEventListener('click', () => void this.open());
		document.addEventListener('keydown', this.#onKey);
	}

	disconnectedCallback(): void {
		document.removeEventListener('keydown', this.#onKey);
	}

	/** Opens the search dialog, loading its code the first time. */
	async open(): Promise<void> {
		const { openSearchDialog } = await import('./search-dialog.ts');
		openSearchDialog(this.dataset['index']);
	}
}

if (!customElements.get('site-search')) customElements.define('site-search', SiteSearch);
