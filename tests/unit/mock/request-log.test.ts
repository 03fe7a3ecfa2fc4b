/** The mock's request log: what a developer reads in the terminal, one line per request. */
import { describe, expect, it } from 'vitest';
import { isoTime, logLine } from '../../../mock/request-log.ts';

const time = new Date('2026-11-21T09:30:00.123Z');

describe('logLine', () => {
	it('prints time, method, path, status, duration, and the view and user of the key', () => {
		expect(
			logLine({
				time,
				method: 'GET',
				target: '/api/v2/users',
				status: 200,
				durationMs: 1.26,
				holder: { slug: 'production', name: 'Amara Okafor', role: 'admin' },
			}),
		).toBe(
			'2026-11-21T09:30:00.123Z GET /api/v2/users 200 1.3ms view=production user="Amara Okafor" role=admin',
		);
	});

	it('says why a request was refused, and which controls it carried', () => {
		expect(
			logLine({
				time,
				method: 'GET',
				target: '/api/v2/users?__code=401',
				status: 401,
				durationMs: 0.4,
				refused: "the key is in no view's directory",
				controls: '__code=401',
			}),
		).toBe(
			`2026-11-21T09:30:00.123Z GET /api/v2/users?__code=401 401 0.4ms refused="the key is in no view's directory" controls="__code=401"`,
		);
	});

	it('says in one quoted field why the mock failed, a line break included', () => {
		expect(
			logLine({
				time,
				method: 'GET',
				target: '/api/v2/users',
				status: 500,
				durationMs: 3.1,
				failed: 'SyntaxError: Invalid group\nat ick-4f1c9a07-Qx7m',
			}),
		).toBe(
			'2026-11-21T09:30:00.123Z GET /api/v2/users 500 3.1ms failed="SyntaxError: Invalid group?at <key>"',
		);
	});

	it('never prints a key, wherever it was sent', () => {
		const line = logLine({
			time,
			method: 'GET',
			target: '/api/v2/users?token=ick-4f1c9a07-Qx7m&x=abc-0123abcd-ZZ99',
			status: 401,
			durationMs: 0,
			refused: 'a reason naming ick-4f1c9a07-Qx7m',
			controls: 'Prefer: example=ick-4f1c9a07-Qx7m',
		});
		expect(line).not.toMatch(/4f1c9a07|0123abcd/);
		expect(line).toContain('token=<key>&x=<key>');
	});

	it.each([
		['percent-encoded dashes', '/api/v2/users?access_token=ick%2D4f1c9a07%2DQx7m'],
		[
			'every character encoded',
			`/api/v2/users?t=${[...'ick-4f1c9a07-Qx7m'].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`,
		],
		['encoded twice', '/api/v2/users?t=ick%252D4f1c9a07%252DQx7m'],
		['in the path', '/api/v2/users/ick%2D4f1c9a07%2DQx7m'],
	])('never prints a key sent with %s', (_case, target) => {
		const line = logLine({ time, method: 'GET', target, status: 401, durationMs: 0 });
		expect(line).not.toMatch(/4f1c9a07/i);
		expect(line).not.toMatch(/%34%66%31%63/i);
		expect(line).toContain('<key>');
	});

	describe('a key sent in the query in a form derived from it', () => {
		const key = 'ick-4f1c9a07-Qx7m';
		const bytes = Buffer.from(key);
		const forms: [string, string][] = [
			['base64', bytes.toString('base64')],
			['base64 without its padding', bytes.toString('base64').replace(/=+$/, '')],
			['base64url', bytes.toString('base64url')],
			['hex', bytes.toString('hex')],
			['hex in upper case', bytes.toString('hex').toUpperCase()],
			['upper case', key.toUpperCase()],
			['lower case', key.toLowerCase()],
			['+ for its dashes', key.replaceAll('-', '+')],
			['%2B for its dashes', key.replaceAll('-', '%2B')],
			['_ for its dashes', key.replaceAll('-', '_')],
			['base64 of "Bearer <key>"', Buffer.from(`Bearer ${key}`).toString('base64')],
			['base64 of "user:<key>"', Buffer.from(`user:${key}`).toString('base64')],
			['hex after other hex', `ab${bytes.toString('hex')}`],
			['base64, percent-encoded', encodeURIComponent(Buffer.from(`x${key}`).toString('base64'))],
			[
				'base64, every character encoded',
				[...bytes.toString('base64')].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
			],
		];

		it.each(forms)('is masked as %s, in both forms of the log', (_form, sent) => {
			for (const format of ['logfmt', 'json'] as const) {
				const line = logLine(
					{
						time,
						method: 'GET',
						target: `/api/v2/users?token=${sent}&page=2`,
						status: 401,
						durationMs: 0,
					},
					format,
				);
				expect(line, format).not.toContain(sent);
				expect(line, format).not.toMatch(/4f1c9a07/i);
				// Base64's padding is a part of its own in a query, as `=` is.
				expect(line, format).toMatch(/token=<key>=*&page=2/);
			}
		});

		it('is masked in the other fields too', () => {
			const line = logLine({
				time,
				method: 'GET',
				target: '/api/v2/users',
				status: 500,
				durationMs: 0,
				failed: `no such view ${bytes.toString('base64')} or ${key.toUpperCase()}`,
			});
			expect(line).toContain('failed="no such view <key> or <key>"');
		});

		it('leaves base64, hex and words that hold no key as they were sent', () => {
			const target = `/api/v2/users?cursor=${Buffer.from('page-2-of-the-users-list').toString('base64')}&id=${'0123456789abcdef'.repeat(2)}&q=staging+us+east`;
			expect(logLine({ time, method: 'GET', target, status: 200, durationMs: 0 })).toContain(
				` ${target} `,
			);
		});
	});

	it('keeps an ordinary encoded target as it was sent', () => {
		const line = logLine({
			time,
			method: 'GET',
			target: '/a%20b?q=x%2Fy',
			status: 404,
			durationMs: 0,
		});
		expect(line).toContain(' /a%20b?q=x%2Fy ');
	});

	it('keeps a hostile request on one printable line', () => {
		const line = logLine({
			time,
			method: 'GET',
			target: `/x\r\nINJECTED${'a'.repeat(500)}`,
			status: 404,
			durationMs: 0,
			holder: { slug: 'v', name: 'Eve "\n" Quote\\', role: 'viewer' },
		});
		expect(line).not.toMatch(/[\r\n]/);
		expect(line).toContain('/x??INJECTED');
		expect(line).toContain('…');
		expect(line).toContain('user="Eve \\"?\\" Quote\\\\"');
		expect(line.length).toBeLessThan(300);
	});
});

