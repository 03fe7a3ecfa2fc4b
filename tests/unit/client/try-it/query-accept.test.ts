/**
 * @vitest-environment happy-dom
 *
 * Where QUERY's answer comes in more than one media type (JSON, or a stream of JSON lines), the
 * try-it panel's options let the reader ask for one with `Accept`; the curl command shown asks the
 * same, and the tab keeps nothing of it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TryItChoices } from '../../../../src/integrations/try-it-validators.ts';

/** The answer types of QUERY's 200 in the build's choices. */
const built = vi.hoisted(() => ({ types: ['application/json', 'application/jsonl'] }));

vi.mock('virtual:try-it-choices', () => ({
	get choices(): TryItChoices {
		return {
			statuses: ['200', '401'],
			headers: ['Authorization', 'Prefer'],
			pageHeaders: ['Authorization', 'Prefer', 'Content-Type'],
			query: ['__code'],
			faults: ['reset'],
			queryBody: '{"role":"admin"}',
			queryAnswerTypes: built.types,
		};
	},
}));

const SERVER = 'http://127.0.0.1:4010';

/** The panel's form as TryIt.astro writes it, with its options added. */
async function panelWithOptions(): Promise<HTMLElement> {
	document.body.innerHTML = `
		<try-it data-default-server="${SERVER}" data-view="production">
			<form>
				<select name="key"><option value="ick-4f1c9a07-Qx7m" selected>Ada</option></select>
				<input name="server" value="${SERVER}" />
				<button type="submit">Send</button>
			</form>
		</try-it>`;
	const panel = document.querySelector<HTMLElement>('try-it');
	if (!panel) throw new Error('the markup has no try-it element');
	const { addRequestOptions } = await import('../../../../src/client/try-it/request-options.ts');
	addRequestOptions(panel);
	return panel;
}

/** Chooses `value` in the select `name` as a reader does, telling the form. */
function choose(panel: HTMLElement, name: string, value: string): void {
	const select = panel.querySelector<HTMLSelectElement>(`[data-options] [name="${name}"]`);
	if (!select) throw new Error(`the options have no ${name}`);
	select.value = value;
	select.dispatchEvent(new Event('change', { bubbles: true }));
}

/** `new Option(text, value)`, which happy-dom lacks, as the browser makes it. */
function option(text: string, value: string): HTMLOptionElement {
	const made = document.createElement('option');
	made.textContent = text;
	made.value = value;
	return made;
}

beforeEach(() => {
	sessionStorage.clear();
	built.types = ['application/json', 'application/jsonl'];
	vi.stubGlobal('Option', option);
});

afterEach(() => {
	vi.restoreAllMocks();
	vi.unstubAllGlobals();
});

describe("QUERY's answer type in the try-it options", () => {
	it('offers each type the answer comes in, none asked for at first', async () => {
		const panel = await panelWithOptions();
		const accept = panel.querySelector<HTMLSelectElement>('[name="accept"]');
		expect([...(accept?.options ?? [])].map(({ value }) => value)).toEqual([
			'',
			'application/json',
			'application/jsonl',
		]);
		expect(panel.querySelector('label[for="try-it-accept"]')?.textContent).toBe(
			'Answer as (Accept, sent with QUERY)',
		);
		const { readChoices } = await import('../../../../src/client/try-it/request-options.ts');
		choose(panel, 'method', 'QUERY');
		expect(readChoices(panel)).not.toHaveProperty('accept');
	});

	it('sends the chosen type as Accept with QUERY, and the curl shown asks for it', async () => {
		const panel = await panelWithOptions();
		const { readChoices } = await import('../../../../src/client/try-it/request-options.ts');
		choose(panel, 'method', 'QUERY');
		choose(panel, 'accept', 'application/jsonl');
		expect(readChoices(panel)).toMatchObject({ method: 'QUERY', accept: 'application/jsonl' });
		expect(panel.querySelector('#try-it-preview')?.textContent).toContain(
			'-H "Accept: application/jsonl"',
		);
		// GET's answer has one type: the choice is QUERY's only.
		choose(panel, 'method', 'GET');
		expect(readChoices(panel)).not.toHaveProperty('accept');
		expect(panel.querySelector('#try-it-preview')?.textContent).not.toContain('Accept');
	});

	it('offers no choice where QUERY answers in one type only', async () => {
		built.types = ['application/json'];
		const panel = await panelWithOptions();
		expect(panel.querySelector('[name="accept"]')).toBeNull();
	});
});
