/**
 * What the try-it panel does on Send, loaded on the first one: checks the fields, sends the
 * example request, shows the answer and checks it against the contract (with the validators
 * compiled at build time: GET's, or QUERY's for a QUERY) and against this view's directory. Everything shown goes through
 * `textContent`.
 */
import { contract, queryContract } from 'virtual:try-it-validators';
import { choices } from 'virtual:try-it-choices';
import {
	blocksRequest,
	parseKey,
	parseServer,
	sendExampleRequest,
	shownResult,
	TIMEOUT_MS,
	withPolicyBlock,
	type TryItOutcome,
} from './exchange.ts';
import {
	answerEmails,
	directoryFingerprint,
	readDirectoryMap,
	whoseDirectory,
	type DirectoryMap,
	type Whose,
} from './check.ts';
import type { ContractCheck } from '../../shared/contract-check.ts';
import { checkExchange } from '../../shared/exchange-check.ts';
import { SERVER_STORAGE_KEY } from './server-url.ts';
import { statusTone } from './badge.ts';
import { recordRequest } from './history-view.ts';
import { addResultBlock } from './result-block.ts';
import { buildRequest } from './request.ts';
import { readChoices } from './request-options.ts';
import { jsonTokens } from './json-tokens.ts';
import { directoryHref, viewHref } from '../../shared/urls.ts';

/** Each directory's views, fetched once per page and only when an answer lists another directory. */
const directories = new Map<string, Promise<DirectoryMap | undefined>>();

/**
 * The views with the directory `fingerprint`, as a directory map: empty when no view has it (the
 * build wrote no file), `undefined` when it cannot be read.
 */
function viewsWithDirectory(fingerprint: string): Promise<DirectoryMap | undefined> {
	let found = directories.get(fingerprint);
	if (!found) {
		const url = directoryHref(fingerprint);
		found = fetch(url, { credentials: 'same-origin' })
			.then(async (response) => {
				if (response.status === 404) return {};
				if (!response.ok) throw new Error(`${url}: ${response.status}`);
				return readDirectoryMap(await response.json());
			})
			.catch(() => {
				directories.delete(fingerprint);
				return undefined;
			});
		directories.set(fingerprint, found);
	}
	return found;
}

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

/** The panel's time-out: `data-timeout-ms` when it is a whole number of milliseconds, else 10 s. */
function timeoutOf(panel: HTMLElement): number {
	const value = Number(panel.dataset['timeoutMs']);
	return Number.isInteger(value) && value > 0 ? value : TIMEOUT_MS;
}

/**
 * Shows an outcome in the result block with its contract check and whose directory it lists, or
 * hides it all (nothing sent, or sending): every part is set anew.
 */
function showResult(
	panel: HTMLElement,
	outcome: TryItOutcome | undefined,
	check?: ContractCheck,
	whose?: Whose,
): void {
	const shown = shownResult(outcome);
	const answer = outcome?.kind === 'answer' ? outcome : undefined;
	part<HTMLElement>(panel, '[data-result]').hidden = shown.hidden;
	part<HTMLElement>(panel, '[data-request-heading]').textContent = shown.heading;
	part<HTMLElement>(panel, '#try-it-curl').textContent = shown.curl;
	part<HTMLElement>(panel, '[data-answer]').hidden = shown.answerHidden;
	part<HTMLElement>(panel, '[data-headers]').textContent = shown.headers;
	showBody(part<HTMLElement>(panel, '[data-body]'), shown.body, answer?.checked.json !== undefined);
	const badge = part<HTMLElement>(panel, '[data-badge]');
	showBadge(badge, answer?.badge ?? '');
	badge.className = answer ? statusTone(answer.checked.status) : '';
	const notes = part<HTMLElement>(panel, '[data-notes]');
	notes.replaceChildren(
		...shown.notes.map((note) => {
			const item = document.createElement('li');
			item.textContent = note;
			return item;
		}),
	);
	notes.hidden = shown.notes.length === 0;
	showCheck(panel, check, whose);
	showProxyFindings(panel, answer?.proxyFindings ?? []);
}

/**
 * Writes the status pill's text, each of its parts (`200 OK`, `34 ms`, `649 B`) in a span of its own
 * that never breaks inside: where the pill has no room, it breaks between them.
 */
