/**
 * The mock as a validating proxy (MOCK_UPSTREAM), as Prism's `forwarder` is beside its `mocker`:
 * the decisions, with no socket. A request for the users operation is forwarded to the console
 * (`proxyStep`: its method, path, query and headers, `Authorization` among them, never a body or
 * the client's framing of one: a request announcing a body gets a 400 and its connection closed,
 * so the console never reads bytes the proxy did not frame); the console's
 * answer goes back to the client as it came, after the contract's check (`relayed`, the check
 * try-it and the conformance run make, src/shared/contract-check.ts), with each violation in an
 * `sl-violations` header and in the log line, or, with MOCK_PROXY_ERRORS=on, as a 502 problem.
 * A console that cannot be reached, is too slow or does not speak HTTP gets a 502 or 504 problem
 * naming it and why (`upstreamProblem`). Everything else (probes, the host allow-list,
 * preflights, unknown paths) is the mock's own decision, as without MOCK_UPSTREAM; the mock's
 * controls (`Prefer: code=…`, `__code`…) are refused with 422, since the console decides.
 */
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import {
	exchangeViolations,
	readExchange,
	type ExchangeViolation,
	type OperationContract,
} from '../../src/shared/exchange-check.ts';
import { hostAllowed } from '../../src/shared/allowed-hosts.ts';
import { USERS_PATH } from '../../src/shared/curl.ts';
import { problemBody, problemOf, type ProblemName } from '../../src/shared/problems.ts';
import { controlProblem, methodSchema, routeOf } from '../answers.ts';
import { NAMES as CONTROLS, readControls, shownControls } from '../controls.ts';
import { corsHeaders } from '../cors.ts';
import { probe, type MockAnswer, type MockNow, type MockRule } from '../decide.ts';
import { lineParts, type LineParts, type LogFormat } from '../request-log.ts';
import { LONGEST_KEY, type Logged, type MockRequest } from '../sent-answers.ts';
import type { MockState } from '../state.ts';

/** The console the mock forwards to, and how. */
export interface Upstream {
	/** Its base URL, without a trailing slash: `https://console.intranet.example`. */
	base: string;
	/** How long its whole answer may take (MOCK_UPSTREAM_TIMEOUT_MS). */
	timeoutMs: number;
	/** Whether an answer that breaks the contract becomes a 502 problem (MOCK_PROXY_ERRORS=on). */
	errors: boolean;
}

/** A request as it goes to the console. */
export interface UpstreamRequest {
	/** The whole URL: the console's base, then the path and query as the client sent them. */
	url: string;
	/** The method as sent, upper case. */
	method: string;
	/** The console's Host, then every header the client sent but those of its connection. */
	headers: [string, string][];
	/** The body to send: the conformance run's QUERY has one; the proxy forwards none. */
	body?: string | undefined;
}

/** What the proxy does with a request. */
export type ProxyStep =
	| { kind: 'mock' }
	| { kind: 'readyz' }
	| { kind: 'answer'; answer: MockAnswer }
	| { kind: 'forward'; request: UpstreamRequest; operation: string };

/** A whole answer from the console, as it came. */
export interface UpstreamAnswer {
	status: number;
	/** Node's raw headers: name, value, name, value… */
	rawHeaders: readonly string[];
	body: Buffer;
}

/**
 * The headers of one connection (RFC 9110, section 7.6.1), which a proxy never passes on, and
 * the Host, which names the mock.
 */
const HOP_BY_HOP = new Set([
	'connection',
	'keep-alive',
	'proxy-authenticate',
	'proxy-authorization',
	'proxy-connection',
	'te',
	'trailer',
	'transfer-encoding',
	'upgrade',
]);

/** The headers the mock sets itself on a relayed answer: its own CORS policy and Vary. */
const OWN_ON_ANSWER = /^(?:access-control-|vary$)/i;

/** The header naming each violation of a relayed answer, as Prism's proxy names it. */
export const VIOLATIONS_HEADER = 'sl-violations';

/** Anything shaped like a key of any prefix, which no log line shows. */
const KEY_LIKE = /[a-z]{2,8}-[0-9a-f]{8}-[A-Za-z0-9]{4}/g;

/** A request's path and query, as origin-form; an absolute-form target is read by its path. */
function originForm(target: string): { path: string; search: string } {
	const url = target.startsWith('/')
		? URL.parse(`http://mock.invalid${target}`)
		: /^https?:\/\//i.test(target)
			? URL.parse(target)
			: null;
	return { path: url?.pathname ?? '/', search: url?.search ?? '' };
}

