/**
 * `npm run bench:mock`: the directory-aware mock against plain `prism mock openapi.yaml` on the
 * same file, in one run. For each: start-up time to the first answer, then autocannon at 10 and
 * 50 connections sending the example request (a directory key) and a table of requests/s, p50
 * and p99. BENCH_SECONDS sets the length of each load run (default 10).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { z } from 'zod';
import { loadViews } from '../src/schemas/fixtures.ts';
import { readSettings } from '../src/schemas/settings.ts';
import { verdict, writeResult } from './lib/report.ts';
import { freePort, start, type Started } from '../support/processes.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const USERS_PATH = '/api/v2/users';
const CONNECTIONS = [10, 50] as const;

const benchEnvSchema = z.object({
	BENCH_SECONDS: z.coerce
		.number({ error: 'BENCH_SECONDS: expected a number of seconds from 1 to 60' })
		.int()
		.min(1)
		.max(60)
		.default(10),
});

/** What autocannon reports (the parts the table shows). */
const autocannonSchema = z.object({
	requests: z.object({ average: z.number() }),
	latency: z.object({ p50: z.number(), p99: z.number() }),
	non2xx: z.number(),
	errors: z.number(),
	timeouts: z.number(),
});

/** One server under test: how to start it on a port. */
interface Target {
	name: string;
	command: (port: number) => { file: string; args: string[]; env?: NodeJS.ProcessEnv };
}

const TARGETS: Target[] = [
	{
		name: 'our mock (npm run mock)',
		command: (port) => ({
			file: path.join(BIN, 'node'),
			args: ['mock/cli.ts'],
			env: { MOCK_PORT: String(port) },
		}),
	},
	{
		name: 'prism mock openapi.yaml',
		command: (port) => ({
			file: path.join(BIN, 'prism'),
			args: ['mock', '-h', '127.0.0.1', '-p', String(port), 'openapi.yaml'],
		}),
	},
	{
		name: 'prism mock -v silent',
		command: (port) => ({
			file: path.join(BIN, 'prism'),
			args: ['mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'silent', 'openapi.yaml'],
		}),
	},
];

/** Starts a target in its own process group, its output discarded as a user's terminal would show it. */
function launch(target: Target, port: number): Started {
	const { file, args, env } = target.command(port);
	return start(file, args, { env: env ?? {}, output: 'ignore' });
}

/** Milliseconds from `since` until the URL answers with any status. */
async function timeToFirstAnswer(url: string, child: ChildProcess, since: number): Promise<number> {
	const deadline = since + 60_000;
	for (;;) {
		if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
		try {
			await fetch(url, { signal: AbortSignal.timeout(1000) });
			return performance.now() - since;
		} catch {
			if (performance.now() > deadline) throw new Error(`${url} did not answer within 60 s`);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	}
}

/** Runs autocannon in its own process and reads its JSON report. */
function load(url: string, key: string, connections: number, seconds: number) {
	return new Promise<z.infer<typeof autocannonSchema>>((resolve, reject) => {
		const child = spawn(
			path.join(BIN, 'autocannon'),
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
			{ cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
		);
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

/** One row of the table. */
interface Row {
	target: string;
	startup: number;
	connections: number;
	rps: number;
	p50: number;
	p99: number;
	failures: number;
}

/** Pads the cells of a table to a fixed width. */
function table(header: string[], rows: string[][]): string {
	const widths = header.map((cell, column) =>
		Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
	);
	const line = (row: string[]): string =>
		`| ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
	return [
		line(header),
		`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
		...rows.map(line),
	].join('\n');
}

/** Runs the mock benchmark and writes its result. */
export async function runMockBench(): Promise<void> {
	const { BENCH_SECONDS: seconds } = benchEnvSchema.parse(process.env);
	const [first] = await loadViews(readSettings().viewsDir);
	const key = first?.view.users[0]?.apiKey;
	if (!key) throw new Error('No view with a directory user to send the example request as');

	const rows: Row[] = [];
	for (const target of TARGETS) {
		const port = await freePort();
		const url = `http://127.0.0.1:${port}${USERS_PATH}`;
		const started = performance.now();
		const server = launch(target, port);
		const { child } = server;
		try {
			const startup = await timeToFirstAnswer(url, child, started);
			for (const connections of CONNECTIONS) {
				console.error(`${target.name}: ${connections} connections for ${seconds} s…`);
				const result = await load(url, key, connections, seconds);
				rows.push({
					target: target.name,
					startup,
					connections,
					rps: result.requests.average,
					p50: result.latency.p50,
					p99: result.latency.p99,
					failures: result.non2xx + result.errors + result.timeouts,
				});
			}
		} finally {
			await server.stop();
		}
	}

	const baseline = (connections: number): number =>
		rows.find((row) => row.target === TARGETS[1]?.name && row.connections === connections)?.rps ??
		NaN;
	const ours = rows.filter((row) => row.target === TARGETS[0]?.name);
	const budget = ours.map(
		(row) =>
			`${row.connections} connections: ${((row.rps / baseline(row.connections)) * 100).toFixed(0)} % of plain prism mock`,
	);
	const met = ours.length > 0 && ours.every((row) => row.rps >= 0.9 * baseline(row.connections));
	const markdown = [
		table(
			['server', 'start-up', 'connections', 'requests/s', 'p50', 'p99', 'not 200', 'vs prism mock'],
			rows.map((row) => [
				row.target,
				`${Math.round(row.startup)} ms`,
				String(row.connections),
				row.rps.toFixed(0),
				`${row.p50} ms`,
				`${row.p99} ms`,
				String(row.failures),
				`${((row.rps / baseline(row.connections)) * 100).toFixed(0)} %`,
			]),
		),
		'',
		`Mock throughput budget ≥ 90 % of plain prism mock: ${verdict(met)} (${budget.join('; ')}).`,
		'',
		`${seconds} s per load run, GET ${USERS_PATH} with a directory key, autocannon in its own process; start-up is from spawn to the first answer.`,
	].join('\n');
	await writeResult({
		name: 'mock',
		title: 'Mock: ours against plain prism mock',
		markdown,
		data: { seconds, rows },
	});
}

if (import.meta.main) {
	runMockBench().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	});
}
