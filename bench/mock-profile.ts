/**
 * `node bench/mock-profile.ts [checkout] [-- command…]`: where one start of the mock spends its
 * CPU, up to its first 200. It starts the mock of a checkout (this one unless given; another one
 * needs its node_modules) under `node --cpu-prof` with its compile cache warmed by a start before,
 * asks GET /api/v2/users with a directory key every 10 ms, stops it with SIGINT at the first 200
 * (the mock drains and exits, and Node writes the profile), and prints the profile by package: self
 * time (the package's own code) and total time (a sample counts once for every package on its
 * stack, so Prism's HTTP package includes what it loads). Own code is `mock/…` or `src/…` by file;
 * Node's internals are `node:…`; the resolve hook is `mock/prism-imports.ts`; code in the mock's
 * bundle is put where it came from (its package or file). BENCH_PROFILE_VIEWS
 * points the mock at another views folder; BENCH_PROFILE_KEEP names a file to keep the profile in.
 * The command after `--` is run instead of `mock/cli.ts` (e.g. `-- mock/console-portal-mock.mjs`).
 */
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { BUNDLE_FOLDER } from '../mock/bundle.ts';
import { loadViews } from '../src/sources/fixtures.ts';
import { readSettings } from '../src/sources/settings.ts';
import { freePort, start } from '../support/processes.ts';
import { table } from './lib/report.ts';

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

/** Profiles one start and prints the table. */
async function main(): Promise<void> {
	const dashes = process.argv.indexOf('--');
	const positional = process.argv.slice(2, dashes >= 0 ? dashes : undefined);
	const root = path.resolve(positional[0] ?? path.resolve(import.meta.dirname, '..'));
	const script = dashes >= 0 ? (process.argv[dashes + 1] ?? 'mock/cli.ts') : 'mock/cli.ts';
	const views = path.resolve(process.env['BENCH_PROFILE_VIEWS'] ?? readSettings().viewsDir);
	const [first] = await loadViews(views);
	const key = first?.view.users[0]?.apiKey;
	if (!key) throw new Error(`${views}: no view with a directory user to ask as`);
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
		console.log(
			`${root} ${script}: first 200 after ${Math.round(wallMs)} ms; profile ${Math.round(totalMs)} ms, ${Math.round(busy)} ms not idle (to exit, the drain included)\n`,
		);
		console.log(`By self time:\n${table(['package or file', 'self', 'share'], top('self'))}\n`);
		console.log(`By total time:\n${table(['package or file', 'total', 'share'], top('total'))}`);
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