/** The headers a client sent, without those of its connection, ready for the console. */
export function forwardedHeaders(rawHeaders: readonly string[]): [string, string][] {
	const named = new Set<string>();
	for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
		if (rawHeaders[index]?.toLowerCase() !== 'connection') continue;
		for (const name of (rawHeaders[index + 1] ?? '').split(','))
			named.add(name.trim().toLowerCase());
	}
	const headers: [string, string][] = [];
	for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
		const name = rawHeaders[index] ?? '';
		const lower = name.toLowerCase();
		if (HOP_BY_HOP.has(lower) || named.has(lower) || lower === 'host') continue;
		// The proxy frames what it sends itself, and sends no body: a length of the client's
		// would make the console read the next request on the connection as this one's body.
		if (lower === 'content-length') continue;
		// The console's body is checked as it came: it is asked for without compression.
		if (lower === 'accept-encoding') continue;
		headers.push([name, rawHeaders[index + 1] ?? '']);
	}
	headers.push(['Accept-Encoding', 'identity']);
	return headers;
}

/**
 * The body a request's headers announce, as they announce it (`Content-Length: 5`,
 * `Transfer-Encoding: chunked`), or none: no header of either, or a length of 0.
 */
export function announcedBody(rawHeaders: readonly string[]): string | undefined {
	for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
		const name = (rawHeaders[index] ?? '').toLowerCase();
		const value = (rawHeaders[index + 1] ?? '').trim();
		if (name === 'transfer-encoding') return `Transfer-Encoding: ${value}`;
		if (name === 'content-length' && !/^0+$/.test(value)) return `Content-Length: ${value}`;
	}
	return undefined;
}

/**
 * The 400 a request to the users operation gets when it announces a body, which the operation
 * does not take and the proxy never forwards. Decided from the headers, before the body is read
 * (it may still be on its way, or never come whole), so the answer closes the connection.
 */
function bodyRefused(
	request: MockRequest,
	operation: string,
	announced: string,
	upstream: Upstream,
	origins: readonly string[],
) {
	const answer = controlProblem(
		'request-body',
		`The request announces a body (${announced}), which ${operation} does not take; the mock forwards no body to the console at ${new URL(upstream.base).origin} (MOCK_UPSTREAM), so it refuses the request and closes the connection. Send the request without a body.`,
	);
	return composed(
		answer,
		request,
		origins,
		{ refused: `a body (${announced}), which ${operation} does not take` },
		{
			'WWW-Authenticate': `Bearer realm="console", error="invalid_request", error_description="The request carries a body, which ${operation} does not take"`,
			Connection: 'close',
		},
	);
}

/**
 * The 501 a QUERY gets in front of a console: its filter is a body, which the proxy never
 * forwards, and an answer from the fixtures would pass for the console's.
 */
function queryRefused(
	request: MockRequest,
	operation: string,
	upstream: Upstream,
	origins: readonly string[],
) {
	const answer = controlProblem(
		'query-in-proxy-mode',
		`${operation} carries its filter in a body, which the mock never forwards to the console at ${new URL(upstream.base).origin} (MOCK_UPSTREAM); it will not answer it from its fixtures as if the console had. Send the QUERY to the console itself, or run the mock without MOCK_UPSTREAM to get the fixtures’ answer.`,
	);
	return composed(answer, request, origins, {
		refused: `${operation}, whose body the mock does not forward`,
	});
}

/** The 422 a request carrying the mock's controls gets: the console decides, not the mock. */
function controlsRefused(request: MockRequest, spelled: string, origins: readonly string[]) {
	const prefer = CONTROLS.map((name) => `${name}=…`).join(', ');
	const query = CONTROLS.map((name) => `__${name}`).join(', ');
	const answer = controlProblem(
		'control-in-proxy-mode',
		`${spelled}: the mock forwards every request to the console named by MOCK_UPSTREAM, which decides its answer; the mock's controls (Prefer: ${prefer}, or ${query}) have no meaning there. Send the request without them, or run the mock without MOCK_UPSTREAM.`,
	);
	return composed(answer, request, origins, {
		// What the request sent is shown as the mock's log shows controls: never a key in disguise.
		refused: `${shownControls(request.prefer, new URLSearchParams(originForm(request.target).search)) || 'the controls'}: a mock control in proxy mode`,
	});
}

