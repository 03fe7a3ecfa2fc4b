/** Prism's controls as a client developer sends them: Prefer header first, query parameters else. */
import { describe, expect, it } from 'vitest';
import {
	choose,
	readControls,
	shownControls,
	shownRefusal,
	type MockControls,
} from '../../../mock/controls.ts';

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
		const query = new URLSearchParams('__code=200&__example=dr-eu-west&__dynamic=false&__seed=3');
		expect(readControls(undefined, query)).toEqual({
			ok: true,
			controls: {
				code: 200,
				example: 'dr-eu-west',
				dynamic: false,
				seed: '3',
				spelled: '__code=200, __example=dr-eu-west, __dynamic=false, __seed=3',
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

	it('reads the query parameters when the Prefer header is empty or blank, as if it were absent', () => {
		const query = new URLSearchParams('__code=401');
		for (const prefer of ['', '  ']) {
			expect(readControls(prefer, query)).toEqual({
				ok: true,
				controls: { code: 401, spelled: '__code=401' },
			});
		}
	});

	it('refuses an example without a name, in the words it was sent', () => {
		expect(readControls('example', none)).toEqual({
			ok: false,
			problem: 'Prefer: example=: expected the name of an example',
		});
		expect(readControls(undefined, new URLSearchParams('__example='))).toEqual({
			ok: false,
			problem: '__example=: expected the name of an example',
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

describe('readControls with a seed', () => {
	const expected = 'expected a whole number from 0 to 9007199254740991, e.g. seed=7';

	it.each([
		['0', '0'],
		['1', '1'],
		['7', '7'],
		['007', '7'],
		['9007199254740991', '9007199254740991'],
	])('takes seed=%s, a whole number from 0, as the seed %s', (sent, seed) => {
		expect(readControls(`dynamic=true, seed=${sent}`, none)).toEqual({
			ok: true,
			controls: { dynamic: true, seed, spelled: `Prefer: dynamic=true, Prefer: seed=${sent}` },
		});
		expect(readControls(undefined, new URLSearchParams(`__seed=${sent}`))).toEqual({
			ok: true,
			controls: { seed, spelled: `__seed=${sent}` },
		});
	});

	it.each(['-1', '1.5', '-1.5', 'abc', '1e3', '0x10', '', '9007199254740992', '12345678901234567'])(
		'refuses seed=%j, naming it, as every other bad control',
		(sent) => {
			expect(readControls(`seed=${sent}`, none)).toEqual({
				ok: false,
				problem: `Prefer: seed=${sent}: ${expected}`,
			});
			expect(readControls(undefined, new URLSearchParams({ __seed: sent }))).toEqual({
				ok: false,
				problem: `__seed=${sent}: ${expected}`,
			});
		},
	);

	it('refuses a seed with a space before it in the query, where Prefer drops the space', () => {
		expect(readControls(undefined, new URLSearchParams({ __seed: ' 7' }))).toEqual({
			ok: false,
			problem: `__seed= 7: ${expected}`,
		});
	});
});

describe('shownControls with a seed', () => {
	it('shows a seed it takes as sent, and any other by its length only', () => {
		expect(shownControls('seed=7, dynamic=true', none)).toBe(
			'Prefer: dynamic=true, Prefer: seed=7',
		);
		expect(shownControls(undefined, new URLSearchParams('__seed=9007199254740991'))).toBe(
			'__seed=9007199254740991',
		);
		expect(shownControls('seed=abc', none)).toBe('Prefer: seed=<not shown, 3 chars>');
		expect(shownControls(undefined, new URLSearchParams('__seed=-1.5'))).toBe(
			'__seed=<not shown, 4 chars>',
		);
	});
});

describe('readControls with a control repeated in the query', () => {
	it.each([
		['__code=401&__code=500', '__code=401, __code=500'],
		['__example=production&__example=dr-eu-west', '__example=production, __example=dr-eu-west'],
		['__dynamic=true&__dynamic=true', '__dynamic=true, __dynamic=true'],
		['__seed=1&__code=200&__seed=2', '__seed=1, __seed=2'],
	])('refuses %s, naming the control and both values, as Prism does', (query, spelled) => {
		const name = spelled.split('=', 1)[0] ?? '';
		expect(readControls(undefined, new URLSearchParams(query))).toEqual({
			ok: false,
			problem: `${spelled}: expected ${name} once`,
		});
	});

	it('reads each other control once it is sent once, and ignores a repeat when Prefer is sent', () => {
		expect(readControls('code=200', new URLSearchParams('__code=401&__code=500'))).toEqual({
			ok: true,
			controls: { code: 200, spelled: 'Prefer: code=200' },
		});
	});
});

describe('choose', () => {
	const holder = { slug: 'staging-eu-west', name: 'Amara Okafor', role: 'admin' } as const;
	const good = { status: 200, holder } as const;
	const controls = (asked: Partial<MockControls> = {}): MockControls => ({
		spelled: '',
		...asked,
	});

	it("answers a good key with its own view's users", () => {
		expect(choose(good, controls())).toEqual({ code: 200, example: 'staging-eu-west' });
	});

	it('answers a refused key with its challenge, whatever the controls ask for', () => {
		const asked = controls({ code: 200, example: 'production', dynamic: true });
		expect(
			choose({ status: 401, challenge: 'missing-key', reason: 'no Authorization header' }, asked),
		).toEqual({ code: 401, example: 'missing-key' });
		expect(
			choose({ status: 401, challenge: 'invalid-key', reason: 'not in a directory' }, asked),
		).toEqual({ code: 401, example: 'invalid-key' });
		expect(
			choose({ status: 400, challenge: 'invalid-request', reason: 'no token' }, asked),
		).toEqual({ code: 400, example: 'invalid-request' });
	});

	it("gives a good key another status with no example of its view's", () => {
		expect(choose(good, controls({ code: 404 }))).toEqual({ code: 404, example: undefined });
		expect(choose(good, controls({ code: 401, example: 'invalid-key' }))).toEqual({
			code: 401,
			example: 'invalid-key',
		});
	});

	it("gives a good key another view's users when it names that example", () => {
		expect(choose(good, controls({ example: 'production' }))).toEqual({
			code: 200,
			example: 'production',
		});
		expect(choose(good, controls({ code: 200, example: 'production' }))).toEqual({
			code: 200,
			example: 'production',
		});
	});

	it('generates the body from the schema when asked, unless an example is named', () => {
		expect(choose(good, controls({ dynamic: true }))).toEqual({ code: 200, example: undefined });
		expect(choose(good, controls({ dynamic: false }))).toEqual({
			code: 200,
			example: 'staging-eu-west',
		});
		expect(choose(good, controls({ dynamic: true, example: 'production' }))).toEqual({
			code: 200,
			example: 'production',
		});
	});
});

describe('readControls with a double quote left open in Prefer', () => {
	it('refuses a control whose quote never closes, naming it, where it was dropped in silence', () => {
		expect(readControls('code="401', none)).toEqual({
			ok: false,
			problem:
				'Prefer: code="401: expected a closing double quote after the value, e.g. code="401" or code=401',
		});
		expect(readControls('dynamic=true, example="dr-eu-west', none)).toEqual({
			ok: false,
			problem:
				'Prefer: example="dr-eu-west: expected a closing double quote after the value, e.g. example="dr-eu-west" or example=dr-eu-west',
		});
	});

	it('refuses a quote of another preference that hides a control after it', () => {
		expect(readControls('return="minimal, code=401', none)).toEqual({
			ok: false,
			problem: 'Prefer: return="minimal, code=401: expected a closing double quote after the value',
		});
	});

	it('leaves a quote left open in another preference alone when no control follows it', () => {
		expect(readControls('code=401, return="minimal', none)).toEqual({
			ok: true,
			controls: { code: 401, spelled: 'Prefer: code=401' },
		});
		expect(readControls('example="production"', none)).toMatchObject({
			ok: true,
			controls: { example: 'production' },
		});
	});
});

describe('readControls with a quote left open, as a person may type it', () => {
	it('reads a control written in capitals after another preference’s open quote as hidden by it', () => {
		expect(readControls('return="minimal, CODE=401', none)).toEqual({
			ok: false,
			problem: 'Prefer: return="minimal, CODE=401: expected a closing double quote after the value',
		});
	});

	it('refuses a value left open after a space, naming it without the space', () => {
		expect(readControls('code= "401', none)).toEqual({
			ok: false,
			problem:
				'Prefer: code="401: expected a closing double quote after the value, e.g. code="401" or code=401',
		});
		expect(shownControls('code= "401', none)).toBe('Prefer: code=<unrecognised, 4 chars>');
	});

	it('keeps a quote inside a value in its example, dropping only a quote that opens it', () => {
		expect(readControls('example=dr"eu-west', none)).toEqual({
			ok: false,
			problem:
				'Prefer: example=dr"eu-west: expected a closing double quote after the value, e.g. example="dr"eu-west" or example=dr"eu-west',
		});
	});

	it('refuses a nameless preference whose quote hides a control after it', () => {
		expect(readControls('="minimal, code=401', none)).toEqual({
			ok: false,
			problem: 'Prefer: ="minimal, code=401: expected a closing double quote after the value',
		});
	});

	it('reads the controls before a stray quote after a bare name, which holds no value', () => {
		expect(readControls('code=401, fault"', none)).toEqual({
			ok: true,
			controls: { code: 401, spelled: 'Prefer: code=401' },
		});
		expect(shownControls('code=401, fault"', none)).toBe('Prefer: code=401');
	});
});

describe('shownControls: the values the log shows as sent', () => {
	it('shows dynamic=true and dynamic=false, and any other value by its length', () => {
		expect(shownControls('dynamic=false', none)).toBe('Prefer: dynamic=false');
		expect(shownControls(undefined, new URLSearchParams('__dynamic=true'))).toBe('__dynamic=true');
		expect(shownControls('dynamic=yes', none)).toBe('Prefer: dynamic=<unrecognised, 3 chars>');
	});

	it('shows a code of exactly three digits, and one with anything before or after by its length', () => {
		expect(shownControls('code=401', none)).toBe('Prefer: code=401');
		expect(shownControls('code=x401', none)).toBe('Prefer: code=<unrecognised, 4 chars>');
		expect(shownControls(undefined, new URLSearchParams('__code=4010'))).toBe(
			'__code=<unrecognised, 4 chars>',
		);
	});

	it('shows an example only when the contract has one of that name, and none when it is not asked', () => {
		const known = (name: string): boolean => name === 'production';
		expect(shownControls('example=production', none, known)).toBe('Prefer: example=production');
		expect(shownControls('example=ick-4f1c9a07-Qx7m', none, known)).toBe(
			'Prefer: example=<unrecognised, 17 chars>',
		);
		expect(shownControls('example=production', none)).toBe(
			'Prefer: example=<unrecognised, 10 chars>',
		);
	});

	it('reads the query when the Prefer header is blank, as readControls does', () => {
		const query = new URLSearchParams('__code=401');
		expect(shownControls('  ', query)).toBe('__code=401');
		expect(shownControls('', query)).toBe('__code=401');
	});
});

describe('shownRefusal: why the log says the controls were refused', () => {
	it('gives the controls as shown, then what was expected, and nothing the request sent', () => {
		expect(
			shownRefusal(
				'Prefer: code=ick-4f1c9a07-Qx7m: expected a three-digit status code, e.g. code=401',
				'Prefer: code=<unrecognised, 17 chars>',
			),
		).toBe(
			'Prefer: code=<unrecognised, 17 chars>: expected a three-digit status code, e.g. code=401',
		);
	});

	it('says "the controls" when none can be shown', () => {
		expect(shownRefusal('__code=1&__code=2: expected __code once', '')).toBe(
			'the controls: expected __code once',
		);
	});

	it('keeps a problem that is only what was expected, and adds nothing when it says none', () => {
		expect(shownRefusal(': expected __code once', '__code=401')).toBe(
			'__code=401: expected __code once',
		);
		expect(shownRefusal('a problem without the word', '__code=401')).toBe('__code=401');
	});
});
