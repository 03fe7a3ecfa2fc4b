/**
 * The mock's HTTP wiring: a node:http server that reads each request, hands it to the decision
 * (`decide.ts`: the key, Prism's controls, the contract's answers through Prism, the answers
 * kept), and writes and logs what it returns. It also loads the sources, and with `watch`
 * follows edits to the fixtures and the contract: a change that loads is answered from at once,
 * a change that does not is reported and the last good state stays.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import { requestedHost } from '../src/shared/allowed-hosts.ts';
import type { ChaosRule } from '../src/schemas/mock-chaos.ts';
import { someNames } from './answers.ts';
import { answerConnect } from './connect.ts';
import {
	createMemory,
	decide,
	failure,
	handOn,
	probe,
	type MockAnswer,
	type MockNow,
	type MockRule,
} from './decide.ts';
import { breakAnswer, planDelivery, statusLogged, waited } from './delivery.ts';
import type { Upstream } from './forwarder/decide.ts';
import type { Line } from './output.ts';
import { lineOf, lineParts, type LogFormat } from './request-log.ts';
import { MAX_QUERY_BODY } from './query.ts';
import type { MockRequest } from './sent-answers.ts';
import { createSourceReader, viewChanges, type MockSources, type MockState } from './state.ts';
import { watchSources } from './watch.ts';

/** Where and on what the mock runs. */
export interface MockOptions {
	/** The TCP port; 0 picks a free one. */
	port: number;
	/** The address to bind; 127.0.0.1 unless told otherwise. */
	host?: string;
	/** The view fixture folder whose directories the mock knows. */
	viewsDir: string;
	/** The hand-written contract. */
	contractFile: string;
	/** Follow edits to the fixtures and the contract; off unless asked for. */
	watch?: boolean;
	/** Names answered beyond 127.0.0.1, localhost and [::1] with the port (MOCK_ALLOWED_HOSTS). */
	allowedHosts?: readonly string[];
	/** Origins whose pages may read the mock's answers beyond local ones (MOCK_ALLOWED_ORIGINS). */
	allowedOrigins?: readonly string[];
	/** The console to forward to as a validating proxy (MOCK_UPSTREAM); none: the mock answers. */
	upstream?: Upstream | undefined;
	/** Where request-log lines go; no request log when absent. */
	log?: ((line: Line) => void) | undefined;
	/** How each request's line is written: logfmt (the default) or one JSON object. */
	logFormat?: LogFormat;
	/** Whether the probes (/healthz, /readyz) get lines too; they do not unless asked. */
	logProbes?: boolean;
	/** The node:cluster worker this mock is, named in each log line; none when it serves alone. */
	worker?: number | undefined;
	/** Where reload messages go: loaded, or kept the last good state and why. */
	report?: ((message: string, ok: boolean) => void) | undefined;
	/**
	 * Start even when the sources cannot be loaded yet, answering 503 with the problem until an
	 * edit mends them (`npm run dev`, whose pages show the same problem); needs `watch`.
	 */
	waitForSources?: boolean;
	/** Delays, faults and statuses served to a share of requests (MOCK_CHAOS, `chaos.ts`). */
	chaos?: ChaosRule | undefined;
}

/** A running mock. */
export interface RunningMock {
	/** `http://127.0.0.1:4010`, without a trailing slash. */
	url: string;
	/** Reads the sources again now; resolves to whether the new state was taken. */
	reload: () => Promise<boolean>;
	/**
	 * Stops accepting connections (the listening socket only) and goes on answering on those
	 * open, as before: a node:cluster worker does this first, so that no client is told to come
	 * back on a new connection while another worker still accepts one.
	 */
	stopAccepting: () => void;
	/**
	 * Drains: stops watching and accepting, answers every request already received, each with
	 * `Connection: close`, closes idle kept-alive connections after `lingerMs` (0 unless given:
	 * a request on its way over one is read meanwhile), and resolves once every connection is
	 * closed, those still open after `DRAIN_DEADLINE_MS` cut.
	 */
	close: (lingerMs?: number) => Promise<void>;
	/** The requests received and answered so far. */
	counts: () => { received: number; answered: number };
}

