/**
 * The directory the mock knows: every user key of every view, mapped to the view's slug, and
 * the answer a request gets for its Authorization header. Pure and browser-safe.
 */
import type { View } from '../schemas/view.ts';
import { keyProblem } from '../schemas/key.ts';
import { parseAuthorization, type Authorization } from './authorization.ts';

/** Every directory key in the portal, mapped to the slug of the view that lists it. */
export type Directory = ReadonlyMap<string, string>;

/** Builds the directory from views; the console's own key (`config.api_key`) is not in it. */
export function buildDirectory(views: readonly { slug: string; view: View }[]): Directory {
	const directory = new Map<string, string>();
	for (const { slug, view } of views) {
		for (const { apiKey } of view.users) {
			const known = directory.get(apiKey);
			if (known !== undefined && known !== slug) {
				throw new Error(`The key ${apiKey} is in the directories of both ${known} and ${slug}`);
			}
			directory.set(apiKey, slug);
		}
	}
	return directory;
}

/** The slug of the view whose directory holds a key, or undefined. */
export function findView(directory: Directory, key: string): string | undefined {
	return directory.get(key);
}

/** Which 401 the contract answers: no credentials at all, or credentials that are not a key. */
export type Challenge = 'missing-key' | 'invalid-key';

/** How the mock answers a request to the users path, before Prism picks the body. */
export type DirectoryAnswer =
	{ status: 200; slug: string } | { status: 401; challenge: Challenge; reason: string };

/** Why credentials were refused, in words a reader of the try-it panel understands. */
function refusal(authorization: Exclude<Authorization, { kind: 'missing' | 'bearer' }>): string {
	if (authorization.kind === 'other-scheme') {
		return `the scheme is "${authorization.scheme}", expected "Bearer"`;
	}
	switch (authorization.problem) {
		case 'empty':
			return 'the Authorization header is empty';
		case 'no-token':
			return 'there is no key after "Bearer"';
		case 'too-long':
			return 'the token is far longer than a key';
		case 'not-a-token':
			return 'the header is not "Bearer <key>"';
	}
}

/** The answer for an Authorization header (absent when undefined), given the directory. */
export function answerFor(header: string | undefined, directory: Directory): DirectoryAnswer {
	const authorization = parseAuthorization(header);
	switch (authorization.kind) {
		case 'missing':
			return { status: 401, challenge: 'missing-key', reason: 'no Authorization header' };
		case 'bearer': {
			const slug = findView(directory, authorization.token);
			if (slug !== undefined) return { status: 200, slug };
			const problem = keyProblem(authorization.token);
			return {
				status: 401,
				challenge: 'invalid-key',
				reason: problem ?? "the key is in no view's directory",
			};
		}
		default:
			return { status: 401, challenge: 'invalid-key', reason: refusal(authorization) };
	}
}
