/**
 * Load on a server, as the mock benchmarks apply it: autocannon in its own process, so the load
 * generator's work is never counted as the server's, and the server's CPU time read from /proc.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { processTree } from './proc.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Kernel clock ticks per second, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS =
	Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** util-linux's taskset, which starts a command on the cores it names. */
const TASKSET = '/usr/bin/taskset';

/**
 * Where a loaded server and its load generator run: with at least two cores and taskset, the
 * server on core 0 and autocannon on core 1, so neither takes the other's core and the scheduler
 * never moves either. Unpinned, a round's figures moved by ±20 % between quiet runs of the same
 * commit, most of it from the two sharing a core for part of a round. `BENCH_PIN=0` turns it off.
 * Each is a command prefix: empty when nothing is pinned.
 */
export function pinning(env: NodeJS.ProcessEnv = process.env): {
	server: string[];
	load: string[];
} {
	if (env['BENCH_PIN'] === '0' || os.availableParallelism() < 2 || !existsSync(TASKSET)) {
		return { server: [], load: [] };
	}
	return { server: [TASKSET, '-c', '0'], load: [TASKSET, '-c', '1'] };
}

/** A command with a prefix (`pinning()`'s): the file to run and its arguments. */
export function prefixedCommand(
	prefix: readonly string[],
	file: string,
	args: readonly string[],
): { file: string; args: string[] } {
	const [first, ...rest] = prefix;
	return first === undefined
		? { file, args: [...args] }
		: { file: first, args: [...rest, file, ...args] };
}

/** What autocannon reports (the parts the tables show). */
export const autocannonSchema = z.object({
	requests: z.object({ average: z.number(), total: z.number() }),
	latency: z.object({ p50: z.number(), p99: z.number() }),
	non2xx: z.number(),
	errors: z.number(),
	timeouts: z.number(),
});

/** What one load reported. */
export type LoadReport = z.infer<typeof autocannonSchema>;

/**
 * Runs autocannon in its own process against a URL with a bearer key, and reads its JSON report;
 * `prefix` starts it through another command (`pinning().load`).
 */
export function load(
	url: string,
	key: string,
	connections: number,
	seconds: number,
	prefix: readonly string[] = [],
): Promise<LoadReport> {
	return new Promise((resolve, reject) => {
		const { file, args } = prefixedCommand(
			prefix,
			path.join(ROOT, 'node_modules', '.bin', 'autocannon'),
			[
				'--json',
				'-c',
				String(connections),
				'-d',
				String(seconds),
				'-H',
				`Authorization=Bearer ${key}`,
				url,
			],
		);
		const child = spawn(file, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('error', reject);
		child.on('exit', (code) => {
			if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
			try {
				resolve(autocannonSchema.parse(JSON.parse(output)));
			} catch (error) {
				reject(error instanceof Error ? error : new Error(String(error)));
			}
		});
	});
}

/**
 * The CPU time so far (user + system) of a process and its live children (a cluster's workers),
 * in microseconds, from /proc.
 */
export function cpuMicros(pid: number | undefined): number {
	if (pid === undefined) return NaN;
	let ticks = 0;
	for (const each of processTree(pid)) {
		try {
			// The fields after the command name (which may hold spaces) start with the state, field 3.
			const stat = readFileSync(`/proc/${each}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			ticks += Number(fields[11]) + Number(fields[12]);
		} catch {
			// Gone since it was listed: its time is no longer counted, as the kernel no longer counts it.
		}
	}
	return (ticks * 1_000_000) / CLOCK_TICKS;
}
