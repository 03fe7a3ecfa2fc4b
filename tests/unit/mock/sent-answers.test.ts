/** The mock's memory of the answers it sent: which requests share one, and how much it keeps. */
import { describe, expect, it } from 'vitest';
import type { MockState } from '../../../mock/state.ts';
import {
	createSentAnswers,
	LONGEST_KEY,
	requestKey,
	type MockRequest,
	type Sent,
} from '../../../mock/sent-answers.ts';

const request = (changes: Partial<MockRequest> = {}): MockRequest => ({
	started: 0,
	rawMethod: 'GET',
	method: 'get',
	target: '/api/v2/users',
	host: '127.0.0.1:4010',
	origin: undefined,
	authorization: 'Bearer ick-4f1c9a07-Qx7m',
	prefer: undefined,
	...changes,
});

const sent = (body: string, status = 200): Sent => ({
	status,
	headers: { 'Content-Type': 'application/json' },
	body: Buffer.from(body),
	logged: {},
});

/** Two states stand for the mock before and after a reload; only their identity matters here. */
const before = {} as MockState;
const after = {} as MockState;

describe('requestKey', () => {
	it('tells apart requests that differ in any header the answer depends on', () => {
		const keys = [
			request(),
			request({ authorization: 'Bearer ick-4f1c9a07-Qx7n' }),
			request({ authorization: undefined }),
			request({ authorization: '' }),
			request({ prefer: 'code=401' }),
			request({ prefer: '' }),
			request({ origin: 'http://127.0.0.1:4321' }),
			request({ origin: '' }),
			request({ target: '/api/v2/users?__code=401' }),
			request({ rawMethod: 'HEAD', method: 'head' }),
			request({ rawMethod: 'get', method: 'get' }),
		].map(requestKey);
		expect(new Set(keys).size).toBe(11);
	});

	it('cannot be forged by moving text from one header into another', () => {
		const split = request({ authorization: 'Bearer a\n1:b', prefer: undefined });
		const moved = request({ authorization: 'Bearer a', prefer: 'b' });
		expect(requestKey(split)).not.toBe(requestKey(moved));
	});

	it('is the same for the same request', () => {
		expect(requestKey(request())).toBe(requestKey(request({ started: 99 })));
	});

	it('keeps no answer to a method other than GET and HEAD', () => {
		for (const [rawMethod, method] of [
			['POST', 'post'],
			['OPTIONS', 'options'],
			['DELETE', 'delete'],
		] as const) {
			expect(requestKey(request({ rawMethod, method }))).toBeUndefined();
		}
	});

	it('keeps no answer to a request whose key would be longer than 4096 characters', () => {
		expect(LONGEST_KEY).toBe(4096);
		const fixed = requestKey(request({ target: '/' }))?.length ?? 0;
		const fits = request({ target: `/${'a'.repeat(4096 - fixed)}` });
		expect(requestKey(fits)?.length).toBe(4096);
		expect(requestKey(request({ target: `/${'a'.repeat(4097 - fixed)}` }))).toBeUndefined();
	});
});

describe('createSentAnswers', () => {
	it('answers the same request with what was sent before, in the same state only', () => {
		const answers = createSentAnswers();
		answers.set(before, request(), sent('{"users":[]}'));
		expect(answers.get(before, request())?.body.toString()).toBe('{"users":[]}');
		expect(answers.get(after, request())).toBeUndefined();
		expect(answers.get(before, request({ prefer: 'code=401' }))).toBeUndefined();
	});

	it('does not keep an answer to a POST', () => {
		const answers = createSentAnswers();
		const post = request({ rawMethod: 'POST', method: 'post' });
		answers.set(before, post, sent('', 405));
		expect(answers.get(before, post)).toBeUndefined();
		expect(answers.size(before)).toBe(0);
	});

	it('keeps at most its number of answers per state, dropping the least recently used', () => {
		const answers = createSentAnswers({ entries: 2, bytes: 1024 * 1024 });
		const third = request({ target: '/c' });
		answers.set(before, request({ target: '/a' }), sent('a'));
		answers.set(before, request({ target: '/b' }), sent('b'));
		// Using /a makes /b the least recently used.
		expect(answers.get(before, request({ target: '/a' }))?.body.toString()).toBe('a');
		answers.set(before, third, sent('c'));
		expect(answers.size(before)).toBe(2);
		expect(answers.get(before, request({ target: '/b' }))).toBeUndefined();
		expect(answers.get(before, request({ target: '/a' }))?.body.toString()).toBe('a');
		expect(answers.get(before, third)?.body.toString()).toBe('c');
	});

	it('keeps at most its number of bytes of keys and bodies per state', () => {
		const answers = createSentAnswers({ entries: 100, bytes: 300 });
		for (const name of ['a', 'b', 'c']) {
			answers.set(before, request({ target: `/${name}` }), sent('x'.repeat(200)));
		}
		// Each takes about 240 bytes (a key of about 40 characters and a body of 200): one fits.
		expect(answers.size(before)).toBe(1);
		expect(answers.get(before, request({ target: '/c' }))?.body.length).toBe(200);
	});

	it('answers a directory key’s plain request from memory even after other requests pushed it out', () => {
		const answers = createSentAnswers({ entries: 2, bytes: 1024 * 1024 });
		answers.set(before, request(), sent('{"users":[1]}'));
		answers.set(before, request({ target: '/a' }), sent('a'));
		answers.set(before, request({ target: '/b' }), sent('b'));
		expect(answers.get(before, request())?.body.toString()).toBe('{"users":[1]}');
		// The same key with anything else asked is another request, with an answer of its own.
		expect(answers.get(before, request({ prefer: 'code=200' }))).toBeUndefined();
		expect(answers.get(before, request({ origin: 'http://127.0.0.1:4321' }))).toBeUndefined();
		expect(answers.get(before, request({ target: '/api/v2/users?x=1' }))).toBeUndefined();
		expect(answers.get(before, request({ rawMethod: 'HEAD', method: 'head' }))).toBeUndefined();
		expect(answers.get(after, request())).toBeUndefined();
	});

	it('keeps made-up keys’ refusals no longer than any other answer, so they cannot fill its memory', () => {
		const answers = createSentAnswers({ entries: 2, bytes: 1024 * 1024 });
		const madeUp = request({ authorization: 'Bearer ick-00000000-none' });
		answers.set(before, madeUp, sent('{"title":"unknown key"}', 401));
		answers.set(before, request({ target: '/a' }), sent('a'));
		answers.set(before, request({ target: '/b' }), sent('b'));
		expect(answers.get(before, madeUp)).toBeUndefined();
	});

	it('keeps each directory key’s plain answer up to its number of answers, beside the recent ones', () => {
		const answers = createSentAnswers({ entries: 2, bytes: 1024 * 1024 });
		const asking = (number: number) =>
			request({ authorization: `Bearer ick-0000000${number}-Qx7m` });
		for (const number of [1, 2, 3, 4, 5]) answers.set(before, asking(number), sent(`${number}`));
		const kept = [1, 2, 3, 4, 5].filter((number) => answers.get(before, asking(number)));
		// The first two in the plain answers' map, the last two among the recent ones.
		expect(kept).toEqual([1, 2, 4, 5]);
	});
});
