/**
 * One process that serves the mock, until told to stop: the only one (`npm run mock`), or a
 * node:cluster worker of the primary (`cluster.ts`, MOCK_WORKERS). Alone, it writes its request
 * log and messages to standard output; as a worker, it sends them to the primary, which writes
 * them, and it stops when the primary says so. Either way it drains on SIGTERM (`RunningMock`'s
 * `close`) and says how many requests it received and answered.
 */
import cluster from 'node:cluster';
import module from 'node:module';
import { USERS_PATH } from '../src/shared/curl.ts';
import type { PortalSettings } from '../src/sources/settings.ts';
import { upstreamFrom } from './forwarder/decide.ts';
import { relayedOutput, standardOutput, worded } from './output.ts';
import { startMock, type RunningMock } from './server.ts';
import { LINGER_MS, stoppedMessage } from './stopping.ts';
import { toWorkerSchema, type FromWorker } from './worker-messages.ts';

/** Sends a message to the primary; resolves once it is handed over (or the primary is gone). */
function toPrimary(message: FromWorker): Promise<void> {
	return new Promise((resolve) => {
		if (!process.send || !process.connected) {
			resolve();
			return;
		}
		process.send(message, undefined, {}, () => resolve());
	});
}

/** Serves the mock in this process until told to stop, then exits. */
export async function serve(settings: PortalSettings): Promise<void> {
	const worker = cluster.isWorker ? cluster.worker?.id : undefined;
	const json = settings.mockLog && settings.mockLogFormat === 'json';
	const out = worker === undefined ? standardOutput() : relayedOutput(toPrimary);
	/** A message for the person at the terminal, or for the primary to write. */
	const say = (text: string): void => {
		if (worker === undefined) out.say(worded(json, text));
		else out.say(text);
	};
	/** A problem for standard error, or for the primary to write there after the lines before it. */
	const complain = async (text: string): Promise<void> => {
		if (worker === undefined) {
			console.error(worded(json, text, 'error'));
			return;
		}
		out.write('');
		await toPrimary({ kind: 'error', text });
	};
	/** Exits once every line is written (or handed to the primary). */
	const exit = (code: number): void => {
		void out.close().then(() => process.exit(code));
	};

	/** What the mock was asked before it ran: to stop accepting, and to drain (with its linger). */
	const asked: { unlisten: boolean; drain: number | undefined } = {
		unlisten: false,
		drain: undefined,
	};
	/** Stops accepting; until the mock runs, remembers it was asked. */
	let unlisten = (): void => {
		asked.unlisten = true;
	};
	/** Drains, keeping idle connections open `lingerMs`; until the mock runs, remembers it. */
	let drain = (lingerMs: number): void => {
		asked.drain ??= lingerMs;
	};
	if (worker === undefined) {
		// A signal repeated (sent to the process group and forwarded too) stops nothing twice.
		process.on('SIGINT', () => drain(0));
		process.on('SIGTERM', () => drain(LINGER_MS));
	} else {
		// A worker stops when the primary says so, in two steps: every worker stops accepting,
		// then all drain, so no client told to come back on a new connection gets one a worker
		// still accepts and then drops. A signal sent to the process group reaches the primary too.
		process.on('SIGINT', () => {});
		process.on('SIGTERM', () => {});
		process.on('message', (message: unknown) => {
			const told = toWorkerSchema.safeParse(message);
			if (!told.success) return;
			if (told.data.kind === 'stop') unlisten();
			else drain(told.data.lingerMs);
		});
		// The primary is gone: nobody writes the log or tells it to stop any more.
		process.on('disconnect', () => drain(0));
	}

	let mock: RunningMock;
	try {
		mock = await startMock({
			port: settings.mockPort,
			host: settings.mockHost,
			viewsDir: settings.viewsDir,
			contractFile: settings.openApiFile,
			watch: true,
			waitForSources: true,
			allowedHosts: settings.mockAllowedHosts,
			allowedOrigins: settings.mockAllowedOrigins,
			upstream: upstreamFrom(settings),
			log: settings.mockLog ? out.line : undefined,
			logFormat: settings.mockLogFormat,
			logProbes: settings.mockLogProbes,
			worker,
			chaos: settings.mockChaos,
			report: (message, ok) => (ok ? say(message) : void complain(message)),
		});
	} catch (error) {
		await complain(error instanceof Error ? error.message : String(error));
		exit(1);
		return;
	}
	// The compile cache is written at exit too, but a process killed never exits: write it now.
	setImmediate(() => module.flushCompileCache());
	// Every worker says it alike, and the primary writes it once.
	if (settings.mockChaos) {
		const { chaosSummary } = await import('./chaos.ts');
		say(chaosSummary(settings.mockChaos, worker !== undefined));
	}
	if (worker === undefined) {
		say(
			settings.mockUpstream
				? `Mock listening on ${mock.url} as a validating proxy: GET and HEAD ${USERS_PATH} go to the console at ${new URL(settings.mockUpstream).origin} (MOCK_UPSTREAM), each answer checked against the contract${settings.mockProxyErrors ? ', a violating one answered 502 (MOCK_PROXY_ERRORS=on)' : ''}.`
				: `Mock listening on ${mock.url} (try GET ${mock.url}${USERS_PATH} with a directory key); following edits to the fixtures and the contract.`,
		);
	} else {
		await toPrimary({ kind: 'listening', url: mock.url });
	}
	let unlistened = false;
	unlisten = () => {
		if (unlistened) return;
		unlistened = true;
		mock.stopAccepting();
		void toPrimary({ kind: 'unlistened' });
	};
	let stopping = false;
	drain = (lingerMs) => {
		if (stopping) return;
		stopping = true;
		mock.close(lingerMs).then(
			async () => {
				if (worker === undefined) {
					say(stoppedMessage(mock.counts()));
					exit(0);
					return;
				}
				// The last lines first, then the counts: the primary says it once every worker has.
				await out.close();
				await toPrimary({ kind: 'stopped', ...mock.counts() });
				process.exit(0);
			},
			() => exit(1),
		);
	};
	if (asked.unlisten) unlisten();
	if (asked.drain !== undefined) drain(asked.drain);
}
