/**
 * The mock on every core (MOCK_WORKERS > 1): this primary forks node:cluster workers, each of
 * which serves the mock whole (`serve.ts`): it reads the sources, watches them for edits and
 * answers, so an edit reaches every worker as it reaches a lone mock, each on its own, and a
 * worker's state is never older than its own reading. Node's cluster hands each new connection
 * to the next worker in turn. The primary is the one process that writes standard output: the
 * workers send it their request-log lines in whole batches and their messages, and a message
 * that every worker sends alike (a reload, a problem) is written once. On SIGTERM or Ctrl-C it
 * tells each worker to drain, and exits once all have, 0 when all stopped cleanly. A worker that
 * dies while serving is replaced; one that cannot start (a port in use) stops them all.
 */
import cluster, { type Worker } from 'node:cluster';
import { USERS_PATH } from '../src/shared/curl.ts';
import type { PortalSettings } from '../src/sources/settings.ts';
import { standardOutput, worded } from './output.ts';
import { LINGER_MS, stoppedMessage } from './stopping.ts';
import { fromWorkerSchema, type ToWorker } from './worker-messages.ts';

/** How long the primary waits for its workers to drain before it kills them. */
const STOP_DEADLINE_MS = 9500;

/** The most workers replaced in a minute before the primary gives up and stops. */
const MAX_REPLACED_PER_MINUTE = 10;

/**
 * Writes a message once however many workers send it alike: the same text from another worker
 * right after it is the same news (each worker reloads on the same edit).
 */
export function onceForAll(): (worker: number, text: string) => boolean {
	let last = '';
	let from = new Set<number>();
	return (worker, text) => {
		if (text === last && !from.has(worker)) {
			from.add(worker);
			return false;
		}
		last = text;
		from = new Set([worker]);
		return true;
	};
}

/** Runs the primary: forks `settings.mockWorkers` workers and relays their output until stopped. */
export function runPrimary(settings: PortalSettings): void {
	const count = settings.mockWorkers;
	const json = settings.mockLog && settings.mockLogFormat === 'json';
	const out = standardOutput();
	const fresh = onceForAll();
	/** Each worker: listening yet, listening no more, gone yet, and what it answered once stopped. */
	const workers = new Map<
		number,
		{
			listening: boolean;
			unlistened: boolean;
			exited: boolean;
			received: number;
			answered: number;
		}
	>();
	/** How long the workers keep idle connections open once draining. */
	let linger = 0;
	let draining = false;
	let announced = false;
	let stopping = false;
	/** Whether a worker failed: the primary then exits 1. */
	let failed = false;
	/** Whether a worker could not start: the primary then stops without a word of its own. */
	let unstarted = false;
	const replaced: number[] = [];

	/** Exits once every line is written. */
	const exit = (code: number): void => {
		void out.close().then(() => process.exit(code));
	};

	/** Tells every worker something. */
	const tell = (told: ToWorker): void => {
		for (const worker of Object.values(cluster.workers ?? {})) {
			if (worker?.isConnected()) worker.send(told);
		}
	};

	/** Once no worker accepts connections any more, tells them all to drain. */
	const drainOnceUnlistened = (): void => {
		if (draining || ![...workers.values()].every((each) => each.unlistened || each.exited)) return;
		draining = true;
		tell({ kind: 'drain', lingerMs: linger });
	};

	/**
	 * Tells every worker to stop accepting, then (`drainOnceUnlistened`) to drain, and kills
	 * those still running after the deadline.
	 */
	const stop = (lingerMs: number): void => {
		if (stopping) return;
		stopping = true;
		linger = lingerMs;
		tell({ kind: 'stop' });
		drainOnceUnlistened();
		setTimeout(() => {
			for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
			failed = true;
		}, STOP_DEADLINE_MS).unref();
	};

	/** Handles what a worker says. */
	const listen = (worker: Worker, message: unknown): void => {
		const said = fromWorkerSchema.safeParse(message);
		if (!said.success) return;
		const state = workers.get(worker.id);
		const { data } = said;
		if (data.kind === 'lines') out.write(data.text);
		else if (data.kind === 'say') {
			if (fresh(worker.id, data.text)) out.say(worded(json, data.text));
		} else if (data.kind === 'error') {
			if (fresh(worker.id, data.text)) console.error(worded(json, data.text, 'error'));
		} else if (data.kind === 'listening' && state) {
			state.listening = true;
			if (!announced && [...workers.values()].every(({ listening }) => listening)) {
				announced = true;
				out.say(
					worded(
						json,
						`Mock listening on ${data.url} with ${count} workers (try GET ${data.url}${USERS_PATH} with a directory key); following edits to the fixtures and the contract.`,
					),
				);
			}
		} else if (data.kind === 'unlistened' && state) {
			state.unlistened = true;
			drainOnceUnlistened();
		} else if (data.kind === 'stopped' && state) {
			state.received = data.received;
			state.answered = data.answered;
		}
	};

	/** Forks one worker. */
	const fork = (): void => {
		const worker = cluster.fork();
		workers.set(worker.id, {
			listening: false,
			unlistened: false,
			exited: false,
			received: 0,
			answered: 0,
		});
		worker.on('message', (message: unknown) => listen(worker, message));
	};

	cluster.on('exit', (worker, code, signal) => {
		const state = workers.get(worker.id);
		if (state) state.exited = true;
		const clean = code === 0 && signal === null;
		if (!stopping && !state?.listening) {
			// It said why (a port in use, say); the others would fail alike.
			failed = true;
			unstarted = true;
			stop(0);
		}
		if (stopping) {
			if (!clean) failed = true;
			drainOnceUnlistened();
			if (![...workers.values()].every(({ exited }) => exited)) return;
			const sum = (key: 'received' | 'answered'): number =>
				[...workers.values()].reduce((total, each) => total + each[key], 0);
			if (!unstarted) {
				out.say(
					worded(json, stoppedMessage({ received: sum('received'), answered: sum('answered') })),
				);
			}
			exit(failed ? 1 : 0);
			return;
		}
		const how = signal === null ? `exit code ${code}` : signal;
		const now = Date.now();
		replaced.push(now);
		while ((replaced[0] ?? now) < now - 60_000) replaced.shift();
		if (replaced.length > MAX_REPLACED_PER_MINUTE) {
			console.error(
				worded(
					json,
					`Mock worker ${worker.id} stopped (${how}), the ${replaced.length}th in a minute; stopping.`,
					'error',
				),
			);
			failed = true;
			stop(0);
			return;
		}
		console.error(
			worded(json, `Mock worker ${worker.id} stopped (${how}); starting another.`, 'error'),
		);
		workers.delete(worker.id);
		fork();
	});

	process.on('SIGINT', () => stop(0));
	process.on('SIGTERM', () => stop(LINGER_MS));
	for (let index = 0; index < count; index += 1) fork();
}
