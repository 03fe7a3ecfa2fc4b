/**
 * The mock as a validating proxy, wired to sockets: each request the decision forwards
 * (`decide.ts`) goes to the console over node:http or node:https, its whole answer is read within
 * MOCK_UPSTREAM_TIMEOUT_MS, checked against the contract and relayed; a console that cannot be
 * reached, is too slow, breaks off or does not speak HTTP becomes a 502 or 504 problem. `/readyz`
 * asks the console whether it answers, as a client asks, and logs each change. No body is ever
 * forwarded: the contract's operations take none, and a request announcing one is refused before
 * it reaches the console (`decide.ts`), which so reads only requests the proxy framed.
 * Connections to the console are kept alive between requests, as a browser keeps them to a
 * server, so a request through the proxy costs no TCP (or TLS) handshake.
 */
import {
	Agent as HttpAgent,
	request as httpRequest,
	type IncomingMessage,
	type RequestOptions,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import type { OperationContract } from '../../src/shared/exchange-check.ts';
import { contractValidators } from '../../src/sources/contract-validators.ts';
import type { MockAnswer, MockNow, MockRule } from '../decide.ts';
import { LONGEST_KEY, type MockRequest } from '../sent-answers.ts';
import type { MockState } from '../state.ts';
import {
	answerViolations,
	proxyStep,
	readinessOf,
	readinessRequest,
	readyAnswer,
	relayed,
	upstreamProblem,
	type ProxyLog,
	type Readiness,
	type Upstream,
	type UpstreamAnswer,
	type UpstreamFailure,
	type UpstreamRequest,
} from './decide.ts';

/** The largest body the proxy reads from the console and checks: 16 MiB. */
export const MAX_UPSTREAM_BODY = 16 * 1024 * 1024;

/** How long /readyz waits for the console at most. */
const READY_TIMEOUT_MS = 2000;

/** Error codes of a console that cannot be reached at all. */
const UNREACHABLE = new Set([
	'ECONNREFUSED',
	'ENOTFOUND',
	'EAI_AGAIN',
	'EHOSTUNREACH',
	'ENETUNREACH',
	'EADDRNOTAVAIL',
]);

/**
 * The connections to the console, kept open between requests, one pool per scheme. A pooled
 * connection is closed after the idle time the console announces (its `Keep-Alive: timeout=`)
 * less a second, and never keeps the process alive.
 */
const KEPT_ALIVE = {
	'http:': new HttpAgent({ keepAlive: true }),
	'https:': new HttpsAgent({ keepAlive: true }),
};

/**
 * Errors of a kept-alive connection the console closed as the request went out on it: the request
 * never reached the console, and is sent again once on a new connection (node:http's advice for
 * `request.reusedSocket`); the operations forwarded, GET and HEAD, are safe to repeat.
 */
const CLOSED_WHILE_IDLE = new Set(['ECONNRESET', 'EPIPE']);

/** An error as the problem names it: its code and first line. */
function causeOf(error: NodeJS.ErrnoException): string {
	const line = error.message.split('\n', 1)[0] ?? '';
	return error.code && !line.includes(error.code) ? `${error.code}: ${line}` : line;
}

/**
 * The most request URLs whose options for node:http are kept; past it, the kept ones are dropped.
 * A URL longer than the mock keeps an answer for (LONGEST_KEY) is read afresh each time.
 */
const TARGETS_KEPT = 1024;

/** Each request URL read as node:http's options, once: the proxy asks the same URLs again and again. */
const targets = new Map<string, { https: boolean; options: RequestOptions }>();

/** A request URL as node:http's options (host, port, path…), and whether it is https. */
function targetOf(url: string): { https: boolean; options: RequestOptions } {
	let found = targets.get(url);
	if (!found) {
		const parsed = new URL(url);
		found = { https: parsed.protocol === 'https:', options: urlToHttpOptions(parsed) };
		if (url.length <= LONGEST_KEY) {
			if (targets.size >= TARGETS_KEPT) targets.clear();
			targets.set(url, found);
		}
	}
	return found;
}

/** Asks the console, reading its whole answer, or says why there is none. */
export function ask(
	sent: UpstreamRequest,
	timeoutMs: number,
	limit = MAX_UPSTREAM_BODY,
): Promise<UpstreamAnswer | UpstreamFailure> {
	return new Promise((resolve) => {
		const { https, options } = targetOf(sent.url);
		const send = https ? httpsRequest : httpRequest;
		const asked: RequestOptions = {
			...options,
			method: sent.method,
			headers: sent.headers.flat(),
			agent: KEPT_ALIVE[https ? 'https:' : 'http:'],
		};
		let settled = false;
		let outgoing = send(asked);
		const done = (result: UpstreamAnswer | UpstreamFailure): void => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			resolve(result);
		};
		const timer = setTimeout(() => {
			done({ kind: 'timeout' });
			outgoing.destroy();
		}, timeoutMs);
		let answered = false;
		let retried = false;
		const listen = (): void => {
			outgoing.on('error', failed);
			outgoing.on('response', received);
			outgoing.end(sent.body);
		};
		function failed(error: NodeJS.ErrnoException): void {
			if (
				!answered &&
				!retried &&
				!settled &&
				outgoing.reusedSocket &&
				CLOSED_WHILE_IDLE.has(error.code ?? '')
			) {
				retried = true;
				outgoing = send(asked);
				listen();
				return;
			}
			const cause = causeOf(error);
			if (error.code?.startsWith('HPE_')) done({ kind: 'not-http', cause });
			else if (!answered && UNREACHABLE.has(error.code ?? '')) done({ kind: 'unreachable', cause });
			else done({ kind: 'broken', cause });
		}
		function received(incoming: IncomingMessage): void {
			answered = true;
			const chunks: Buffer[] = [];
			let size = 0;
			incoming.on('data', (chunk: Buffer) => {
				size += chunk.length;
				if (size > limit) {
					done({ kind: 'too-large', limit });
					outgoing.destroy();
					return;
				}
				chunks.push(chunk);
			});
			incoming.on('aborted', () => done({ kind: 'broken', cause: 'the answer was cut short' }));
			incoming.on('error', (error: NodeJS.ErrnoException) =>
				done({ kind: 'broken', cause: causeOf(error) }),
			);
			incoming.on('end', () => {
				if (!incoming.complete) {
					done({ kind: 'broken', cause: 'the answer was cut short' });
					return;
				}
				done({
					status: incoming.statusCode ?? 0,
					rawHeaders: incoming.rawHeaders,
					// One chunk, as a small answer comes, is the body as it is: no copy.
					body: chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks),
				});
			});
		}
		listen();
	});
}

