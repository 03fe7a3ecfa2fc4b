/**
 * @vitest-environment happy-dom
 *
 * One Send of the try-it panel, through send.ts itself on a DOM (happy-dom) with a fake fetch and
 * the build's validators counting their calls: the answer is decoded once, parsed once, checked
 * once and shown once, and the panel shows what it showed before.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { directoryFingerprint } from '../../../src/client/try-it/check.ts';
import type { BodyValidator } from '../../../src/shared/contract-check.ts';
import type { OperationContract } from '../../../src/shared/exchange-check.ts';

const KEY = 'ick-4f1c9a07-Qx7m';
const SERVER = 'http://127.0.0.1:4010';
const ADA = { name: 'Ada Example', email: 'ada@example.com', role: 'admin' };
const BEN = { name: 'Ben Example', email: 'ben@example.com', role: 'viewer' };
/** A directory of eight, each role twice, as the contract says a directory always is. */
const USERS = [
	ADA,
	BEN,
	...['deployer', 'operator', 'admin', 'deployer', 'operator', 'viewer'].map((role, index) => ({
		name: `User ${index}`,
		email: `user${index}@example.com`,
		role,
	})),
];
const EMAILS = USERS.map(({ email }) => email);
const BODY = JSON.stringify({ users: USERS });

/** How many times the contract check ran the 200 answer's validator. */
const validator = { calls: 0 };

// The build's validators, compiled from openapi.yaml, with the 200 JSON one counting its calls.
vi.mock('virtual:try-it-validators', async (importOriginal) => {
	const { contract } = await importOriginal<{ contract: OperationContract }>();
	const real = contract.answers['200']?.['application/json'];
	if (typeof real !== 'function')
		throw new Error('openapi.yaml has no 200 application/json schema');
	const counted: BodyValidator = (value) => {
		validator.calls += 1;
		const matches = real(value);
		counted.errors = real.errors ?? null;
		return matches;
	};
	const answers = { ...contract.answers, '200': { 'application/json': counted } };
	return { responses: answers, contract: { ...contract, answers } };
});

/** The panel's markup as TryIt.astro writes it: the parts send.ts reads and writes. */
function panelFor(directory: string): HTMLElement {
	document.body.innerHTML = `
		<try-it data-default-server="${SERVER}" data-view="production" data-view-title="Production" data-directory="${directory}">
			<form>
				<select name="key"><option value="${KEY}" data-person="ada" selected>Ada</option><option value="">Another key…</option></select>
				<input id="try-it-other-key" name="otherKey" />
				<p id="try-it-other-key-problem" hidden></p>
				<input id="try-it-server" name="server" value="${SERVER}" />
				<p id="try-it-server-problem" hidden></p>
				<button type="submit">Send</button>
			</form>
			<p role="status" data-summary></p>
			<div data-result hidden>
				<ul data-notes hidden></ul>
				<section data-check hidden>
					<p data-verdict></p>
					<ul data-violations hidden></ul>
					<p data-whose hidden></p>
					<div data-proxy hidden><p data-proxy-verdict></p><ul data-proxy-findings></ul></div>
				</section>
				<h4 data-request-heading>Request sent</h4>
				<pre><code id="try-it-curl"></code></pre>
				<div data-answer><p data-badge></p><pre data-headers></pre><pre data-body></pre></div>
			</div>
			<section data-history hidden>
				<button type="button" data-clear-history>Clear history</button>
				<ol data-history-list></ol>
			</section>
		</try-it>`;
	const panel = document.querySelector<HTMLElement>('try-it');
	if (!panel) throw new Error('the markup has no try-it element');
	return panel;
}

/** The element matching `selector` in the panel. */
function part(panel: HTMLElement, selector: string): HTMLElement {
	const element = panel.querySelector<HTMLElement>(selector);
	if (!element) throw new Error(`the panel has no ${selector}`);
	return element;
}

/** What the reader sees of the check after a Send. */
function checkShown(panel: HTMLElement) {
	const whose = part(panel, '[data-whose]');
	return {
		summary: part(panel, '[data-summary]').textContent,
		sectionClass: part(panel, '[data-check]').className,
		sectionHidden: part(panel, '[data-check]').hidden,
		verdict: part(panel, '[data-verdict]').textContent,
		whose: whose.hidden ? undefined : whose.textContent,
		links: [...whose.querySelectorAll('a')].map((link) => link.getAttribute('href')),
		body: part(panel, '[data-body]').textContent,
	};
}

/** The bytes handed to TextDecoder as text, read without a TextDecoder. */
function textOf(input: unknown): string | undefined {
	if (input instanceof ArrayBuffer) return Buffer.from(input).toString();
	if (!ArrayBuffer.isView(input)) return undefined;
	return Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString();
}