/** An answer of the mock's own with its CORS headers and length. */
function composed(
	answer: { status: number; headers: Record<string, string>; body: string },
	request: MockRequest,
	origins: readonly string[],
	logged: Logged,
	extra: Record<string, string> = {},
): MockAnswer {
	const body = Buffer.from(answer.body);
	return {
		status: answer.status,
		headers: {
			...answer.headers,
			...extra,
			...corsHeaders(request.origin, origins),
			'Content-Length': body.length,
		},
		body,
		logged,
	};
}

/** Where a request goes, as far as its method, target and Prefer header decide it. */
type Routed =
	| { kind: 'mock' }
	| { kind: 'query'; path: string }
	| { kind: 'users'; path: string; search: string; refused: string | undefined };

/**
 * The most requests whose routing each state keeps; past it, the kept ones are dropped. A request
 * longer than the mock keeps an answer for (LONGEST_KEY) is routed afresh each time.
 */
const ROUTED_KEPT = 1024;

/** The routing of requests seen before, by state, then by method, target and Prefer header. */
const routings = new WeakMap<MockState, Map<string, Routed>>();

/**
 * Where a request goes: another path or method is the mock's; the users operation's path and
 * query, and the controls it carries, spelled as the 422 quotes them. Worked out once per state
 * for each method, target and Prefer header, since a client asks the same request again and again.
 */
function routed(state: MockState, method: string, target: string, prefer: string | undefined) {
	let kept = routings.get(state);
	if (!kept) {
		kept = new Map();
		routings.set(state, kept);
	}
	const key = `${method}\n${target}\n${prefer ?? ''}`;
	let found = kept.get(key);
	if (found) return found;
	const { path, search } = originForm(target);
	const asked = methodSchema.parse(method === 'head' ? 'get' : method);
	const route = routeOf(state, path, asked);
	if (route === 'query') {
		found = { kind: 'query', path };
	} else if (route !== 'users') {
		found = { kind: 'mock' };
	} else {
		const controls = readControls(prefer, new URLSearchParams(search));
		const refused = !controls.ok
			? controls.problem
			: controls.controls.spelled !== ''
				? controls.controls.spelled
				: undefined;
		found = { kind: 'users', path, search, refused };
	}
	if (key.length <= LONGEST_KEY) {
		if (kept.size >= ROUTED_KEPT) kept.clear();
		kept.set(key, found);
	}
	return found;
}

/** The console's origin and Host, read once from its base URL. */
const consoles = new WeakMap<Upstream, { origin: string; host: string }>();

/** The console's origin (for messages and log lines) and Host (for requests). */
function consoleOf(upstream: Upstream): { origin: string; host: string } {
	let found = consoles.get(upstream);
	if (!found) {
		const url = new URL(upstream.base);
		found = { origin: url.origin, host: url.host };
		consoles.set(upstream, found);
	}
	return found;
}

/**
 * What the proxy does with a request: `/readyz` asks whether the console answers; a request for
 * the users operation (GET or HEAD) is forwarded, unless it announces a body (400, its connection
 * closed) or carries the mock's controls (422);
 * every other request is the mock's own (`mock`: probes, the host allow-list's 403, preflights,
 * 503 while the sources load, the contract's 404 and 405), decided as without MOCK_UPSTREAM.
 */
export function proxyStep(
	request: MockRequest,
	rawHeaders: readonly string[],
	now: MockNow,
	hosts: MockRule,
	upstream: Upstream,
): ProxyStep {
	const probed = probe(request, now);
	if (probed) {
		return probed.status === 200 && originForm(request.target).path === '/readyz'
			? { kind: 'readyz' }
			: { kind: 'answer', answer: probed };
	}
	if (!hostAllowed(request.host, hosts) || request.preflight) return { kind: 'mock' };
	const { state } = now;
	if (!state) return { kind: 'mock' };
	const route = routed(state, request.method, request.target, request.prefer);
	if (route.kind === 'mock') return { kind: 'mock' };
	const method = request.method.toUpperCase();
	const origins = hosts.origins ?? [];
	if (route.kind === 'query') {
		return {
			kind: 'answer',
			answer: queryRefused(request, `${method} ${route.path}`, upstream, origins),
		};
	}
	const { path, search } = route;
	const operation = `${method} ${path}`;
	const announced = announcedBody(rawHeaders);
	if (announced !== undefined) {
		return {
			kind: 'answer',
			answer: bodyRefused(request, operation, announced, upstream, origins),
		};
	}
	if (route.refused !== undefined) {
		return { kind: 'answer', answer: controlsRefused(request, route.refused, origins) };
	}
	return {
		kind: 'forward',
		operation,
		request: {
			url: `${upstream.base}${path}${search}`,
			method,
			headers: [['Host', consoleOf(upstream).host], ...forwardedHeaders(rawHeaders)],
		},
	};
}