/** Whether a result is the console's answer rather than why there is none. */
function isAnswer(result: UpstreamAnswer | UpstreamFailure): result is UpstreamAnswer {
	return 'status' in result;
}

/** A failure as the readiness log line says it. */
function failureWords(failure: UpstreamFailure, upstream: Upstream): string {
	switch (failure.kind) {
		case 'timeout':
			return `did not answer within ${Math.min(upstream.timeoutMs, READY_TIMEOUT_MS)} ms`;
		case 'too-large':
			return 'answered too large a body';
		default:
			return `does not answer (${failure.cause})`;
	}
}

/** What the proxy needs from the server: how to write log lines, and the mock's own decision. */
export interface ProxyWiring {
	upstream: Upstream;
	log: ProxyLog;
	/** The mock's own answer to a request the proxy does not forward. */
	mock: (request: MockRequest) => MockAnswer | Promise<MockAnswer>;
}

/**
 * The proxy's answer to each request: the mock's own, a refusal, or the console's answer checked
 * and relayed. Never rejects.
 */
export function createForwarder(wiring: ProxyWiring) {
	const { upstream, log } = wiring;
	/** An operation's contract, with validators compiled once per reading of the contract. */
	const contractOf = (state: MockState, operation: string): OperationContract | undefined =>
		contractValidators(state.reference).get(operation);

	/** Whether the console answered /readyz last time; taken as so at start, so none is logged. */
	let ready = true;

	const forward = async (
		request: MockRequest,
		rawHeaders: readonly string[],
		now: MockNow,
		hosts: MockRule,
	): Promise<MockAnswer> => {
		const origins = hosts.origins ?? [];
		const step = proxyStep(request, rawHeaders, now, hosts, upstream);
		switch (step.kind) {
			case 'mock':
				return wiring.mock(request);
			case 'answer':
				return step.answer;
			case 'readyz': {
				const result = await ask(
					readinessRequest(upstream),
					Math.min(upstream.timeoutMs, READY_TIMEOUT_MS),
					0,
				);
				const readiness: Readiness = isAnswer(result)
					? readinessOf(result.status)
					: { answers: false, cause: failureWords(result, upstream) };
				const changed = readiness.answers !== ready;
				ready = readiness.answers;
				return readyAnswer(request, readiness, changed, upstream, log);
			}
			case 'forward': {
				const result = await ask(step.request, upstream.timeoutMs);
				if (!isAnswer(result)) return upstreamProblem(request, result, upstream, origins, log);
				const contract = now.state && contractOf(now.state, step.operation);
				const violations = answerViolations(result, step.request.method, contract);
				return relayed(request, result, violations, upstream, origins, log);
			}
		}
	};
	return forward;
}
