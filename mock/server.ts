/**
 * The directory-aware mock: a node:http server that uses Prism as a library (`answers.ts`). It reads
 * the Authorization header, looks the key up in the directory, reads Prism's `Prefer` controls
 * on top of it and tells Prism which response of the composed contract to serve, and Prism
 * produces the body. A path the contract does not list gets the contract's own 404 problem, and
 * another method its 405, from the contract's model. Answers are deterministic for a state, a
 * status and an example, so each is computed once and kept.
 *
 * With `watch`, the mock follows edits to the fixtures and the contract: a change that loads is
 * answered from at once, a change that does not is reported and the last good state stays.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerFor } from './directory.ts';
import {
	controlProblem,
	createAnswerer,
	methodSchema,
	routeOf,
	someNames,
	type Answer,
} from './answers.ts';
import { choose, readControls } from './controls.ts';
import { corsHeaders, preflightHeaders } from './cors.ts';
import type { Line } from './output.ts';
import { lineOf, lineParts } from './request-log.ts';
import { createSentAnswers, type Logged, type MockRequest, type Sent } from './sent-answers.ts';
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
	/** Where request-log lines go; no request log when absent. */
	log?: ((line: Line) => void) | undefined;
	/** Where reload messages go: loaded, or kept the last good state and why. */
	report?: ((message: string, ok: boolean) => void) | undefined;
	/**
	 * Start even when the sources cannot be loaded yet, answering 503 with the problem until an
	 * edit mends them (`npm run dev`, whose pages show the same problem); needs `watch`.
	 */
	waitForSources?: boolean;
}

/** A running mock. */
export interface RunningMock {
	/** `http://127.0.0.1:4010`, without a trailing slash. */
	url: string;
	/** Reads the sources again now; resolves to whether the new state was taken. */
	reload: () => Promise<boolean>;
	/** Stops watching and listening and closes open connections. */
	close: () => Promise<void>;
}

/** A port already taken, or another reason the mock could not listen; its message is one line. */
export class MockListenError extends Error {
	override name = 'MockListenError';
}

/**
 * The request headers the answer depends on, each as one string: a repeated header's values are
 * joined, so repeated credentials never pass. One pass over the raw headers, which costs less
 * than Node's `headersDistinct`, built whole on first use.
 */