describe('logLine as JSON (MOCK_LOG=json)', () => {
	it('writes one object with the fields of the logfmt line, numbers as numbers', () => {
		expect(
			logLine(
				{
					time,
					method: 'GET',
					target: '/api/v2/users',
					status: 200,
					durationMs: 1.26,
					holder: { slug: 'production', name: 'Amara Okafor', role: 'admin' },
				},
				'json',
			),
		).toBe(
			'{"time":"2026-11-21T09:30:00.123Z","method":"GET","target":"/api/v2/users","status":200,"durationMs":1.3,"view":"production","user":"Amara Okafor","role":"admin"}',
		);
	});

	it('says why a request was refused, which controls it carried, and why the mock failed', () => {
		const line = logLine(
			{
				time,
				method: 'GET',
				target: '/api/v2/users?__code=401',
				status: 500,
				durationMs: 0.4,
				refused: "the key is in no view's directory",
				controls: '__code=401',
				failed: 'SyntaxError: Invalid group',
			},
			'json',
		);
		expect(JSON.parse(line)).toEqual({
			time: '2026-11-21T09:30:00.123Z',
			method: 'GET',
			target: '/api/v2/users?__code=401',
			status: 500,
			durationMs: 0.4,
			refused: "the key is in no view's directory",
			controls: '__code=401',
			failed: 'SyntaxError: Invalid group',
		});
	});

	it('never prints a key, wherever it was sent', () => {
		const line = logLine(
			{
				time,
				method: 'GET',
				target: '/api/v2/users?token=ick%2D4f1c9a07%2DQx7m&x=abc-0123abcd-ZZ99',
				status: 401,
				durationMs: 0,
				refused: 'a reason naming ick-4f1c9a07-Qx7m',
				controls: 'Prefer: example=ick-4f1c9a07-Qx7m',
				failed: 'at ick-4f1c9a07-Qx7m',
			},
			'json',
		);
		expect(line).not.toMatch(/4f1c9a07|0123abcd/);
		expect(JSON.parse(line)).toMatchObject({
			target: '/api/v2/users?token=<key>&x=<key>',
			refused: 'a reason naming <key>',
			controls: 'Prefer: example=<key>',
			failed: 'at <key>',
		});
	});

	it('carries the whole error of a failure in one field, its line breaks escaped and keys replaced', () => {
		const line = logLine(
			{
				time,
				method: 'GET',
				target: '/api/v2/users',
				status: 500,
				durationMs: 3.1,
				failed: 'SyntaxError: Invalid group',
				error: 'SyntaxError: Invalid group\n    at ick-4f1c9a07-Qx7m (prism.js:1:2)',
			},
			'json',
		);
		expect(line).not.toMatch(/[\r\n]|4f1c9a07/);
		expect(JSON.parse(line)).toMatchObject({
			failed: 'SyntaxError: Invalid group',
			error: 'SyntaxError: Invalid group\n    at <key> (prism.js:1:2)',
		});
		// The logfmt line leaves it out: the terminal gets it on the lines below.
		expect(
			logLine({ time, method: 'GET', target: '/', status: 500, durationMs: 0, error: 'boom' }),
		).not.toContain('boom');
	});

	it('keeps a hostile request on one line that parses', () => {
		const line = logLine(
			{
				time,
				method: 'GET',
				target: `/x\r\nINJECTED\u2028${'a'.repeat(500)}`,
				status: 404,
				durationMs: 0,
				holder: { slug: 'v', name: 'Eve "\n" Quote\\ \u2028', role: 'viewer' },
			},
			'json',
		);
		expect(line).not.toMatch(/[\r\n\u2028\u2029]/);
		expect(JSON.parse(line)).toMatchObject({
			target: expect.stringMatching(/^\/x\?\?INJECTED\?a+…$/) as unknown,
			user: 'Eve "?" Quote\\ \u2028',
		});
	});
});

