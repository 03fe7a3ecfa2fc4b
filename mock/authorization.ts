/**
 * Reads an `Authorization` request header (RFC 9110, section 11.6.2) into what it holds:
 * nothing, a bearer token (RFC 6750, section 2.1; the scheme word in any case), a token far
 * longer than any key, another scheme, or malformed bearer credentials. Pure and browser-safe.
 */

/** The longest token read; a directory key is 17 characters, anything longer than this is refused unread. */
export const MAX_TOKEN_LENGTH = 256;

/** Why bearer credentials are malformed: no token after the scheme, or not a b64token. */
export type AuthorizationProblem = 'no-token' | 'not-a-token';

/** What an Authorization header holds. */
export type Authorization =
	| { kind: 'missing' }
	| { kind: 'bearer'; token: string }
	| { kind: 'oversized' }
	| { kind: 'other-scheme'; scheme: string }
	| { kind: 'malformed'; problem: AuthorizationProblem };

/** `auth-scheme`: an RFC 9110 token, then optionally one or more spaces and the rest. */
const CREDENTIALS = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?: +(.*))?$/s;

/** `b64token` (RFC 6750): the characters a bearer token may hold, then optional `=` padding. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** Reads a header value; `undefined` means the request had no Authorization header. */
export function parseAuthorization(value: string | undefined): Authorization {
	const credentials = value?.trim() ?? '';
	// An empty header carries no credentials, exactly like an absent one.
	if (credentials === '') return { kind: 'missing' };
	const match = CREDENTIALS.exec(credentials);
	const scheme = match?.[1];
	// Stryker disable next-line LogicalOperator,ConditionalExpression: group 1 is not optional, so a match always has a scheme; the second test is for the type checker
	if (!match || scheme === undefined) return { kind: 'malformed', problem: 'not-a-token' };
	if (scheme.toLowerCase() !== 'bearer') return { kind: 'other-scheme', scheme };
	const token = match[2] ?? '';
	if (token === '') return { kind: 'malformed', problem: 'no-token' };
	if (!BEARER_TOKEN.test(token)) return { kind: 'malformed', problem: 'not-a-token' };
	if (token.length > MAX_TOKEN_LENGTH) return { kind: 'oversized' };
	return { kind: 'bearer', token };
}
