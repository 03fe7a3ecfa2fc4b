/**
 * The conformance run (`npm run conform`), without sockets, as `../forwarder/decide.ts` is the
 * proxy's: which requests it sends a console (for each key GET and HEAD, a CORS preflight, and
 * the 401s of no key, a key of the wrong shape and a well-shaped unknown key; when the contract
 * has OpenAPI 3.2's QUERY, a QUERY per key and one without a key, with the request body's
 * example as the samples send it; when the contract's GET or QUERY answers 200 with a stream
 * (OpenAPI 3.2's `itemSchema`: JSON lines or server-sent events), one more per key and stream
 * asking for it by `Accept`), and how
 * each answer is judged: the status expected, then the
 * contract's one check, which the proxy makes (`answerViolations`) and try-it and MCP share
 * (src/shared/exchange-check.ts). A key is never written: it is named by its holder when a
 * fixture holds it, else by its last four characters, and anything shaped like a key is masked
 * in every output (`masked`).
 */
import {
	answerViolations,
	FAILURE_PROBLEMS,
	type UpstreamAnswer,
	type UpstreamFailure,
} from '../forwarder/decide.ts';
import type { OperationContract } from '../../src/shared/exchange-check.ts';
import { USERS_PATH } from '../../src/shared/curl.ts';
import { problemOf } from '../../src/shared/problems.ts';
import type { Operation } from '../../src/sources/openapi.ts';
import { ANY_KEY_PATTERN, keyProblem } from '../../src/schemas/key.ts';

/** A key to send, and how every output names it. */
export interface NamedKey {
	key: string;
	/** `Amara Okafor (production)`, or `the key ending KApG`. */
	shown: string;
}

/** One check: a request and the status the contract says it gets. */
export interface ConformCheck {
	/** `GET /api/v2/users as Amara Okafor (production)`. */
	name: string;
	/** `GET /api/v2/users`: the operation whose answers the contract says. */
	operation: string;
	method: 'GET' | 'HEAD' | 'OPTIONS' | 'QUERY';
	/** Headers to send besides Host. */
	headers: [string, string][];
	/** The body a QUERY sends. */
	body?: string;
	/** The stream (JSON lines or server-sent events) a check asks for by `Accept`, which its answer must be. */
	accept?: string;
	expected: number;
	/** Whether the challenge must say `error="invalid_token"` (RFC 6750, section 3.1). */
	invalidToken?: boolean;
}

/** A well-shaped key that no directory holds. */
export const UNKNOWN_KEY = 'ick-00000000-Zz00';

/** The page origin the preflight names. */
export const PREFLIGHT_ORIGIN = 'http://localhost:3000';

/** Where the keys of a run come from, as a problem names it. */
const KEYS_HELP =
	'set CONFORM_KEYS=<key>,<key> or CONFORM_KEYS_FILE=<file> (keys are never taken from the command line, where shell history and process lists keep them)';

/**
 * The keys in a text of CONFORM_KEYS or a keys file: one or more keys a line, separated by spaces
 * or commas, `#` starting a comment anywhere on a line, blank lines ignored, each key once. Every
 * other piece is refused by its line and place, never shown: it may be a secret written wrong.
 */
export function keysIn(
	text: string,
	source: string,
): { ok: true; keys: string[] } | { ok: false; problem: string } {
	const keys = new Set<string>();
	for (const [index, line] of text.split('\n').entries()) {
		const pieces = (line.split('#', 1)[0] ?? '').split(/[\s,]+/).filter((piece) => piece !== '');
		for (const [place, piece] of pieces.entries()) {
			const problem = keyProblem(piece);
			if (problem !== undefined) {
				return {
					ok: false,
					problem: `${source} line ${index + 1}, piece ${place + 1}: ${problem} (keys are separated by spaces or commas, a comment starts with #); nothing was sent`,
				};
			}
			keys.add(piece);
		}
	}
	if (keys.size === 0) return { ok: false, problem: `no keys: ${source} names none; ${KEYS_HELP}` };
	return { ok: true, keys: [...keys] };
}

