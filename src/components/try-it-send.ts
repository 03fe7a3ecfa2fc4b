/**
 * What the try-it panel does on Send, loaded on the first one: checks the fields, sends the
 * example request and shows the answer. Everything shown goes through `textContent`.
 */
import {
	blockedByPolicy,
	parseKey,
	parseServer,
	sendExampleRequest,
	TIMEOUT_MS,
} from '../lib/try-it.ts';
import { SERVER_STORAGE_KEY } from '../lib/server-url.ts';

/** Panels with a request under way; a second Send waits for the first. */
const busy = new WeakSet<HTMLElement>();

/** The element matching `selector` inside the panel; the markup guarantees it is there. */
function part<T extends Element>(panel: HTMLElement, selector: string): T {
	const element = panel.querySelector<T>(selector);
	if (!element) throw new Error(`try-it: the panel has no ${selector}`);
	return element;
}

/** Shows a field's problem under it (or clears it) and marks the field invalid. */
function markField(panel: HTMLElement, input: HTMLInputElement, problem: string | undefined): void {
	const message = part<HTMLElement>(panel, `#${input.id}-problem`);
	message.textContent = problem ?? '';
	message.hidden = !problem;
	if (problem) input.setAttribute('aria-invalid', 'true');
	else input.removeAttribute('aria-invalid');
}

/** Writes a summary as text, with each `command` in backticks shown as code. */
function showSummary(summary: HTMLElement, text: string): void {
	summary.replaceChildren(
		...text.split('`').map((piece, index) => {
			if (index % 2 === 0) return piece;
			const code = document.createElement('code');
			code.textContent = piece;
			return code;
		}),
	);
}

/** Sends the panel's request and shows what came back. */
/** The panel's time-out: `data-timeout-ms` when it is a whole number of milliseconds, else 10 s. */
function timeoutOf(panel: HTMLElement): number {
	const value = Number(panel.dataset['timeoutMs']);
	return Number.isInteger(value) && value > 0 ? value : TIMEOUT_MS;
}

export async function send(panel: HTMLElement): Promise<void> {
	if (busy.has(panel)) return;
	busy.add(panel);
	const button = part<HTMLButtonElement>(panel, 'button[type="submit"]');
	const summary = part<HTMLElement>(panel, '[data-summary]');
	const keyChoice = part<HTMLSelectElement>(panel, 'select');
	const otherKey = part<HTMLInputElement>(panel, '[name="otherKey"]');
	const serverInput = part<HTMLInputElement>(panel, '[name="server"]');
	try {
		const server = parseServer(serverInput.value, serverInput.defaultValue);
		const key = parseKey(keyChoice.value === '' ? otherKey.value : keyChoice.value);
		markField(panel, serverInput, server.ok ? undefined : server.problem);
		markField(panel, otherKey, key.ok ? undefined : key.problem);
		if (!server.ok || !key.ok) {
			summary.className = 'bad';
			summary.textContent = `Nothing was sent: ${server.ok ? '' : server.problem} ${key.ok ? '' : key.problem}`;
			(server.ok ? otherKey : serverInput).focus();
			return;
		}
		serverInput.value = server.server;
		try {
			localStorage.setItem(SERVER_STORAGE_KEY, server.server);
		} catch {
			// Storage refused: the server is still used on this page.
		}
		button.setAttribute('aria-disabled', 'true');
		button.textContent = 'Sending…';
		summary.className = '';
		summary.textContent = 'Sending…';
		let blocked = false;
		const onViolation = (event: SecurityPolicyViolationEvent): void => {
			if (event.effectiveDirective === 'connect-src') blocked = true;
		};
		document.addEventListener('securitypolicyviolation', onViolation);
		const outcome = await sendExampleRequest(
			{ server: server.server, key: key.key },
			{
				fetch: window.fetch.bind(window),
				now: () => performance.now(),
				timeoutMs: timeoutOf(panel),
			},
		);
		// The violation event is queued as its own task; let it arrive before reading `blocked`.
		await new Promise((resolve) => setTimeout(resolve, 0));
		document.removeEventListener('securitypolicyviolation', onViolation);
		if (outcome.kind === 'failure' && blocked) {
			outcome.summary = blockedByPolicy(server.server, panel.dataset['defaultServer'] ?? '');
		}
		const answer = outcome.kind === 'answer' ? outcome : undefined;
		part<HTMLElement>(panel, '#try-it-curl').textContent = outcome.curl;
		part<HTMLElement>(panel, '[data-answer]').hidden = !answer;
		part<HTMLElement>(panel, '[data-headers]').textContent = answer?.headers ?? '';
		part<HTMLElement>(panel, '[data-body]').textContent = answer?.body ?? '';
		const notes = part<HTMLElement>(panel, '[data-notes]');
		notes.replaceChildren(
			...(answer?.notes ?? []).map((note) => {
				const item = document.createElement('li');
				item.textContent = note;
				return item;
			}),
		);
		notes.hidden = !answer?.notes.length;
		part<HTMLElement>(panel, '[data-result]').hidden = false;
		summary.className = answer ? (answer.ok ? 'ok' : 'bad') : 'failure';
		showSummary(summary, outcome.summary);
	} finally {
		busy.delete(panel);
		button.removeAttribute('aria-disabled');
		button.textContent = 'Send';
	}
}
