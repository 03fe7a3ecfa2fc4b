/**
 * `npm run bench:proxy`: what the validating proxy (MOCK_UPSTREAM=<console> npm run mock) costs,
 * beside its ceiling, a bare forwarding proxy, and the console asked directly, in one run. The
 * console is the stand-in the proxy's tests use (support/stand-in-console.ts, conforming), in a
 * process of its own; the bare forwarder (bench/lib/bare-forwarder.ts) is a `node:http` server
 * that forwards to it over kept-alive connections with no check, in a process of its own; the
 * proxy is `node mock/cli.ts` as a user starts it, its log on. Three requests: GET
 * /api/v2/users with a directory key (200), HEAD with the key (200), GET without a key (401).
 *
 * For each request and each number of connections (1, then 10), BENCH_ROUNDS rounds (default 10)
 * ask every path in turn, each round starting with the next one, so all meet the same machine
 * noise: BENCH_SECONDS (default 1) of kept-alive connections asking as fast as they are answered,
 * each request timed from sending to the answer's last byte: requests/s, and p50, p90 and p99.
 * Each path keeps its connections open from one round to the next, so short rounds measure
 * answers rather than handshakes, and many short rounds let a burst of other work on the machine
 * fall on few of them. The ratio to the bare forwarder is the median of each round's ratio.
 * BENCH_BASELINE names another checkout (with its node_modules, e.g. a git worktree of an older
 * commit) whose proxy is measured in the same rounds, in front of the same console.
 *
 * The load is sent from this process with node:http rather than autocannon, which cannot ask
 * HEAD: it reads the length a HEAD answer declares as a body to wait for, and stalls.
 */
import { Agent, request } from 'node:http';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { loadViews } from '../src/sources/fixtures.ts';
import { readSettings } from '../src/sources/settings.ts';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../support/processes.ts';
import { commitOf, median, table, verdict, writeResult } from './lib/report.ts';

const USERS_PATH = '/api/v2/users';
/** The numbers of kept-alive connections each path is asked on. */
const CONNECTIONS = [1, 10] as const;
/** Seconds of unmeasured load each path gets before the rounds. */
const WARMUP_SECONDS = 2;
/** The share of the bare forwarder's requests/s the proxy must reach at 10 connections. */
const TARGET_SHARE = 0.8;

const benchEnvSchema = z.object({
	BENCH_ROUNDS: z.coerce
		.number({ error: 'BENCH_ROUNDS: expected a number of rounds from 1 to 30' })
		.int()
		.min(1)
		.max(30)
		.default(10),
	BENCH_SECONDS: z.coerce
		.number({ error: 'BENCH_SECONDS: expected a number of seconds from 0.25 to 30' })
		.min(0.25)
		.max(30)
		.default(1),
	BENCH_BASELINE: z.string().min(1).optional(),
});

/** One request of the benchmark: how it is asked, and the status the contract gives it. */
interface Case {
	name: string;
	method: 'GET' | 'HEAD';
	headers: Record<string, string>;
	status: number;
}

/** A way to the console: directly, through the bare forwarder, or through a proxy. */
interface Path {
	name: string;
	/** The console asked directly, the bare forwarder, this checkout's proxy, or the baseline's. */
	role: 'direct' | 'bare' | 'proxy' | 'baseline';
	url: string;
	/** The process that answers first on this path: the console, the bare forwarder or a proxy. */
	pid: number | undefined;
}

/** What one round measured on one path, for one request, on some connections. */
interface Measure {
	p50: number;
	p90: number;
	p99: number;
	rps: number;
	/**
	 * CPU time (user and system) the process answering first on the path spent per request, in
	 * microseconds: less moved by other work on the machine than requests/s.
	 */
	cpu: number;
	/** Answers whose status was not the case's. */
	unexpected: number;
}

/** The value at a percentile of sorted numbers (nearest rank). */
function percentile(sorted: readonly number[], share: number): number {
	const rank = Math.max(1, Math.ceil(share * sorted.length));
	return sorted[rank - 1] ?? NaN;
}

