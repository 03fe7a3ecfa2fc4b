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

/**
 * Every directory key in the portal, mapped to the view and user that hold it, and the console's
 * own keys (each view's `config.api_key`), mapped to their view's slug, so a refusal can say
 * that the key sent was one of those.
 */
export interface Directory {
	readonly holders: ReadonlyMap<string, KeyHolder>;
	readonly consoleKeys: ReadonlyMap<string, string>;
}

/** Builds the directory from views; the console's own key (`config.api_key`) opens none. */
export function buildDirectory(views: readonly { slug: string; view: View }[]): Directory {
	const holders = new Map<string, KeyHolder>();
	const consoleKeys = new Map<string, string>();
	for (const { slug, view } of views) {
		consoleKeys.set(view.config.api_key, slug);
		for (const { apiKey, name, role } of view.users) {
			const known = holders.get(apiKey);
			if (known !== undefined && known.slug !== slug) {
				throw new Error(
					`The key ${apiKey} is in the directories of both ${known.slug} and ${slug}`,
				);
			}
			holders.set(apiKey, { slug, name, role });
		}
	}
	return { holders, consoleKeys };
}

/** The slug of the view whose directory holds a key, or undefined. */
export function findView(directory: Directory, key: string): string | undefined {
	return directory.holders.get(key)?.slug;
}

/**
 * Which of the contract's refusals a request gets, named as its examples are (RFC 6750,
 * section 3.1): `missing-key` (401, no error code) when the request carries no bearer
 * credentials at all, `invalid-request` (400) when they are malformed, and, when the token is
 * well formed but opens no directory (401, `invalid_token`), what it was: `invalid-key` for a
 * key in no directory, `wrong-shape` for a token not shaped like a key, `console-key` for a
 * view's own `api_key`.
 */
export type Challenge =
	'missing-key' | 'invalid-request' | 'invalid-key' | 'wrong-shape' | 'console-key';

/** How the mock answers a request to the users path, before Prism picks the body. */
export type DirectoryAnswer =
	| { status: 200; holder: KeyHolder }
	| { status: 401; challenge: Exclude<Challenge, 'invalid-request'>; reason: string }
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
				challenge: 'wrong-shape',
				reason: 'the token is far longer than a key',
			};
		case 'bearer':
			return bearerAnswer(authorization.token, directory);
	}
}

/** The answer for a well-formed bearer token: its holder, or what the token was instead. */
function bearerAnswer(token: string, directory: Directory): DirectoryAnswer {
	const holder = directory.holders.get(token);
	if (holder !== undefined) return { status: 200, holder };
	const view = directory.consoleKeys.get(token);
	if (view !== undefined) {
		return {
			status: 401,
			challenge: 'console-key',
			reason: `the key is the console's own key of ${view} (config.api_key), not a directory key`,
		};
	}
	const problem = keyProblem(token);
	if (problem !== undefined) return { status: 401, challenge: 'wrong-shape', reason: problem };
	return { status: 401, challenge: 'invalid-key', reason: "the key is in no view's directory" };
}