describe('the worker that answered (MOCK_WORKERS)', () => {
	it('is named last, in both forms', () => {
		const request = {
			time,
			method: 'GET',
			target: '/api/v2/users',
			status: 401,
			durationMs: 0.4,
			refused: 'no Authorization header',
			worker: 2,
		};
		expect(logLine(request)).toBe(
			'2026-11-21T09:30:00.123Z GET /api/v2/users 401 0.4ms refused="no Authorization header" worker=2',
		);
		expect(logLine(request, 'json')).toBe(
			'{"time":"2026-11-21T09:30:00.123Z","method":"GET","target":"/api/v2/users","status":401,"durationMs":0.4,"refused":"no Authorization header","worker":2}',
		);
	});
});

describe('isoTime', () => {
	it('writes a time as toISOString does, to the millisecond, as the seconds change', () => {
		const at = (text: string): number => Date.parse(text);
		expect(isoTime(at('2026-11-21T09:30:00.123Z'))).toBe('2026-11-21T09:30:00.123Z');
		expect(isoTime(at('2026-11-21T09:30:00.999Z'))).toBe('2026-11-21T09:30:00.999Z');
		expect(isoTime(at('2026-11-21T09:30:01.005Z'))).toBe('2026-11-21T09:30:01.005Z');
		expect(isoTime(at('2026-11-21T09:30:01.040Z'))).toBe('2026-11-21T09:30:01.040Z');
		// Back to an earlier second, as a clock set back would be.
		expect(isoTime(at('2026-11-21T09:29:59.000Z'))).toBe('2026-11-21T09:29:59.000Z');
		expect(isoTime(at('2026-12-31T23:59:59.999Z'))).toBe('2026-12-31T23:59:59.999Z');
		expect(isoTime(at('2027-01-01T00:00:00.000Z'))).toBe('2027-01-01T00:00:00.000Z');
	});
});

