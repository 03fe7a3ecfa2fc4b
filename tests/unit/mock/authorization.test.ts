/** Reading the Authorization header: what the mock and the try-it panel make of what a reader sends. */
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_LENGTH, parseAuthorization } from '../../../mock/authorization.ts';

const KEY = 'ick-4f1c9a07-Qx7m';

describe('parseAuthorization', () => {
	it('reads an empty header as no credentials, like a missing one (RFC 6750, section 3.1)', () => {
		expect(parseAuthorization(undefined)).toEqual({ kind: 'missing' });
		expect(parseAuthorization('')).toEqual({ kind: 'missing' });
		expect(parseAuthorization('   ')).toEqual({ kind: 'missing' });
	});

	it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])(
		'accepts the scheme word in any case (%s), as RFC 7235 requires',
		(scheme) => {
			expect(parseAuthorization(`${scheme} ${KEY}`)).toEqual({ kind: 'bearer', token: KEY });
		},
	);

	it('reads the key after several spaces and around surrounding whitespace', () => {
		expect(parseAuthorization(`  Bearer   ${KEY} `)).toEqual({ kind: 'bearer', token: KEY });
	});

	it('names another scheme as it was sent', () => {
		expect(parseAuthorization('Basic dXNlcjpwYXNz')).toEqual({
			kind: 'other-scheme',
			scheme: 'Basic',
		});
		expect(parseAuthorization(`Token ${KEY}`)).toEqual({ kind: 'other-scheme', scheme: 'Token' });
		expect(parseAuthorization(KEY)).toEqual({ kind: 'other-scheme', scheme: KEY });
	});

	it('refuses "Bearer" with no key after it', () => {
		expect(parseAuthorization('Bearer')).toEqual({ kind: 'malformed', problem: 'no-token' });
		expect(parseAuthorization('Bearer    ')).toEqual({ kind: 'malformed', problem: 'no-token' });
	});

	it.each([
		[`Bearer ${KEY} extra`, 'a second word'],
		['Bearer "quoted"', 'quotes'],
		['Bearer key,other', 'a comma'],
		['Bearer a=b=c', 'padding inside the token'],
		['Bearer\t' + KEY, 'a tab instead of a space'],
		[`Bearer ${KEY}, Bearer ${KEY}`, 'two headers joined'],
	])('reads a token that is not a b64token as malformed (%s: %s)', (header) => {
		expect(parseAuthorization(header)).toEqual({ kind: 'malformed', problem: 'not-a-token' });
	});

	it('reads a header whose first word is not a scheme token as malformed', () => {
		expect(parseAuthorization(`Bear(er ${KEY}`)).toEqual({
			kind: 'malformed',
			problem: 'not-a-token',
		});
		expect(parseAuthorization(`(Bearer ${KEY}`)).toEqual({
			kind: 'malformed',
			problem: 'not-a-token',
		});
	});

	it('refuses an over-long token without reading it as a key', () => {
		expect(parseAuthorization(`Bearer ${'a'.repeat(MAX_TOKEN_LENGTH + 1)}`)).toEqual({
			kind: 'oversized',
		});
		expect(parseAuthorization(`Bearer ${'a'.repeat(MAX_TOKEN_LENGTH)}`)).toEqual({
			kind: 'bearer',
			token: 'a'.repeat(MAX_TOKEN_LENGTH),
		});
	});

	it('keeps base64 padding and the other b64token characters of RFC 6750', () => {
		expect(parseAuthorization('Bearer a-._~+/Z9==')).toEqual({
			kind: 'bearer',
			token: 'a-._~+/Z9==',
		});
	});
});
