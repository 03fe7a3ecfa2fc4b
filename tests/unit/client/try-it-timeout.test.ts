/** The try-it panel's time-out, on fake timers: the default 10 s is checked without waiting for it. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { sendExampleRequest, type TryItOutcome } from '../../../src/client/try-it/exchange.ts';

const KEY = 'ick-0a1b2c3d-Tst1';

/** A fetch whose server never answers; it rejects only when the request is aborted. */
const silentFetch = (async (_input: RequestInfo | URL, init: RequestInit = {}) =>
	new Promise<Response>((_resolve, reject) => {
		init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
	})) as typeof fetch;

beforeEach(() => {
	vi.useFakeTimers();
});

afterEach(() => {
	vi.useRealTimers();
});

describe('the try-it time-out', () => {
	it('gives a silent server 10 s by default: nothing before, the time-out message after', async () => {
		let outcome: TryItOutcome | undefined;
		void sendExampleRequest(
			{ server: 'http://127.0.0.1:4711', key: KEY },
			{ fetch: silentFetch, now: () => Date.now() },
		).then((result) => (outcome = result));
		await vi.advanceTimersByTimeAsync(9_999);
		expect(outcome).toBeUndefined();
		await vi.advanceTimersByTimeAsync(1);
		expect(outcome).toEqual({
			kind: 'failure',
			curl: `curl \\\n  -H "Authorization: Bearer ${KEY}" \\\n  http://127.0.0.1:4711/api/v2/users`,
			summary:
				'The mock at http://127.0.0.1:4711 did not answer within 10 s (time-out). Check that the server address points at the mock, then send again.',
		});
	});

	it('keeps to a time-out set by the page (data-timeout-ms)', async () => {
		let outcome: TryItOutcome | undefined;
		void sendExampleRequest(
			{ server: 'http://127.0.0.1:4711', key: KEY },
			{ fetch: silentFetch, now: () => Date.now(), timeoutMs: 2_500 },
		).then((result) => (outcome = result));
		await vi.advanceTimersByTimeAsync(2_499);
		expect(outcome).toBeUndefined();
		await vi.advanceTimersByTimeAsync(1);
		expect(outcome?.summary).toMatch(
			/^The mock at http:\/\/127\.0\.0\.1:4711 did not answer within 2\.5 s \(time-out\)\./,
		);
	});
});

describe('after an answer', () => {
	it('leaves no time-out running', async () => {
		const answered = (async () => {
			await Promise.resolve();
			return Response.json({ users: [] });
		}) as typeof fetch;
		await sendExampleRequest(
			{ server: 'http://127.0.0.1:4711', key: KEY },
			{ fetch: answered, now: () => Date.now() },
		);
		expect(vi.getTimerCount()).toBe(0);
	});
});