/**
 * Counts the work of one Send from the moment the request goes out: the answer decoded, its body
 * parsed, the check run, and the check shown (its list of violations written). Decoding and
 * parsing of anything else, such as a directory file, are not counted. The answer is
 * `body` as JSON; a directory file, when the panel asks for one, is `directory`.
 */
function countWork(panel: HTMLElement, body: string, directory: unknown = undefined) {
	const decode = vi.spyOn(TextDecoder.prototype, 'decode');
	const parse = vi.spyOn(JSON, 'parse');
	const shown = vi.spyOn(part(panel, '[data-violations]'), 'replaceChildren');
	vi.stubGlobal(
		'fetch',
		// The panel fetches by URL string: the request, and a directory file when it needs one.
		vi.fn(async (url: string) => {
			await Promise.resolve();
			if (url.includes('/try-it/directories/')) return Response.json(directory);
			// The panel has cleared the earlier answer by now; count what follows the request only.
			for (const spy of [decode, parse, shown]) spy.mockClear();
			validator.calls = 0;
			return new Response(body, { headers: { 'content-type': 'application/json' } });
		}),
	);
	return {
		counts: () => ({
			decoded: decode.mock.calls.filter(([input]) => textOf(input) === body).length,
			parsed: parse.mock.calls.filter(([text]) => text === body).length,
			checked: validator.calls,
			shown: shown.mock.calls.length,
		}),
	};
}

beforeEach(() => {
	localStorage.clear();
	sessionStorage.clear();
});

afterEach(() => {
	vi.restoreAllMocks();
	vi.unstubAllGlobals();
});

describe('one Send', () => {
	it("decodes, parses, checks and shows an answer listing this view's users once each", async () => {
		const { send } = await import('../../../src/client/try-it/send.ts');
		const panel = panelFor(directoryFingerprint(EMAILS));
		const work = countWork(panel, BODY);
		await send(panel);
		expect(work.counts()).toEqual({ decoded: 1, parsed: 1, checked: 1, shown: 1 });
		expect(checkShown(panel)).toEqual({
			summary: expect.stringMatching(/^200 OK in \d+ ms$/) as unknown,
			sectionClass: 'matches',
			sectionHidden: false,
			verdict: "The body matches the contract's 200 application/json schema.",
			whose: 'These are the users of this view, Production.',
			links: [],
			body: JSON.stringify(JSON.parse(BODY), null, 2),
		});
	});

	it('shows the status badge and lists the request in the tab history by person, never by key', async () => {
		const { send } = await import('../../../src/client/try-it/send.ts');
		const panel = panelFor(directoryFingerprint(EMAILS));
		countWork(panel, BODY);
		await send(panel);
		const badge = part(panel, '[data-badge]');
		expect(badge.textContent).toMatch(new RegExp(`^200 OK · \\d+ ms · ${BODY.length} B$`));
		expect(badge.className).toBe('ok');
		const stored = sessionStorage.getItem('console-portal.try-it.history') ?? '';
		expect(JSON.parse(stored)).toMatchObject([
			{ view: 'production', person: 'ada', personLabel: 'Ada', status: 200 },
		]);
		expect(stored).not.toContain(KEY);
		expect(part(panel, '[data-history]').hidden).toBe(false);
		expect(part(panel, '[data-history-list]').textContent).toMatch(
			/^\d\d:\d\d:\d\d · Production · Ada · 200 · \d+ msSend again$/,
		);
	});

	it("reads another view's directory once and names that view, still checking the body once", async () => {
		const { send } = await import('../../../src/client/try-it/send.ts');
		const panel = panelFor('0000000000000000');
		const fingerprint = directoryFingerprint(EMAILS);
		const work = countWork(panel, BODY, {
			[fingerprint]: [{ slug: 'staging', title: 'Staging' }],
		});
		await send(panel);
		expect(work.counts()).toEqual({ decoded: 1, parsed: 1, checked: 1, shown: 1 });
		expect(checkShown(panel)).toMatchObject({
			sectionClass: 'matches other-view',
			whose:
				'This key belongs to another view: these are the users of Staging (staging), not of this view, Production. Open Staging',
			links: ['/views/staging/'],
		});
	});

	it('shows a body that is not JSON once, tried as JSON only when read, and says it breaks the contract', async () => {
		const { send } = await import('../../../src/client/try-it/send.ts');
		const panel = panelFor('0000000000000000');
		const work = countWork(panel, '<h1>Hi</h1>');
		await send(panel);
		expect(work.counts()).toEqual({ decoded: 1, parsed: 1, checked: 0, shown: 1 });
		expect(checkShown(panel)).toMatchObject({
			sectionClass: 'breaks',
			verdict:
				"The body is not JSON, so it cannot match the contract's 200 application/json schema.",
			whose: undefined,
			body: '<h1>Hi</h1>',
		});
	});
});