function showBadge(badge: HTMLElement, text: string): void {
	const parts = text ? text.split(' · ') : [];
	badge.replaceChildren(
		...parts.flatMap((piece, index) => {
			const span = document.createElement('span');
			span.textContent = piece;
			return index === 0 ? [span] : [' · ', span];
		}),
	);
}

/** The longest body coloured token by token; a longer one is shown plain, as fast as text. */
const HIGHLIGHT_CAP = 64 * 1024;

/**
 * Writes the body as text, and a JSON body coloured as the page's code is: each token a `<span>`
 * with its kind's class (`json-tokens.ts`), its text set with `textContent`.
 */
function showBody(pre: HTMLElement, text: string, json: boolean): void {
	if (!json || text.length > HIGHLIGHT_CAP) {
		pre.textContent = text;
		return;
	}
	pre.replaceChildren(
		...jsonTokens(text).map(({ text: piece, kind }) => {
			if (!kind) return piece;
			const span = document.createElement('span');
			span.className = kind;
			span.textContent = piece;
			return span;
		}),
	);
}

/** Shows what the mock as a validating proxy found wrong with the console's answer; hides it when nothing. */
function showProxyFindings(panel: HTMLElement, findings: readonly string[]): void {
	part<HTMLElement>(panel, '[data-proxy]').hidden = findings.length === 0;
	part<HTMLElement>(panel, '[data-proxy-verdict]').textContent = findings.length
		? `The console's answer broke the contract (reported by the proxy, ${findings.length === 1 ? '1 problem' : `${findings.length} problems`}):`
		: '';
	part<HTMLElement>(panel, '[data-proxy-findings]').replaceChildren(
		...findings.map((line) => {
			const item = document.createElement('li');
			item.textContent = line;
			return item;
		}),
	);
}

/** Shows the contract check of an answer and whose directory it lists; hides it when none. */
function showCheck(
	panel: HTMLElement,
	check: ContractCheck | undefined,
	whose: Whose | undefined,
): void {
	const section = part<HTMLElement>(panel, '[data-check]');
	const violations = part<HTMLElement>(panel, '[data-violations]');
	const whoseLine = part<HTMLElement>(panel, '[data-whose]');
	section.hidden = !check;
	section.className = `${check?.verdict ?? ''}${whose?.kind === 'other-view' ? ' other-view' : ''}`;
	part<HTMLElement>(panel, '[data-verdict]').textContent = check?.headline ?? '';
	violations.replaceChildren(
		...(check?.violations ?? []).map((line) => {
			const item = document.createElement('li');
			item.textContent = line;
			return item;
		}),
	);
	violations.hidden = !check?.violations.length;
	whoseLine.className = whose?.kind ?? '';
	whoseLine.replaceChildren(whose?.text ?? '');
	for (const { slug, title } of whose?.views ?? []) {
		const link = document.createElement('a');
		link.href = viewHref(slug);
		link.textContent = `Open ${title}`;
		whoseLine.append(' ', link);
	}
	whoseLine.hidden = !whose;
}

/** Whose directory a 2xx answer lists, when it lists users; the map is fetched only if needed. */
async function whoseAnswer(panel: HTMLElement, outcome: TryItOutcome): Promise<Whose | undefined> {
	if (outcome.kind !== 'answer' || !outcome.ok || outcome.checked.ending !== 'complete') {
		return undefined;
	}
	const emails = answerEmails(outcome.checked.json?.value);
	if (!emails) return undefined;
	const own = {
		fingerprint: panel.dataset['directory'] ?? '',
		title: panel.dataset['viewTitle'] ?? 'this view',
	};
	const first = whoseDirectory(emails, own, {});
	if (first.kind === 'this-view') return first;
	return whoseDirectory(emails, own, await viewsWithDirectory(directoryFingerprint(emails)));
}

