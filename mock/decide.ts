/**
 * The mock's decision: what a request gets, from the request, what the mock answers from (its
 * state, or why it has none yet) and what it keeps between requests, with no socket, as Prism's
 * `mocker` is a function of its request and resource. `server.ts` reads a request, calls `decide`
 * and writes what it returns; the unit tests call `decide` directly.
 *
 * The steps, in order, each in one place below: a probe (`/healthz`, `/readyz`) is answered
 * under any Host (`probe`); then a request for a name the mock is not served under gets 403
 * (`refusedHost`), before anything else; an answer sent before to the same request in the same
 * state is sent again; a CORS preflight gets 204; without a state, 503; a path or method the
 * contract does not answer gets its 404 or 405 (`routeOf`); then the users operation: the key
 * (`directory.ts`), whose refusal wins over any control, the controls (`controls.ts`), and
 * Prism's answer (`answers.ts`), with a delay or fault asked for as data on the answer
 * (`delivery`), which `server.ts` applies on the socket. A failure becomes a 500 that names its first line. A new
 * operation is one more route here.
 */
import { validateHeaderName, validateHeaderValue } from 'node:http';
import {
	hostAllowed,
	LOOPBACK_NAMES,
	quotedHost,
	type HostRule,
} from '../src/shared/allowed-hosts.ts';
import { problemBody } from '../src/shared/problems.ts';
import { controlProblem, createAnswerer, methodSchema, routeOf, type Answer } from './answers.ts';
import {
	choose,
	readControls,
	shownControls,
	shownRefusal,
	type DelayRange,
	type FaultKind,
} from './controls.ts';
import { corsHeaders, preflightHeaders } from './cors.ts';
import { answerFor } from './directory.ts';
import {
	pageMethods,
	queryAnswer,
	queryControlled,
	queryHasExample,
	queryRefusal,
} from './query.ts';
import { createSentAnswers, type Logged, type MockRequest, type Sent } from './sent-answers.ts';
import type { MockState } from './state.ts';

/**
 * What the mock answers from: its loaded state, or, until its sources load, why they do not
 * (`loading` while its first load runs).
 */
export type MockNow =
	{ state: MockState } | { state: undefined; waiting: string; loading?: boolean };

/**
 * What the mock keeps between requests, handed to every decision: Prism and the answers it
 * computed for each state, the answers sent as they went out, and each body encoded once.
 */
export interface MockMemory {
	readonly answerer: ReturnType<typeof createAnswerer>;
	readonly sent: ReturnType<typeof createSentAnswers>;
	/**
	 * Each answer's body, encoded once and shared by every kept request that gets it (the same
	 * users for another Origin or query, say), so the memory of sent answers holds one copy.
	 */
	readonly encoded: WeakMap<Answer, Buffer>;
}

/** An answer as it goes out, and, when the mock failed, the whole error for its terminal. */
export interface MockAnswer extends Sent {
	/** The whole error behind a 500, for the terminal; the client and the log line get its first line. */
	error?: string;
	/** An answer to a probe (/healthz, /readyz), which the request log leaves out unless asked. */
	probe?: boolean;
	/** The delay or fault its request asked for, which the server applies as it sends it. */
	delivery?: Delivery;
}

/**
 * How an answer goes out when its request asked for a delay or a fault (`delay`, `fault`): the
 * server waits a delay picked from the range (by `seed` when given), then sends or breaks it.
 */
export interface Delivery {
	delay?: DelayRange | undefined;
	fault?: FaultKind | undefined;
	seed?: string | undefined;
}

/** A memory with nothing kept yet, and Prism ready to answer. */
export function createMemory(): MockMemory {
	return { answerer: createAnswerer(), sent: createSentAnswers(), encoded: new WeakMap() };
}

/**
 * Hands the answers of a state on to the state that replaces it (a reload), but those that
 * changed: every answer when the contract changed, else those of the views whose files changed.
 */
export function handOn(memory: MockMemory, before: MockState, after: MockState): void {
	memory.answerer.carry(before, after);
}

