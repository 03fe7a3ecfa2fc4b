/**
 * @vitest-environment happy-dom
 *
 * A QUERY sent from the try-it panel (send.ts on a DOM, with a fake fetch) is checked against the
 * QUERY operation's answers, as a GET is against GET's: the panel shows the same verdict and
 * violations, a stream of JSON lines checked line by line. A contract without a QUERY gives no
 * check to show.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OperationContract } from '../../../../src/shared/exchange-check.ts';

const KEY = 'ick-4f1c9a07-Qx7m';
const SERVER = 'http://127.0.0.1:4010';
const ADA = { name: 'Ada Example', email: 'ada@example.com', role: 'admin' };
const BEN = { name: 'Ben Example', email: 'ben@example.com', role: 'viewer' };

/** Whether the build's module has a QUERY contract, as a 3.2 contract with QUERY gives. */
const built = vi.hoisted(() => ({ withQuery: true }));

// The build's validators of openapi.yaml, with a QUERY operation whose 200 is JSON or JSON lines.
vi.mock('virtual:try-it-validators', async (importOriginal) => {
	const original = await importOriginal<{ contract: OperationContract }>();
	const { contractAjv } = await import('../../../../src/sources/contract-validators.ts');
	const ajv = contractAjv();
	const user = {
		type: 'object',
		required: ['name', 'email', 'role'],
		additionalProperties: false,
		properties: {
			name: { type: 'string' },
			email: { type: 'string', format: 'email' },
			role: { enum: ['admin', 'viewer'] },
		},
	};
	const query: OperationContract = {
		operation: 'QUERY /api/v2/users',
		answers: {
			'200': {
				'application/json': ajv.compile({
					type: 'object',
					required: ['users'],
					properties: { users: { type: 'array', items: user } },
				}),
				'application/jsonl': { eachLine: ajv.compile(user) },
			},
		},
		headers: {},
	};
	return {
		...original,
		get queryContract() {
			return built.withQuery ? query : undefined;
		},
	};
});

/** The panel's markup as TryIt.astro and its options write it, with QUERY chosen. */
function queryPanel(): HTMLElement {
	document.body.innerHTML = `
		<try-it data-default-server="${SERVER}" data-view="production" data-view-title="Production" data-directory="0000000000000000">
			<form>
				<select name="key"><option value="${KEY}" data-person="ada" selected>Ada</option><option value="">Another key…</option></select>
				<input id="try-it-other-key" name="otherKey" />
				<p id="try-it-other-key-problem" hidden></p>
				<input id="try-it-server" name="server" value="${SERVER}" />
				<p id="try-it-server-problem" hidden></p>
				<details data-options>
					<select name="method"><option>GET</option><option selected>QUERY</option></select>
					<textarea name="body">{"role":"admin"}</textarea>
					<p data-options-problem hidden></p>
				</details>
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
	const violations = part(panel, '[data-violations]');
	return {
		hidden: part(panel, '[data-check]').hidden,
		verdict: part(panel, '[data-verdict]').textContent,
		violations: violations.hidden
			? []
			: [...violations.querySelectorAll('li')].map(({ textContent }) => textContent),
	};
}

/** Answers every request with `body` as `type`, keeping the method each was sent with. */
function answerWith(body: string, type: string): string[] {
	const methods: string[] = [];
	vi.stubGlobal(
		'fetch',
		vi.fn(async (_url: string, init?: RequestInit) => {
			await Promise.resolve();
			methods.push(init?.method ?? 'GET');
			return new Response(body, { headers: { 'content-type': type } });
		}),
	);
	return methods;
}

beforeEach(() => {
	localStorage.clear();
	sessionStorage.clear();
	built.withQuery = true;
});

afterEach(() => {
	vi.restoreAllMocks();
	vi.unstubAllGlobals();
});

describe('a QUERY sent from the try-it panel', () => {
	it("is checked against QUERY's answers, and a conforming one is shown to match", async () => {
		const { send } = await import('../../../../src/client/try-it/send.ts');
		const panel = queryPanel();
		const methods = answerWith(JSON.stringify({ users: [ADA] }), 'application/json');
		await send(panel);
		expect(methods).toEqual(['QUERY']);
		expect(checkShown(panel)).toEqual({
			hidden: false,
			verdict: "The body matches the contract's 200 application/json schema.",
			violations: [],
		});
		expect(part(panel, '[data-check]').className).toBe('matches');
	});

	it('shows each line of a JSON-lines answer that breaks the item schema', async () => {
		const { send } = await import('../../../../src/client/try-it/send.ts');
		const panel = queryPanel();
		const stream = `${JSON.stringify(ADA)}\n${JSON.stringify({ ...BEN, email: 'ben' })}\n`;
		answerWith(stream, 'application/jsonl');
		await send(panel);
		expect(checkShown(panel)).toEqual({
			hidden: false,
			verdict: "The body breaks the contract's 200 application/jsonl item schema (1 problem):",
			violations: ['line 2: /email: must be an email address'],
		});
		expect(part(panel, '[data-check]').className).toBe('breaks');
	});

	it("names a status QUERY does not answer by QUERY's name, not GET's", async () => {
		const { send } = await import('../../../../src/client/try-it/send.ts');
		const panel = queryPanel();
		vi.stubGlobal(
			'fetch',
			vi.fn(async () => {
				await Promise.resolve();
				return new Response('{}', { status: 418, headers: { 'content-type': 'application/json' } });
			}),
		);
		await send(panel);
		expect(checkShown(panel).verdict).toBe(
			'The contract has no 418 answer for QUERY /api/v2/users; it lists 200.',
		);
	});

	it('shows no check where the contract has no QUERY to check against', async () => {
		built.withQuery = false;
		const { send } = await import('../../../../src/client/try-it/send.ts');
		const panel = queryPanel();
		answerWith(JSON.stringify({ users: [ADA] }), 'application/json');
		await send(panel);
		expect(checkShown(panel)).toEqual({ hidden: true, verdict: '', violations: [] });
		expect(part(panel, '[data-summary]').textContent).toMatch(/^200 OK/);
	});
});
