/**
 * `npm run bench:proxy`: what the validating proxy (MOCK_UPSTREAM=<console> npm run mock) adds to
 * a request, measured beside the console it forwards to, in one run. The console is the stand-in
 * the proxy's tests use (support/stand-in-console.ts, conforming), in a process of its own; the
 * proxy is `node mock/cli.ts` as a user starts it, its log on. Three requests: GET
 * /api/v2/users with a directory key (200), HEAD with the key (200), GET without a key (401).
 *
 * For each request, BENCH_ROUNDS rounds (default 5) ask the console directly and through the proxy
 * in turn, each round starting with the other one, so both meet the same machine noise:
 * - latency: BENCH_PROXY_REQUESTS requests one after another (default 300) on one kept-alive
 *   connection, each timed from sending to the answer's last byte; p50, p90 and p99;
 * - throughput: 10 kept-alive connections asking as fast as they are answered for BENCH_SECONDS
 *   (default 2): requests/s.
 * The added latency is the median over the rounds of each round's difference to the console.
 * BENCH_BASELINE names another checkout (with its node_modules, e.g. a git worktree of an older
 * commit) whose proxy is measured in the same rounds, in front of the same console.
 *
 * The load is sent from this process with node:http rather than autocannon, which cannot ask
 * HEAD: it reads the length a HEAD answer declares as a body to wait for, and stalls.
 */
import { Agent, request } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { loadViews } from '../src/sources/fixtures.ts';
import { readSettings } from '../src/sources/settings.ts';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../support/processes.ts';
import { commitOf, median, table, writeResult } from './lib/report.ts';

const USERS_PATH = '/api/v2/users';
/** Connections of the throughput part. */
const CONNECTIONS = 10;
/** Seconds of unmeasured load each path gets before the rounds. */
const WARMUP_SECONDS = 2;

const benchEnvSchema = z.object({
	BENCH_ROUNDS: z.coerce
		.number({ error: 'BENCH_ROUNDS: expected a number of rounds from 1 to 15' })
		.int()
		.min(1)
		.max(15)
		.default(5),
	BENCH_PROXY_REQUESTS: z.coerce
		.number({ error: 'BENCH_PROXY_REQUESTS: expected a number of requests from 50 to 10000' })
		.int()
		.min(50)
		.max(10_000)
		.default(300),
	BENCH_SECONDS: z.coerce
		.number({ error: 'BENCH_SECONDS: expected a number of seconds from 1 to 30' })
		.int()
		.min(1)
		.max(30)
		.default(2),
	BENCH_BASELINE: z.string().min(1).optional(),
});

/** One request of the benchmark: how it is asked, and the status the contract gives it. */
interface Case {
	name: string;
	method: 'GET' | 'HEAD';
	headers: Record<string, string>;
	status: number;
}

/** A way to the console: directly, or through a proxy. */
interface Path {
	name: string;
	/**
	 * The console asked directly, a second time (a control: how far the machine's noise moves an
	 * identical path), through this checkout's proxy, or through the baseline's.
	 */
	role: 'direct' | 'control' | 'proxy' | 'baseline';
	url: string;
}