/** The keys of a run: from CONFORM_KEYS, else the file CONFORM_KEYS_FILE names (see keysIn). */
export function keysFrom(
	env: NodeJS.ProcessEnv,
	readFile: (file: string) => string,
): { ok: true; keys: string[] } | { ok: false; problem: string } {
	const inline = env['CONFORM_KEYS'];
	const file = env['CONFORM_KEYS_FILE'];
	if (inline !== undefined && inline.trim() !== '') return keysIn(inline, 'CONFORM_KEYS');
	if (file === undefined || file === '') return { ok: false, problem: `no keys: ${KEYS_HELP}` };
	let text: string;
	try {
		text = readFile(file);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? String(error);
		return { ok: false, problem: `CONFORM_KEYS_FILE: ${file} cannot be read (${code})` };
	}
	return keysIn(text, `CONFORM_KEYS_FILE ${file}`);
}

/** The console a run checks: where its requests go, and the origin every output names. */
export interface ConsoleAddress {
	/** `https://console.intranet.example/base`, without a trailing slash. */
	base: string;
	origin: string;
	/** The Host header its requests carry. */
	host: string;
}

/**
 * The console's address from `--base-url`: http or https, without user-info, query or fragment.
 * A refusal shows no part of what was given but its scheme: a key may be written into it.
 */
export function consoleAddress(
	given: string,
): { ok: true; address: ConsoleAddress } | { ok: false; problem: string } {
	const example = 'e.g. https://console.intranet.example';
	const url = URL.parse(given);
	if (!url) return { ok: false, problem: `--base-url: expected an http(s) address, ${example}` };
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		// A scheme is shown only as short as ftp: or mailto:, never long enough to be a key.
		const scheme = url.protocol.length <= 10 ? ` "${url.protocol}"` : ', not shown here,';
		return {
			ok: false,
			problem: `--base-url: expected an http(s) address, ${example}; its scheme${scheme} is neither`,
		};
	}
	if (url.username || url.password) {
		return {
			ok: false,
			problem: `--base-url: expected the console's address alone, ${example}; it holds user-info before an @, not shown here (keys go in CONFORM_KEYS or CONFORM_KEYS_FILE)`,
		};
	}
	if (url.search || url.hash) {
		return {
			ok: false,
			problem: `--base-url: expected the console's address alone, ${example}; it has a query or fragment, not shown here`,
		};
	}
	return {
		ok: true,
		address: {
			base: `${url.origin}${url.pathname.replace(/\/+$/, '')}`,
			origin: url.origin,
			host: url.host,
		},
	};
}

/** How many checks are in flight at once: a run's checks with up to two keys in one round. */
export const CONCURRENT_CHECKS = 8;

/** Runs `task` on each item, at most `limit` at a time; the results in the items' order. */
export async function concurrently<Item, Result>(
	items: readonly Item[],
	limit: number,
	task: (item: Item) => Promise<Result>,
): Promise<Result[]> {
	const results: Result[] = [];
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < items.length) {
			const index = next++;
			results[index] = await task(items[index] as Item);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
	return results;
}

/** How a key is named: by its holder, when a fixture holds it, else by its last four characters. */
export function nameKey(key: string, holders: ReadonlyMap<string, string>): NamedKey {
	return { key, shown: holders.get(key) ?? `the key ending ${key.slice(-4)}` };
}

/** A QUERY's body as a run sends it: its media type and text. */
export interface QueryBody {
	mediaType: string;
	text: string;
}

/** Whether a media type is JSON's, or a JSON type such as `application/merge-patch+json`. */
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json$/i;

/**
 * The body of the QUERY of the users path a run sends, when the contract has one: its JSON request
 * body's first example as the samples send it (a `serializedValue` as written, else compact JSON;
 * `sampleContent` in src/site/reference-layout.ts), else `{}`; undefined when it has no QUERY.
 */
export function queryOf(operations: readonly Operation[]): QueryBody | undefined {
	const query = operations.find(({ method, path }) => method === 'QUERY' && path === USERS_PATH);
	if (!query) return undefined;
	const body = query.requestBody?.bodies.find(({ mediaType }) => JSON_TYPE.test(mediaType));
	const example = body?.examples[0];
	const text = example && (example.serializedValue ?? JSON.stringify(example.value));
	return { mediaType: body?.mediaType ?? 'application/json', text: text ?? '{}' };
}

/** The streams the contract's 200s of the users path declare, by operation: their media types. */
export interface ConformStreams {
	get?: string[];
	query?: string[];
}

/**
 * The media types of the streams an operation's 200 declares, in the contract's order: JSON lines
 * and server-sent events, each a type the contract's one check reads item by item.
 */