function readHeaders(
	incoming: IncomingMessage,
): Pick<MockRequest, 'origin' | 'authorization' | 'prefer'> {
	const found: Pick<MockRequest, 'origin' | 'authorization' | 'prefer'> = {
		origin: undefined,
		authorization: undefined,
		prefer: undefined,
	};
	const raw = incoming.rawHeaders;
	for (let index = 0; index + 1 < raw.length; index += 2) {
		const name = raw[index]?.toLowerCase();
		if (name !== 'origin' && name !== 'authorization' && name !== 'prefer') continue;
		const value = raw[index + 1] ?? '';
		const before = found[name];
		found[name] = before === undefined ? value : `${before}, ${value}`;
	}
	return found;
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

/** Starts the mock; rejects with the sources' problems, or a one-line `MockListenError`. */
export async function startMock(options: MockOptions): Promise<RunningMock> {
	const host = options.host ?? '127.0.0.1';
	const report = options.report ?? (() => {});
	const sources: MockSources = {
		viewsDir: options.viewsDir,
		contractFile: options.contractFile,
		mockOrigin: `http://${host}:${options.port}`,
	};
	const reader = createSourceReader(sources);
	let state: MockState | undefined;
	/** Why there is no state yet, while waiting for the sources to be mended. */
	let waiting: string | undefined;
	try {
		state = await reader.load();
	} catch (error) {
		if (!(options.waitForSources && options.watch)) throw error;
		waiting = error instanceof Error ? error.message : String(error);
		report(`Mock waiting for its sources to load; it answers 503 until then:\n${waiting}`, false);
	}
	const answerer = createAnswerer();
	const sentAnswers = createSentAnswers();
	/**
	 * Each answer's body, encoded once and shared by every kept request that gets it (the same
	 * users for another Origin or query, say), so the memory of sent answers holds one copy.
	 */
	const encoded = new WeakMap<Answer, Buffer>();

	/** An answer as it goes out: its headers with ours on top, and its body encoded. */
	const compose = (answer: Answer, extra: Record<string, string>, logged: Logged): Sent => {
		let body = encoded.get(answer);
		if (!body) encoded.set(answer, (body = Buffer.from(answer.body)));
		return {
			status: answer.status,
			headers: { ...answer.headers, ...extra, 'Content-Length': body.length },
			body,
			logged,
		};
	};

	/**
	 * What a request gets, and whether the same request gets the same answer while the state
	 * holds: every answer but a generated (`dynamic`) one, a failure, and the wait for sources.
	 * What the log line should say is written to `logged` as it is learnt, so a failure's line
	 * still names the key's holder and the controls.
	 */
	const decide = async (
		current: MockState | undefined,
		request: MockRequest,
		preflight: boolean,
		logged: Logged,
	): Promise<{ answer: Answer; extra: Record<string, string>; keep: boolean }> => {
		const { method, target, origin } = request;
		if (method === 'options' && origin && preflight) {
			return {
				answer: { status: 204, headers: {}, body: '' },
				extra: preflightHeaders(origin),
				keep: false,
			};
		}
		if (!current) {
			logged.refused = 'the mock has no good state yet';
			return {
				answer: controlProblem(
					503,
					'sources-not-loaded',
					'The mock cannot load its sources yet',
					waiting ?? '',
				),
				extra: { 'Retry-After': '1' },
				keep: false,
			};
		}
		let url: URL;
		try {
			url = new URL(target, 'http://mock.invalid');
		} catch {
			url = new URL('http://mock.invalid/');
		}
		// HEAD is answered as GET, without the body (RFC 9110, section 9.3.2).
		const routed = methodSchema.parse(method === 'head' ? 'get' : method);
		const route = routeOf(current, url.pathname, routed);
		if (route !== 'users') {
			return {
				answer: await answerer.routeProblem(current, route),
				extra: {},
				keep: true,
			};
		}
		const controls = readControls(request.prefer, url.searchParams);
		if (!controls.ok) {
			logged.refused = controls.problem;
			return {
				answer: controlProblem(
					422,
					'invalid-control',
					'The mock cannot read a control',
					controls.problem,
				),
				extra: {},
				keep: true,
			};
		}
		logged.controls = controls.controls.spelled || undefined;
		const answer = answerFor(request.authorization, current.directory);
		if (answer.status === 200) logged.holder = answer.holder;
		else logged.refused = answer.reason;
		const { code, example } = choose(answer, controls.controls);
		return {
			answer: await answerer.users(
				current,
				code,
				example,
				answer.status === 200 ? controls.controls : undefined,
			),
			extra: {},
			keep: !controls.controls.dynamic,
		};
	};

	/** Sends an answer and logs it; HEAD gets the same headers and no body. */
	const send = (response: ServerResponse, request: MockRequest, sent: Sent): void => {
		response.writeHead(sent.status, sent.headers);
		response.end(request.method === 'head' ? undefined : sent.body);
		if (!options.log) return;
		sent.line ??= lineParts({
			method: request.rawMethod,
			target: request.target,
			status: sent.status,
			...sent.logged,
		});
		const parts = sent.line;
		const time = Date.now();
		const duration = performance.now() - request.started;
		// Worded when written, with the rest of its batch: the request only keeps the numbers.
		options.log(() => lineOf(parts, time, duration));
	};

	/** Answers a request not answered before in this state (or whose answer is not kept). */
	const answerAfresh = async (
		incoming: IncomingMessage,
		response: ServerResponse,
		request: MockRequest,
		current: MockState | undefined,
	): Promise<void> => {
		const cors = corsHeaders(request.origin);
		const logged: Logged = {};
		try {
			const preflight = Boolean(incoming.headers['access-control-request-method']);
			const { answer, extra, keep } = await decide(current, request, preflight, logged);
			const sent = compose(answer, { ...extra, ...cors }, logged);
			if (keep && current) sentAnswers.set(current, request, sent);
			send(response, request, sent);
		} catch (error) {
			const detail = error instanceof Error ? error.message : String(error);
			// The client and the log line get the first line; the terminal the whole error.
			const reason = detail.split('\n', 1)[0]?.trim().replace(/\.$/, '') ?? '';
			if (response.headersSent) {
				response.destroy();
				return;
			}
			const problem = controlProblem(
				500,
				'mock-failure',
				'The mock failed',
				`The mock could not answer this request: ${reason}. Its terminal shows the whole error.`,
			);
			send(response, request, compose(problem, cors, { ...logged, failed: reason }));
			options.log?.(`  ${detail.replaceAll('\n', '\n  ')}`);
		}
	};

	/**
	 * Answers a request. The common case, a request answered before in this state, is one lookup
	 * and no promise.
	 */
	const handle = (incoming: IncomingMessage, response: ServerResponse): void => {
		const request: MockRequest = {
			started: performance.now(),
			rawMethod: incoming.method ?? '',
			method: (incoming.method ?? 'GET').toLowerCase(),
			target: incoming.url ?? '/',
			...readHeaders(incoming),
		};
		// No operation has a request body; drain any so the connection stays usable.
		incoming.resume();
		const current = state;
		const known = current && sentAnswers.get(current, request);
		if (known) send(response, request, known);
		else void answerAfresh(incoming, response, request, current);
	};

	const server = createServer(handle);
	// Requests Node cannot parse get Node's own 400 (431 for oversized headers); none reach us.

	await new Promise<void>((resolve, reject) => {
		server.once('error', (error: NodeJS.ErrnoException) => {
			const where = `${host}:${options.port}`;
			if (error.code === 'EADDRINUSE') {
				reject(
					new MockListenError(
						`Port ${options.port} on ${host} is already in use: stop what runs there, or set MOCK_PORT to another port`,
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
		server.listen(options.port, host, resolve);
	});
	const { port } = server.address() as AddressInfo;
	const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

	/**
	 * Loads the sources into a new state; a broken edit is reported and the old state kept. A
	 * reload that finds nothing changed says nothing.
	 */
	const reload = async (): Promise<boolean> => {
		try {
			const next = await reader.load();
			const before = state;
			state = next;
			waiting = undefined;
			if (!before) {
				report(
					`Mock loaded: ${next.views.length === 1 ? '1 view' : `${next.views.length} views`}.`,
					true,
				);
				return true;
			}
			answerer.carry(before, next);
			const { added, changed, removed } = viewChanges(before, next);
			const same = before.contractStamp === next.contractStamp;
			if (!same || added.length + changed.length + removed.length > 0) {
				report(reloadMessage(before, next), true);
			}
			return true;
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			if (!state) {
				if (reason !== waiting)
					report(`Mock still waiting for its sources to load:\n${reason}`, false);
				waiting = reason;
				return false;
			}
			const count = state.views.length === 1 ? '1 view' : `${state.views.length} views`;
			report(
				`Mock kept its last good state (${count}); this edit could not be loaded:\n${reason}`,
				false,
			);
			return false;
		}
	};
	const unwatch = options.watch ? watchSources(sources, reload) : () => {};
	// An edit made while the first load ran would otherwise wait for the next edit.
	if (options.watch) await reload();

	return {
		url,
		reload,
		close: () =>
			new Promise<void>((resolve, reject) => {
				unwatch();
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
	};
}