/** A port already taken, or another reason the mock could not listen; its message is one line. */
export class MockListenError extends Error {
	override name = 'MockListenError';
}

/**
 * The request headers the answer depends on, each as one string: a repeated header's values are
 * joined, so repeated credentials never pass. One pass over the raw headers, which costs less
 * than Node's `headersDistinct`, built whole on first use; a name is lower-cased only when its
 * length is that of one of the four read.
 */
function readHeaders(
	incoming: IncomingMessage,
	target: string,
): Pick<MockRequest, 'host' | 'origin' | 'authorization' | 'prefer'> {
	let origin: string | undefined;
	let authorization: string | undefined;
	let prefer: string | undefined;
	let host: string | undefined;
	let hosts: string[] | undefined;
	const raw = incoming.rawHeaders;
	for (let index = 0; index + 1 < raw.length; index += 2) {
		const spelled = raw[index] ?? '';
		const length = spelled.length;
		if (length !== 4 && length !== 6 && length !== 13) continue;
		const name = spelled.toLowerCase();
		const value = raw[index + 1] ?? '';
		if (name === 'host') {
			if (host === undefined) host = value;
			else (hosts ??= [host]).push(value);
		} else if (name === 'authorization') {
			authorization = authorization === undefined ? value : `${authorization}, ${value}`;
		} else if (name === 'origin') {
			origin = origin === undefined ? value : `${origin}, ${value}`;
		} else if (name === 'prefer') {
			prefer = prefer === undefined ? value : `${prefer}, ${value}`;
		}
	}
	// An origin-form target (a path) names no host: the Host header does, as requestedHost reads it.
	const named =
		target.charCodeAt(0) === 47 && hosts === undefined
			? host
			: requestedHost(target, hosts ?? (host === undefined ? [] : [host]));
	return { host: named, origin, authorization, prefer };
}

/** The lines of a reload message. */
function reloadMessage(before: MockState, after: MockState): string {
	const { added, changed, removed } = viewChanges(before, after);
	const parts = [
		added.length > 0 && `added ${someNames(added)}`,
		changed.length > 0 && `changed ${someNames(changed)}`,
		removed.length > 0 && `removed ${someNames(removed)}`,
	].filter(Boolean);
	const count = after.views.length === 1 ? '1 view' : `${after.views.length} views`;
	return `Mock reloaded: ${count}${parts.length > 0 ? ` (${parts.join('; ')})` : ', no view changed'}.`;
}

/** Listens on a port, or rejects with a one-line `MockListenError`. */
function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
	return new Promise((resolve, reject) => {
		server.once('error', (error: NodeJS.ErrnoException) => {
			const where = `${host}:${port}`;
			if (error.code === 'EADDRINUSE') {
				reject(
					new MockListenError(
						`Port ${port} on ${host} is already in use: stop what runs there, or set MOCK_PORT to another port`,
					),
				);
			} else if (error.code === 'EACCES') {
				reject(
					new MockListenError(`No permission to listen on ${where}: choose a port above 1023`),
				);
			} else {
				reject(new MockListenError(`Cannot listen on ${where}: ${error.message}`));
			}
		});
		server.listen(port, host, () => resolve(server.address() as AddressInfo));
	});
}

/** Where request-log lines go, if anywhere, in what form, and whether probes get lines too. */
interface Log {
	line: (line: Line) => void;
	format: LogFormat;
	probes: boolean;
	worker: number | undefined;
}

/**
 * A QUERY's body as text, or undefined when it is longer than MAX_QUERY_BODY bytes (the rest is
 * drained unread, so the connection stays usable); a body cut off by its client is what came.
 */
function readQuery(incoming: IncomingMessage): Promise<string | undefined> {
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		incoming.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size <= MAX_QUERY_BODY) chunks.push(chunk);
		});
		const done = (): void =>
			resolve(size > MAX_QUERY_BODY ? undefined : Buffer.concat(chunks).toString('utf8'));
		incoming.once('end', done);
		// A client that left mid-body: answered with what came, to a socket that is closed.
		incoming.once('aborted', done);
	});
}

