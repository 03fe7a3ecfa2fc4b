/**
 * `node bench/mock-profile.ts [checkout] [-- command…]`: where one start of the mock spends its
 * CPU, up to its first 200. It starts the mock of a checkout (this one unless given; another one
 * needs its node_modules) under `node --cpu-prof` with its compile cache warmed by a start before,
 * asks GET /api/v2/users with a directory key every 10 ms, stops it with SIGINT at the first 200
 * (the mock drains and exits, and Node writes the profile), and writes bench/results/mock-profile.md
 * with the profile by package: self time (the package's own code) and total time (a sample counts
 * once for every package on its stack, so Prism's HTTP package includes what it loads). Own code is `mock/…` or `src/…` by file;
 * Node's internals are `node:…`; the resolve hook is `mock/prism-imports.ts`; code in the mock's
 * bundle is put where it came from (its package or file). BENCH_PROFILE_VIEWS
 * points the mock at another views folder; BENCH_PROFILE_KEEP names a file to keep the profile in.
 * The command after `--` is run instead of `mock/cli.ts` (e.g. `-- mock/console-portal-mock.mjs`).
 *
 * `node bench/mock-profile.ts --load [checkout]`: where the mock spends its CPU under load instead.
 * It starts the mock as `npm run mock` does (request log on, to a discarded standard output) under
 * the profiler, warms it up, loads it with autocannon at 10 and then 50 connections
 * (BENCH_PROFILE_SECONDS each, default 5) sending the example request, and keeps only the samples
 * taken during that load. It writes bench/results/mock-profile-load.md with the top ten frames by
 * self time (function and file), the top packages, the date, the commit and the load average.
 */
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { BUNDLE_FOLDER } from '../mock/bundle.ts';
import { loadViews } from '../src/sources/fixtures.ts';
import { readSettings } from '../src/sources/settings.ts';
import { freePort, start, type Started } from '../support/processes.ts';
import { cpuMicros, load } from './lib/load.ts';
import { commitOf, table, writeResult } from './lib/report.ts';

/** The parts of a V8 CPU profile (`.cpuprofile`) read here. */
const profileSchema = z.object({
	nodes: z.array(
		z.object({
			id: z.number(),
			callFrame: z.object({ functionName: z.string(), url: z.string(), lineNumber: z.number() }),
			children: z.array(z.number()).optional(),
		}),
	),
	startTime: z.number(),
	endTime: z.number(),
	samples: z.array(z.number()),
	timeDeltas: z.array(z.number()),
});

/**
 * Where each part of an esbuild bundle came from: esbuild writes `// <path>` before each input's
 * code, so a line of the bundle belongs to the last such path above it. Read once per bundle.
 */
const bundleInputs = new Map<string, { line: number; input: string }[]>();

/** The input file of a line of a bundle (0-based, as V8 counts), or undefined. */
function inputAt(file: string, line: number): string | undefined {
	let marks = bundleInputs.get(file);
	if (!marks) {
		marks = [];
		readFileSync(file, 'utf8')
			.split('\n')
			.forEach((text, index) => {
				// Relative to the checkout; a package in node_modules linked from elsewhere, relative
				// to where the link leads (../../work/main/node_modules/…).
				const mark = /^\/\/ (\S+\.(?:[cm]?js|ts|json))$/.exec(text)?.[1];
				const inModules = mark?.indexOf('node_modules/') ?? -1;
				if (mark) marks?.push({ line: index, input: inModules > 0 ? mark.slice(inModules) : mark });
			});
		bundleInputs.set(file, marks);
	}
	let found: string | undefined;
	for (const mark of marks) {
		if (mark.line > line) break;
		found = mark.input;
	}
	return found;
}

/**
 * Where a frame's code comes from: a package, own code by file, Node's internals, or V8. A frame
 * in the mock's bundle (mock/bundle.ts) is put where its line came from, as if unbundled.
 */
export function packageOf(url: string, functionName: string, root: string, line = -1): string {
	if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
	if (url.startsWith('node:')) return 'node: (internals)';
	let file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
	if (file.includes(`/${BUNDLE_FOLDER}/`)) {
		const input = inputAt(file, line);
		// esbuild's helpers at its top: the wrappers that run each module's code on first use.
		if (!input) return "(the bundle's module wrappers)";
		file = path.join(root, input);
	}
	const inModules = file.lastIndexOf('/node_modules/');
	if (inModules >= 0) {
		const [scope = '', name = ''] = file.slice(inModules + '/node_modules/'.length).split('/');
		return scope.startsWith('@') ? `${scope}/${name}` : scope;
	}
	const relative = path.relative(root, file);
	return relative.startsWith('..') ? file : relative;
}

