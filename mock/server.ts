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
import { answerFor, type DirectoryAnswer } from '../src/lib/directory.ts';
import {
	choose,
	controlProblem,
	createAnswerer,
	methodSchema,
	routeOf,
	someNames,
	type Answer,
} from './answers.ts';
import { readControls } from './controls.ts';
import { corsHeaders, preflightHeaders } from './cors.ts';
import { logLine } from './request-log.ts';
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
	log?: ((line: string) => void) | undefined;
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

/** A request header as one string; repeated headers are joined, so repeated credentials never pass. */
function singleHeader(request: IncomingMessage, name: string): string | undefined {
	return request.headersDistinct[name]?.join(', ');
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
	/** Each kept answer's body, encoded once: most requests get an answer sent before. */
	const encoded = new WeakMap<Answer, Buffer>();

	/** Sends an answer; HEAD gets the same headers and no body. */
	const send = (
		response: ServerResponse,
		method: string,
		answer: Answer,
		extra: Record<string, string>,
	): void => {
		let body = encoded.get(answer);
		if (!body) encoded.set(answer, (body = Buffer.from(answer.body)));
		response.writeHead(answer.status, {
			...answer.headers,
			...extra,
			'Content-Length': body.length,
		});
		response.end(method === 'head' ? undefined : body);
	};

	const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
		const started = performance.now();
		// No operation has a request body; drain any so the connection stays usable.
		request.resume();
		const current = state;
		const origin = singleHeader(request, 'origin');
		const cors = corsHeaders(origin);
		const method = (request.method ?? 'GET').toLowerCase();
		const target = request.url ?? '/';
		const logged: {
			holder?: (DirectoryAnswer & { status: 200 }) | undefined;
			refused?: string | undefined;
			controls?: string | undefined;
			failed?: string | undefined;
		} = {};
		const finish = (answer: Answer, extra: Record<string, string> = {}): void => {
			send(response, method, answer, { ...extra, ...cors });
			options.log?.(
				logLine({
					time: new Date(),
					method: request.method ?? '',
					target,
					status: answer.status,
					durationMs: performance.now() - started,
					holder: logged.holder?.holder,
					refused: logged.refused,
					controls: logged.controls,
					failed: logged.failed,
				}),
			);
		};

		try {
			if (method === 'options' && origin && request.headers['access-control-request-method']) {
				finish({ status: 204, headers: {}, body: '' }, preflightHeaders(origin));
				return;
			}

			if (!current) {
				logged.refused = 'the mock has no good state yet';
				finish(
					controlProblem(
						503,
						'sources-not-loaded',
						'The mock cannot load its sources yet',
						waiting ?? '',
					),
					{ 'Retry-After': '1' },
				);
				return;
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
				finish(await answerer.routeProblem(current, route));
				return;
			}

			const controls = readControls(singleHeader(request, 'prefer'), url.searchParams);
			if (!controls.ok) {
				logged.refused = controls.problem;
				finish(
					controlProblem(
						422,
						'invalid-control',
						'The mock cannot read a control',
						controls.problem,
					),
				);
				return;
			}
			logged.controls = controls.controls.spelled || undefined;
			const answer = answerFor(singleHeader(request, 'authorization'), current.directory);
			if (answer.status === 200) logged.holder = answer;
			else logged.refused = answer.reason;
			const { code, example } = choose(answer, controls.controls);
			finish(
				await answerer.users(
					current,
					code,
					example,
					answer.status === 200 ? controls.controls : undefined,
				),
			);
		} catch (error) {
			const detail = error instanceof Error ? error.message : String(error);
			// The client and the log line get the first line; the terminal the whole error.
			const reason = detail.split('\n', 1)[0]?.trim().replace(/\.$/, '') ?? '';
			logged.failed = reason;
			if (response.headersSent) {
				response.destroy();
				return;
			}
			finish(
				controlProblem(
					500,
					'mock-failure',
					'The mock failed',
					`The mock could not answer this request: ${reason}. Its terminal shows the whole error.`,
				),
			);
			options.log?.(`  ${detail.replaceAll('\n', '\n  ')}`);
		}
	};

	const server = createServer((request, response) => {
		void handle(request, response);
	});
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
