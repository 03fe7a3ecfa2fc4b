/**
 * `npm run bench:mock`, in one run:
 * - throughput: the directory-aware mock (request log on, as `npm run mock` starts, and off; one
 *   process, and two node:cluster workers with MOCK_WORKERS=2) against its ceiling, a bare
 *   `node:http` process sending the same bytes, and against plain `prism mock openapi.yaml`. For
 *   each: start-up time to the first answer, then autocannon (in its own process) at 10 and 50
 *   connections sending the example request (a directory key): requests/s, p50, p99, and the
 *   server's resident memory after the load;
 * - start-up: the mock's time from spawn to the first 200 for a directory key and resident memory
 *   with the 8 hand-written views, beside its peers serving openapi.yaml (Scalar's mock server,
 *   Mockoon's CLI, plain Prism; bench/lib/mock-startup.ts), and alone with 10, 100, 1,000 and
 *   10,000 generated views (BENCH_MOCK_SCALES overrides the generated sizes), BENCH_MOCK_STARTS
 *   starts each (default 5), in rounds that start each server once. BENCH_BASELINE names another
 *   checkout (with its node_modules) whose mock is started in the same rounds, from the same
 *   views, and loaded in the throughput rounds beside this one's. This checkout's mock keeps a
 *   compile cache (NODE_COMPILE_CACHE, a folder of the run's, empty at first): its first start,
 *   which fills it, is reported on its own, as every server's first start is.
 * BENCH_MOCK_PARTS runs one part alone; the result keeps the other part's tables and data from the
 * result it replaces, with the date they were measured.
 * Every server is started first and warmed up (a JIT-compiled server answers faster than a cold
 * one, and a mock runs for hours); then BENCH_ROUNDS rounds (default 3) load each server in turn
 * for BENCH_SECONDS (default 5), so each round measures all of them side by side under the same
 * machine noise. Each round starts one server later than the one before, so no server always
 * follows the same one, and a second copy of the ceiling shows how far the noise moves a server
 * identical to it. The table gives medians over the rounds, the share of the ceiling as the median
 * of each round's ratio, and the server's CPU time per request (user + system, from /proc), which
 * another process's load on the machine disturbs less than requests/s. With two cores or more and
 * taskset, each loaded server runs on core 0 and autocannon on core 1 (`pinning()` in
 * lib/load.ts); BENCH_PIN=0 leaves both to the scheduler.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { loadViews } from '../src/sources/fixtures.ts';
import { readSettings } from '../src/sources/settings.ts';
import { keptMarkdown, previousResult } from './lib/kept-parts.ts';
import {
	FLOORS,
	ourMock,
	PEERS,
	startupSection,
	startUps,
	type Contestant,
	type ViewSet,
} from './lib/mock-startup.ts';
import { cpuMicros, load, pinning, prefixedCommand } from './lib/load.ts';
import { rssMiB } from './lib/proc.ts';
import { commitOf, verdict, writeResult } from './lib/report.ts';
import { writeViewSet } from '../support/view-sets.ts';
import { freePort, start, type Started } from '../support/processes.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const USERS_PATH = '/api/v2/users';
/** What `node bench/install.ts` installs the peers' tools into. */
const TOOLS_INSTALLED = path.join(ROOT, 'bench', 'tools', 'node_modules');
const CONNECTIONS = [10, 50] as const;
/** Seconds of unmeasured load each server gets before the rounds. */
const WARMUP_SECONDS = 3;