/** What one round measured on one path for one case. */
interface Measure {
	p50: number;
	p90: number;
	p99: number;
	rps: number;
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

/** Requests one after another on one kept-alive connection: each one's time in milliseconds. */
async function latencies(
	base: string,
	test: Case,
	count: number,
): Promise<{ times: number[]; unexpected: number }> {
	const agent = new Agent({ keepAlive: true, maxSockets: 1 });
	const url = new URL(`${base}${USERS_PATH}`);
	const times: number[] = [];
	let unexpected = 0;
	try {
		for (let index = 0; index < count; index += 1) {
			const started = performance.now();
			const status = await send(agent, url, test);
			times.push(performance.now() - started);
			if (status !== test.status) unexpected += 1;
		}
	} finally {
		agent.destroy();
	}
	return { times, unexpected };
}

/** Requests on CONNECTIONS kept-alive connections for some seconds: answers per second. */
async function throughput(
	base: string,
	test: Case,
	seconds: number,
): Promise<{ rps: number; unexpected: number }> {
	const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
	const url = new URL(`${base}${USERS_PATH}`);
	const started = performance.now();
	const deadline = started + seconds * 1000;
	let answered = 0;
	let unexpected = 0;
	const connection = async (): Promise<void> => {
		while (performance.now() < deadline) {
			const status = await send(agent, url, test);
			answered += 1;
			if (status !== test.status) unexpected += 1;
		}
	};
	try {
		await Promise.all(Array.from({ length: CONNECTIONS }, connection));
	} finally {
		agent.destroy();
	}
	return { rps: answered / ((performance.now() - started) / 1000), unexpected };
}

/** Starts the stand-in console in its own process and reads the address it prints. */
async function startConsole(): Promise<{ server: Started; url: string }> {
	const server = start(bin('node'), ['bench/lib/stand-in-server.ts']);
	const deadline = Date.now() + 30_000;
	for (;;) {
		const url = /^(http:\/\/127\.0\.0\.1:\d+)$/m.exec(server.output())?.[1];
		if (url) return { server, url };
		if (server.child.exitCode !== null || Date.now() > deadline) {
			await server.stop();
			throw new Error(`The stand-in console did not start:\n${server.output()}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
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

/** Runs the proxy benchmark and writes its result. */
export async function runProxyBench(): Promise<void> {
	const {
		BENCH_ROUNDS: rounds,
		BENCH_PROXY_REQUESTS: count,
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
	try {
		const upstream = await startConsole();
		started.push(upstream.server);
		paths.push({ name: 'console, directly', role: 'direct', url: upstream.url });
		paths.push({ name: 'console, directly again (control)', role: 'control', url: upstream.url });
		const proxy = await startProxy(ROOT, upstream.url);
		started.push(proxy.server);
		paths.push({ name: `through the proxy (${commitOf(ROOT)})`, role: 'proxy', url: proxy.url });
		if (baseline) {
			const old = await startProxy(baseline, upstream.url);
			started.push(old.server);
			paths.push({
				name: `through the proxy at ${commitOf(baseline)} (baseline)`,
				role: 'baseline',
				url: old.url,
			});
		}
		for (const each of paths) {
			for (const test of cases) {
				const warm = await throughput(each.url, test, WARMUP_SECONDS);
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
				// Each round starts one path later, so no path always follows the same one.
				const shift = (round - 1) % paths.length;
				for (const each of [...paths.slice(shift), ...paths.slice(0, shift)]) {
					const timed = await latencies(each.url, test, count);
					const loaded = await throughput(each.url, test, seconds);
					const sorted = [...timed.times].sort((a, b) => a - b);
					const id = `${each.name} ${test.name}`;
					measures.set(id, [
						...(measures.get(id) ?? []),
						{
							p50: percentile(sorted, 0.5),
							p90: percentile(sorted, 0.9),
							p99: percentile(sorted, 0.99),
							rps: loaded.rps,
							unexpected: timed.unexpected + loaded.unexpected,
						},
					]);
				}
			}
		}
	} finally {
		for (const server of started.reverse()) await server.stop();
	}

	const machineLoad = { before: loadBefore, after: os.loadavg()[0] ?? NaN };
	const direct = paths.find(({ role }) => role === 'direct');
	const of = (each: Path | undefined, test: Case): Measure[] =>
		measures.get(`${each?.name ?? ''} ${test.name}`) ?? [];
	/** The median over the rounds of each round's difference to the console, directly. */
	const added = (each: Path, test: Case, field: 'p50' | 'p90' | 'p99'): number => {
		const console = of(direct, test);
		return median(
			of(each, test).map((measure, round) => measure[field] - (console[round]?.[field] ?? NaN)),
		);
	};
	const rows = cases.flatMap((test) =>
		paths.map((each) => {
			const measured = of(each, test);
			return {
				request: test.name,
				path: each.name,
				role: each.role,
				p50: median(measured.map((measure) => measure.p50)),
				p90: median(measured.map((measure) => measure.p90)),
				p99: median(measured.map((measure) => measure.p99)),
				rps: median(measured.map((measure) => measure.rps)),
				addedP50: each.role === 'direct' ? 0 : added(each, test, 'p50'),
				addedP90: each.role === 'direct' ? 0 : added(each, test, 'p90'),
				addedP99: each.role === 'direct' ? 0 : added(each, test, 'p99'),
				rpsShare: median(
					measured.map((measure, round) => measure.rps / (of(direct, test)[round]?.rps ?? NaN)),
				),
				unexpected: measured.reduce((sum, measure) => sum + measure.unexpected, 0),
				rounds: measured,
			};
		}),
	);
	const latencyTable = table(
		[
			'request',
			'path',
			'p50',
			'p90',
			'p99',
			'added p50',
			'added p90',
			'added p99',
			'requests/s',
			'of direct',
			'other status',
		],
		rows.map((row) => [
			row.request,
			row.path,
			ms(row.p50),
			ms(row.p90),
			ms(row.p99),
			row.role === 'direct' ? '–' : ms(row.addedP50),
			row.role === 'direct' ? '–' : ms(row.addedP90),
			row.role === 'direct' ? '–' : ms(row.addedP99),
			row.rps.toFixed(0),
			`${(row.rpsShare * 100).toFixed(0)} %`,
			String(row.unexpected),
		]),
	);
	const markdown = [
		'## Direct and through the proxy, in the same rounds',
		'',
		latencyTable,
		'',
		`Medians of ${rounds} rounds. In each round, for each request, every path gets ${count} requests one after another on one kept-alive connection (p50, p90, p99: from sending to the answer's last byte, measured in this process), then ${seconds} s of ${CONNECTIONS} kept-alive connections asking as fast as they are answered (requests/s); each round starts one path later. "added" is the median over the rounds of each round's difference to the console asked directly, and the control's "added" is what noise alone gives; "of direct" the median of each round's ratio of requests/s. The console is the tests' stand-in (support/stand-in-console.ts, conforming) in a process of its own; the proxy is \`MOCK_UPSTREAM=<console> node mock/cli.ts\`, its request log on and written to /dev/null. The client, the console and the proxies share this machine's ${os.availableParallelism()} cores, with whatever else runs on it (1-minute load average ${machineLoad.before.toFixed(1)} before the rounds, ${machineLoad.after.toFixed(1)} after): what the proxy adds is its forwarding, the contract's check of the answer, its log line and a second hop on loopback, and on a busy machine the waits for a core of the three processes a request crosses.`,
		'',
		...keepAliveSection(),
	].join('\n');

	/** With a baseline: what the baseline's proxy and this one add, side by side. */
	function keepAliveSection(): string[] {
		const proxy = paths.find(({ role }) => role === 'proxy');
		const old = paths.find(({ role }) => role === 'baseline');
		if (!proxy || !old) return [];
		const row = (test: Case, each: Path) =>
			rows.find((candidate) => candidate.request === test.name && candidate.path === each.name);
		return [
			'## This proxy beside the baseline, in the same rounds',
			'',
			table(
				[
					'request',
					'added p50, baseline',
					'added p50, this',
					'added p99, baseline',
					'added p99, this',
					'requests/s, baseline',
					'requests/s, this',
					'this / baseline',
				],
				cases.map((test) => {
					const before = row(test, old);
					const after = row(test, proxy);
					return [
						test.name,
						ms(before?.addedP50 ?? NaN),
						ms(after?.addedP50 ?? NaN),
						ms(before?.addedP99 ?? NaN),
						ms(after?.addedP99 ?? NaN),
						(before?.rps ?? NaN).toFixed(0),
						(after?.rps ?? NaN).toFixed(0),
						`${(median(of(proxy, test).map((measure, round) => measure.rps / (of(old, test)[round]?.rps ?? NaN))) * 100).toFixed(0)} %`,
					];
				}),
			),
			'',
			`Baseline: ${old.name.replace(/^through the proxy at /, '')}, a checkout of its own (BENCH_BASELINE=${baseline ?? ''}), started the same way in front of the same console. "this / baseline" is the median of each round's ratio of requests/s.`,
			'',
		];
	}

	await writeResult({
		name: 'proxy',
		title: 'Proxy: the latency the validating proxy adds, beside the console asked directly',
		markdown,
		data: {
			rounds,
			requests: count,
			seconds,
			connections: CONNECTIONS,
			warmupSeconds: WARMUP_SECONDS,
			machineLoad,
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