/** Sends the panel's request and shows what came back. */
export async function send(panel: HTMLElement): Promise<void> {
	if (busy.has(panel)) return;
	busy.add(panel);
	addResultBlock(panel);
	const button = part<HTMLButtonElement>(panel, 'button[type="submit"]');
	const summary = part<HTMLElement>(panel, '[data-summary]');
	const keyChoice = part<HTMLSelectElement>(panel, 'select[name="key"]');
	const otherKey = part<HTMLInputElement>(panel, '[name="otherKey"]');
	const serverInput = part<HTMLInputElement>(panel, '[name="server"]');
	try {
		const server = parseServer(serverInput.value, serverInput.defaultValue);
		const key = parseKey(keyChoice.value === '' ? otherKey.value : keyChoice.value);
		markField(panel, serverInput, server.ok ? undefined : server.problem);
		markField(panel, otherKey, key.ok ? undefined : key.problem);
		const options = readChoices(panel);
		const built =
			server.ok && key.ok
				? buildRequest({ server: server.server, key: key.key, ...options })
				: undefined;
		// The options may be missing (their module failed to load): the example request still goes.
		const optionsProblem = panel.querySelector<HTMLElement>('[data-options-problem]');
		if (optionsProblem) {
			optionsProblem.textContent = built && !built.ok ? built.problems.join(' ') : '';
			optionsProblem.hidden = !(built && !built.ok);
		}
		if (!server.ok || !key.ok || !built?.ok) {
			// Nothing is sent: an earlier request and its answer must not look like this one's.
			showResult(panel, undefined);
			summary.className = 'bad';
			const problems = [
				server.ok ? '' : server.problem,
				key.ok ? '' : key.problem,
				...(built && !built.ok ? built.problems : []),
			];
			summary.textContent = `Nothing was sent: ${problems.filter(Boolean).join(' ')}`;
			if (built && !built.ok) {
				const details = panel.querySelector<HTMLDetailsElement>('[data-options]');
				if (details) details.open = true;
				details?.querySelector('summary')?.focus();
			} else (server.ok ? otherKey : serverInput).focus();
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
		showResult(panel, undefined);
		summary.className = '';
		summary.textContent = 'Sending…';
		let blocked = false;
		const url = built.request.url;
		const onViolation = (event: SecurityPolicyViolationEvent): void => {
			if (blocksRequest(event, url)) blocked = true;
		};
		document.addEventListener('securitypolicyviolation', onViolation);
		const started = performance.now();
		const outcome = await sendExampleRequest(
			{ server: server.server, key: key.key, ...options },
			{
				fetch: window.fetch.bind(window),
				now: () => performance.now(),
				timeoutMs: timeoutOf(panel),
				pageHeaders: choices.pageHeaders,
			},
		);
		// The violation event is queued as its own task; let it arrive before reading `blocked`.
		await new Promise((resolve) => setTimeout(resolve, 0));
		document.removeEventListener('securitypolicyviolation', onViolation);
		const shown = withPolicyBlock(outcome, blocked, {
			server: server.server,
			// The panel's address of the mock, a path resolved on this page's origin (try-it-panel.ts).
			defaultServer: serverInput.defaultValue,
		});
		const answer = shown.kind === 'answer' ? shown : undefined;
		// The answer was read and parsed once; it is checked once and shown once, whole. A QUERY's
		// is checked against QUERY's answers; whose directory it lists is not said, as a filter's
		// users are no whole directory.
		const query = options.method === 'QUERY';
		const operation = query ? queryContract : contract;
		const check =
			answer && operation
				? checkExchange(answer.checked, answer.checked.headers, operation)
				: undefined;
		showResult(panel, shown, check, query ? undefined : await whoseAnswer(panel, shown));
		const chosen = keyChoice.selectedOptions[0];
		recordRequest(panel, {
			at: Date.now(),
			view: panel.dataset['view'] ?? '',
			viewTitle: panel.dataset['viewTitle'] ?? '',
			person: chosen?.dataset['person'] ?? '',
			personLabel: chosen?.textContent.trim() ?? 'Another key',
			server: server.server,
			status: answer?.checked.status ?? 0,
			ms: Math.round(performance.now() - started),
		});
		summary.className = answer ? (answer.ok ? 'ok' : 'bad') : 'failure';
		showSummary(summary, shown.summary);
	} finally {
		busy.delete(panel);
		button.removeAttribute('aria-disabled');
		button.textContent = 'Send';
	}
}