/** The headings that open the result's two parts, so a run of one part keeps the other's. */
const THROUGHPUT_HEADING = '## Throughput';
const STARTUP_HEADING = '## Start-up';
const PART_HEADINGS = [
	{ part: 'throughput', heading: /^## Throughput/m },
	// Older results opened the start-up part with its table's own heading.
	{ part: 'startup', heading: /^##+ Start-up/m },
] as const;

/**
 * The mock as `npm run mock` starts it (request log on), at each number of connections, must reach
 * this share of the bare `node:http` ceiling's requests/s...
 */
const CEILING_BUDGET = 0.95;
/** ...and spend at most this many times the ceiling's CPU time per request. */
const CPU_BUDGET = 1.1;

const benchEnvSchema = z.object({
	BENCH_SECONDS: z.coerce
		.number({ error: 'BENCH_SECONDS: expected a number of seconds from 1 to 60' })
		.int()
		.min(1)
		.max(60)
		.default(5),
	BENCH_ROUNDS: z.coerce
		.number({ error: 'BENCH_ROUNDS: expected a number of rounds from 1 to 9' })
		.int()
		.min(1)
		.max(9)
		.default(3),
	BENCH_MOCK_STARTS: z.coerce
		.number({ error: 'BENCH_MOCK_STARTS: expected a number of starts from 1 to 15' })
		.int()
		.min(1)
		.max(15)
		.default(5),
	BENCH_BASELINE: z.string().min(1).optional(),
	BENCH_MOCK_PARTS: z
		.string()
		.default('throughput,startup')
		.transform((text) => text.split(',').filter(Boolean))
		.pipe(
			z.array(z.enum(['throughput', 'startup']), {
				error: 'BENCH_MOCK_PARTS: expected throughput, startup or both, comma-separated',
			}),
		),
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

/** One server under test: how to start it on a port, and what its row is for. */
interface Target {
	name: string;
	/**
	 * The ceiling the others are measured against, a second copy of it that shows how far the
	 * machine's noise moves an identical server, the mock held to the budget, or plain Prism.
	 */
	role: 'ceiling' | 'control' | 'held' | 'prism' | 'other';
	/** Whether it may run on more than the one core a pinned server gets (MOCK_WORKERS). */
	cores?: 'all';
	command: (port: number) => {
		file: string;
		args: string[];
		env?: NodeJS.ProcessEnv;
		/** The checkout it runs in; this one unless given. */
		cwd?: string;
	};
}

/**
 * The servers of the throughput table; the first is the ceiling the others are held to. With a
 * baseline checkout, its mock is loaded in the same rounds, so the two compare under the same noise.
 */
function targets(answerFile: string, baseline: string | undefined): Target[] {
	const baselineMock: Target[] = baseline
		? [
				{
					name: `baseline's mock (${commitOf(baseline)})`,
					role: 'other',
					command: (port) => ({
						file: path.join(baseline, 'node_modules', '.bin', 'node'),
						args: ['mock/cli.ts'],
						env: { MOCK_PORT: String(port) },
						cwd: baseline,
					}),
				},
			]
		: [];
	return [
		{
			name: 'bare node:http, same bytes',
			role: 'ceiling',
			command: (port) => ({
				file: path.join(BIN, 'node'),
				args: ['bench/lib/bare-server.ts', answerFile, String(port)],
			}),
		},
		{
			name: 'bare node:http again (control)',
			role: 'control',
			command: (port) => ({
				file: path.join(BIN, 'node'),
				args: ['bench/lib/bare-server.ts', answerFile, String(port)],
			}),
		},
		{
			name: 'our mock (npm run mock)',
			role: 'held',
			command: (port) => ({
				file: path.join(BIN, 'node'),
				args: ['mock/cli.ts'],
				env: { MOCK_PORT: String(port) },
			}),
		},
		...baselineMock,
		{
			name: 'our mock, MOCK_LOG=off',
			role: 'other',
			command: (port) => ({
				file: path.join(BIN, 'node'),
				args: ['mock/cli.ts'],
				env: { MOCK_PORT: String(port), MOCK_LOG: 'off' },
			}),
		},
		{
			name: 'our mock, MOCK_WORKERS=2',
			role: 'other',
			cores: 'all',
			command: (port) => ({
				file: path.join(BIN, 'node'),
				args: ['mock/cli.ts'],
				env: { MOCK_PORT: String(port), MOCK_WORKERS: '2' },
			}),
		},
		{
			name: 'our mock, MOCK_WORKERS=2, MOCK_LOG=off',
			role: 'other',
			cores: 'all',
			command: (port) => ({
				file: path.join(BIN, 'node'),
				args: ['mock/cli.ts'],
				env: { MOCK_PORT: String(port), MOCK_WORKERS: '2', MOCK_LOG: 'off' },
			}),
		},
		{
			name: 'prism mock openapi.yaml',
			role: 'prism',
			command: (port) => ({
				file: path.join(BIN, 'prism'),
				args: ['mock', '-h', '127.0.0.1', '-p', String(port), 'openapi.yaml'],
			}),
		},
		{
			name: 'prism mock -v silent',
			role: 'other',
			command: (port) => ({
				file: path.join(BIN, 'prism'),
				args: ['mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'silent', 'openapi.yaml'],
			}),
		},
	];
}

/**
 * Starts a target in its own process group, its output discarded as a user's terminal would show
 * it, on the server's core when the run pins (`pinning()`) and the target has one process.
 */
function launch(target: Target, port: number, prefix: readonly string[]): Started {
	const command = target.command(port);
	const { file, args } = prefixedCommand(
		target.cores === 'all' ? [] : prefix,
		command.file,
		command.args,
	);
	const { env, cwd } = command;
	return start(file, args, { env: env ?? {}, output: 'ignore', ...(cwd ? { cwd } : {}) });
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
			// Not listening yet: asked again until the deadline, which throws.
			if (performance.now() > deadline) throw new Error(`${url} did not answer within 60 s`);
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
	}
}

/** One row of the throughput table: medians over the rounds. */
interface Row {
	target: string;
	startup: number;
	connections: number;
	rps: number;
	p50: number;
	p99: number;
	failures: number;
	rss: number;
	/** Server CPU time per request, in microseconds. */
	cpuPerRequest: number;
	/** Each round's requests/s. */
	rounds: number[];
	/** Each round's CPU time per request, in microseconds. */
	cpuRounds: number[];
}

/** The median of some numbers. */
function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2
		? (sorted[middle] ?? NaN)
		: ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
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
	const {
		BENCH_SECONDS: seconds,
		BENCH_ROUNDS: rounds,
		BENCH_MOCK_SCALES: scales,
		BENCH_BASELINE: baselineRoot,
		BENCH_MOCK_PARTS: parts,
		BENCH_MOCK_STARTS: starts,
	} = benchEnvSchema.parse(process.env);
	const [first] = await loadViews(readSettings().viewsDir);
	const key = first?.view.users[0]?.apiKey;
	if (!key) throw new Error('No view with a directory user to send the example request as');

	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-bench-answer-'));
	const answerFile = path.join(folder, 'answer.json');
	if (parts.includes('throughput'))
		await writeFile(answerFile, JSON.stringify(await exampleAnswer(key)));
	const servers = parts.includes('throughput')
		? targets(answerFile, baselineRoot ? path.resolve(baselineRoot) : undefined)
		: [];
	const rows: Row[] = [];
	const pinned = pinning();
	/** How busy the machine was (1-minute load average) before and after the throughput rounds. */
	const throughputLoad = { before: NaN, after: NaN };
	const running: { target: Target; url: string; server: Started; startup: number }[] = [];
	try {
		for (const target of servers) {
			const port = await freePort();
			const url = `http://127.0.0.1:${port}${USERS_PATH}`;
			const started = performance.now();
			const server = launch(target, port, pinned.server);
			running.push({ target, url, server, startup: 0 });
			const entry = running.at(-1);
			if (entry) entry.startup = await timeToFirstAnswer(url, server.child, started);
		}
		for (const { target, url } of running) {
			console.error(`${target.name}: warming up for ${WARMUP_SECONDS} s…`);
			await load(url, key, CONNECTIONS[0], WARMUP_SECONDS, pinned.load);
		}
		throughputLoad.before = os.loadavg()[0] ?? NaN;
		const runs = new Map<
			string,
			{ rps: number; p50: number; p99: number; failures: number; cpu: number }[]
		>();
		for (let round = 1; round <= rounds; round++) {
			for (const connections of CONNECTIONS) {
				// Each round starts one server later, so no server always follows the same one.
				const shift = (round - 1) % running.length;
				const order = [...running.slice(shift), ...running.slice(0, shift)];
				for (const { target, url, server } of order) {
					console.error(
						`round ${round}: ${target.name}, ${connections} connections for ${seconds} s…`,
					);
					const cpuBefore = cpuMicros(server.child.pid);
					const result = await load(url, key, connections, seconds, pinned.load);
					const cpu = (cpuMicros(server.child.pid) - cpuBefore) / result.requests.total;
					const id = `${target.name} ${connections}`;
					runs.set(id, [
						...(runs.get(id) ?? []),
						{
							rps: result.requests.average,
							p50: result.latency.p50,
							p99: result.latency.p99,
							failures: result.non2xx + result.errors + result.timeouts,
							cpu,
						},
					]);
				}
			}
		}
		throughputLoad.after = os.loadavg()[0] ?? NaN;
		for (const connections of CONNECTIONS) {
			for (const { target, server, startup } of running) {
				const measured = runs.get(`${target.name} ${connections}`) ?? [];
				rows.push({
					target: target.name,
					startup,
					connections,
					rps: median(measured.map((run) => run.rps)),
					p50: median(measured.map((run) => run.p50)),
					p99: median(measured.map((run) => run.p99)),
					failures: measured.reduce((sum, run) => sum + run.failures, 0),
					rss: rssMiB(server.child.pid),
					cpuPerRequest: median(measured.map((run) => run.cpu)),
					rounds: measured.map((run) => run.rps),
					cpuRounds: measured.map((run) => run.cpu),
				});
			}
		}
	} finally {
		for (const { server } of running) await server.stop();
		await rm(folder, { recursive: true, force: true });
	}
	const baseline = baselineRoot ? path.resolve(baselineRoot) : undefined;
	const baselineCommit = baseline ? commitOf(baseline) : undefined;
	const cacheDir = await mkdtemp(path.join(os.tmpdir(), 'console-portal-bench-compile-cache-'));
	// The ceiling of a start: a bare node:http server sending a list of no users.
	const bareAnswer = path.join(cacheDir, 'bare-answer.json');
	await writeFile(
		bareAnswer,
		JSON.stringify({
			status: 200,
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ users: [] }),
		}),
	);
	const bare: Contestant = {
		id: 'bare',
		name: 'bare node:http (bench/lib/bare-server.ts)',
		loadsViews: false,
		command: (port) => ({
			file: path.join(BIN, 'node'),
			args: ['bench/lib/bare-server.ts', bareAnswer, String(port)],
		}),
	};
	const contestants: Contestant[] = [
		...(baseline
			? [ourMock('baseline', baseline, undefined), ourMock('baseline', baseline, undefined, 'node')]
			: []),
		ourMock('this', ROOT, cacheDir),
		ourMock('this', ROOT, cacheDir, 'node'),
		// Scalar's and Mockoon's come from bench/tools (`node bench/install.ts`); without it, they sit out.
		...PEERS.filter((peer) => peer.id === 'prism' || existsSync(TOOLS_INSTALLED)),
		bare,
		...FLOORS,
	];
	const handWritten: ViewSet = {
		views: '8 (content/views)',
		count: 8,
		withPeers: true,
		folder: () =>
			Promise.resolve({ folder: readSettings().viewsDir, key, done: () => Promise.resolve() }),
	};
	const generated = scales.map((count): ViewSet => ({
		views: count.toLocaleString('en-US'),
		count,
		withPeers: false,
		folder: async () => {
			const set = await mkdtemp(path.join(os.tmpdir(), 'console-portal-bench-mock-'));
			const views = await writeViewSet(set, count);
			return {
				folder: set,
				key: views[0]?.view.users[0]?.apiKey ?? '',
				done: () => rm(set, { recursive: true, force: true }),
			};
		},
	}));
	// How busy the machine was (1-minute load average) before and after the start-up rounds.
	const loadBefore = os.loadavg()[0] ?? NaN;
	const { rows: scaleRows, firstStarts } = parts.includes('startup')
		? await startUps(contestants, [handWritten, ...generated], starts).finally(() =>
				rm(cacheDir, { recursive: true, force: true }),
			)
		: { rows: [], firstStarts: {} };
	await rm(cacheDir, { recursive: true, force: true });
	const machineLoad = { before: loadBefore, after: os.loadavg()[0] ?? NaN };
	const previous = await previousResult('mock', PART_HEADINGS);
	const now = new Date().toISOString();

	const rpsOf = (name: string | undefined, connections: number): number =>
		rows.find((row) => row.target === name && row.connections === connections)?.rps ?? NaN;
	const named = (role: Target['role']): string[] =>
		servers.filter((target) => target.role === role).map((target) => target.name);
	const [ceilingName] = named('ceiling');
	const ceiling = (connections: number): number => rpsOf(ceilingName, connections);
	const prism = (connections: number): number => rpsOf(named('prism')[0], connections);
	const held = rows.filter((row) => named('held').includes(row.target));
	const controls = rows.filter((row) => named('control').includes(row.target));
	const ceilingRow = (connections: number): Row | undefined =>
		rows.find((row) => row.target === ceilingName && row.connections === connections);
	/** Each round's ratio to the ceiling, measured side by side. */
	const shares = (row: Row): number[] =>
		row.rounds.map(
			(rps, round) =>
				rps / (ceilingRow(row.connections)?.rounds[round] ?? ceiling(row.connections)),
		);
	/** The median over the rounds of each round's ratio to the ceiling. */
	const share = (row: Row): number => median(shares(row));
	/** Each round's CPU time per request over the ceiling's in the same round. */
	const cpuShares = (row: Row): number[] =>
		row.cpuRounds.map(
			(cpu, round) =>
				cpu /
				(ceilingRow(row.connections)?.cpuRounds[round] ??
					ceilingRow(row.connections)?.cpuPerRequest ??
					NaN),
		);
	/** The median over the rounds of each round's CPU ratio to the ceiling. */
	const cpuShare = (row: Row): number => median(cpuShares(row));
	/** Whether a held row meets both budgets; undefined for a row not held to them. */
	const rowMet = (row: Row): boolean | undefined =>
		named('held').includes(row.target)
			? share(row) >= CEILING_BUDGET && cpuShare(row) <= CPU_BUDGET
			: undefined;
	const met = held.length > 0 && held.every((row) => rowMet(row));
	const kept = (part: 'throughput' | 'startup', heading: string): string[] => {
		const old = previous?.parts[part];
		return old
			? keptMarkdown(
					old,
					heading,
					`this run measured ${parts.join(' and ')} only (BENCH_MOCK_PARTS)`,
				)
			: [];
	};
	const markdown = [
		...(parts.includes('throughput')
			? throughputSection()
			: kept('throughput', THROUGHPUT_HEADING)),
		...(parts.includes('startup')
			? [
					STARTUP_HEADING,
					'',
					...startupSection(contestants, scaleRows, firstStarts, starts, machineLoad),
				]
			: kept('startup', STARTUP_HEADING)),
	].join('\n');

	/** The throughput table and what it says. */
	function throughputSection(): string[] {
		return [
			THROUGHPUT_HEADING,
			'',
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
					'CPU per request',
					'CPU vs ceiling',
					`budget (≥ ${CEILING_BUDGET}×, CPU ≤ ${CPU_BUDGET}×)`,
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
					`${row.cpuPerRequest.toFixed(0)} µs`,
					`${cpuShare(row).toFixed(2)}×`,
					rowMet(row) === undefined ? '–' : verdict(rowMet(row)),
				]),
			),
			'',
			`Mock budget, as \`npm run mock\` starts it (request log on), at each number of connections: requests/s ≥ ${CEILING_BUDGET * 100} % of the bare node:http ceiling's and CPU per request ≤ ${CPU_BUDGET}× the ceiling's, each the median of the rounds' ratios: ${verdict(met)} (${held
				.map(
					(row) =>
						`${row.connections} connections: ${(share(row) * 100).toFixed(0)} % of its requests/s (rounds ${shares(
							row,
						)
							.map((value) => (value * 100).toFixed(0))
							.join('/')}), ${cpuShare(row).toFixed(2)}× its CPU per request (rounds ${cpuShares(
							row,
						)
							.map((value) => value.toFixed(2))
							.join('/')})`,
				)
				.join(
					'; ',
				)}). The machine's load average (1 minute) was ${throughputLoad.before.toFixed(1)} before the throughput rounds and ${throughputLoad.after.toFixed(1)} after them.`,
			'',
			`The machine's noise: a second copy of the ceiling reached ${controls
				.map((row) => `${(share(row) * 100).toFixed(0)} % at ${row.connections} connections`)
				.join(' and ')} of the first (its rounds: ${controls
				.map((row) =>
					shares(row)
						.map((value) => `${(value * 100).toFixed(0)}`)
						.join('/'),
				)
				.join(' and ')} %).`,
			'',
			`Medians of ${rounds} rounds; in each round every server gets ${seconds} s of load in turn, each round starting one server later, after a ${WARMUP_SECONDS} s warm-up each. GET ${USERS_PATH} with a directory key, autocannon in its own process${pinned.server.length > 0 ? ' on core 1, each server on core 0 (taskset; the MOCK_WORKERS rows on any core), so the two never share a core' : ', not pinned to cores'}. "of ceiling" is the median of each round's ratio to the ceiling measured in the same round; CPU per request and RSS are the server's, with its workers when it has some: user + system time over the requests it answered, and resident memory after the load. Start-up is from spawn to the first answer. The ceiling sends the mock's own status, headers and body for that request from memory.`,
			'',
			`With MOCK_WORKERS=2 on this machine's ${os.availableParallelism()} cores, the load generator (autocannon, one process) takes a core of its own and the primary relays the log lines, so two workers have less than two cores between them: the rows say what a second worker gives here, not what it gives on a machine with cores to spare.`,
			'',
		];
	}

	await writeResult({
		name: 'mock',
		title: 'Mock: ours against its ceiling and plain prism mock, and its start-up beside its peers',
		markdown,
		data: {
			...previous?.data,
			...(parts.includes('throughput')
				? {
						seconds,
						rounds,
						warmupSeconds: WARMUP_SECONDS,
						rows,
						budget: CEILING_BUDGET,
						cpuBudget: CPU_BUDGET,
						throughputLoad,
						baseline: baseline ? { root: baseline, commit: baselineCommit } : undefined,
					}
				: {}),
			...(parts.includes('startup')
				? {
						starts,
						scale: scaleRows,
						firstStart: undefined,
						firstStarts,
						machineLoad,
						startupBaseline: baseline ? { root: baseline, commit: baselineCommit } : undefined,
					}
				: {}),
			// When each part was measured: now, or when the kept part was.
			measured: Object.fromEntries(
				(['throughput', 'startup'] as const).flatMap((part) => {
					const date = parts.includes(part) ? now : previous?.parts[part]?.date;
					return date ? [[part, date]] : [];
				}),
			),
		},
	});
}

if (import.meta.main) {
	runMockBench().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	});
}