/** Sends one request on the agent's connections and reads its whole answer: its status. */
function send(agent: Agent, url: URL, test: Case): Promise<number> {
	return new Promise((resolve, reject) => {
		const outgoing = request(url, { method: test.method, headers: test.headers, agent });
		outgoing.on('error', reject);
		outgoing.on('response', (incoming) => {
			incoming.on('error', reject);
			incoming.on('end', () => resolve(incoming.statusCode ?? 0));
			incoming.resume();
		});
		outgoing.end();
	});
}

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`; 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The CPU time a process has spent, in seconds, from /proc; NaN where there is none. */
function cpuSeconds(pid: number | undefined): number {
	try {
		const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
		return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
	} catch {
		// No /proc (not Linux), or the process is gone: the CPU column says NaN.
		return NaN;
	}
}

/**
 * Requests on an agent's kept-alive connections, each connection asking as fast as it is
 * answered, for some seconds: answers per second, and each request's time in milliseconds.
 */
async function load(
	agent: Agent,
	base: string,
	pid: number | undefined,
	test: Case,
	connections: number,
	seconds: number,
): Promise<Measure> {
	const url = new URL(`${base}${USERS_PATH}`);
	const cpuBefore = cpuSeconds(pid);
	const started = performance.now();
	const deadline = started + seconds * 1000;
	const times: number[] = [];
	let unexpected = 0;
	const connection = async (): Promise<void> => {
		while (performance.now() < deadline) {
			const sent = performance.now();
			const status = await send(agent, url, test);
			times.push(performance.now() - sent);
			if (status !== test.status) unexpected += 1;
		}
	};
	await Promise.all(Array.from({ length: connections }, connection));
	const rps = times.length / ((performance.now() - started) / 1000);
	const cpu = ((cpuSeconds(pid) - cpuBefore) * 1e6) / times.length;
	times.sort((a, b) => a - b);
	return {
		p50: percentile(times, 0.5),
		p90: percentile(times, 0.9),
		p99: percentile(times, 0.99),
		rps,
		cpu,
		unexpected,
	};
}

/** Reads the address a started server prints on its first line, or fails with its output. */
async function printedUrl(server: Started, what: string): Promise<string> {
	const deadline = Date.now() + 30_000;
	for (;;) {
		const url = /^(http:\/\/127\.0\.0\.1:\d+)$/m.exec(server.output())?.[1];
		if (url) return url;
		if (server.child.exitCode !== null || Date.now() > deadline) {
			await server.stop();
			throw new Error(`${what} did not start:\n${server.output()}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** Starts the stand-in console in its own process and reads the address it prints. */
async function startConsole(): Promise<{ server: Started; url: string }> {
	const server = start(bin('node'), ['bench/lib/stand-in-server.ts']);
	return { server, url: await printedUrl(server, 'The stand-in console') };
}

/** Starts the bare forwarder in front of the console, in its own process, and waits for it. */
async function startBareForwarder(upstream: string): Promise<{ server: Started; url: string }> {
	const port = await freePort();
	const server = start(bin('node'), ['bench/lib/bare-forwarder.ts', upstream, String(port)], {
		output: 'ignore',
	});
	const url = `http://127.0.0.1:${port}`;
	await waitForUrl(`${url}/`, server);
	return { server, url };
}

/** Starts a checkout's mock as the validating proxy in front of the console, and waits for it. */
async function startProxy(
	checkout: string,
	upstream: string,
): Promise<{ server: Started; url: string }> {
	const port = await freePort();
	const server = start(path.join(checkout, 'node_modules', '.bin', 'node'), ['mock/cli.ts'], {
		cwd: checkout,
		env: { MOCK_PORT: String(port), MOCK_UPSTREAM: upstream },
		output: 'ignore',
	});
	const url = `http://127.0.0.1:${port}`;
	await waitForUrl(`${url}/healthz`, server);
	return { server, url };
}

