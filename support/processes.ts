/**
 * Processes started by tests and benchmarks: bound to 127.0.0.1 on a free port, awaited until
 * they answer, and stopped by process id (the whole process group) whatever happened.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

/** The repository root. */
export const ROOT = path.resolve(import.meta.dirname, '..');

/** An executable from node_modules/.bin, started directly rather than through npx. */
export function bin(name: string): string {
	return path.join(ROOT, 'node_modules', '.bin', name);
}

/**
 * The environment for child processes: node_modules/.bin first, so `node` is the pinned Node 24,
 * and without vitest's own variables (VITEST, NODE_ENV=test), under which Astro builds and serves
 * in test mode rather than as a user's `npm run build` or `npm run dev` would.
 */
export function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const binDir = path.join(ROOT, 'node_modules', '.bin');
	const env: NodeJS.ProcessEnv = {
		...process.env,
		PATH: `${binDir}${path.delimiter}${process.env['PATH'] ?? ''}`,
		...extra,
	};
	for (const name of Object.keys(env)) {
		if (name.startsWith('VITEST') || (name === 'NODE_ENV' && env[name] === 'test'))
			delete env[name];
	}
	return env;
}

/** Asks the kernel for a port that is free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() => {
				if (address && typeof address === 'object') resolve(address.port);
				else reject(new Error('No port was given'));
			});
		});
	});
}

/** A process started by a test or a benchmark, with what it printed so far. */
export interface Started {
	child: ChildProcess;
	output: () => string;
	stop: () => Promise<void>;
}

/** Starts a command in its own process group, collecting its output. */
export function start(
	command: string,
	args: readonly string[],
	options: {
		env?: NodeJS.ProcessEnv;
		cwd?: string;
		/** 'ignore' discards output, as a terminal nobody reads would (benchmarks use it). */
		output?: 'collect' | 'ignore';
	} = {},
): Started {
	const child = spawn(command, args, {
		cwd: options.cwd ?? ROOT,
		env: childEnv(options.env),
		detached: true,
		stdio: options.output === 'ignore' ? 'ignore' : ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const exited = new Promise<void>((resolve) => {
		if (child.exitCode !== null || child.signalCode !== null) resolve();
		else child.once('exit', () => resolve());
	});
	const stop = async (): Promise<void> => {
		if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
		try {
			process.kill(-child.pid, 'SIGTERM');
		} catch {
			// The group is gone already: nothing to stop.
			return;
		}
		const timer = setTimeout(() => {
			try {
				if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
			} catch {
				/* already gone */
			}
		}, 5000);
		await exited;
		clearTimeout(timer);
	};
	return { child, output: () => output, stop };
}

/** Waits until a URL answers with any HTTP status, or fails with what the process printed. */
export async function waitForUrl(
	url: string,
	started?: Started,
	timeoutMs = 60_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (started && started.child.exitCode !== null) {
			throw new Error(
				`The process exited (${started.child.exitCode}) before ${url} answered:\n${started.output()}`,
			);
		}
		try {
			await fetch(url, { signal: AbortSignal.timeout(2000) });
			return;
		} catch {
			// Not listening yet: asked again until the deadline, which throws with the output.
			if (Date.now() > deadline) {
				throw new Error(
					`${url} did not answer within ${timeoutMs} ms:\n${started?.output() ?? ''}`,
				);
			}
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	}
}

/**
 * Starts a command as `start` does and waits until `url` answers as `waitForUrl` does: the
 * start-and-wait of every server a test starts. When it never answers, the process is stopped
 * before the error (with what it printed) is thrown, so no half-started server is left behind.
 */
export async function startAndWait(
	command: string,
	args: readonly string[],
	url: string,
	options: Parameters<typeof start>[2] = {},
	timeoutMs = 60_000,
): Promise<Started> {
	const started = start(command, args, options);
	try {
		await waitForUrl(url, started, timeoutMs);
	} catch (error) {
		await started.stop();
		throw error;
	}
	return started;
}