/**
 * An answer with our headers on top and its body encoded (once per computed answer). Throws,
 * as Node would when writing it, on a header Node cannot send (a contract's example may hold a
 * line break), so such an answer is a 500 and never kept.
 */
function compose(
	memory: MockMemory,
	answer: Answer,
	extra: Record<string, string>,
	logged: Logged,
): Sent {
	const headers = { ...answer.headers, ...extra };
	for (const [name, value] of Object.entries(headers)) {
		validateHeaderName(name);
		validateHeaderValue(name, value);
	}
	let body = memory.encoded.get(answer);
	if (!body) memory.encoded.set(answer, (body = Buffer.from(answer.body)));
	return {
		status: answer.status,
		// A string, as Node writes it: a number takes its slower path at each request.
		headers: { ...headers, 'Content-Length': String(body.length) },
		body,
		logged,
	};
}

/**
 * The 500 a request gets when the mock fails to answer it: the client and the log line get the
 * error's first line, and `error` holds the whole of it. `logged` is what was learnt before.
 */
export function failure(
	error: unknown,
	origin: string | undefined,
	logged: Logged,
	origins: readonly string[] = [],
): MockAnswer {
	const detail = error instanceof Error ? error.message : String(error);
	const reason = detail.split('\n', 1)[0]?.trim().replace(/\.$/, '') ?? '';
	const problem = controlProblem(
		'mock-failure',
		`The mock could not answer this request: ${reason}. Its terminal shows the whole error.`,
	);
	const body = Buffer.from(problem.body);
	return {
		status: problem.status,
		headers: {
			...problem.headers,
			...corsHeaders(origin, origins),
			'Content-Length': String(body.length),
		},
		body,
		logged: { ...logged, failed: reason },
		error: detail,
	};
}

/** What a request gets before our headers, and whether the same request gets it again. */
interface Outcome {
	answer: Answer;
	/** Headers of ours for this answer; the CORS headers go on every answer. */
	extra: Record<string, string>;
	/** Whether the same request gets the same answer while the state holds. */
	keep: boolean;
	/** The delay or fault asked for; such an answer is never kept, so none is replayed. */
	delivery?: Delivery;
}

/** An outcome that is the same for the same request in the same state. */
const kept = (answer: Answer): Outcome => ({ answer, extra: {}, keep: true });

/**
 * What a request gets: every answer is kept but a generated (`dynamic`) one, a preflight, and
 * the wait for sources. What the log line should say is written to `logged` as it is learnt, so
 * a failure's line still names the key's holder and the controls.
 */
async function outcome(
	request: MockRequest,
	now: MockNow,
	answerer: MockMemory['answerer'],
	logged: Logged,
	origins: readonly string[],
): Promise<Outcome> {
	const { method, target, origin } = request;
	if (method === 'options' && origin && request.preflight) {
		return {
			answer: { status: 204, headers: {}, body: '' },
			extra: preflightHeaders(origin, origins, pageMethods(now.state)),
			keep: false,
		};
	}
	const { state } = now;
	if (!state) {
		logged.refused = 'the mock has no good state yet';
		return {
			answer: controlProblem('sources-not-loaded', now.waiting),
			extra: { 'Retry-After': '1' },
			keep: false,
		};
	}
	const url = targetUrl(target);
	// HEAD is answered as GET, without the body (RFC 9110, section 9.3.2).
	const routed = methodSchema.parse(method === 'head' ? 'get' : method);
	const route = routeOf(state, url.pathname, routed);
	if (route !== 'users' && route !== 'query')
		return kept(await answerer.routeProblem(state, route));

	// The key first: without a usable one, every control gets the key's 401 or 400.
	const controls = readControls(request.prefer, url.searchParams);
	// The log shows what the mock accepted, and only the length of anything else (a key, say).
	const shown = shownControls(request.prefer, url.searchParams, (name) =>
		route === 'query' ? queryHasExample(state, name) : exampleNamed(state, name),
	);
	if (controls.ok) logged.controls = shown || undefined;
	const key = answerFor(request.authorization, state.directory);
	if (key.status !== 200) {
		logged.refused = key.reason;
		const { code, example } = choose(key, { spelled: '' });
		return kept(await answerer.users(state, code, example, undefined));
	}
	logged.holder = key.holder;
	// A QUERY's body once its key is accepted, before its controls (query.ts).
	const refused = route === 'query' ? queryRefusal(request, state, logged) : undefined;
	if (refused) return kept(refused);
	if (!controls.ok) {
		logged.refused = shownRefusal(controls.problem, shown);
		return kept(controlProblem('invalid-control', controls.problem));
	}
	const { code, example } = choose(key, controls.controls);
	// A QUERY's controls pick among its own responses; its view's users are GET's (query.ts).
	const own = route === 'query' ? queryControlled(state, controls.controls) : undefined;
	const generated = route === 'query' && controls.controls.dynamic;
	const chosen =
		own ?? (await answerer.users(state, code, generated ? undefined : example, controls.controls));
	const answer = route === 'query' ? queryAnswer(request, state, chosen) : chosen;
	const { delay, fault, seed } = controls.controls;
	if (delay || fault) return { answer, extra: {}, keep: false, delivery: { delay, fault, seed } };
	return { answer, extra: {}, keep: !controls.controls.dynamic };
}

