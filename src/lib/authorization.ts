/**
 * Reads an `Authorization` request header (RFC 7235, section 4.2) into what it holds: nothing,
 * a bearer token (RFC 6750, section 2.1; the scheme word in any case), another scheme, or
 * something that is not credentials at all. Pure and browser-safe: the mock and the try-it
 * panel share it.
 */
import { z } from 'zod';

/** The longest token read; a directory key is 17 characters, anything this long is refused. */
export const MAX_TOKEN_LENGTH = 256;

/** Why a header is not usable credentials. */
export type AuthorizationProblem = 'empty' | 'no-token' | 'not-a-token' | 'too-long';

/** What an Authorization header holds. */
export type Authorization =
	| { kind: 'missing' }
	| { kind: 'bearer'; token: string }
	| { kind: 'other-scheme'; scheme: string }
	| { kind: 'malformed'; problem: AuthorizationProblem };

/** `auth-scheme`: an RFC 9110 token, then optionally one or more spaces and the rest. */
const CREDENTIALS = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +(.*))?$/s;

/** `b64token` (RFC 6750): the characters a bearer token may hold, then optional `=` padding. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Reads a header value; `undefined` means the request had no Authorization header. */
export function parseAuthorization(value: string | undefined): Authorization {
	if (value === undefined) return { kind: 'missing' };
	const credentials = value.trim();
	if (credentials === '') return { kind: 'malformed', problem: 'empty' };
	const match = CREDENTIALS.exec(credentials);
	const scheme = match?.[1];
	if (!match || scheme === undefined) return { kind: 'malformed', problem: 'not-a-token' };
	if (scheme.toLowerCase() !== 'bearer') return { kind: 'other-scheme', scheme };
	const token = match[2] ?? '';
	if (token === '') return { kind: 'malformed', problem: 'no-token' };
	if (token.length > MAX_TOKEN_LENGTH) return { kind: 'malformed', problem: 'too-long' };
	if (!BEARER_TOKEN.test(token)) return { kind: 'malformed', problem: 'not-a-token' };
	return { kind: 'bearer', token };
}

/** The header as a request carries it (absent, or one string), parsed into an `Authorization`. */
export const authorizationSchema = z
	.string({ error: 'expected the Authorization header as one string' })
	.optional()
	.transform(parseAuthorization);
