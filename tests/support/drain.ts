/**
 * A mock told to stop while kept-alive clients send requests back to back: what they got, and
 * how soon the mock was gone. The mock and the workers tests share it.
 */
import { Agent, request as httpRequest } from 'node:http';
import type { Started } from '../../support/processes.ts';

const USERS = '/api/v2/users';

/** What a load of kept-alive clients saw while the mock was told to stop. */
export interface DrainRun {
	/** Answers received, by status. */
	statuses: Map<number, number>;
	/** Connections refused: the mock no longer accepts (nothing was sent). */
	refused: number;
	/** Requests sent that got no answer, by error. */
	lost: string[];
	/** Milliseconds from SIGTERM to the mock's exit, and its exit code. */
	exitMs: number;
	exitCode: number | null;
}

/**
 * Sends requests back to back from `clients` clients, each on its own kept-alive connection (a
 * new one once the mock closes it), and sends the mock SIGTERM once `before` answers came: each
 * client goes on until its connection is refused. The signal goes to the process group (as a
 * terminal sends Ctrl-C), or with `only` to the process alone, as Kubernetes sends it to PID 1.
 */
export async function drainUnderLoad(
	mock: Started,
	port: number,
	key: string,
	clients: number,
	before: number,
	only = false,
): Promise<DrainRun> {
	const run: DrainRun = { statuses: new Map(), refused: 0, lost: [], exitMs: 0, exitCode: null };
	const exited = new Promise<void>((resolve) => mock.child.once('exit', () => resolve()));
	let answered = 0;
	let signalled: number | undefined;
	/** One request on a client's agent: its status, or the error's code. */
	const ask = (agent: Agent, n: number): Promise<number | string> =>
		new Promise((resolve) => {
			const sent = httpRequest(
				{
					host: '127.0.0.1',
					port,
					path: `${USERS}?n=${n}`,
					agent,
					headers: { Authorization: `Bearer ${key}` },
				},
				(response) => {
					response.resume();
					response.on('end', () => resolve(response.statusCode ?? 0));
					response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
				},
			);
			sent.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
			sent.end();
		});
	let sent = 0;
	await Promise.all(
		Array.from({ length: clients }, async () => {
			const agent = new Agent({ keepAlive: true, maxSockets: 1 });
			try {
				// Bounded, whatever happens: a mock that never stops ends the test, not the machine.
				while (sent < 50_000) {
					const outcome = await ask(agent, (sent += 1));
					if (outcome === 'ECONNREFUSED') {
						run.refused += 1;
						return;
					}
					if (typeof outcome === 'string') {
						run.lost.push(outcome);
						return;
					}
					run.statuses.set(outcome, (run.statuses.get(outcome) ?? 0) + 1);
					answered += 1;
					if (answered === before && mock.child.pid !== undefined) {
						signalled = performance.now();
						process.kill(only ? mock.child.pid : -mock.child.pid, 'SIGTERM');
					}
				}
			} finally {
				agent.destroy();
			}
		}),
	);
	await exited;
	run.exitMs = performance.now() - (signalled ?? Number.NaN);
	run.exitCode = mock.child.exitCode;
	return run;
}