/** Whether the contract has an example of the users operation by this name, of any status. */
function exampleNamed(state: MockState, name: string): boolean {
	return state.users.responses.some((response) =>
		(response.contents?.[0]?.examples ?? []).some(
			(example) => 'key' in example && example.key === name,
		),
	);
}

/** An absolute-form target's scheme: `http://` or `https://`, read by the path it names. */
const ABSOLUTE_FORM = /^https?:\/\//i;

/**
 * The URL of a request's target. Origin-form is read as a path, so `//host/…` (or `/\\host/…`)
 * stays a path the contract does not list and never names a host; absolute-form (RFC 9112,
 * 3.2.2; its host was checked) is read by its path; any other form is the root, which the
 * contract does not list either.
 */
function targetUrl(target: string): URL {
	const base = 'http://mock.invalid';
	const named = target.startsWith('/')
		? URL.parse(`${base}${target}`)
		: ABSOLUTE_FORM.test(target)
			? URL.parse(target)
			: null;
	return named ?? new URL(`${base}/`);
}

/** Decides a request not answered before in this state (or whose answer is not kept). */
async function decideAfresh(
	request: MockRequest,
	now: MockNow,
	memory: MockMemory,
	origins: readonly string[],
): Promise<MockAnswer> {
	const logged: Logged = {};
	try {
		const { answer, extra, keep, delivery } = await outcome(
			request,
			now,
			memory.answerer,
			logged,
			origins,
		);
		const cors = corsHeaders(request.origin, origins);
		const sent = compose(memory, answer, { ...extra, ...cors }, logged);
		if (keep && now.state) memory.sent.set(now.state, request, sent);
		return delivery ? { ...sent, delivery } : sent;
	} catch (error) {
		return failure(error, request.origin, logged, origins);
	}
}

/**
 * The 403 a request for a name the mock is not served under gets (DNS rebinding): it names the
 * host and the setting that allows it, and holds no key or user. It carries the CORS headers of
 * any answer, so a local page calling the mock under a name not yet allowed can read why.
 */
export function refusedHost(request: MockRequest, hosts: MockRule): MockAnswer {
	const shown = quotedHost(request.host);
	const allowed = [...LOOPBACK_NAMES.map((name) => `${name}:${hosts.port}`), ...hosts.names];
	const problem = controlProblem(
		'host-not-allowed',
		`The mock answers only requests for ${allowed.join(', ')}; this one names ${shown}. To serve the mock under another name, add it to MOCK_ALLOWED_HOSTS (comma-separated names).`,
	);
	const body = Buffer.from(problem.body);
	return {
		status: problem.status,
		headers: {
			...problem.headers,
			...corsHeaders(request.origin, hosts.origins),
			'Content-Length': String(body.length),
		},
		body,
		logged: { refused: `the host ${shown} is not one the mock is served under` },
	};
}

/**
 * Whom the mock answers: the names it is served under (`HostRule`), and the origins beyond local
 * ones whose pages may read its answers (MOCK_ALLOWED_ORIGINS), a team's portal on its own name.
 */