/** Sends an answer and logs it; HEAD gets the same headers and no body. */
function send(
	response: ServerResponse,
	request: MockRequest,
	sent: MockAnswer,
	log: Log | undefined,
): void {
	response.writeHead(sent.status, sent.headers);
	response.end(request.method === 'head' ? undefined : sent.body);
	logSent(request, sent, log);
}

/**
 * Writes the log line of an answer sent (or broken, as its request asked); `status` is the status
 * the line gives, a fault's name when no status line went out.
 */
function logSent(
	request: MockRequest,
	sent: MockAnswer,
	log: Log | undefined,
	status: number | string = sent.status,
): void {
	if (!log || (sent.probe && !log.probes)) return;
	sent.line ??= lineParts(
		{
			method: request.rawMethod,
			target: request.target,
			status,
			...sent.logged,
			error: sent.error,
			worker: log.worker,
		},
		log.format,
	);
	const parts = sent.line;
	const time = Date.now();
	const duration = performance.now() - request.started;
	// Worded when written, with the rest of its batch: the request only keeps the numbers.
	log.line(() => lineOf(parts, time, duration));
}

/**
 * Sends an answer decided afresh, or the mock's 500 when Node refuses to write it; a failure's
 * whole error goes to the log after its line.
 */
function sendAfresh(
	response: ServerResponse,
	request: MockRequest,
	answer: MockAnswer,
	log: Log | undefined,
	origins: readonly string[],
): void {
	let sent = answer;
	try {
		send(response, request, answer, log);
	} catch (error) {
		if (response.headersSent) {
			response.destroy();
			return;
		}
		sent = failure(error, request.origin, answer.logged, origins);
		send(response, request, sent, log);
	}
	// The JSON line carries the whole error; the logfmt line has it on the lines below.
	if (sent.error !== undefined && log?.format === 'logfmt')
		log.line(`  ${sent.error.replaceAll('\n', '\n  ')}`);
}

/**
 * How long a stopping mock waits for the last requests before it cuts the connections still
 * open: a container platform sends SIGKILL after its grace period (Kubernetes: 30 s by default;
 * the mock promises to be gone within 10 s).
 */
export const DRAIN_DEADLINE_MS = 8000;

/** Runs tasks one at a time, in the order given: the first load and every reload. */
function inOrder(): <T>(task: () => Promise<T>) => Promise<T> {
	let last: Promise<unknown> = Promise.resolve();
	return (task) => {
		const run = last.then(task);
		last = run.catch(() => undefined);
		return run;
	};
}

/**
 * Starts the mock; rejects with the sources' problems (unless `waitForSources`), or a one-line
 * `MockListenError`. It listens first, so the probes answer while the sources load; any other
 * request that arrives meanwhile is answered once they have. The watcher starts before the
 * sources are read, so an edit made during that first (and only) reading is read after it.
 */