describe('the request log under a generated corpus of encoded keys', () => {
	const keys = ['ick-5f6bf1b8-KApG', 'ick-4f1c9a07-Qx7m', 'xyz-0123abcd-ZZ99'];
	/** Percent-encodes every character, with the hex in the given case. */
	const every = (text: string, upper: boolean): string =>
		[...text]
			.map((character) => {
				const hex = character.charCodeAt(0).toString(16).padStart(2, '0');
				return `%${upper ? hex.toUpperCase() : hex}`;
			})
			.join('');
	/** Encodes the percent signs of an encoded text again, `rounds` times. */
	const again = (text: string, rounds: number): string =>
		rounds === 0 ? text : again(text.replaceAll('%', '%25'), rounds - 1);
	const encodings: [string, (key: string) => string][] = [
		['plain', (key) => key],
		['dashes encoded', (key) => key.replaceAll('-', '%2D')],
		['dashes encoded, lower-case hex', (key) => key.replaceAll('-', '%2d')],
		['every character encoded', (key) => every(key, true)],
		['every character encoded, mixed-case hex', (key) => every(key, false).replace('%6', '%6')],
		['encoded twice', (key) => again(key.replaceAll('-', '%2D'), 1)],
		['every character encoded twice', (key) => again(every(key, false), 1)],
		['encoded four times', (key) => again(key.replaceAll('-', '%2D'), 3)],
		['every character encoded four times', (key) => again(every(key, true), 3)],
		['with + for spaces around it', (key) => `a+${key.replaceAll('-', '%2D')}+b`],
	];
	const places: [string, (encoded: string, beside: string) => string][] = [
		['in the path', (encoded, beside) => `/api/v2/users/${encoded}${beside}?x=1`],
		['in a query value', (encoded, beside) => `/api/v2/users?key=${encoded}&x=${beside}`],
		['in a query name', (encoded, beside) => `/api/v2/users?${encoded}=1&${beside}=2`],
		[
			'beside an escape in its own value',
			(encoded, beside) => `/api/v2/users?key=${beside}${encoded}${beside}`,
		],
	];
	const malformed = ['', '%zz', '%', '%E9', '%C0%AF', '%e9%', '%%41'];
	const corpus = keys.flatMap((key) =>
		encodings.flatMap(([encoding, encode]) =>
			places.flatMap(([place, target]) =>
				malformed.map((beside) => ({
					key,
					name: `${key} ${encoding} ${place} beside "${beside}"`,
					target: target(encode(key), beside),
				})),
			),
		),
	);

	/** The key's 8 hex digits in any encoding, any number of times over, in any case. */
	const found = (key: string): RegExp => {
		const hex = key.split('-')[1] ?? '';
		const character = (c: string) => `(?:${c}|%(?:25)*${c.charCodeAt(0).toString(16)})`;
		return new RegExp([...hex].map(character).join(''), 'i');
	};

	it.each(['logfmt', 'json'] as const)(
		`finds no key in the %s log lines of ${keys.length * encodings.length * places.length * malformed.length} targets`,
		(format) => {
			const leaked = corpus.filter(({ key, target }) =>
				found(key).test(
					logLine({ time, method: 'GET', target, status: 401, durationMs: 0 }, format),
				),
			);
			expect(leaked.map(({ name, target }) => `${name}: ${target}`)).toEqual([]);
		},
	);

	it('keeps the other parameters decoded beside a malformed escape', () => {
		const line = logLine({
			time,
			method: 'GET',
			target: '/api/v2/users?key=ick%2D5f6bf1b8%2DKApG&x=%zz',
			status: 401,
			durationMs: 0,
		});
		expect(line).toContain(' /api/v2/users?key=<key>&x=%zz ');
	});
});
