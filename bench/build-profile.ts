/**
 * `node bench/build-profile.ts`: where a build's time goes. Generates BENCH_PROFILE_VIEWS views
 * (default 2,000) whose users are all different people, builds them under Node's CPU profiler
 * (`--cpu-prof`), and writes `bench/results/build-profile.md` with the ten frames that took the
 * most time of their own, the build's CPU time and peak memory, the date, the commit and the load
 * average. BENCH_BASELINE names another checkout (with its node_modules) profiled first from the
 * same views, so that the tables stand before and after, side by side, in one run.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { childEnv, ROOT } from '../support/processes.ts';
import { writeViewSet } from '../support/view-sets.ts';
import { commitOf, mb, table, WORK_DIR, writeResult } from './lib/report.ts';

/** How many frames each profile's table lists. */
const TOP = 10;

const envSchema = z.object({
	BENCH_PROFILE_VIEWS: z.coerce
		.number({ error: 'BENCH_PROFILE_VIEWS: expected a whole number of views' })
		.int()
		.min(1)
		.max(20_000)
		.default(2000),
	BENCH_BASELINE: z
		.string()
		.optional()
		.transform((folder) => (folder ? path.resolve(folder) : undefined))
		.refine((folder) => !folder || existsSync(path.join(folder, 'node_modules', '.bin', 'astro')), {
			error: 'BENCH_BASELINE: expected a checkout of the portal with its node_modules installed',
		}),
});

/** The part of a V8 CPU profile (`.cpuprofile`) the tables read. */
const profileSchema = z.object({
	nodes: z.array(
		z.object({
			id: z.number(),
			callFrame: z.object({
				functionName: z.string(),
				url: z.string(),
				lineNumber: z.number(),
			}),
		}),
	),
	samples: z.array(z.number()),
	timeDeltas: z.array(z.number()),
});

/** One frame's own time in a profile. */
interface Frame {
	frame: string;
	seconds: number;
	share: number;
}

/** What profiling one checkout's build gave. */
interface Profiled {
	label: string;
	commit: string;
	ok: boolean;
	seconds: number;
	cpuSeconds: number | undefined;
	peakProcessBytes: number | undefined;
	load: [number, number];
	/** Every sample's time, the idle ones aside, in seconds. */
	busySeconds: number;
	top: Frame[];
}

/**
 * A frame as the table names it: the function, and its file without the machine's folders or the
 * content hash Astro gives each prerendered chunk (`chunks/index_Ce90PsV5.mjs` is `chunks/index.mjs`).
 */
