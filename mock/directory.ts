/**
 * The directory the mock knows: every user key of every view, mapped to who holds it, and the
 * answer a request gets for its Authorization header, following RFC 6750, section 3.1. Pure and
 * browser-safe.
 */
import type { Role, View } from '../src/schemas/view.ts';
import { keyProblem } from '../src/schemas/key.ts';
import { parseAuthorization, type Authorization } from './authorization.ts';

/** Who holds a directory key: the view's slug and the user, never the key itself. */
export interface KeyHolder {
	slug: string;
	name: string;
	role: Role;
}

/** Every directory key in the portal, mapped to the view and user that hold it. */
export type Directory = ReadonlyMap<string, KeyHolder>;

/** Builds the directory from views; the console's own key (`config.api_key`) is not in it. */
export function buildDirectory(views: readonly { slug: string; view: View }[]): Directory {
	const directory = new Map<string, KeyHolder>();
	for (const { slug, view } of views) {
		for (const { apiKey, name, role } of view.users) {
			const known = directory.get(apiKey);
			if (known !== undefined && known.slug !== slug) {
				throw new Error(
					`The key ${apiKey} is in the directories of both ${known.slug} and ${slug}`,
				);
			}
			directory.set(apiKey, { slug, name, role });
		}
	}
	return directory;
}

/** The slug of the view whose directory holds a key, or undefined. */
export function findView(directory: Directory, key: string): string | undefined {
	return directory.get(key)?.slug;
}

/**
 * Which challenge the contract answers, named as its examples are (RFC 6750, section 3.1):
 * `missing-key` (401, no error code) when the request carries no bearer credentials at all,
 * `invalid-request` (400) when they are malformed, `invalid-key` (401, `invalid_token`) when
 * the token is well formed but opens no directory.
 */
export type Challenge = 'missing-key' | 'invalid-request' | 'invalid-key';

/** How the mock answers a request to the users path, before Prism picks the body. */
export type DirectoryAnswer =
	| { status: 200; holder: KeyHolder }
	| { status: 401; challenge: 'missing-key' | 'invalid-key'; reason: string }
	| { status: 400; challenge: 'invalid-request'; reason: string };

/** Why malformed credentials were refused, in words a reader of the log understands. */
function malformed(authorization: Extract<Authorization, { kind: 'malformed' }>): string {
	switch (authorization.problem) {
		case 'no-token':
			return 'there is no token after "Bearer"';
		case 'not-a-token':
			return 'the header is not "Bearer <token>"';
	}
}

/** Names another scheme when it reads like one (Basic, Digest); never echoes what may be a secret. */
function otherScheme(scheme: string): string {
	return /^[A-Za-z][A-Za-z-]{0,19}$/.test(scheme)
		? `the scheme is "${scheme}", not "Bearer"`
		: 'the header does not start with "Bearer "';
}

/** The answer for an Authorization header (absent when undefined), given the directory. */
export function answerFor(header: string | undefined, directory: Directory): DirectoryAnswer {
	const authorization = parseAuthorization(header);
	switch (authorization.kind) {
		case 'missing':
			return {
				status: 401,
				challenge: 'missing-key',
				reason: header === undefined ? 'no Authorization header' : 'an empty Authorization header',
			};
		case 'other-scheme':
			return { status: 401, challenge: 'missing-key', reason: otherScheme(authorization.scheme) };
		case 'malformed':
			return { status: 400, challenge: 'invalid-request', reason: malformed(authorization) };
		case 'oversized':
			return {
				status: 401,
				challenge: 'invalid-key',
				reason: 'the token is far longer than a key',
			};
		case 'bearer': {
			const holder = directory.get(authorization.token);
			if (holder !== undefined) return { status: 200, holder };
			return {
				status: 401,
				challenge: 'invalid-key',
				reason: keyProblem(authorization.token) ?? "the key is in no view's directory",
			};
		}
	}
}