/** Self and total milliseconds by package, and the profile's length, from a V8 CPU profile. */
export function byPackage(
	profile: z.infer<typeof profileSchema>,
	root: string,
): { rows: { name: string; self: number; total: number }[]; totalMs: number } {
	const parent = new Map<number, number>();
	const owner = new Map<number, string>();
	for (const node of profile.nodes) {
		const { url, functionName, lineNumber } = node.callFrame;
		owner.set(node.id, packageOf(url, functionName, root, lineNumber));
		for (const child of node.children ?? []) parent.set(child, node.id);
	}
	const self = new Map<string, number>();
	const total = new Map<string, number>();
	let totalMs = 0;
	profile.samples.forEach((sample, index) => {
		const ms = (profile.timeDeltas[index] ?? 0) / 1000;
		totalMs += ms;
		const own = owner.get(sample) ?? '(unknown)';
		self.set(own, (self.get(own) ?? 0) + ms);
		const seen = new Set<string>();
		for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
			const name = owner.get(id);
			if (name && !name.startsWith('(')) seen.add(name);
		}
		seen.add(own);
		for (const name of seen) total.set(name, (total.get(name) ?? 0) + ms);
	});
	const rows = [...new Set([...self.keys(), ...total.keys()])].map((name) => ({
		name,
		self: self.get(name) ?? 0,
		total: total.get(name) ?? 0,
	}));
	return { rows, totalMs };
}

