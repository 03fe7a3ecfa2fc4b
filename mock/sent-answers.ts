/**
 * The answers the mock has sent, kept as they went out (status, every header, the encoded body,
 * what the log line says), by request and by state: a request the mock answered before in the
 * same state is answered with one lookup, without routing, reading the key or the controls, or
 * asking Prism again. A request's answer depends on its method, target, Origin, Authorization and
 * Prefer headers and the state alone, so those make its key. Only GET and HEAD are kept; a new
 * state (a reload) starts empty and fills again from the answers Prism already computed, which
 * `answers.ts` hands on between states.
 *
 * The request a client sends most, GET /api/v2/users with a directory key and nothing else (no
 * Origin, no Prefer, no query), is looked up by its Authorization header alone, in a map of its
 * own beside the others: no key is put together, and no recency is kept for it. Only 200s go in
 * (one per directory key at most, and no more than the others hold), so keys no view holds, which
 * anyone can make up, never fill it.
 */
import { LRUCache } from 'lru-cache';
import { USERS_PATH } from '../src/shared/curl.ts';
import type { Logged, LineParts } from './request-log.ts';
import type { MockState } from './state.ts';

/** What a request is, as far as its answer and its log line go. */
export interface MockRequest {
	/** When it arrived, from `performance.now()`. */
	started: number;
	/** The method as sent, for the log. */
	rawMethod: string;
	/** The method, lower case. */
	method: string;
	/** The request target as sent: path and query. */
	target: string;
	/**
	 * The host the request names (`requestedHost`: an absolute-form target's, else its Host
	 * headers joined). Checked before any kept answer is looked up, so it is no part of the key.
	 */
	host: string | undefined;
	origin: string | undefined;
	authorization: string | undefined;
	prefer: string | undefined;
	/**
	 * Whether it carries Access-Control-Request-Method, as a CORS preflight does. Only OPTIONS
	 * reads it, and OPTIONS is never kept, so it is no part of the key.
	 */
	preflight?: boolean;
	/**
	 * A QUERY's body as text; undefined when longer than the mock reads. Other requests' bodies are
	 * not read, and a QUERY is never kept, so it is no part of the key.
	 */
	body?: string | undefined;
	/** A QUERY's Accept header, which may ask for JSON lines; no part of the key either. */
	accept?: string | undefined;
}

// The log line's part of an answer is the log's own type; the deciders import it from here.
export type { Logged };

/** An answer as it goes out. */
export interface Sent {
	status: number;
	headers: Record<string, string | number>;
	body: Buffer;
	logged: Logged;
	/** Its log line's parts, once a line was written: the same for each request of its key. */
	line?: LineParts;
}

/** How many answers a state keeps, at most, and how many bytes of keys and bodies. */
export const SENT_LIMITS = { entries: 10_000, bytes: 64 * 1024 * 1024 } as const;

/** The longest request key kept: longer ones (hostile or odd requests) are answered afresh. */
export const LONGEST_KEY = 4096;

/** A header in a key: its length first, so an absent header and an empty one differ. */
function part(value: string | undefined): string {
	return value === undefined ? '-' : `${value.length}:${value}`;
}

/** The key of a request's answer, or undefined when its answer is not kept. */
export function requestKey(request: MockRequest): string | undefined {
	if (request.method !== 'get' && request.method !== 'head') return undefined;
	const key = `${request.rawMethod} ${request.target}\n${part(request.origin)}\n${part(request.authorization)}\n${part(request.prefer)}`;
	return key.length > LONGEST_KEY ? undefined : key;
}

/**
 * The Authorization header of a plain request, GET /api/v2/users with no Origin and no Prefer
 * (the request the examples send), or undefined for any other request.
 */
export function plainKey(request: MockRequest): string | undefined {
	return request.rawMethod === 'GET' &&
		request.target === USERS_PATH &&
		request.origin === undefined &&
		request.prefer === undefined
		? request.authorization
		: undefined;
}

/** The sent answers of every state; the least recently used go first when a state's are full. */
export function createSentAnswers(limits: { entries: number; bytes: number } = SENT_LIMITS) {
	const byState = new WeakMap<MockState, LRUCache<string, Sent>>();
	/** The 200s of plain requests, by their Authorization header (`plainKey`), of every state. */
	const plainByState = new WeakMap<MockState, Map<string, Sent>>();
	const of = (state: MockState): LRUCache<string, Sent> => {
		let answers = byState.get(state);
		if (!answers) {
			answers = new LRUCache<string, Sent>({
				max: limits.entries,
				maxSize: limits.bytes,
				sizeCalculation: (sent, key) => key.length + sent.body.length + 1,
			});
			byState.set(state, answers);
		}
		return answers;
	};
	return {
		/** The answer sent before to the same request in this state. */
		get: (state: MockState, request: MockRequest): Sent | undefined => {
			const plain = plainKey(request);
			const found = plain === undefined ? undefined : plainByState.get(state)?.get(plain);
			if (found) return found;
			const key = requestKey(request);
			return key === undefined ? undefined : byState.get(state)?.get(key);
		},
		/** Keeps the answer to a request, unless the request is not kept. */
		set: (state: MockState, request: MockRequest, sent: Sent): void => {
			const key = requestKey(request);
			if (key === undefined) return;
			of(state).set(key, sent);
			const plain = plainKey(request);
			if (plain === undefined || sent.status !== 200 || plain.length > LONGEST_KEY) return;
			let plains = plainByState.get(state);
			if (!plains) plainByState.set(state, (plains = new Map<string, Sent>()));
			if (plains.size < limits.entries) plains.set(plain, sent);
		},
		/** How many answers a state keeps. */
		size: (state: MockState): number => byState.get(state)?.size ?? 0,
	};
}
