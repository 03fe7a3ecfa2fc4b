/**
 * What the try-it panel of a page without its own view (the API reference) takes from a view's
 * page once the reader picks that view: its name, its directory's fingerprint and its key
 * choices, read from the try-it panel of that page. Keys are read from the page they belong to,
 * never written into another page.
 */
import { personSlugOf, type TryItMemory } from './memory.ts';

/** One key choice of a view's try-it panel: the person it names and the key it sends. */
export interface KeyChoice {
	label: string;
	value: string;
	/** The person's slug, which the panel's memory and history name them by. */
	person: string;
	selected: boolean;
}

/** The parts of a view's try-it panel that another page's panel takes over. */
export interface ViewKeys {
	title: string;
	directory: string;
	keys: KeyChoice[];
}

/** What a view slug looks like; anything else is not fetched. */
export const VIEW_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Reads the try-it panel of a view's page (`document`, parsed from the fetched HTML): its view
 * name, its directory fingerprint and each person's key and slug; throws, naming what is missing, on a
 * page that has no such panel.
 */
export function readViewKeys(document: ParentNode, source: string): ViewKeys {
	const panel = document.querySelector<HTMLElement>('try-it[data-directory][data-view-title]');
	if (!panel) throw new Error(`${source}: no try-it panel with a view's directory`);
	const keys = [...panel.querySelectorAll<HTMLOptionElement>('select[name="key"] option')].flatMap(
		(option) =>
			option.value === ''
				? []
				: [
						{
							label: option.textContent.trim(),
							value: option.value,
							person: personSlugOf(option.dataset['person']) ?? '',
							selected: option.hasAttribute('selected'),
						},
					],
	);
	if (keys.length === 0) throw new Error(`${source}: its try-it panel offers no key`);
	return {
		title: panel.dataset['viewTitle'] ?? '',
		directory: panel.dataset['directory'] ?? '',
		keys,
	};
}

/**
 * Which of a view's key choices the panel selects when the reader picks view `slug`: the person
 * the tab remembers for that view, else the one its page chooses, else the first.
 */
export function chosenKey(keys: readonly KeyChoice[], slug: string, memory: TryItMemory): number {
	const remembered =
		memory.view === slug && memory.person
			? keys.findIndex(({ person }) => person === memory.person)
			: -1;
	if (remembered !== -1) return remembered;
	return Math.max(
		keys.findIndex(({ selected }) => selected),
		0,
	);
}