/** A header value as HTTP carries it: every character outside ASCII escaped, as JSON does. */
function asciiJson(value: unknown): string {
	return JSON.stringify(value).replace(
		/[^\x20-\x7e]/g,
		(character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
	);
}

/** A body as the check reads it: decompressed when the console compressed it anyway. */
function decoded(body: Buffer, encoding: string | undefined): Buffer | undefined {
	switch ((encoding ?? 'identity').trim().toLowerCase()) {
		case 'identity':
			return body;
		case 'gzip':
		case 'x-gzip':
			return gunzipSync(body);
		case 'deflate':
			return inflateSync(body);
		case 'br':
			return brotliDecompressSync(body);
		default:
			return undefined;
	}
}

/** The console's headers by lower-case name, a repeated header's values joined. */
function headerMap(rawHeaders: readonly string[]): Record<string, string> {
	const map: Record<string, string> = {};
	for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
		const name = (rawHeaders[index] ?? '').toLowerCase();
		const value = rawHeaders[index + 1] ?? '';
		map[name] = map[name] === undefined ? value : `${map[name]}, ${value}`;
	}
	return map;
}

/** Every way the console's answer breaks the contract of the operation asked for. */
export function answerViolations(
	answer: UpstreamAnswer,
	method: string,
	contract: OperationContract | undefined,
): ExchangeViolation[] {
	if (!contract) return [];
	const headers = headerMap(answer.rawHeaders);
	let body: Buffer | undefined;
	try {
		body = method === 'HEAD' ? Buffer.alloc(0) : decoded(answer.body, headers['content-encoding']);
	} catch {
		// A body its Content-Encoding does not decode: reported just below, as that header's violation.
		body = undefined;
	}
	if (body === undefined) {
		return [
			{
				location: ['response', 'headers', 'Content-Encoding'],
				severity: 'Error',
				message: `Content-Encoding: the body could not be decoded as ${headers['content-encoding']}`,
			},
		];
	}
	const exchange = readExchange(answer.status, headers, body.toString('utf8'));
	return exchangeViolations(exchange.answer, exchange.headers, contract);
}

/** How the proxy writes its log line: the form, and the worker that answered. */
export interface ProxyLog {
	format: LogFormat;
	worker: number | undefined;
}

/** The log line of a forwarded request: the mock's fields, the console's origin, each violation. */
function proxyLine(
	request: MockRequest,
	status: number,
	logged: Logged,
	upstream: Upstream,
	violations: readonly ExchangeViolation[],
	log: ProxyLog,
	ready?: string,
) {
	const parts = lineParts(
		{ method: request.rawMethod, target: request.target, status, ...logged, worker: log.worker },
		log.format,
	);
	const fields: [string, string][] = [['upstream', consoleOf(upstream).origin]];
	if (ready !== undefined) fields.push(['ready', ready]);
	if (violations.length > 0) {
		fields.push(['violations', violations.map(({ message }) => message).join('; ')]);
	}
	const masked = (text: string): string => text.replace(KEY_LIKE, '<key>');
	const extra =
		log.format === 'json'
			? fields.map(([name, text]) => `,${JSON.stringify(name)}:${asciiJson(masked(text))}`).join('')
			: fields.map(([name, text]) => `${name}=${asciiJson(masked(text))}`).join(' ');
	return {
		...parts,
		after:
			log.format === 'json'
				? `${parts.after}${extra}`
				: [parts.after, extra].filter(Boolean).join(' '),
	};
}

/**
 * The most log lines of relayed answers each console keeps; past it, the kept ones are dropped. A
 * request longer than the mock keeps an answer for (LONGEST_KEY) gets its line worked out afresh.
 */
const LINES_KEPT = 1024;

/** The log lines of relayed answers, by console, then by everything a line says. */
const relayedLines = new WeakMap<Upstream, Map<string, LineParts>>();

/**
 * The log line of a relayed answer, worked out once for each request line, status and list of
 * violations: a client asks the same request again and again, and masking keys costs.
 */
