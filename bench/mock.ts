/**
 * `npm run bench:mock`, in one run:
 * - throughput: the directory-aware mock (request log on, as `npm run mock` starts, and off)
 *   against its ceiling, a bare `node:http` process sending the same bytes, and against plain
 *   `prism mock openapi.yaml`. For each: start-up time to the first answer, then autocannon at 10
 *   and 50 connections sending the example request (a directory key): requests/s, p50, p99, and
 *   the server's resident memory after the load;
 * - scale: the mock's start-up time and resident memory at 10, 100, 1,000 and 10,000 generated
 *   views (BENCH_MOCK_SCALES overrides).
 * BENCH_SECONDS sets the length of each load run (default 10).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { loadViews } from '../src/schemas/fixtures.ts';
import { readSettings } from '../src/schemas/settings.ts';
import { verdict, writeResult } from './lib/report.ts';
import { writeViewSet } from '../support/view-sets.ts';
import { freePort, start, type Started } from '../support/processes.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const USERS_PATH = '/api/v2/users';
const CONNECTIONS = [10, 50] as const;

/** The mock's requests/s must reach this share of the bare `node:http` ceiling's. */
const CEILING_BUDGET = 0.75;

const benchEnvSchema = z.object({
	BENCH_SECONDS: z.coerce
		.number({ error: 'BENCH_SECONDS: expected a number of seconds from 1 to 60' })
		.int()
		.min(1)
		.max(60)
		.default(10),
	BENCH_MOCK_SCALES: z
		.string()
		.default('10,100,1000,10000')
		.transform((text) => text.split(',').map(Number))
		.pipe(
			z.array(z.number().int().min(1).max(20_000), {
				error: 'BENCH_MOCK_SCALES: expected view counts like 10,100,1000',
			}),
		),
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

/** The servers of the throughput table; the first is the ceiling the others are held to. */
function targets(answerFile: string): Target[] {
	return [
		{
			name: 'bare node:http, same bytes',
			command: (port) => ({
				file: path.join(BIN, 'node'),
				args: ['bench/lib/bare-server.ts', answerFile, String(port)],
			}),
		},
		{
			name: 'our mock (npm run mock)',
			command: (port) => ({
				file: path.join(BIN, 'node'),
				args: ['mock/cli.ts'],
				env: { MOCK_PORT: String(port) },
			}),
		},
		{
			name: 'our mock, MOCK_LOG=off',
			command: (port) => ({
				file: path.join(BIN, 'node'),
				args: ['mock/cli.ts'],
				env: { MOCK_PORT: String(port), MOCK_LOG: 'off' },
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
}

/** A process's resident memory in MiB, from /proc. */
function rssMiB(pid: number | undefined): number {
	if (pid === undefined) return NaN;
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kib = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
	return kib / 1024;
}

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

/** One row of the throughput table. */
interface Row {
	target: string;
	startup: number;
	connections: number;
	rps: number;
	p50: number;
	p99: number;
	failures: number;
	rss: number;
}

/** One row of the scale table. */
interface ScaleRow {
	views: number;
	startup: number;
	rss: number;
}

/** The mock's answer to the example request, as the ceiling sends it: status, headers, body. */
async function exampleAnswer(
	key: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
	const port = await freePort();
	const server = start(path.join(BIN, 'node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(port), MOCK_LOG: 'off' },
		output: 'ignore',
	});
	try {
		const url = `http://127.0.0.1:${port}${USERS_PATH}`;
		await timeToFirstAnswer(url, server.child, performance.now());
		const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
		const body = await response.text();
		const headers: Record<string, string> = {};
		for (const [name, value] of response.headers) {
			// Node's http server sets these itself, for the ceiling as for the mock.
			if (!/^(?:date|connection|keep-alive|content-length|transfer-encoding)$/.test(name)) {
				headers[name] = value;
			}
		}
		return { status: response.status, headers, body };
	} finally {
		await server.stop();
	}
}

/** The mock's start-up time and memory with a generated set of `count` views. */
async function mockAtScale(count: number): Promise<ScaleRow> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-bench-mock-'));
	try {
		const views = await writeViewSet(folder, count);
		const key = views[0]?.view.users[0]?.apiKey ?? '';
		const port = await freePort();
		const url = `http://127.0.0.1:${port}${USERS_PATH}`;
		const started = performance.now();
		const server = start(path.join(BIN, 'node'), ['mock/cli.ts'], {
			env: { MOCK_PORT: String(port), MOCK_LOG: 'off', PORTAL_VIEWS_DIR: folder },
			output: 'ignore',
		});
		try {
			const startup = await timeToFirstAnswer(url, server.child, started);
			const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
			if (response.status !== 200)
				throw new Error(`${count} views: the mock answered ${response.status}`);
			return { views: count, startup, rss: rssMiB(server.child.pid) };
		} finally {
			await server.stop();
		}
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
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
	const { BENCH_SECONDS: seconds, BENCH_MOCK_SCALES: scales } = benchEnvSchema.parse(process.env);
	const [first] = await loadViews(readSettings().viewsDir);
	const key = first?.view.users[0]?.apiKey;
	if (!key) throw new Error('No view with a directory user to send the example request as');

	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-bench-answer-'));
	const answerFile = path.join(folder, 'answer.json');
	await writeFile(answerFile, JSON.stringify(await exampleAnswer(key)));
	const servers = targets(answerFile);
	const rows: Row[] = [];
	try {
		for (const target of servers) {
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
						rss: rssMiB(child.pid),
					});
				}
			} finally {
				await server.stop();
			}
		}
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
	const scaleRows: ScaleRow[] = [];
	for (const count of scales) {
		console.error(`our mock at ${count} views…`);
		scaleRows.push(await mockAtScale(count));
	}

	const rpsOf = (name: string | undefined, connections: number): number =>
		rows.find((row) => row.target === name && row.connections === connections)?.rps ?? NaN;
	const ceiling = (connections: number): number => rpsOf(servers[0]?.name, connections);
	const prism = (connections: number): number => rpsOf(servers[3]?.name, connections);
	const held = rows.filter(
		(row) => row.target === servers[1]?.name || row.target === servers[2]?.name,
	);
	const share = (row: Row): number => row.rps / ceiling(row.connections);
	const met = held.length > 0 && held.every((row) => share(row) >= CEILING_BUDGET);
	const markdown = [
		table(
			[
				'server',
				'start-up',
				'connections',
				'requests/s',
				'p50',
				'p99',
				'not 200',
				'RSS after',
				'of ceiling',
				'vs prism mock',
			],
			rows.map((row) => [
				row.target,
				`${Math.round(row.startup)} ms`,
				String(row.connections),
				row.rps.toFixed(0),
				`${row.p50} ms`,
				`${row.p99} ms`,
				String(row.failures),
				`${row.rss.toFixed(0)} MiB`,
				`${(share(row) * 100).toFixed(0)} %`,
				`${((row.rps / prism(row.connections)) * 100).toFixed(0)} %`,
			]),
		),
		'',
		`Mock throughput budget ≥ ${CEILING_BUDGET * 100} % of the bare node:http ceiling: ${verdict(met)} (${held
			.map(
				(row) =>
					`${row.target}, ${row.connections} connections: ${(share(row) * 100).toFixed(0)} %`,
			)
			.join('; ')}).`,
		'',
		`${seconds} s per load run, GET ${USERS_PATH} with a directory key, autocannon in its own process; start-up is from spawn to the first answer. The ceiling sends the mock's own status, headers and body for that request from memory.`,
		'',
		'### Start-up and memory by number of views',
		'',
		table(
			['views', 'start-up', 'RSS'],
			scaleRows.map((row) => [
				row.views.toLocaleString('en-US'),
				`${Math.round(row.startup)} ms`,
				`${row.rss.toFixed(0)} MiB`,
			]),
		),
		'',
		'Generated view sets (support/view-sets.ts), MOCK_LOG=off; start-up is from spawn to the first answer, RSS is read then.',
	].join('\n');
	await writeResult({
		name: 'mock',
		title: 'Mock: ours against its ceiling and plain prism mock',
		markdown,
		data: { seconds, rows, scale: scaleRows, budget: CEILING_BUDGET },
	});
}

if (import.meta.main) {
	runMockBench().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	});
}