export interface MockRule extends HostRule {
	origins?: readonly string[] | undefined;
}

/** The paths a container platform probes: whether the process serves, and whether it is ready. */
const PROBES = new Set(['/healthz', '/readyz']);

/**
 * What a target must hold to name a probe: every other request passes this test alone, without
 * its target being parsed, since every request is asked first whether it is a probe.
 */
const PROBE_NAMED = /healthz|readyz/;

/** A probe's answer: JSON, or problem+json when not ready, never kept by a cache between. */
function probeAnswer(status: number, body: object, extra: Record<string, string> = {}): MockAnswer {
	const bytes = Buffer.from(JSON.stringify(body));
	return {
		status,
		headers: {
			'Content-Type': status === 200 ? 'application/json' : 'application/problem+json',
			'Cache-Control': 'no-store',
			...extra,
			'Content-Length': String(bytes.length),
		},
		body: bytes,
		logged: status === 200 ? {} : { refused: 'the mock has no good state yet' },
		probe: true,
	};
}

/**
 * The answer to a probe, or undefined for any other request: GET or HEAD of `/healthz`, 200
 * while the process serves, and of `/readyz`, 200 once the sources are loaded and 503 until
 * then. Probes are answered under any Host (a kubelet names the pod's address, which changes
 * with each pod), so they say nothing a page elsewhere could use: no view, key, user, file or
 * reason, which stay in the log and in the 503 that other paths get under an allowed name.
 */
export function probe(request: MockRequest, now: MockNow): MockAnswer | undefined {
	if (request.method !== 'get' && request.method !== 'head') return undefined;
	if (!PROBE_NAMED.test(request.target)) return undefined;
	const { pathname } = targetUrl(request.target);
	if (!PROBES.has(pathname)) return undefined;
	if (pathname === '/healthz') return probeAnswer(200, { status: 'serving' });
	if (now.state) return probeAnswer(200, { status: 'ready' });
	const detail = now.loading
		? 'The mock is not ready: it is still loading its sources.'
		: 'The mock is not ready: its sources do not load. Its log says which file and field to mend; it answers once they load.';
	return probeAnswer(503, problemBody('sources-not-loaded', detail), { 'Retry-After': '1' });
}

/** The Host values found allowed under a rule, kept while its port and names stay the same. */
const allowedUnder = new WeakMap<
	MockRule,
	{ port: number; names: readonly string[]; hosts: Set<string> }
>();

/** The most Host values kept as allowed under one rule: a client sends one or two. */
const ALLOWED_KEPT = 64;

/**
 * Whether a request for this host is answered (`hostAllowed`), with each Host value found allowed
 * remembered, so the next request that names it costs one lookup.
 */
function allowedHost(host: string | undefined, hosts: MockRule): boolean {
	if (host === undefined) return false;
	let known = allowedUnder.get(hosts);
	if (known?.port !== hosts.port || known.names !== hosts.names) {
		known = { port: hosts.port, names: hosts.names, hosts: new Set() };
		allowedUnder.set(hosts, known);
	}
	if (known.hosts.has(host)) return true;
	if (!hostAllowed(host, hosts)) return false;
	if (known.hosts.size < ALLOWED_KEPT) known.hosts.add(host);
	return true;
}

/**
 * What a request gets: status, headers (Content-Length among them) and body, and what its log
 * line says. A probe is answered first, under any Host (`probe`); then a request for a name the
 * mock is not served under (`hosts`) gets 403. The common case, a request answered before in this state, is one lookup and no
 * promise; any other request is decided afresh, and its answer kept when it will not change.
 * Never rejects: a failure is a 500.
 */
export function decide(
	request: MockRequest,
	now: MockNow,
	memory: MockMemory,
	hosts: MockRule,
): MockAnswer | Promise<MockAnswer> {
	const probed = probe(request, now);
	if (probed) return probed;
	if (!allowedHost(request.host, hosts)) return refusedHost(request, hosts);
	const known = now.state && memory.sent.get(now.state, request);
	return known || decideAfresh(request, now, memory, hosts.origins ?? []);
}
