/**
 * The try-it panel's list of last requests, loaded when the tab has a history or after a Send:
 * each row says when, which view, who, the status and how long it took. A request of this page's
 * view is sent again in one click, with the key read from this page's chooser; one of another view
 * links to that view's page, where its key is, and chooses the same person and server there.
 */
import { viewHref } from '../../shared/urls.ts';
import { historyRow, historyText, readHistory, withEntry, type HistoryEntry } from './history.ts';
import {
	HISTORY_STORAGE_KEY,
	MEMORY_STORAGE_KEY,
	memoryText,
	readTab,
	writeTab,
} from './memory.ts';
import { addHistorySection } from './result-block.ts';

/** Panels whose Clear button is wired. */
const wired = new WeakSet<HTMLElement>();

/** Chooses the entry's person and server in the panel's form. */
function choose(panel: HTMLElement, entry: HistoryEntry): HTMLFormElement | undefined {
	const form = panel.querySelector('form');
	const key = panel.querySelector('select');
	const server = panel.querySelector<HTMLInputElement>('[name="server"]');
	const option = [...(key?.options ?? [])].find(
		(candidate) => entry.person !== '' && candidate.dataset['person'] === entry.person,
	);
	if (!form || !key || !server || !option) return undefined;
	option.selected = true;
	server.value = entry.server;
	key.dispatchEvent(new Event('change', { bubbles: true }));
	return form;
}

/** Shows the tab's history in the panel, or hides the list when it is empty. */
export function showHistory(panel: HTMLElement): void {
	addHistorySection(panel);
	const section = panel.querySelector<HTMLElement>('[data-history]');
	const list = panel.querySelector('[data-history-list]');
	const clear = panel.querySelector('[data-clear-history]');
	if (!section || !list || !clear) return;
	if (!wired.has(panel)) {
		wired.add(panel);
		clear.addEventListener('click', () => {
			writeTab(HISTORY_STORAGE_KEY, null);
			showHistory(panel);
			panel.querySelector('select')?.focus();
		});
	}
	const history = readHistory(readTab(HISTORY_STORAGE_KEY));
	const pageView = panel.dataset['view'] ?? '';
	const people = new Set(
		[...panel.querySelectorAll('option')].map((option) => option.dataset['person']),
	);
	list.replaceChildren(
		...history.map((entry) => {
			const row = historyRow(entry, pageView);
			const item = document.createElement('li');
			const time = document.createElement('time');
			time.dateTime = row.datetime;
			time.textContent = row.time;
			const status = document.createElement('strong');
			status.className = row.tone;
			status.textContent = row.status;
			item.append(time, ` · ${row.view} · ${row.person} · `, status, ` · ${row.duration}`);
			if (row.here && people.has(entry.person)) {
				const again = document.createElement('button');
				again.type = 'button';
				again.textContent = 'Send again';
				again.setAttribute('aria-label', `Send again: ${row.person}, ${row.time}`);
				again.addEventListener('click', () => choose(panel, entry)?.requestSubmit());
				item.append(again);
			} else if (entry.view !== pageView) {
				const link = document.createElement('a');
				link.href = `${viewHref(entry.view)}#try-it-heading`;
				link.textContent = `Open ${row.view}`;
				link.addEventListener('click', () => {
					const { view, person, server } = entry;
					writeTab(MEMORY_STORAGE_KEY, memoryText({ view, person, server }));
				});
				item.append(link);
			}
			return item;
		}),
	);
	section.hidden = history.length === 0;
}

/** Adds a request to the tab's history and shows it. */
export function recordRequest(panel: HTMLElement, entry: HistoryEntry): void {
	const history = withEntry(readHistory(readTab(HISTORY_STORAGE_KEY)), entry);
	writeTab(HISTORY_STORAGE_KEY, historyText(history));
	showHistory(panel);
}
