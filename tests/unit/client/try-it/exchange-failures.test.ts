/**
 * What try-it says when a send goes wrong before an answer can be shown: choices it cannot send, a
 * header the mock's CORS does not let a page send, and a validating proxy's findings it cannot read
 * or that run long.
 */
import { describe, expect, it } from 'vitest';
import {
	prepareRequest,
	proxyFindings,
	sendExampleRequest,
} from '../../../../src/client/try-it/exchange.ts';

const KEY = 'ick-4f1c9a07-Qx7m';
const MOCK = 'http://127.0.0.1:4010';

/** A fetch that fails as a browser's does when it sends nothing (CORS, no server). */
const failingFetch = (async () => {
	await Promise.resolve();
	throw new TypeError('Failed to fetch');
}) as typeof fetch;

describe('choices the panel cannot send', () => {
	it('are refused before sending, naming every problem in one message', () => {
		expect(() =>
			prepareRequest({
				server: MOCK,
				key: KEY,
				headers: [
					{ name: 'X Bad', value: '1' },
					{ name: 'X-Note', value: 'é' },
				],
			}),
		).toThrow(
			new Error(
				"Header name “X Bad” may hold only letters, digits and !#$%&'*+.^_`|~-. " +
					'Header “X-Note” may hold only printable ASCII characters in its value.',
			),
		);
	});
});

describe('a header the mock does not let a page send', () => {
	/** The headers a mock's preflight allows, in lower case as browsers and the mock write them. */
	const allowed = ['authorization', 'prefer'];

	it('is named, beside those the mock allows, when the browser sends nothing', async () => {
		const outcome = await sendExampleRequest(
			{
				server: MOCK,
				key: KEY,
				headers: [{ name: 'X-Trace', value: '1' }],
				controls: { code: '401' },
			},
			{ fetch: failingFetch, now: () => 0, pageHeaders: allowed },
		);
		expect(outcome).toEqual({
			kind: 'failure',
			curl:
				`curl \\\n  -H "Authorization: Bearer ${KEY}" \\\n  -H "X-Trace: 1" \\\n` +
				`  -H "Prefer: code=401" \\\n  ${MOCK}/api/v2/users`,
			summary:
				'The browser did not send the request: the mock lets a page send only authorization, ' +
				'prefer, not X-Trace. Remove it, or run the curl command, which sends it.',
		});
	});

	it('are named together when the mock allows neither', async () => {
		const outcome = await sendExampleRequest(
			{
				server: MOCK,
				key: '',
				headers: [
					{ name: 'X-Trace', value: '1' },
					{ name: 'X-Request-Id', value: 'r-1' },
				],
			},
			{ fetch: failingFetch, now: () => 0, pageHeaders: allowed },
		);
		expect(outcome.summary).toBe(
			'The browser did not send the request: the mock lets a page send only authorization, ' +
				'prefer, not X-Trace, X-Request-Id. Remove it, or run the curl command, which sends it.',
		);
	});

	it('is matched whatever its case: a request of allowed headers only is a mock not reached', async () => {
		const outcome = await sendExampleRequest(
			{ server: MOCK, key: KEY, controls: { code: '401' } },
			{ fetch: failingFetch, now: () => 0, pageHeaders: ['Authorization', 'PREFER'] },
		);
		expect(outcome.summary).toBe(
			`Could not reach the mock at ${MOCK}. Start it with \`npm run mock\`, then send again. ` +
				'If it is running, check the server address.',
		);
		const lower = await sendExampleRequest(
			{ server: MOCK, key: KEY, controls: { code: '401' } },
			{ fetch: failingFetch, now: () => 0, pageHeaders: allowed },
		);
		expect(lower.summary).toBe(outcome.summary);
	});

	it('gives way to the fault asked for, which breaks the connection on purpose', async () => {
		const outcome = await sendExampleRequest(
			{
				server: MOCK,
				key: KEY,
				headers: [{ name: 'X-Trace', value: '1' }],
				controls: { fault: 'reset' },
			},
			{ fetch: failingFetch, now: () => 0, pageHeaders: allowed },
		);
		expect(outcome.summary).toBe(
			'No answer: the mock broke the connection as asked (fault=reset), so the browser has ' +
				'nothing to show. Run the curl command to see what a client meets.',
		);
	});
});

describe("the validating proxy's findings the panel lists", () => {
	it('are none for a header of spaces only, as for no header', () => {
		expect(proxyFindings('  ')).toEqual([]);
		expect(proxyFindings('')).toEqual([]);
	});

	it('say a header that is JSON but no list is unreadable, and show it on one line', () => {
		expect(proxyFindings('{"message":"a\nb"}')).toEqual([
			'(the sl-violations header could not be read: {"message":"a b"})',
		]);
	});

	it('show an entry without a message as it came, null and texts included', () => {
		expect(
			proxyFindings('[null, "body: too long", {"location":["response"]}, {"message":7}]'),
		).toEqual([
			'(an entry without a message: null)',
			'(an entry without a message: "body: too long")',
			'(an entry without a message: {"location":["response"]})',
			'(an entry without a message: {"message":7})',
		]);
	});

	it('list twenty findings whole, and count those past twenty', () => {
		const findings = (count: number): string =>
			JSON.stringify(
				Array.from({ length: count }, (_, index) => ({ message: `finding ${index + 1}` })),
			);
		const twenty = Array.from({ length: 20 }, (_, index) => `finding ${index + 1}`);
		expect(proxyFindings(findings(20))).toEqual(twenty);
		expect(proxyFindings(findings(23))).toEqual([...twenty, '… and 3 more']);
	});
});

describe('a mock on this machine, which the reader can start', () => {
	it('is told by a loopback address of several digits in each part', async () => {
		const server = 'http://127.10.20.30:4010';
		const outcome = await sendExampleRequest(
			{ server, key: '' },
			{ fetch: failingFetch, now: () => 0 },
		);
		expect(outcome.summary).toBe(
			`Could not reach the mock at ${server}. Start it with \`npm run mock\`, then send again. ` +
				'If it is running, check the server address.',
		);
	});
});