function relayedLine(
	request: MockRequest,
	status: number,
	upstream: Upstream,
	violations: readonly ExchangeViolation[],
	log: ProxyLog,
): LineParts {
	let kept = relayedLines.get(upstream);
	if (!kept) {
		kept = new Map();
		relayedLines.set(upstream, kept);
	}
	const said =
		violations.length > 0 ? JSON.stringify(violations.map(({ message }) => message)) : '';
	const key = `${log.format}\n${log.worker ?? ''}\n${request.rawMethod}\n${request.target}\n${status}\n${said}`;
	let line = kept.get(key);
	if (!line) {
		line = proxyLine(request, status, {}, upstream, violations, log);
		if (key.length <= LONGEST_KEY) {
			if (kept.size >= LINES_KEPT) kept.clear();
			kept.set(key, line);
		}
	}
	return line;
}

/**
 * The answer the client gets for the console's: as it came (status, headers but those of the
 * console's connection, body byte for byte), with the mock's CORS headers in place of the
 * console's, and `sl-violations` naming each violation; with MOCK_PROXY_ERRORS=on, a violating
 * answer becomes a 502 problem naming them instead.
 */
export function relayed(
	request: MockRequest,
	answer: UpstreamAnswer,
	violations: readonly ExchangeViolation[],
	upstream: Upstream,
	origins: readonly string[],
	log: ProxyLog,
): MockAnswer {
	const logged: Logged = {};
	const named: Record<string, string> = violations.length
		? { [VIOLATIONS_HEADER]: asciiJson(violations) }
		: {};
	const cors = corsHeaders(request.origin, origins);
	if ('Access-Control-Expose-Headers' in cors) {
		cors['Access-Control-Expose-Headers'] += `, ${VIOLATIONS_HEADER}`;
	}
	if (violations.length > 0 && upstream.errors) {
		const list = violations.map(({ message }) => message);
		const problem = {
			...problemBody(
				'contract-violation',
				`The console at ${new URL(upstream.base).origin} (MOCK_UPSTREAM) answered ${answer.status}, which breaks the contract (MOCK_PROXY_ERRORS=on): ${list.join('; ').replace(/\.$/, '')}.`,
			),
			violations: list,
		};
		const body = Buffer.from(JSON.stringify(problem));
		return {
			status: 502,
			headers: {
				'Content-Type': 'application/problem+json',
				...named,
				...cors,
				'Content-Length': body.length,
			},
			body,
			logged,
			line: relayedLine(request, 502, upstream, violations, log),
		};
	}
	const headers: Record<string, string | number> = {};
	const seen = new Map<string, string>();
	for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
		const name = answer.rawHeaders[index] ?? '';
		const lower = name.toLowerCase();
		if (HOP_BY_HOP.has(lower) || OWN_ON_ANSWER.test(lower) || lower === 'content-length') continue;
		if (lower === VIOLATIONS_HEADER) continue;
		const first = seen.get(lower);
		const value = answer.rawHeaders[index + 1] ?? '';
		if (first === undefined) {
			seen.set(lower, name);
			headers[name] = value;
		} else {
			headers[first] = `${String(headers[first])}, ${value}`;
		}
	}
	// An answer without a body (to a HEAD, a 1xx, 204 or 304) keeps the length the console
	// declared, or has none, as it came; any other gets its body's, which the proxy frames itself.
	const bodiless =
		request.method === 'head' ||
		answer.status < 200 ||
		answer.status === 204 ||
		answer.status === 304;
	const length = bodiless ? headerMap(answer.rawHeaders)['content-length'] : answer.body.length;
	return {
		status: answer.status,
		headers: {
			...headers,
			...named,
			...cors,
			...(length === undefined ? {} : { 'Content-Length': length }),
		},
		body: answer.body,
		logged,
		line: relayedLine(request, answer.status, upstream, violations, log),
	};
}

/** Why the console gave no answer to check. */
export type UpstreamFailure =
	| { kind: 'unreachable'; cause: string }
	| { kind: 'timeout' }
	| { kind: 'broken'; cause: string }
	| { kind: 'not-http'; cause: string }
	| { kind: 'too-large'; limit: number };

/** The problem of each way the console gave no answer, as the proxy and the conformance run name it. */
export const FAILURE_PROBLEMS = {
	unreachable: 'upstream-unreachable',
	timeout: 'upstream-timeout',
	broken: 'upstream-broken',
	'not-http': 'upstream-not-http',
	'too-large': 'upstream-too-large',
} as const satisfies Record<UpstreamFailure['kind'], ProblemName>;

