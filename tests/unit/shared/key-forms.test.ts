/** The forms of a key that the request log masks and try-it does not keep, found in one place. */
import { describe, expect, it } from 'vitest';
import {
	holdsKey,
	KEY_MASK,
	keyForms,
	maskKeys,
	percentDecoded,
} from '../../../src/shared/key-forms.ts';

const KEYS = ['ick-4f1c9a07-Qx7m', 'ab-00000000-ZZZZ', 'abcdefgh-0123abcd-9a9A'];

describe('keyForms', () => {
	it.each(KEYS)(
		'lists %s as it is, in both cases, with + and _ for its dashes, in base64, base64url and hex',
		(key) => {
			const bytes = Buffer.from(key);
			expect(keyForms(key)).toEqual([
				key,
				key.toUpperCase(),
				key.toLowerCase(),
				key.replaceAll('-', '+'),
				key.replaceAll('-', '_'),
				bytes.toString('base64'),
				bytes.toString('base64url'),
				bytes.toString('hex'),
				bytes.toString('hex').toUpperCase(),
			]);
		},
	);
});

describe('holdsKey and maskKeys', () => {
	const cases = KEYS.flatMap((key) =>
		keyForms(key).flatMap((form) =>
			[
				form,
				`before ${form} after`,
				encodeURIComponent(form),
				encodeURIComponent(encodeURIComponent(form)),
				[...form].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join(''),
			].map((text) => ({ key, text })),
		),
	);

	it.each(cases)('finds $key in $text', ({ key, text }) => {
		expect(holdsKey(text)).toBe(true);
		const masked = maskKeys(percentDecoded(text));
		expect(masked).toContain(KEY_MASK);
		expect(masked.toLowerCase()).not.toContain(key.split('-')[1]);
	});

	it.each([
		['a key glued after base64 of its own', (key: string) => `QUJD${btoa(`x${key}`)}`],
		['a key after one, two or three other bytes', (key: string) => btoa(`xyz${key}`).slice(4)],
		[
			'hex that starts mid-way through a byte',
			(key: string) => `f${Buffer.from(key).toString('hex')}`,
		],
		['base64 of "user:<key>"', (key: string) => btoa(`user:${key}`)],
	])('finds a key in %s', (_case, encode) => {
		for (const key of KEYS) expect(holdsKey(encode(key)), key).toBe(true);
	});

	it.each([
		'',
		'production',
		'staging-us-east',
		'application/json',
		'0123456789abcdef0123456789abcdef',
		btoa('page-2-of-the-users-list'),
		'/api/v2/users?__code=401&__example=dr-eu-west',
		'ick-4f1c9a07',
		'ick 4f1c9a07 Qx7m',
		'ick-4f1c9a0-Qx7m',
		'%zz%E9%',
	])('finds no key in %j and leaves it as it is', (text) => {
		expect(holdsKey(text)).toBe(false);
		expect(maskKeys(text)).toBe(text);
	});

	it('masks each key in a text, base64 with its padding, and nothing around them', () => {
		const key = 'ick-4f1c9a07-Qx7m';
		expect(
			maskKeys(`a ${btoa(key)} b ${key.toUpperCase()} c ${Buffer.from(key).toString('hex')} d`),
		).toBe('a <key> b <key> c <key> d');
	});
});

describe('percentDecoded', () => {
	it('decodes any number of times, leaving malformed escapes and reading bad UTF-8 as U+FFFD', () => {
		expect(percentDecoded('a%252Db')).toBe('a-b');
		expect(percentDecoded('%zz%2D%')).toBe('%zz-%');
		expect(percentDecoded('%E9x')).toBe('\uFFFDx');
		expect(percentDecoded('plain')).toBe('plain');
	});
});
