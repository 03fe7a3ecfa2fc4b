/** Prism's controls as a client developer sends them: Prefer header first, query parameters else. */
import { describe, expect, it } from 'vitest';
import { readControls } from '../../mock/controls.ts';

const none = new URLSearchParams();

describe('readControls', () => {
	it('reads nothing from a request without controls', () => {
		expect(readControls(undefined, none)).toEqual({ ok: true, controls: { spelled: '' } });
		expect(readControls('', none)).toEqual({ ok: true, controls: { spelled: '' } });
	});

	it('reads code, example, dynamic and seed from a Prefer header, as Prism does', () => {
		expect(readControls('code=401, example=invalid-key', none)).toEqual({
			ok: true,
			controls: {
				code: 401,
				example: 'invalid-key',
				spelled: 'Prefer: code=401, Prefer: example=invalid-key',
			},
		});
		expect(readControls('dynamic=true, seed=7', none)).toMatchObject({
			ok: true,
			controls: { dynamic: true, seed: '7' },
		});
		expect(readControls('example="production"', none)).toMatchObject({
			ok: true,
			controls: { example: 'production' },
		});
	});

	it('reads the __code, __example, __dynamic and __seed query parameters', () => {
		const query = new URLSearchParams('__code=200&__example=dr-eu-west&__dynamic=false&__seed=x');
		expect(readControls(undefined, query)).toEqual({
			ok: true,
			controls: {
				code: 200,
				example: 'dr-eu-west',
				dynamic: false,
				seed: 'x',
				spelled: '__code=200, __example=dr-eu-west, __dynamic=false, __seed=x',
			},
		});
	});

	it('ignores the query parameters when a Prefer header is sent, as Prism does', () => {
		const query = new URLSearchParams('__code=500');
		expect(readControls('example=production', query)).toEqual({
			ok: true,
			controls: { example: 'production', spelled: 'Prefer: example=production' },
		});
	});

	it.each([
		['code=abc', undefined, /Prefer: code=abc: expected a three-digit status code/],
		['code=4010', undefined, /three-digit/],
		['code=40', undefined, /three-digit/],
		['dynamic=yes', undefined, /Prefer: dynamic=yes: expected dynamic=true or dynamic=false/],
		['example', undefined, /expected the name of an example/],
		[undefined, '__code=1e3', /__code=1e3: expected a three-digit status code/],
		[undefined, '__dynamic=1', /__dynamic=1: expected dynamic=true or dynamic=false/],
	])('refuses %s %s, naming the control and what it expected', (prefer, query, problem) => {
		const result = readControls(prefer, new URLSearchParams(query ?? ''));
		expect(result.ok).toBe(false);
		expect(!result.ok && result.problem).toMatch(problem);
	});
});