/** Milliseconds as the tables show them: to the hundredth. */
function ms(value: number): string {
	return `${value.toFixed(2)} ms`;
}

/** Microseconds as the tables show them: whole ones. */
function micros(value: number): string {
	return `${value.toFixed(0)} µs`;
}

/** A share as the tables show it: `0.83x`. */
function times(value: number): string {
	return `${value.toFixed(2)}x`;
}

/** Runs the proxy benchmark and writes its result. */
export async function runProxyBench(): Promise<void> {
	const {
		BENCH_ROUNDS: rounds,
		BENCH_SECONDS: seconds,
		BENCH_BASELINE: baselineGiven,
	} = benchEnvSchema.parse(process.env);
	const baseline = baselineGiven ? path.resolve(baselineGiven) : undefined;
	const [first] = await loadViews(readSettings().viewsDir);
	const key = first?.view.users[0]?.apiKey;
	if (!key) throw new Error('No view with a directory user to send the requests as');
	const cases: Case[] = [
		{
			name: 'GET with a key',
			method: 'GET',
			headers: { Authorization: `Bearer ${key}` },
			status: 200,
		},
		{
			name: 'HEAD with a key',
			method: 'HEAD',
			headers: { Authorization: `Bearer ${key}` },
			status: 200,
		},
		{ name: 'GET without a key (401)', method: 'GET', headers: {}, status: 401 },
	];

	// How busy the machine was (1-minute load average) before and after the rounds.
	const loadBefore = os.loadavg()[0] ?? NaN;
	const started: Started[] = [];
	const measures = new Map<string, Measure[]>();
	const paths: Path[] = [];
	const idOf = (each: Path | undefined, test: Case, connections: number): string =>
		`${each?.name ?? ''} ${test.name} ${connections}`;
	/** Each path's connections, by number, kept open from one round to the next. */
	const agents = new Map<string, Agent>();
	const agentOf = (each: Path, connections: number): Agent => {
		const id = `${each.name} ${connections}`;
		let agent = agents.get(id);
		if (!agent) {
			agent = new Agent({ keepAlive: true, maxSockets: connections });
			agents.set(id, agent);
		}
		return agent;
	};
	try {
		const upstream = await startConsole();
		started.push(upstream.server);
		paths.push({
			name: 'console, directly',
			role: 'direct',
			url: upstream.url,
			pid: upstream.server.child.pid,
		});
		const bare = await startBareForwarder(upstream.url);
		started.push(bare.server);
		paths.push({ name: 'bare forwarder', role: 'bare', url: bare.url, pid: bare.server.child.pid });
		const proxy = await startProxy(ROOT, upstream.url);
		started.push(proxy.server);
		paths.push({
			name: `ours (${commitOf(ROOT)})`,
			role: 'proxy',
			url: proxy.url,
			pid: proxy.server.child.pid,
		});
		if (baseline) {
			const old = await startProxy(baseline, upstream.url);
			started.push(old.server);
			paths.push({
				name: `ours at ${commitOf(baseline)} (baseline)`,
				role: 'baseline',
				url: old.url,
				pid: old.server.child.pid,
			});
		}
		for (const each of paths) {
			for (const test of cases) {
				await load(agentOf(each, 1), each.url, each.pid, test, 1, 0.25);
				const warm = await load(agentOf(each, 10), each.url, each.pid, test, 10, WARMUP_SECONDS);
				if (warm.unexpected > 0) {
					throw new Error(
						`${each.name}, ${test.name}: ${warm.unexpected} answers were not ${test.status}`,
					);
				}
			}
		}
		for (let round = 1; round <= rounds; round += 1) {
			console.error(`round ${round} of ${rounds}…`);
			for (const test of cases) {
				for (const connections of CONNECTIONS) {
					// Each round starts one path later, so no path always follows the same one.
					const shift = (round - 1) % paths.length;
					for (const each of [...paths.slice(shift), ...paths.slice(0, shift)]) {
						const agent = agentOf(each, connections);
						const measured = await load(agent, each.url, each.pid, test, connections, seconds);
						const id = idOf(each, test, connections);
						measures.set(id, [...(measures.get(id) ?? []), measured]);
					}
				}
			}
		}
	} finally {
		for (const agent of agents.values()) agent.destroy();
		for (const server of started.reverse()) await server.stop();
	}

	const machineLoad = { before: loadBefore, after: os.loadavg()[0] ?? NaN };
	const direct = paths.find(({ role }) => role === 'direct');
	const bare = paths.find(({ role }) => role === 'bare');
	const of = (each: Path | undefined, test: Case, connections: number): Measure[] =>
		measures.get(idOf(each, test, connections)) ?? [];
	/** Each round's requests/s of a path over another's, in the same round. */
	const shares = (each: Path, to: Path | undefined, test: Case, connections: number): number[] => {
		const other = of(to, test, connections);
		return of(each, test, connections).map(
			(measure, round) => measure.rps / (other[round]?.rps ?? NaN),
		);
	};
	const rows = cases.flatMap((test) =>
		CONNECTIONS.flatMap((connections) =>
			paths.map((each) => {
				const measured = of(each, test, connections);
				const ofBare = shares(each, bare, test, connections);
				return {
					request: test.name,
					connections,
					path: each.name,
					role: each.role,
					p50: median(measured.map((measure) => measure.p50)),
					p90: median(measured.map((measure) => measure.p90)),
					p99: median(measured.map((measure) => measure.p99)),
					rps: median(measured.map((measure) => measure.rps)),
					cpu: median(measured.map((measure) => measure.cpu)),
					ofDirect: median(shares(each, direct, test, connections)),
					ofBare: median(ofBare),
					ofBareLowest: Math.min(...ofBare),
					ofBareHighest: Math.max(...ofBare),
					unexpected: measured.reduce((sum, measure) => sum + measure.unexpected, 0),
					rounds: measured,
				};
			}),
		),
	);
	const rowOf = (test: Case, connections: number, role: Path['role']) =>
		rows.find(
			(row) => row.request === test.name && row.connections === connections && row.role === role,
		);

	const headline = table(
		[
			'request',
			'connections',
			'bare forwarder req/s',
			'ours req/s',
			'ours / bare',
			'lowest–highest round',
			'bare p50 / p99',
			'ours p50 / p99',
			'CPU/request, bare / ours',
		],
		cases.flatMap((test) =>
			CONNECTIONS.map((connections) => {
				const ceiling = rowOf(test, connections, 'bare');
				const ours = rowOf(test, connections, 'proxy');
				return [
					test.name,
					String(connections),
					(ceiling?.rps ?? NaN).toFixed(0),
					(ours?.rps ?? NaN).toFixed(0),
					times(ours?.ofBare ?? NaN),
					`${times(ours?.ofBareLowest ?? NaN)}–${times(ours?.ofBareHighest ?? NaN)}`,
					`${ms(ceiling?.p50 ?? NaN)} / ${ms(ceiling?.p99 ?? NaN)}`,
					`${ms(ours?.p50 ?? NaN)} / ${ms(ours?.p99 ?? NaN)}`,
					`${micros(ceiling?.cpu ?? NaN)} / ${micros(ours?.cpu ?? NaN)}`,
				];
			}),
		),
	);
	const atTen = cases.map((test) => rowOf(test, 10, 'proxy')?.ofBare ?? NaN);
	const met = atTen.every((share) => share >= TARGET_SHARE);
	const every = table(
		[
			'request',
			'connections',
			'path',
			'p50',
			'p90',
			'p99',
			'requests/s',
			'of direct',
			'of bare',
			'CPU/request',
			'other status',
		],
		rows.map((row) => [
			row.request,
			String(row.connections),
			row.path,
			ms(row.p50),
			ms(row.p90),
			ms(row.p99),
			row.rps.toFixed(0),
			times(row.ofDirect),
			times(row.ofBare),
			micros(row.cpu),
			String(row.unexpected),
		]),
	);
	const loadLine = `1-minute load average ${machineLoad.before.toFixed(2)} before the rounds, ${machineLoad.after.toFixed(2)} after`;
	const markdown = [
		'## Ours beside the bare forwarder, in the same rounds',
		'',
		headline,
		'',
		`${loadLine}; ${os.availableParallelism()} cores shared by the client, the console and the proxies. At 10 connections ours reaches ${atTen.map(times).join(', ')} of the bare forwarder (target ${times(TARGET_SHARE)}: ${verdict(met)}).`,
		'',
		'## Every path',
		'',
		every,
		'',
		`Medians of ${rounds} rounds. In each round, for each request and each number of connections, every path gets ${seconds} s of kept-alive connections asking as fast as they are answered (requests/s; p50, p90, p99: from sending to the answer's last byte, measured in this process); each round starts one path later, and each path's connections stay open from one round to the next. "of direct" and "of bare" are the medians of each round's ratio of requests/s to the console asked directly and to the bare forwarder. "CPU/request" is the CPU time (user and system, from /proc) the process answering first on the path (the console, the bare forwarder, the proxy) spent per answer, the median over the rounds: it moves less with other work on the machine than requests/s do. The console is the tests' stand-in (support/stand-in-console.ts, conforming) in a process of its own. The bare forwarder (bench/lib/bare-forwarder.ts) is a \`node:http\` server forwarding to it with a keep-alive \`http.Agent\` and streaming the answer back, with no check and no log, in a process of its own: the ceiling of a forwarding proxy in Node on this machine. Ours is \`MOCK_UPSTREAM=<console> node mock/cli.ts\`, its request log on and written to /dev/null: beside the forwarding, it checks every answer against the contract, writes a log line and decides each request as the mock does. The client, the console and the proxies share this machine's cores, with whatever else runs on it (${loadLine}).`,
		'',
		...baselineSection(),
	].join('\n');

	/** With a baseline: the baseline's proxy and this one, side by side. */
	function baselineSection(): string[] {
		const proxy = paths.find(({ role }) => role === 'proxy');
		const old = paths.find(({ role }) => role === 'baseline');
		if (!proxy || !old) return [];
		return [
			'## This proxy beside the baseline, in the same rounds',
			'',
			table(
				[
					'request',
					'connections',
					'requests/s, baseline',
					'requests/s, this',
					'this / baseline',
					'of bare, baseline',
					'of bare, this',
				],
				cases.flatMap((test) =>
					CONNECTIONS.map((connections) => {
						const before = rowOf(test, connections, 'baseline');
						const after = rowOf(test, connections, 'proxy');
						return [
							test.name,
							String(connections),
							(before?.rps ?? NaN).toFixed(0),
							(after?.rps ?? NaN).toFixed(0),
							times(median(shares(proxy, old, test, connections))),
							times(before?.ofBare ?? NaN),
							times(after?.ofBare ?? NaN),
						];
					}),
				),
			),
			'',
			`Baseline: ${old.name.replace(/^ours at /, '')}, a checkout of its own (BENCH_BASELINE=${baseline ?? ''}), started the same way in front of the same console. "this / baseline" is the median of each round's ratio of requests/s.`,
			'',
		];
	}

	await writeResult({
		name: 'proxy',
		title:
			'Proxy: the validating proxy beside a bare forwarding proxy and the console asked directly',
		markdown,
		data: {
			rounds,
			seconds,
			connections: CONNECTIONS,
			warmupSeconds: WARMUP_SECONDS,
			machineLoad,
			target: { share: TARGET_SHARE, connections: 10, atTen, met },
			baseline: baseline ? { root: baseline, commit: commitOf(baseline) } : undefined,
			rows,
		},
	});
}

if (import.meta.main) {
	runProxyBench().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	});
}