/**
 * The 502 or 504 problem a request gets when the console gave no answer: it names the console
 * (its origin; never a path or query, which may hold what a client sent) and why, in one line.
 */
export function upstreamProblem(
	request: MockRequest,
	failure: UpstreamFailure,
	upstream: Upstream,
	origins: readonly string[],
	log: ProxyLog,
): MockAnswer {
	const console = new URL(upstream.base).origin;
	const why = ((): string => {
		switch (failure.kind) {
			case 'unreachable':
				return `could not be reached (${failure.cause})`;
			case 'timeout':
				return `did not answer within ${upstream.timeoutMs} ms (MOCK_UPSTREAM_TIMEOUT_MS)`;
			case 'broken':
				return `closed the connection before its whole answer (${failure.cause})`;
			case 'not-http':
				return `answered something that is not HTTP (${failure.cause})`;
			case 'too-large':
				return `answered a body over ${failure.limit} bytes, which the proxy does not check`;
		}
	})();
	const name = FAILURE_PROBLEMS[failure.kind];
	const detail = `The mock forwards to the console at ${console} (MOCK_UPSTREAM), which ${why}. ${problemOf(name).change}`;
	const logged: Logged = { failed: `the console at ${console} ${why}` };
	const answer = composed(controlProblem(name, detail), request, origins, logged);
	const { status } = answer;
	return { ...answer, line: proxyLine(request, status, logged, upstream, [], log) };
}

/** What /readyz found when it asked the console: an answer, with its status, or why there is none. */
export type Readiness = { answers: true; status: number } | { answers: false; cause: string };

/** The request /readyz sends the console: HEAD of the users path, as a client asks, with no key. */
export function readinessRequest(upstream: Upstream): UpstreamRequest {
	return {
		url: `${upstream.base}${USERS_PATH}`,
		method: 'HEAD',
		headers: [
			['Host', new URL(upstream.base).host],
			['Accept-Encoding', 'identity'],
		],
	};
}

/**
 * Whether the console is ready by what it answered /readyz's request: any answer but a 5xx,
 * which says the console (or what stands before it) cannot serve now.
 */
export function readinessOf(status: number): Readiness {
	return status < 500
		? { answers: true, status }
		: { answers: false, cause: `answered ${status} to HEAD ${USERS_PATH}` };
}

/**
 * The answer to /readyz in proxy mode: ready once the sources are loaded and the console answers.
 * A probe's answer gets no log line unless MOCK_LOG_PROBES asks, but the first after a change
 * (`changed`: not ready after ready, as at start, or ready again) does, saying why.
 */
export function readyAnswer(
	request: MockRequest,
	readiness: Readiness,
	changed: boolean,
	upstream: Upstream,
	log: ProxyLog,
): MockAnswer {
	const body = Buffer.from(
		JSON.stringify(
			readiness.answers
				? { status: 'ready' }
				: problemBody(
						'upstream-not-ready',
						'The mock is not ready: the console it forwards to does not answer. Its log says why.',
					),
		),
	);
	const status = readiness.answers ? 200 : 503;
	// The probe's answer says nothing a page elsewhere could use; the log names the console.
	const logged: Logged = readiness.answers
		? {}
		: { refused: `the console at ${new URL(upstream.base).origin} ${readiness.cause}` };
	const ready =
		readiness.answers && changed
			? `the console answers again (HEAD ${USERS_PATH}: ${readiness.status})`
			: undefined;
	return {
		status,
		headers: {
			'Content-Type': readiness.answers ? 'application/json' : 'application/problem+json',
			'Cache-Control': 'no-store',
			...(readiness.answers ? {} : { 'Retry-After': '1' }),
			'Content-Length': body.length,
		},
		body,
		logged,
		probe: !changed,
		line: proxyLine(request, status, logged, upstream, [], log, ready),
	};
}

/** The proxy's settings (MOCK_UPSTREAM and its two companions), or none without MOCK_UPSTREAM. */
export function upstreamFrom(settings: {
	mockUpstream: string | undefined;
	mockUpstreamTimeoutMs: number;
	mockProxyErrors: boolean;
}): Upstream | undefined {
	if (settings.mockUpstream === undefined) return undefined;
	return {
		base: settings.mockUpstream,
		timeoutMs: settings.mockUpstreamTimeoutMs,
		errors: settings.mockProxyErrors,
	};
}