function frameName(callFrame: { functionName: string; url: string; lineNumber: number }): string {
	const file = callFrame.url
		.replace(/^file:\/\//, '')
		.replace(/^.*\/node_modules\//, '')
		.replace(/^.*\/\.prerender\//, 'prerendered ')
		.replace(/_[A-Za-z0-9-]{8}\.mjs$/, '.mjs')
		.replace(/\.[A-Za-z0-9-]{8}\.mjs$/, '.mjs');
	const where = file ? ` ${file}:${callFrame.lineNumber + 1}` : '';
	return `${callFrame.functionName || '(anonymous)'}${where}`;
}

/** The frames with the most time of their own in a CPU profile, idle time left out. */
export function topFrames(
	profile: z.infer<typeof profileSchema>,
	count: number,
): { busySeconds: number; top: Frame[] } {
	const names = new Map(profile.nodes.map((node) => [node.id, frameName(node.callFrame)]));
	const own = new Map<string, number>();
	let busy = 0;
	profile.samples.forEach((id, index) => {
		const name = names.get(id) ?? '(unknown)';
		if (name === '(idle)') return;
		const micros = profile.timeDeltas[index] ?? 0;
		busy += micros;
		own.set(name, (own.get(name) ?? 0) + micros);
	});
	const top = [...own]
		.sort(([, a], [, b]) => b - a)
		.slice(0, count)
		.map(([frame, micros]) => ({ frame, seconds: micros / 1e6, share: busy ? micros / busy : 0 }));
	return { busySeconds: busy / 1e6, top };
}

/** Builds `views` with a checkout under the CPU profiler and reads its profile. */
async function profileBuild(root: string, label: string, views: string): Promise<Profiled> {
	const building = path.join(
		root,
		'node_modules',
		'.cache',
		'portal-builds',
		`profile-${process.pid}-${label.replace(/\W+/g, '-')}`,
	);
	await rm(building, { recursive: true, force: true });
	const profiles = path.join(building, 'profiles');
	await mkdir(profiles, { recursive: true });
	const node = path.join(ROOT, 'node_modules', '.bin', 'node');
	const astro = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
	const args = [
		'-v',
		node,
		'--cpu-prof',
		`--cpu-prof-dir=${profiles}`,
		astro,
		'build',
		'--outDir',
		path.join(building, 'dist'),
	];
	const env = childEnv({
		PORTAL_VIEWS_DIR: views,
		PORTAL_BUILD_CACHE_DIR: path.join(building, 'cache'),
		FORCE_COLOR: '0',
		NO_COLOR: '1',
	});
	delete env['NODE_OPTIONS'];
	const loadBefore = os.loadavg()[0] ?? 0;
	const started = performance.now();
	console.error(`bench:build-profile: ${label}…`);
	const child = spawn('/usr/bin/time', args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
	const seconds = (performance.now() - started) / 1000;
	const user = /User time \(seconds\): ([\d.]+)/.exec(output)?.[1];
	const system = /System time \(seconds\): ([\d.]+)/.exec(output)?.[1];
	const maxRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(output)?.[1];
	const [file] = (await readdir(profiles)).filter((name) => name.endsWith('.cpuprofile'));
	if (code !== 0 || !file) {
		throw new Error(`bench:build-profile: ${label} did not build:\n${output.slice(-2000)}`);
	}
	const profile = profileSchema.parse(
		JSON.parse(await readFile(path.join(profiles, file), 'utf8')),
	);
	const { busySeconds, top } = topFrames(profile, TOP);
	await rm(building, { recursive: true, force: true });
	return {
		label,
		commit: commitOf(root),
		ok: true,
		seconds,
		cpuSeconds: user && system ? Number(user) + Number(system) : undefined,
		peakProcessBytes: maxRss ? Number(maxRss) * 1024 : undefined,
		load: [loadBefore, os.loadavg()[0] ?? 0],
		busySeconds,
		top,
	};
}

/** One profile as a heading, a line of figures and its table of frames. */
function profileSection(profiled: Profiled, views: number): string {
	const cpu = profiled.cpuSeconds;
	return [
		`## ${profiled.label} (${profiled.commit})`,
		'',
		`${profiled.seconds.toFixed(1)} s wall, ${cpu === undefined ? '–' : `${cpu.toFixed(1)} s CPU (${((cpu * 1000) / views).toFixed(1)} ms per view)`}, peak RSS of the build process ${profiled.peakProcessBytes ? mb(profiled.peakProcessBytes) : '–'}, load average ${profiled.load[0].toFixed(1)} at its start and ${profiled.load[1].toFixed(1)} at its end; ${profiled.busySeconds.toFixed(1)} s of samples not idle.`,
		'',
		table(
			['#', 'frame (function, file:line)', 'self time', 'share of busy samples'],
			profiled.top.map((frame, index) => [
				String(index + 1),
				frame.frame,
				`${frame.seconds.toFixed(2)} s`,
				`${(frame.share * 100).toFixed(1)} %`,
			]),
		),
	].join('\n');
}

/** The baseline's figures beside this checkout's, per view and in all, with their ratio. */
function beforeAndAfter(before: Profiled, after: Profiled, views: number): string {
	const perView = (seconds: number | undefined) =>
		seconds === undefined ? '–' : `${((seconds * 1000) / views).toFixed(1)} ms`;
	const ratio = (a: number | undefined, b: number | undefined) =>
		a && b ? `${(b / a).toFixed(2)}×` : '–';
	const rows: string[][] = [
		[
			'CPU per view (every process, fixed cost included)',
			perView(before.cpuSeconds),
			perView(after.cpuSeconds),
			ratio(before.cpuSeconds, after.cpuSeconds),
		],
		[
			'CPU in all',
			before.cpuSeconds === undefined ? '–' : `${before.cpuSeconds.toFixed(1)} s`,
			after.cpuSeconds === undefined ? '–' : `${after.cpuSeconds.toFixed(1)} s`,
			ratio(before.cpuSeconds, after.cpuSeconds),
		],
		[
			'wall',
			`${before.seconds.toFixed(1)} s`,
			`${after.seconds.toFixed(1)} s`,
			ratio(before.seconds, after.seconds),
		],
		[
			'samples not idle',
			`${before.busySeconds.toFixed(1)} s`,
			`${after.busySeconds.toFixed(1)} s`,
			ratio(before.busySeconds, after.busySeconds),
		],
		[
			'peak RSS of the build process',
			before.peakProcessBytes ? mb(before.peakProcessBytes) : '–',
			after.peakProcessBytes ? mb(after.peakProcessBytes) : '–',
			ratio(before.peakProcessBytes, after.peakProcessBytes),
		],
	];
	return table(
		[
			'figure',
			`${before.label} (${before.commit})`,
			`${after.label} (${after.commit})`,
			'after / before',
		],
		rows,
	);
}

/** Profiles the builds and writes the result. */
async function main(): Promise<void> {
	const settings = envSchema.parse(process.env);
	const views = path.join(WORK_DIR, `profile-views-${settings.BENCH_PROFILE_VIEWS}`);
	await writeViewSet(views, settings.BENCH_PROFILE_VIEWS, 'distinct');
	const profiled: Profiled[] = [];
	if (settings.BENCH_BASELINE) {
		profiled.push(await profileBuild(settings.BENCH_BASELINE, 'baseline', views));
	}
	profiled.push(await profileBuild(ROOT, 'this checkout', views));
	const count = settings.BENCH_PROFILE_VIEWS;
	const [before, after] = profiled;
	const sideBySide =
		before && after ? ['## Side by side, in this run', beforeAndAfter(before, after, count)] : [];
	await writeResult({
		name: 'build-profile',
		title: 'Where a build’s time goes',
		markdown: [
			`${count.toLocaleString('en')} generated views whose users are all different people (${(count * 8).toLocaleString('en')} people), built with \`astro build\` under \`node --cpu-prof\` (Node's default heap). The frames are ranked by the time spent in them and not in what they call, idle time left out; a prerendered chunk is named without its hash. The profiler's own cost is in the wall and CPU times. Load average over one minute at the end: ${(os.loadavg()[0] ?? 0).toFixed(1)}; on a busy machine every time grows, the ranking less.`,
			'',
			...sideBySide,
			...profiled.map((one) => profileSection(one, count)),
		].join('\n\n'),
		data: { views: count, profiled },
	});
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : String(error));
	process.exitCode = 1;
});