/** Starts the mock under the profiler, stops it at its first 200, and returns the profile. */
async function profileOneStart(
	root: string,
	script: string,
	views: string,
	key: string,
	folder: string,
	cache: string,
): Promise<{ profile: z.infer<typeof profileSchema>; wallMs: number }> {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}/api/v2/users`;
	const started = performance.now();
	const server = start(
		path.join(root, 'node_modules', '.bin', 'node'),
		['--cpu-prof', `--cpu-prof-dir=${folder}`, script],
		{
			cwd: root,
			output: 'ignore',
			env: {
				MOCK_PORT: String(port),
				MOCK_LOG: 'off',
				PORTAL_VIEWS_DIR: views,
				NODE_COMPILE_CACHE: cache,
			},
		},
	);
	let wallMs: number | undefined;
	try {
		for (;;) {
			if (server.child.exitCode !== null)
				throw new Error(`${script} exited before ${url} answered`);
			const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } }).catch(
				() => undefined,
			);
			await response?.body?.cancel();
			if (response?.status === 200) break;
			if (performance.now() - started > 120_000) throw new Error(`${url}: no 200 within 120 s`);
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		wallMs = performance.now() - started;
		if (server.child.pid !== undefined) process.kill(server.child.pid, 'SIGINT');
		await new Promise((resolve) => server.child.once('exit', resolve));
	} finally {
		await server.stop();
	}
	const [file] = (await readdir(folder)).filter((name) => name.endsWith('.cpuprofile'));
	if (!file) throw new Error(`${script}: the mock wrote no profile in ${folder}`);
	const profile = profileSchema.parse(JSON.parse(await readFile(path.join(folder, file), 'utf8')));
	const keep = process.env['BENCH_PROFILE_KEEP'];
	if (keep) await copyFile(path.join(folder, file), keep);
	await rm(path.join(folder, file));
	return { profile, wallMs: wallMs ?? NaN };
}

/** A frame as the load profile names it: its function and where its code comes from. */
export function frameOf(
	callFrame: { functionName: string; url: string; lineNumber: number },
	root: string,
): string {
	const { functionName, url, lineNumber } = callFrame;
	const name = functionName === '' ? '(anonymous)' : functionName;
	if (url === '') return name;
	if (url.startsWith('node:')) return `${name} ${url}:${lineNumber + 1}`;
	const file = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
	const where = packageOf(url, functionName, root, lineNumber);
	// A line of the bundle is no line of its source: the bundle's frames name their file only.
	if (file.includes(`/${BUNDLE_FOLDER}/`)) return `${name} ${where}`;
	return `${name} ${where.includes('/') ? where : path.relative(root, file)}:${lineNumber + 1}`;
}

/**
 * Self milliseconds by frame and by package over the samples taken between `from` and `to`
 * (V8's clock, microseconds), with the milliseconds not idle in that span.
 */
export function selfInWindow(
	profile: z.infer<typeof profileSchema>,
	root: string,
	windows: readonly { from: number; to: number }[],
): { frames: Map<string, number>; packages: Map<string, number>; busyMs: number } {
	const byId = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
	const frames = new Map<string, number>();
	const packages = new Map<string, number>();
	let busyMs = 0;
	let time = profile.startTime;
	profile.samples.forEach((sample, index) => {
		const delta = profile.timeDeltas[index] ?? 0;
		time += delta;
		if (!windows.some(({ from, to }) => time >= from && time <= to)) return;
		const callFrame = byId.get(sample);
		if (!callFrame || callFrame.functionName === '(idle)') return;
		const ms = delta / 1000;
		busyMs += ms;
		const frame = frameOf(callFrame, root);
		frames.set(frame, (frames.get(frame) ?? 0) + ms);
		const owner = packageOf(callFrame.url, callFrame.functionName, root, callFrame.lineNumber);
		packages.set(owner, (packages.get(owner) ?? 0) + ms);
	});
	return { frames, packages, busyMs };
}

/** V8's clock (a CPU profile's timestamps) now, in microseconds: the monotonic clock. */
function profilerNow(): number {
	return Number(process.hrtime.bigint() / 1000n);
}

/** The connections the load profile loads the mock with, one after the other. */
const LOAD_CONNECTIONS = [10, 50] as const;

/** A server the load profile runs under the profiler: its name and its script's arguments. */
interface Profiled {
	name: string;
	args: (port: number) => string[];
	env?: NodeJS.ProcessEnv;
}

/** A profiled server while it runs, and the spans of its profile that were under load. */
interface ProfiledRun extends Profiled {
	url: string;
	server: Started;
	folder: string;
	windows: { from: number; to: number; connections: number; requests: number; cpu: number }[];
}

/** Waits for a directory key's first 200 and returns the answer's status, headers and body. */
async function firstAnswer(
	run: ProfiledRun,
	key: string,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
	const started = performance.now();
	for (;;) {
		if (run.server.child.exitCode !== null)
			throw new Error(`${run.name} exited before it answered`);
		const response = await fetch(run.url, { headers: { Authorization: `Bearer ${key}` } }).catch(
			() => undefined,
		);
		if (response?.status === 200) {
			const headers: Record<string, string> = {};
			for (const [name, value] of response.headers) {
				// Node's http server sets these itself, for the bare server as for the mock.
				if (!/^(?:date|connection|keep-alive|content-length|transfer-encoding)$/.test(name))
					headers[name] = value;
			}
			return { status: response.status, headers, body: await response.text() };
		}
		await response?.body?.cancel();
		if (performance.now() - started > 120_000)
			throw new Error(`${run.url}: no 200 within 120 s (last status: ${response?.status})`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

/** Starts a server under the profiler. */
async function startProfiled(root: string, profiled: Profiled): Promise<ProfiledRun> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-mock-profile-'));
	const port = await freePort();
	const server = start(
		path.join(root, 'node_modules', '.bin', 'node'),
		['--cpu-prof', `--cpu-prof-dir=${folder}`, ...profiled.args(port)],
		{ cwd: root, output: 'ignore', env: { MOCK_PORT: String(port), ...profiled.env } },
	);
	return { ...profiled, url: `http://127.0.0.1:${port}/api/v2/users`, server, folder, windows: [] };
}

/** Stops a profiled server with SIGINT, so Node writes its profile, and reads the profile. */
async function stopProfiled(run: ProfiledRun): Promise<z.infer<typeof profileSchema>> {
	const { child } = run.server;
	if (child.pid !== undefined && child.exitCode === null) {
		const exited = new Promise((resolve) => child.once('exit', resolve));
		process.kill(child.pid, 'SIGINT');
		await exited;
	}
	await run.server.stop();
	try {
		const [file] = (await readdir(run.folder)).filter((name) => name.endsWith('.cpuprofile'));
		if (!file) throw new Error(`${run.name} wrote no profile in ${run.folder}`);
		const keep = process.env['BENCH_PROFILE_KEEP'];
		if (keep) await copyFile(path.join(run.folder, file), `${keep}.${run.name.split(' ')[0]}`);
		return profileSchema.parse(JSON.parse(await readFile(path.join(run.folder, file), 'utf8')));
	} finally {
		await rm(run.folder, { recursive: true, force: true });
	}
}

/**
 * Profiles the mock under load (`--load`), beside a bare node:http server sending the same bytes:
 * both started, warmed up, then loaded in turn at 10 and 50 connections; writes
 * bench/results/mock-profile-load.md.
 */