function streamTypes(contract: OperationContract | undefined): string[] {
	const bodies = contract?.answers['200'] ?? {};
	return Object.keys(bodies).filter((mediaType) => {
		const validator = bodies[mediaType];
		return validator != null && ('eachLine' in validator || 'eachEvent' in validator);
	});
}

/**
 * The streams (OpenAPI 3.2's `itemSchema`: JSON lines, read line by line, and server-sent events,
 * read event by event by the contract's one check) that the 200s of GET and QUERY of the users
 * path declare; none on a contract without one.
 */
export function streamsOf(contracts: ReadonlyMap<string, OperationContract>): ConformStreams {
	const get = streamTypes(contracts.get(`GET ${USERS_PATH}`));
	const query = streamTypes(contracts.get(`QUERY ${USERS_PATH}`));
	return { ...(get.length > 0 ? { get } : {}), ...(query.length > 0 ? { query } : {}) };
}

/**
 * Every check of a run, in order; with a QUERY's body when the contract has one (`queryOf`), and
 * a check per key asking for each stream the contract declares (`streamsOf`).
 */
export function conformChecks(
	keys: readonly NamedKey[],
	query?: QueryBody,
	streams: ConformStreams = {},
): ConformCheck[] {
	const get = `GET ${USERS_PATH}`;
	const queried = query && {
		name: `QUERY ${USERS_PATH} with ${query.text}`,
		operation: `QUERY ${USERS_PATH}`,
		method: 'QUERY' as const,
		body: query.text,
		headers: [
			['Content-Type', query.mediaType],
			['Content-Length', String(Buffer.byteLength(query.text))],
		] satisfies [string, string][],
	};
	const checks: ConformCheck[] = [];
	for (const { key, shown } of keys) {
		const authorization: [string, string] = ['Authorization', `Bearer ${key}`];
		checks.push(
			{
				name: `${get} as ${shown}`,
				operation: get,
				method: 'GET',
				headers: [authorization],
				expected: 200,
			},
			{
				name: `HEAD ${USERS_PATH} as ${shown}`,
				operation: `HEAD ${USERS_PATH}`,
				method: 'HEAD',
				headers: [authorization],
				expected: 200,
			},
		);
		if (queried) {
			checks.push({
				...queried,
				name: `${queried.name} as ${shown}`,
				headers: [authorization, ...queried.headers],
				expected: 200,
			});
		}
		for (const accept of streams.get ?? []) {
			checks.push({
				name: `${get} as ${shown}, asking for ${accept}`,
				operation: get,
				method: 'GET',
				accept,
				headers: [authorization, ['Accept', accept]],
				expected: 200,
			});
		}
		if (queried) {
			for (const accept of streams.query ?? []) {
				checks.push({
					...queried,
					name: `${queried.name} as ${shown}, asking for ${accept}`,
					accept,
					headers: [authorization, ['Accept', accept], ...queried.headers],
					expected: 200,
				});
			}
		}
	}
	checks.push(
		{
			name: `OPTIONS ${USERS_PATH}: a preflight from ${PREFLIGHT_ORIGIN}`,
			operation: `OPTIONS ${USERS_PATH}`,
			method: 'OPTIONS',
			headers: [
				['Origin', PREFLIGHT_ORIGIN],
				['Access-Control-Request-Method', 'GET'],
				['Access-Control-Request-Headers', 'authorization'],
			],
			expected: 204,
		},
		{ name: `${get} without a key`, operation: get, method: 'GET', headers: [], expected: 401 },
		{
			name: `${get} with a key of the wrong shape`,
			operation: get,
			method: 'GET',
			headers: [['Authorization', 'Bearer not-a-directory-key']],
			expected: 401,
			invalidToken: true,
		},
		{
			name: `${get} with a well-shaped key no directory holds`,
			operation: get,
			method: 'GET',
			headers: [['Authorization', `Bearer ${UNKNOWN_KEY}`]],
			expected: 401,
			invalidToken: true,
		},
	);
	if (queried) checks.push({ ...queried, name: `${queried.name} without a key`, expected: 401 });
	return checks;
}

/** What one check found. */
export interface ConformResult {
	check: ConformCheck;
	/** `200 application/json`, or why there was no answer. */
	got: string;
	verdict: 'conforms' | 'breaks' | 'no answer';
	/** Each way the answer breaks the contract, or why there was none. */
	problems: string[];
	/** Why there was no answer at all (no connection, or no TLS one, could be made), for the exit code. */
	unreachable?: boolean;
	durationMs: number;
}