export async function startMock(options: MockOptions): Promise<RunningMock> {
	const host = options.host ?? '127.0.0.1';
	/** The host as a URL writes it: an IPv6 address in brackets. */
	const urlHost = host.includes(':') ? `[${host}]` : host;
	const report = options.report ?? (() => {});
	const sources: MockSources = {
		viewsDir: options.viewsDir,
		contractFile: options.contractFile,
		mockOrigin: `http://${urlHost}:${options.port}`,
	};
	const reader = createSourceReader(sources);
	let now: MockNow = {
		state: undefined,
		waiting: 'The mock is loading its sources.',
		loading: true,
	};
	const memory = createMemory();
	const log: Log | undefined = options.log && {
		line: options.log,
		format: options.logFormat ?? 'logfmt',
		probes: options.logProbes ?? false,
		worker: options.worker,
	};
	// The port is known once listening (0 picks one); no request is decided before.
	const hosts: MockRule = {
		port: options.port,
		names: options.allowedHosts ?? [],
		origins: options.allowedOrigins ?? [],
	};
	/** The first load, while it runs: requests but probes wait for it. */
	let starting: Promise<unknown> | undefined;
	/** Set once the mock is told to stop: every answer from then on closes its connection. */
	let stopping: Promise<void> | undefined;
	const counts = { received: 0, answered: 0 };
	// The chaos and the proxy are loaded only when asked for: a mock without them never loads
	// their code (the proxy's contract validators among it).
	const chaos = options.chaos && (await import('./chaos.ts')).createChaos(options.chaos);
	/** The mock's own decision, and its state now: what the chaos asks for a status it serves. */
	const mocked = (asked: MockRequest) => decide(asked, now, memory, hosts);
	const stateNow = () => now.state;

	/**
	 * With MOCK_UPSTREAM, the validating proxy (`forwarder/`): it forwards the users operation to
	 * the console and leaves every other request to the mock's own decision.
	 */
	const forward =
		options.upstream &&
		(await import('./forwarder/forward.ts')).createForwarder({
			upstream: options.upstream,
			log: { format: log?.format ?? 'logfmt', worker: options.worker },
			mock: (request) => decide(request, now, memory, hosts),
		});

	/** Decides a request and sends the answer; while stopping, the answer closes its connection. */
	const answer = (
		response: ServerResponse,
		request: MockRequest,
		rawHeaders: readonly string[] = [],
	): void => {
		const decided = forward
			? forward(request, rawHeaders, now, hosts)
			: chaos
				? chaos.apply(request, mocked(request), stateNow, mocked)
				: decide(request, now, memory, hosts);
		if (decided instanceof Promise) {
			void decided.then((found) => {
				if (found.delivery) {
					void deliver(response, request, found);
					return;
				}
				if (stopping) response.shouldKeepAlive = false;
				sendAfresh(response, request, found, log, hosts.origins ?? []);
				counts.answered += 1;
			});
			return;
		}
		if (stopping) response.shouldKeepAlive = false;
		send(response, request, decided, log);
		counts.answered += 1;
	};

	/**
	 * Sends an answer whose request asked for a delay or a fault (`delivery.ts`): after the delay,
	 * whole or broken. A connection closed meanwhile (the client left, or a draining mock cut it at
	 * its deadline) gets nothing, and the answer is not counted.
	 */
	const deliver = async (
		response: ServerResponse,
		request: MockRequest,
		found: MockAnswer,
	): Promise<void> => {
		if (!found.delivery) return;
		const plan = planDelivery(found.delivery);
		// The chaos's line says what it served itself (`chaos=`).
		const logged = found.logged.chaos ? found.logged : { ...found.logged, ...plan.served };
		const sent: MockAnswer = { ...found, logged };
		if (!(await waited(response, plan.waitMs))) return;
		if (stopping) response.shouldKeepAlive = false;
		if (plan.fault) {
			await breakAnswer(response, sent, plan, request.method === 'head');
			logSent(request, sent, log, statusLogged(sent.status, plan.fault));
		} else {
			sendAfresh(response, request, sent, log, hosts.origins ?? []);
		}
		counts.answered += 1;
	};

	/**
	 * Answers a request. The common case, a request answered before in this state, is one lookup
	 * and no promise.
	 */
	const handle = (incoming: IncomingMessage, response: ServerResponse): void => {
		counts.received += 1;
		const rawMethod = incoming.method ?? '';
		const method = rawMethod === 'GET' ? 'get' : (incoming.method ?? 'GET').toLowerCase();
		const target = incoming.url ?? '/';
		const { host, origin, authorization, prefer } = readHeaders(incoming, target);
		const request: MockRequest = {
			started: performance.now(),
			rawMethod,
			method,
			target,
			host,
			origin,
			authorization,
			prefer,
			preflight: method === 'options' && Boolean(incoming.headers['access-control-request-method']),
		};
		if (method === 'query') {
			// A QUERY carries its body: read (up to MAX_QUERY_BODY) before it is answered.
			request.accept = incoming.headers.accept;
			void readQuery(incoming).then((body) => {
				request.body = body;
				answerRead(incoming, response, request);
			});
			return;
		}
		// No other operation has a request body; drain any so the connection stays usable.
		incoming.resume();
		answerRead(incoming, response, request);
	};

	/** Answers a request once read: after the first load when it still runs (but probes). */
	const answerRead = (
		incoming: IncomingMessage,
		response: ServerResponse,
		request: MockRequest,
	): void => {
		if (starting && !probe(request, now)) {
			// Answered from whatever the first load left: its state, or why it has none.
			const answerNow = (): void => answer(response, request, incoming.rawHeaders);
			void starting.then(answerNow, answerNow);
		} else {
			answer(response, request, incoming.rawHeaders);
		}
	};

	const server = createServer(handle);
	// A CONNECT is decided as any other request (no path the contract lists: its 404).
	answerConnect(server, handle);
	// Requests Node cannot parse get Node's own 400 (431 for oversized headers); none reach us.

	const { port } = await listen(server, host, options.port);
	hosts.port = port;
	const url = `http://${urlHost}:${port}`;

	/**
	 * Loads the sources into a new state; a broken edit is reported and the old state kept. A
	 * reload that finds nothing changed says nothing.
	 */
	const reload = async (): Promise<boolean> => {
		try {
			const next = await reader.load();
			const before = now;
			now = { state: next };
			const lacking = chaos?.check(next);
			if (lacking) report(`${lacking}; the chaos goes on with what it finds.`, false);
			if (!before.state) {
				report(
					`Mock loaded: ${next.views.length === 1 ? '1 view' : `${next.views.length} views`}.`,
					true,
				);
				return true;
			}
			handOn(memory, before.state, next);
			const { added, changed, removed } = viewChanges(before.state, next);
			const same = before.state.contractStamp === next.contractStamp;
			if (!same || added.length + changed.length + removed.length > 0) {
				report(reloadMessage(before.state, next), true);
			}
			return true;
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			if (!now.state) {
				if (reason !== now.waiting)
					report(`Mock still waiting for its sources to load:\n${reason}`, false);
				now = { state: undefined, waiting: reason };
				return false;
			}
			const { views } = now.state;
			const count = views.length === 1 ? '1 view' : `${views.length} views`;
			report(
				`Mock kept its last good state (${count}); this edit could not be loaded:\n${reason}`,
				false,
			);
			return false;
		}
	};
	const inTurn = inOrder();
	const unwatch = options.watch ? watchSources(sources, () => inTurn(reload)) : () => {};

	/** Resolves once the listening socket and every connection are closed. */
	let closed: Promise<void> | undefined;
	const stopAccepting = (): void => {
		// The listening socket only: http.Server#close would also close the connections that look
		// idle, and a request already on its way over a kept-alive one would be lost.
		closed ??= new Promise<void>((resolve) =>
			NetServer.prototype.close.call(server, () => resolve()),
		);
	};

	/**
	 * Stops accepting connections, answers every request already received, and closes each
	 * connection once its last answer is out; the ones left open at the deadline are cut.
	 */
	const close = (lingerMs = 0): Promise<void> => {
		stopping ??= (async () => {
			unwatch();
			stopAccepting();
			const idle = setTimeout(() => server.closeIdleConnections(), lingerMs);
			const deadline = setTimeout(() => server.closeAllConnections(), DRAIN_DEADLINE_MS);
			await closed;
			clearTimeout(idle);
			clearTimeout(deadline);
		})();
		return stopping;
	};

	// The one load at start, in turn with the reloads the watcher asks for.
	const first = inTurn(async () => {
		try {
			now = { state: await reader.load() };
		} catch (error) {
			const waiting = error instanceof Error ? error.message : String(error);
			now = { state: undefined, waiting };
			if (!(options.waitForSources && options.watch)) throw error;
			report(`Mock waiting for its sources to load; it answers 503 until then:\n${waiting}`, false);
		}
		// A chaos naming what the sources lack stops the start; later, it is only reported.
		const lacking = chaos && now.state && chaos.check(now.state);
		if (lacking) throw new Error(lacking);
	});
	starting = first;
	try {
		await first;
	} catch (error) {
		await close();
		throw error;
	} finally {
		starting = undefined;
	}

	return {
		url,
		reload: () => inTurn(reload),
		stopAccepting,
		close,
		counts: () => ({ ...counts }),
	};
}