async function profileLoad(
	root: string,
	script: string,
	views: string,
	key: string,
): Promise<void> {
	const seconds = z.coerce
		.number()
		.int()
		.min(1)
		.max(60)
		.default(5)
		.parse(process.env['BENCH_PROFILE_SECONDS']);
	const loadBefore = os.loadavg()[0] ?? NaN;
	const scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-mock-profile-answer-'));
	const answerFile = path.join(scratch, 'answer.json');
	const runs: ProfiledRun[] = [];
	const profiles: z.infer<typeof profileSchema>[] = [];
	try {
		const mock = await startProfiled(root, {
			name: `the mock (node ${script})`,
			args: () => [script],
			env: { PORTAL_VIEWS_DIR: views },
		});
		runs.push(mock);
		await writeFile(answerFile, JSON.stringify(await firstAnswer(mock, key)));
		const bare = await startProfiled(root, {
			name: 'bare node:http, same bytes (bench/lib/bare-server.ts)',
			args: (port) => [
				path.join(import.meta.dirname, 'lib', 'bare-server.ts'),
				answerFile,
				String(port),
			],
		});
		runs.push(bare);
		await firstAnswer(bare, key);
		for (const run of runs) {
			console.error(`${run.name}: warming up for 3 s…`);
			await load(run.url, key, LOAD_CONNECTIONS[0], 3);
		}
		for (const connections of LOAD_CONNECTIONS) {
			for (const run of connections === LOAD_CONNECTIONS[0] ? runs : [...runs].reverse()) {
				console.error(`${run.name}: ${connections} connections for ${seconds} s…`);
				const cpuBefore = cpuMicros(run.server.child.pid);
				const from = profilerNow();
				const report = await load(run.url, key, connections, seconds);
				run.windows.push({
					from,
					to: profilerNow(),
					connections,
					requests: report.requests.total,
					cpu: cpuMicros(run.server.child.pid) - cpuBefore,
				});
			}
		}
		for (const run of runs) profiles.push(await stopProfiled(run));
	} finally {
		for (const run of runs) await run.server.stop();
		await rm(scratch, { recursive: true, force: true });
	}
	const loadAfter = os.loadavg()[0] ?? NaN;
	const commit = commitOf(root);
	const measured = runs.map((run, index) => {
		const profile = profiles[index];
		if (!profile) throw new Error(`${run.name}: no profile`);
		const { frames, packages, busyMs } = selfInWindow(profile, root, run.windows);
		if (busyMs === 0)
			throw new Error(`${run.name}: no sample of its profile falls within the load`);
		const requests = run.windows.reduce((sum, window) => sum + window.requests, 0);
		const cpu = run.windows.reduce((sum, window) => sum + window.cpu, 0);
		return { run, frames, packages, busyMs, requests, cpuPerRequest: cpu / requests };
	});
	/** The most self time first, with its share and its microseconds per request answered. */
	const top = (
		counts: Map<string, number>,
		busyMs: number,
		requests: number,
		count: number,
	): string[][] =>
		[...counts]
			.sort((a, b) => b[1] - a[1])
			.slice(0, count)
			.map(([name, ms]) => [
				name,
				`${Math.round(ms)} ms`,
				`${((ms / busyMs) * 100).toFixed(1)} %`,
				`${((ms * 1000) / requests).toFixed(1)} µs`,
			]);
	const markdown = [
		`Commit ${commit}; load average (1 minute) ${loadBefore.toFixed(2)} before and ${loadAfter.toFixed(2)} after, on ${os.availableParallelism()} cores shared with other work: absolute figures move with it, the two servers' figures side by side less.`,
		'',
		`\`node bench/mock-profile.ts --load\`: \`node ${script}\` (as \`npm run mock\` runs it, the request log on and written to a discarded standard output) and a bare node:http server sending the mock's bytes, each under \`node --cpu-prof\`, warmed up for 3 s at 10 connections, then loaded in turn by autocannon (its own process) with GET /api/v2/users and a directory key, at ${LOAD_CONNECTIONS.join(' and then ')} connections for ${seconds} s each. Only samples taken during those loads count. Self time is a frame's own code; "per request" divides it by the requests answered. A frame in the mock's bundle names the file esbuild took it from. The profiler's sampling costs both servers alike.`,
		'',
		table(
			['server', 'requests', 'CPU per request (/proc)', 'sampled, not idle', 'per request'],
			measured.map(({ run, requests, cpuPerRequest, busyMs }) => [
				run.name,
				String(requests),
				`${cpuPerRequest.toFixed(0)} µs`,
				`${Math.round(busyMs)} ms`,
				`${((busyMs * 1000) / requests).toFixed(1)} µs`,
			]),
		),
		...measured.flatMap(({ run, frames, packages, busyMs, requests }) => [
			'',
			`## ${run.name}: top ten frames by self time`,
			'',
			table(
				['frame (function, file)', 'self', 'share', 'per request'],
				top(frames, busyMs, requests, 10),
			),
			'',
			`### ${run.name}: top packages by self time`,
			'',
			table(
				['package or file', 'self', 'share', 'per request'],
				top(packages, busyMs, requests, 8),
			),
		]),
	].join('\n');
	await writeResult({
		name: 'mock-profile-load',
		title: 'Mock under load beside a bare node:http server: where the CPU goes',
		markdown,
		data: {
			commit,
			script,
			seconds,
			machineLoad: { before: loadBefore, after: loadAfter },
			servers: measured.map(({ run, frames, packages, busyMs, requests, cpuPerRequest }) => ({
				name: run.name,
				windows: run.windows,
				requests,
				cpuPerRequest,
				busyMs,
				frames: Object.fromEntries([...frames].sort((a, b) => b[1] - a[1]).slice(0, 30)),
				packages: Object.fromEntries([...packages].sort((a, b) => b[1] - a[1]).slice(0, 20)),
			})),
		},
	});
}