/**
 * Why a TLS connection could not be made, in OpenSSL's words without its codes (`wrong version
 * number`) or as Node names a certificate it refuses; undefined when the failure is not TLS.
 */
export function tlsFailure(cause: string): string | undefined {
	const openssl = /SSL routines:[^:]*:([^:]+)/.exec(cause);
	if (openssl) return openssl[1];
	if (/^(?:[A-Z_]*CERT[A-Z_]*|UNABLE_TO_[A-Z_]+|ERR_TLS_[A-Z_]+|ERR_SSL_[A-Z_]+):/.test(cause))
		return cause;
	return undefined;
}

/**
 * Why the console gave no answer, as one line in the words of the table of problems (the proxy's
 * `upstream-*` problems): the title, what happened, and what to change in a run.
 */
export function failureLine(failure: UpstreamFailure, timeoutMs: number): string {
	const tls = failure.kind === 'broken' ? tlsFailure(failure.cause) : undefined;
	const problem = problemOf(
		tls === undefined ? FAILURE_PROBLEMS[failure.kind] : 'upstream-unreachable',
	);
	const what = ((): string => {
		if (tls === 'wrong version number')
			return ` over TLS (${tls}): does it speak plain http: there?`;
		if (tls !== undefined) return ` over TLS (${tls}).`;
		switch (failure.kind) {
			case 'unreachable':
				return ` (${failure.cause}).`;
			case 'timeout':
				return ` (within ${timeoutMs} ms).`;
			case 'broken':
				return `: it closed the connection before its whole answer (${failure.cause}).`;
			case 'not-http':
				return `: it answered something that is not HTTP (${failure.cause}).`;
			case 'too-large':
				return `: it answered a body over ${failure.limit} bytes.`;
		}
	})();
	return `${problem.title}${what} ${problem.changeInRun ?? problem.change}`;
}

/** The value of a header of an answer, repeated ones joined. */
function header(answer: UpstreamAnswer, name: string): string | undefined {
	const values: string[] = [];
	for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
		if (answer.rawHeaders[index]?.toLowerCase() === name)
			values.push(answer.rawHeaders[index + 1] ?? '');
	}
	return values.length ? values.join(', ') : undefined;
}

/** Judges one answer (or its absence) against what the check expects and the contract. */
export function judge(
	check: ConformCheck,
	result: UpstreamAnswer | UpstreamFailure,
	contract: OperationContract | undefined,
	timeoutMs: number,
	durationMs: number,
): ConformResult {
	if (!('status' in result)) {
		return {
			check,
			got: 'no answer',
			verdict: 'no answer',
			problems: [failureLine(result, timeoutMs)],
			unreachable:
				result.kind === 'unreachable' ||
				(result.kind === 'broken' && tlsFailure(result.cause) !== undefined),
			durationMs,
		};
	}
	const type = header(result, 'content-type')?.split(';', 1)[0]?.trim();
	const got = type ? `${result.status} ${type}` : String(result.status);
	const problems: string[] = [];
	if (result.status !== check.expected) {
		problems.push(`Expected ${check.expected}, got ${result.status}.`);
	}
	if (!contract) problems.push(`The contract declares no ${check.operation}.`);
	if (
		check.accept !== undefined &&
		result.status === check.expected &&
		type !== undefined &&
		type.toLowerCase() !== check.accept
	) {
		problems.push(
			`Asked for ${check.accept} (Accept), which the contract's ${check.expected} declares, got ${type}.`,
		);
	}
	for (const { message } of answerViolations(result, check.method, contract))
		problems.push(message);
	const challenge = header(result, 'www-authenticate');
	if (check.invalidToken && challenge !== undefined && !/error="invalid_token"/.test(challenge)) {
		problems.push(
			'WWW-Authenticate: a token that opens no directory must get error="invalid_token" (RFC 6750, section 3.1)',
		);
	}
	return { check, got, verdict: problems.length ? 'breaks' : 'conforms', problems, durationMs };
}

/** Anything shaped like a key, and the keys sent, masked in a text. */
export function masked(text: string, keys: readonly string[]): string {
	const shaped = new RegExp(ANY_KEY_PATTERN.source.replace(/^\^|\$$/g, ''), 'g');
	let out = text.replace(shaped, '<key>');
	for (const key of keys) if (key !== '') out = out.replaceAll(key, '<key>');
	return out;
}