/** Profiles one start and writes its tables to bench/results/mock-profile.md. */
async function main(): Promise<void> {
	const dashes = process.argv.indexOf('--');
	const options = process.argv.slice(2, dashes >= 0 ? dashes : undefined);
	const underLoad = options.includes('--load');
	const positional = options.filter((option) => option !== '--load');
	const root = path.resolve(positional[0] ?? path.resolve(import.meta.dirname, '..'));
	const script = dashes >= 0 ? (process.argv[dashes + 1] ?? 'mock/cli.ts') : 'mock/cli.ts';
	const views = path.resolve(process.env['BENCH_PROFILE_VIEWS'] ?? readSettings().viewsDir);
	const [first] = await loadViews(views);
	const key = first?.view.users[0]?.apiKey;
	if (!key) throw new Error(`${views}: no view with a directory user to ask as`);
	if (underLoad) {
		await profileLoad(root, script, views, key);
		return;
	}
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-mock-profile-'));
	const cache = await mkdtemp(path.join(os.tmpdir(), 'console-portal-mock-profile-cache-'));
	try {
		// The first start fills the compile cache and the system's file cache; the second is read.
		await profileOneStart(root, script, views, key, folder, cache);
		const { profile, wallMs } = await profileOneStart(root, script, views, key, folder, cache);
		const { rows, totalMs } = byPackage(profile, root);
		const busy = totalMs - (rows.find((row) => row.name === '(idle)')?.self ?? 0);
		const share = (ms: number): string => `${((ms / busy) * 100).toFixed(1)} %`;
		const top = (key: 'self' | 'total') =>
			[...rows]
				.filter((row) => row.name !== '(idle)' && row[key] >= busy * 0.01)
				.sort((a, b) => b[key] - a[key])
				.slice(0, 20)
				.map((row) => [row.name, `${Math.round(row[key])} ms`, share(row[key])]);
		await writeResult({
			name: 'mock-profile',
			title: "Mock start-up: where one start's CPU goes",
			markdown: [
				`\`node bench/mock-profile.ts\`: one start of \`node ${script}\` in ${root} (${commitOf(root)}) at ${views} under \`node --cpu-prof\`, its compile cache warmed by a start before, stopped at its first 200 (the drain to exit included): first 200 after ${Math.round(wallMs)} ms; profile ${Math.round(totalMs)} ms, ${Math.round(busy)} ms not idle. Self time is a package's own code; total counts a sample once for every package on its stack. Packages and files at 1 % of the busy time or more.`,
				'',
				'## By self time',
				'',
				table(['package or file', 'self', 'share'], top('self')),
				'',
				'## By total time',
				'',
				table(['package or file', 'total', 'share'], top('total')),
			].join('\n'),
			data: { root, commit: commitOf(root), script, views, wallMs, totalMs, busyMs: busy, rows },
		});
	} finally {
		await rm(folder, { recursive: true, force: true });
		await rm(cache, { recursive: true, force: true });
	}
}

if (import.meta.main) {
	main().catch((error: unknown) => {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	});
}
