/**
 * Building generated view sets and measuring each build: time, peak memory of the process tree,
 * the size of dist and of the search index, and the marginal cost per view between sizes.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { childEnv, ROOT } from '../../support/processes.ts';
import { writeViewSet } from '../../support/view-sets.ts';
import { largestPage, pageKindSizes, type PageKindSize } from '../../support/page-sizes.ts';
import {
	ceilingSite,
	countByRoute,
	routeKind,
	routesOf,
	type RouteCounts,
	type RouteKind,
} from './build-ceiling.ts';
import { commitOf, kb, mb, table, verdict, WORK_DIR, writeResult } from './report.ts';

const GNU_TIME = '/usr/bin/time';

/** Marginal build cost budget, in milliseconds of CPU per view (user and system, every process). */
export const MARGINAL_BUDGET_MS = 5;
/** The size the memory budget is for: the whole process tree's peak at 10,000 views. */
export const MEMORY_BUDGET_VIEWS = 10_000;
/** The whole process tree's peak resident memory at MEMORY_BUDGET_VIEWS, in bytes (1.5 GB). */
export const MEMORY_BUDGET_BYTES = 1.5 * 1024 ** 3;

const envSchema = z.object({
	BENCH_SIZES: z
		.string()
		.default('10,100,1000,10000')
		.transform((text) => text.split(',').map((size) => Number(size.trim())))
		.pipe(
			z.array(z.number().int().min(1).max(20_000), {
				error: 'BENCH_SIZES: expected view counts separated by commas, e.g. 10,100,1000',
			}),
		),
	BENCH_BUILD_TIMEOUT_MINUTES: z.coerce.number().positive().default(25),
	BENCH_KEEP_DIST: z.string().default('100,1000'),
	/**
	 * Another checkout of the portal (with its own node_modules), built beside this one from the
	 * same view sets, alternately, so that what else the machine does falls on both.
	 */
	BENCH_BASELINE: z
		.string()
		.optional()
		.transform((folder) => (folder ? path.resolve(folder) : undefined))
		.refine((folder) => !folder || existsSync(path.join(folder, 'node_modules', '.bin', 'astro')), {
			error: 'BENCH_BASELINE: expected a checkout of the portal with its node_modules installed',
		}),
	/** How many times each size is built (on each side, alternately); the median is reported. */
	/**
	 * BENCH_CEILING=1: after each build of this checkout, a bare Astro site making the same pages and
	 * files, route by route (bench/lib/build-ceiling.ts), built the same way: Astro's own floor.
	 */
	BENCH_CEILING: z
		.enum(['0', '1'], { error: 'BENCH_CEILING: expected 1 (build the bare Astro site too) or 0' })
		.default('0')
		.transform((value) => value === '1'),
	BENCH_ROUNDS: z.coerce
		.number({ error: 'BENCH_ROUNDS: expected a whole number of rounds from 1 to 9' })
		.int()
		.min(1)
		.max(9)
		.default(1),
});

/** A checkout that is built: this one, or the baseline beside it. */
interface Checkout {
	/** Its folder. */
	root: string;
	/** How the tables name it. */
	label: string;
	/** Where its builds go, beside this checkout's. */
	distPrefix: string;
}

/** This checkout. */
const THIS_CHECKOUT: Checkout = { root: ROOT, label: 'this checkout', distPrefix: 'dist' };

/** Where a generated set of `count` views and its build live. */
export function setPaths(count: number): { views: string; dist: string } {
	return {
		views: path.join(WORK_DIR, `views-${count}`),
		dist: path.join(WORK_DIR, `dist-${count}`),
	};
}

/** What one timed build measured: time, CPU, peak memory and the load, or why it failed. */
export interface TimedBuild {
	ok: boolean;
	/** Why the build failed, if it did: timeout, out of memory, or its last lines. */
	failure?: string;
	seconds: number;
	/** Peak resident memory of the largest single process (GNU time), in bytes. */
	peakProcessBytes?: number;
	/** Peak resident memory of the whole process tree (sampled every 250 ms), in bytes. */
	peakTreeBytes: number;
	/** Peak resident memory of Pagefind's service alone (the same samples), in bytes. */
	peakPagefindBytes: number;
	/** Peak resident memory of the tree without Pagefind's service: Astro's and the build script's. */
	peakRestBytes: number;
	/** CPU time of every process of the build, user and system (GNU time), in seconds. */
	cpuSeconds?: number;
	/** The load average over one minute when the build started and when it ended. */
	load: [number, number];
}

/** What one build of a generated set measured. */
export interface BuildMeasure extends TimedBuild {
	views: number;
	distBytes: number;
	searchIndexBytes: number;
	/** The HTML of one view page, in bytes. */
	viewPageBytes: number;
	/** Each page kind's size (the largest page of a kind with many). */
	pageKinds: PageKindSize[];
	/** The largest HTML page of the build. */
	largest: { file: string; raw: number };
}

/** The total size of the files under a folder. */
export async function folderBytes(folder: string): Promise<number> {
	if (!existsSync(folder)) return 0;
	let total = 0;
	for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
		if (entry.isFile()) total += (await stat(path.join(entry.parentPath, entry.name))).size;
	}
	return total;
}

/** The resident memory of a process group now, in bytes: all of it, and Pagefind's service's. */
export interface GroupMemory {
	total: number;
	pagefind: number;
}

/**
 * A process group's resident memory from `ps -o rss=,args=` lines: the sum of every process, and
 * of those running Pagefind's binary (the search index's service, which `astro:build:done` starts).
 */
export function groupMemoryOf(psLines: string): GroupMemory {
	let total = 0;
	let pagefind = 0;
	for (const line of psLines.split('\n')) {
		const match = /^\s*(\d+)\s+(.*)$/.exec(line);
		if (!match) continue;
		const bytes = Number(match[1]) * 1024;
		total += bytes;
		if (/\bpagefind[\w-]*\b.*--service\b/.test(match[2] ?? '')) pagefind += bytes;
	}
	return { total, pagefind };
}

/** The resident memory of every process in a process group, in bytes. */
function groupMemory(pgid: number): GroupMemory {
	try {
		return groupMemoryOf(
			execFileSync('ps', ['-o', 'rss=,args=', '-g', String(pgid)], { encoding: 'utf8' }),
		);
	} catch {
		// The group is gone (the build ended): nothing left in memory.
		return { total: 0, pagefind: 0 };
	}
}

/**
 * Runs a build (`npm run build`'s script, or `astro build`: its binary and arguments) in a folder
 * under GNU time where it is installed, at Node's default heap, sampling the process tree's
 * memory, and stops it after a timeout.
 */
async function timedBuild(
	astro: string,
	astroArgs: readonly string[],
	cwd: string,
	extraEnv: NodeJS.ProcessEnv,
	timeoutMinutes: number,
): Promise<TimedBuild> {
	const useTime = existsSync(GNU_TIME);
	const env = childEnv({
		...extraEnv,
		ASTRO_TELEMETRY_DISABLED: '1',
		FORCE_COLOR: '0',
		NO_COLOR: '1',
	});
	// The default heap: nothing from the caller's NODE_OPTIONS may raise it.
	delete env['NODE_OPTIONS'];
	const loadBefore = os.loadavg()[0] ?? 0;
	const started = performance.now();
	const child = spawn(
		useTime ? GNU_TIME : astro,
		useTime ? ['-v', astro, ...astroArgs] : astroArgs,
		{ cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	let peakTreeBytes = 0;
	let peakPagefindBytes = 0;
	let peakRestBytes = 0;
	const sampler = setInterval(() => {
		if (child.pid === undefined) return;
		const { total, pagefind } = groupMemory(child.pid);
		peakTreeBytes = Math.max(peakTreeBytes, total);
		peakPagefindBytes = Math.max(peakPagefindBytes, pagefind);
		peakRestBytes = Math.max(peakRestBytes, total - pagefind);
	}, 250);
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
	}, timeoutMinutes * 60_000);
	const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
	const seconds = (performance.now() - started) / 1000;
	clearInterval(sampler);
	clearTimeout(timer);

	const load: [number, number] = [loadBefore, os.loadavg()[0] ?? 0];
	const maxRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(output)?.[1];
	// GNU time counts the build's children once they end: Pagefind's process among them.
	const user = /User time \(seconds\): ([\d.]+)/.exec(output)?.[1];
	const system = /System time \(seconds\): ([\d.]+)/.exec(output)?.[1];
	const ok = code === 0 && !timedOut;
	let failure: string | undefined;
	if (timedOut) failure = `stopped after ${timeoutMinutes} min`;
	else if (/heap out of memory|JavaScript heap/i.test(output)) failure = 'out of memory (heap)';
	else if (!ok) {
		// The build's own last lines, before GNU time's report.
		const lines = output.split(/\n(?=\s*Command (?:exited|being timed))/)[0] ?? output;
		failure = lines.trim().split('\n').slice(-8).join('\n');
	}
	return {
		ok,
		...(failure ? { failure } : {}),
		seconds,
		...(maxRss ? { peakProcessBytes: Number(maxRss) * 1024 } : {}),
		peakTreeBytes,
		peakPagefindBytes,
		peakRestBytes,
		...(user && system ? { cpuSeconds: Number(user) + Number(system) } : {}),
		load,
	};
}

/** Generates `count` views (of each environment's team, as the search benchmark has them) and builds them, measuring the build. */
export async function buildViewSet(count: number, timeoutMinutes = 25): Promise<BuildMeasure> {
	const [first] = await writeViewSet(setPaths(count).views, count);
	return buildSet(count, first?.slug, THIS_CHECKOUT, timeoutMinutes);
}

/** Builds the generated set of `count` views with a checkout, measuring the build. */
async function buildSet(
	count: number,
	firstSlug: string | undefined,
	checkout: Checkout,
	timeoutMinutes: number,
): Promise<BuildMeasure> {
	const views = setPaths(count).views;
	const dist = path.join(WORK_DIR, `${checkout.distPrefix}-${count}`);
	const paths = { views, dist };
	await rm(paths.dist, { recursive: true, force: true });
	await rm(`${paths.dist}-cache`, { recursive: true, force: true });
	// As `npm run build` builds (scripts/build.ts: Astro, then the search index); a baseline from
	// before that script builds with `astro build`, which indexed inside Astro's process.
	const script = path.join(checkout.root, 'scripts', 'build.ts');
	const [command, commandArgs] = existsSync(script)
		? [path.join(checkout.root, 'node_modules', '.bin', 'node'), [script]]
		: [path.join(checkout.root, 'node_modules', '.bin', 'astro'), ['build']];
	const env = {
		PORTAL_VIEWS_DIR: paths.views,
		// A cache folder of each build's own: Astro writes the collections' data store there and reads
		// it back, and a build beside this one (another checkout's, a test's) would read it otherwise.
		PORTAL_BUILD_CACHE_DIR: `${paths.dist}-cache`,
	};
	const run = await timedBuild(
		command,
		[...commandArgs, '--outDir', paths.dist],
		checkout.root,
		env,
		timeoutMinutes,
	);
	const { ok } = run;
	const viewPage = firstSlug ? path.join(paths.dist, 'views', firstSlug, 'index.html') : '';
	return {
		views: count,
		...run,
		distBytes: await folderBytes(paths.dist),
		searchIndexBytes: await folderBytes(path.join(paths.dist, 'pagefind')),
		viewPageBytes: viewPage && existsSync(viewPage) ? (await stat(viewPage)).size : 0,
		pageKinds: ok ? await pageKindSizes(paths.dist) : [],
		largest: ok ? await largestPage(paths.dist) : { file: '', raw: 0 },
	};
}

/** What a build of the bare Astro site measured, beside a build of the portal at `views`. */
export interface CeilingMeasure extends TimedBuild {
	/** The portal's views whose pages it makes as many of. */
	views: number;
	/** The files the portal's build made through its routes, which the bare site makes as many of. */
	routeFiles: number;
	/** The files the bare site's build made through its routes. */
	files: number;
}

/** Where the bare Astro site is written and built, inside this checkout (to find its Astro). */
const CEILING_SITE = path.join(WORK_DIR, 'ceiling-site');

/** The portal's routes, from this checkout's src/pages/. */
export async function portalRoutes(): Promise<RouteKind[]> {
	return (await routesOf(path.join(ROOT, 'src', 'pages'))).map(routeKind);
}

/**
 * Writes the bare Astro site that makes as many files, route by route, as `counts` (a build of the
 * portal at `views`) and builds it with this checkout's Astro, measured as the portal's builds are.
 */
export async function buildCeiling(
	views: number,
	counts: RouteCounts,
	timeoutMinutes: number,
): Promise<CeilingMeasure> {
	await rm(CEILING_SITE, { recursive: true, force: true });
	for (const [file, text] of ceilingSite(counts)) {
		await mkdir(path.dirname(path.join(CEILING_SITE, file)), { recursive: true });
		await writeFile(path.join(CEILING_SITE, file), text);
	}
	const dist = path.join(CEILING_SITE, 'dist');
	const run = await timedBuild(
		path.join(ROOT, 'node_modules', '.bin', 'astro'),
		['build', '--outDir', dist],
		CEILING_SITE,
		{},
		timeoutMinutes,
	);
	const made = await countByRoute(
		dist,
		(await routesOf(path.join(CEILING_SITE, 'src', 'pages'))).map(routeKind),
	);
	await rm(CEILING_SITE, { recursive: true, force: true });
	return {
		views,
		routeFiles: counts.byRoute.reduce((sum, { files }) => sum + files, 0),
		files: made.byRoute.reduce((sum, { files }) => sum + files, 0),
		...run,
	};
}

/** The name of the ceiling's rows in the table. */
export const CEILING_ROW = 'bare Astro site, same pages';

/**
 * The portal beside its ceiling, size by size: pages and files, build time, CPU, CPU per view and
 * marginal CPU per view of each, and the portal's over the bare site's.
 */
export function ceilingTable(
	measures: readonly BuildMeasure[],
	ceilings: readonly CeilingMeasure[],
): string {
	const steps = marginals(measures);
	const ceilingSteps = marginals(ceilings);
	const perView = (m: { cpuSeconds?: number; views: number }): number | undefined =>
		m.cpuSeconds === undefined ? undefined : (m.cpuSeconds * 1000) / m.views;
	const msText = (value: number | undefined): string =>
		value === undefined ? '–' : `${value.toFixed(1)} ms`;
	const stepText = (step: { from: number; to: number; cpuMs?: number } | undefined): string =>
		step?.cpuMs === undefined ? '–' : `${step.cpuMs.toFixed(1)} ms (${step.from}→${step.to})`;
	const rows = ceilings.flatMap((ceiling) => {
		const ours = measures.find((measure) => measure.views === ceiling.views);
		if (!ours) return [];
		const step = steps.find(({ to }) => to === ours.views);
		const ceilingStep = ceilingSteps.find(({ to }) => to === ceiling.views);
		const views = ceiling.views.toLocaleString('en');
		return [
			[
				views,
				'this checkout',
				ceiling.routeFiles.toLocaleString('en'),
				`${ours.seconds.toFixed(1)} s`,
				cpuText(ours.cpuSeconds),
				msText(perView(ours)),
				stepText(step),
				ratio(perView(ours), ceiling.ok ? perView(ceiling) : undefined),
				ratio(step?.cpuMs, ceilingStep?.cpuMs),
			],
			[
				views,
				ceiling.ok
					? CEILING_ROW
					: `${CEILING_ROW}: failed, ${(ceiling.failure ?? '').split('\n')[0] ?? ''}`,
				ceiling.files.toLocaleString('en'),
				`${ceiling.seconds.toFixed(1)} s`,
				cpuText(ceiling.cpuSeconds),
				msText(perView(ceiling)),
				stepText(ceilingStep),
				'1.00×',
				'1.00×',
			],
		];
	});
	return [
		"## Astro's own floor: a bare site making the same pages",
		'',
		table(
			[
				'views',
				'site',
				'pages and files',
				'build time',
				'CPU',
				'CPU per view',
				'marginal CPU per view',
				'over the bare site (CPU per view)',
				'over the bare site (marginal)',
			],
			rows,
		),
		'',
		`After each build of this checkout, a bare Astro site (bench/lib/build-ceiling.ts: this checkout's Astro, no integration, no CSP; a folder per page and four pages in flight, as the portal's settings) that makes as many files through each route as the portal's build made through the same route, each page or file of trivial content, one \`getStaticPaths\` route for each of the portal's routes, built and measured the same way: its CPU per view is Astro's own for that many pages and files, the floor under the portal's. The portal's assets, search index and public files are not counted among its pages and files, nor made by the bare site.`,
		'',
	].join('\n');
}

/** Marginal cost per view between consecutive successful sizes: wall and CPU time, in ms. */
function marginals(
	measures: readonly Pick<BuildMeasure, 'ok' | 'views' | 'seconds' | 'cpuSeconds'>[],
): { from: number; to: number; ms: number; cpuMs?: number }[] {
	const done = measures.filter((measure) => measure.ok);
	return done.slice(1).map((measure, index) => {
		const previous = done[index] ?? measure;
		const views = measure.views - previous.views;
		return {
			from: previous.views,
			to: measure.views,
			ms: ((measure.seconds - previous.seconds) * 1000) / views,
			...(measure.cpuSeconds !== undefined && previous.cpuSeconds !== undefined
				? { cpuMs: ((measure.cpuSeconds - previous.cpuSeconds) * 1000) / views }
				: {}),
		};
	});
}

/** CPU seconds as a cell. */
function cpuText(seconds: number | undefined): string {
	return seconds === undefined ? '–' : `${seconds.toFixed(1)} s`;
}

/** A load average pair as `2.1–3.4`. */
function loadText([before, after]: readonly [number, number]): string {
	return `${before.toFixed(1)}–${after.toFixed(1)}`;
}

/** The median of some numbers (the mean of the middle two for an even count). */
function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1
		? (sorted[middle] ?? 0)
		: ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** One size's builds, one per round, as one measure: the median time and memory of those that built. */
function medianMeasure(rounds: readonly BuildMeasure[]): BuildMeasure {
	const built = rounds.filter((measure) => measure.ok);
	const [last] = built.slice(-1);
	const [failed] = rounds.slice(-1);
	if (!last) {
		if (!failed) throw new Error('bench:build: a size with no build');
		return failed;
	}
	const processes = built.flatMap(({ peakProcessBytes }) => peakProcessBytes ?? []);
	const cpu = built.flatMap(({ cpuSeconds }) => cpuSeconds ?? []);
	return {
		...last,
		...(cpu.length > 0 ? { cpuSeconds: median(cpu) } : {}),
		load: [
			Math.min(...built.map(({ load }) => load[0])),
			Math.max(...built.map(({ load }) => load[1])),
		],
		seconds: median(built.map(({ seconds }) => seconds)),
		peakTreeBytes: median(built.map(({ peakTreeBytes }) => peakTreeBytes)),
		peakPagefindBytes: median(built.map(({ peakPagefindBytes }) => peakPagefindBytes)),
		peakRestBytes: median(built.map(({ peakRestBytes }) => peakRestBytes)),
		...(processes.length > 0 ? { peakProcessBytes: median(processes) } : {}),
	};
}

/** One size's builds of the bare site, one per round, as one: the median time and CPU of those that built. */
function medianCeiling(rounds: readonly CeilingMeasure[]): CeilingMeasure | undefined {
	const built = rounds.filter((measure) => measure.ok);
	const [last] = built.length > 0 ? built.slice(-1) : rounds.slice(-1);
	if (!last || built.length === 0) return last;
	const cpu = built.flatMap(({ cpuSeconds }) => cpuSeconds ?? []);
	return {
		...last,
		...(cpu.length > 0 ? { cpuSeconds: median(cpu) } : {}),
		seconds: median(built.map(({ seconds }) => seconds)),
		peakTreeBytes: median(built.map(({ peakTreeBytes }) => peakTreeBytes)),
	};
}

/** A ratio of two figures, as `0.71×`. */
function ratio(after: number | undefined, before: number | undefined): string {
	return after !== undefined && before ? `${(after / before).toFixed(2)}×` : '–';
}

/** The side-by-side tables: the baseline and this checkout, size by size, and every build. */
function sideBySide(
	baseline: { checkout: Checkout; commit: string; measures: BuildMeasure[] },
	current: { commit: string; measures: BuildMeasure[] },
	runs: readonly { round: number; label: string; measure: BuildMeasure }[],
	rounds: number,
): string {
	const baseSteps = marginals(baseline.measures);
	const steps = marginals(current.measures);
	const rows = current.measures.map((measure, index) => {
		const base = baseline.measures[index];
		const step = steps.find(({ to }) => to === measure.views);
		const baseStep = baseSteps.find(({ to }) => to === measure.views);
		const cell = (m: BuildMeasure | undefined, text: (m: BuildMeasure) => string) =>
			m?.ok ? text(m) : 'failed';
		return [
			String(measure.views),
			cell(base, (m) => `${m.seconds.toFixed(1)} s`),
			cell(measure, (m) => `${m.seconds.toFixed(1)} s`),
			ratio(measure.ok ? measure.seconds : undefined, base?.ok ? base.seconds : undefined),
			cell(base, (m) => cpuText(m.cpuSeconds)),
			cell(measure, (m) => cpuText(m.cpuSeconds)),
			baseStep?.cpuMs !== undefined ? `${baseStep.cpuMs.toFixed(1)} ms` : '–',
			step?.cpuMs !== undefined ? `${step.cpuMs.toFixed(1)} ms` : '–',
			ratio(step?.cpuMs, baseStep?.cpuMs),
			cell(base, (m) => mb(m.peakTreeBytes)),
			cell(measure, (m) => mb(m.peakTreeBytes)),
			ratio(
				measure.ok ? measure.peakTreeBytes : undefined,
				base?.ok ? base.peakTreeBytes : undefined,
			),
		];
	});
	const runRows = runs.map(({ round, label, measure }) => [
		String(measure.views),
		String(round),
		label,
		measure.ok
			? `${measure.seconds.toFixed(1)} s`
			: `failed: ${(measure.failure ?? '').split('\n')[0] ?? ''}`,
		cpuText(measure.cpuSeconds),
		measure.peakProcessBytes ? mb(measure.peakProcessBytes) : '–',
		mb(measure.peakTreeBytes),
		loadText(measure.load),
	]);
	return [
		`## Side by side: baseline ${baseline.checkout.root} (${baseline.commit}) and this checkout (${current.commit})`,
		'',
		table(
			[
				'views',
				'build time, baseline',
				'build time, this',
				'this / baseline',
				'CPU, baseline',
				'CPU, this',
				'marginal CPU per view, baseline',
				'marginal CPU per view, this',
				'this / baseline',
				'peak RSS (tree), baseline',
				'peak RSS (tree), this',
				'this / baseline',
			],
			rows,
		),
		'',
		`Each size built ${rounds === 1 ? 'once' : `${rounds} times`} on each side from the same generated views, alternately (baseline, this, baseline, this…), so that what else the machine was doing fell on both; ${rounds === 1 ? 'each figure is one build' : 'each figure is the median of the rounds'}. The marginal cost is per view from the previous size. On a shared machine the ratios say more than the seconds.`,
		'',
		'### Every build, in the order run',
		'',
		table(
			[
				'views',
				'round',
				'checkout',
				'build time',
				'CPU',
				'peak RSS (largest process)',
				'peak RSS (process tree)',
				'load average (start–end)',
			],
			runRows,
		),
		'',
		'## This checkout',
		'',
	].join('\n');
}

/** Runs the build-scale benchmark and writes its result. */
export async function runBuildBench(): Promise<void> {
	const settings = envSchema.parse(process.env);
	const keep = new Set(settings.BENCH_KEEP_DIST.split(',').map((size) => Number(size.trim())));
	const baseline: Checkout | undefined = settings.BENCH_BASELINE
		? { root: settings.BENCH_BASELINE, label: 'baseline', distPrefix: 'baseline-dist' }
		: undefined;
	const checkouts = baseline ? [baseline, THIS_CHECKOUT] : [THIS_CHECKOUT];
	const runs: { round: number; label: string; measure: BuildMeasure }[] = [];
	const routes = settings.BENCH_CEILING ? await portalRoutes() : [];
	const ceilings: CeilingMeasure[] = [];
	const measures: BuildMeasure[] = [];
	const baselineMeasures: BuildMeasure[] = [];
	for (const count of settings.BENCH_SIZES) {
		const [first] = await writeViewSet(setPaths(count).views, count, 'distinct');
		const bySide = new Map<Checkout, BuildMeasure[]>(checkouts.map((checkout) => [checkout, []]));
		const ceilingRounds: CeilingMeasure[] = [];
		for (let round = 1; round <= settings.BENCH_ROUNDS; round += 1) {
			for (const checkout of checkouts) {
				console.error(`bench:build: ${count} views, ${checkout.label}, round ${round}…`);
				const measure = await buildSet(
					count,
					first?.slug,
					checkout,
					settings.BENCH_BUILD_TIMEOUT_MINUTES,
				);
				console.error(
					`bench:build: ${count} views ${measure.ok ? 'built' : `FAILED (${measure.failure ?? ''})`} in ${measure.seconds.toFixed(1)} s, ${mb(measure.peakTreeBytes)} at most`,
				);
				bySide.get(checkout)?.push(measure);
				runs.push({ round, label: checkout.label, measure });
				if (settings.BENCH_CEILING && checkout === THIS_CHECKOUT && measure.ok) {
					console.error(`bench:build: ${count} views, the bare Astro site, round ${round}…`);
					const counts = await countByRoute(
						path.join(WORK_DIR, `${checkout.distPrefix}-${count}`),
						routes,
					);
					const ceiling = await buildCeiling(count, counts, settings.BENCH_BUILD_TIMEOUT_MINUTES);
					console.error(
						`bench:build: the bare Astro site at ${count} views ${ceiling.ok ? 'built' : `FAILED (${ceiling.failure ?? ''})`} in ${ceiling.seconds.toFixed(1)} s, ${ceiling.files} files`,
					);
					ceilingRounds.push(ceiling);
				}
				// Big builds are measured, then removed: a 10,000-view dist is many gigabytes.
				if (checkout !== THIS_CHECKOUT || !keep.has(count)) {
					await rm(path.join(WORK_DIR, `${checkout.distPrefix}-${count}`), {
						recursive: true,
						force: true,
					});
				}
			}
		}
		measures.push(medianMeasure(bySide.get(THIS_CHECKOUT) ?? []));
		const ceiling = medianCeiling(ceilingRounds);
		if (ceiling) ceilings.push(ceiling);
		if (baseline) baselineMeasures.push(medianMeasure(bySide.get(baseline) ?? []));
	}
	const steps = marginals(measures);
	const rows = measures.map((measure) => {
		const step = steps.find(({ to }) => to === measure.views);
		return [
			String(measure.views),
			measure.ok ? 'yes' : (`no: ${measure.failure ?? ''}`.split('\n')[0] ?? ''),
			`${measure.seconds.toFixed(1)} s`,
			`${((measure.seconds * 1000) / measure.views).toFixed(1)} ms`,
			step ? `${step.ms.toFixed(1)} ms (${step.from}→${step.to})` : '–',
			cpuText(measure.cpuSeconds),
			measure.cpuSeconds === undefined
				? '–'
				: `${((measure.cpuSeconds * 1000) / measure.views).toFixed(1)} ms`,
			step?.cpuMs !== undefined ? `${step.cpuMs.toFixed(1)} ms (${step.from}→${step.to})` : '–',
			measure.peakProcessBytes ? mb(measure.peakProcessBytes) : '–',
			mb(measure.peakTreeBytes),
			mb(measure.peakRestBytes),
			mb(measure.peakPagefindBytes),
			loadText(measure.load),
			mb(measure.distBytes),
			mb(measure.searchIndexBytes),
			kb(measure.viewPageBytes),
		];
	});
	const built = measures.filter((measure) => measure.ok);
	const kinds = [...new Set(built.flatMap((measure) => measure.pageKinds.map(({ kind }) => kind)))];
	const kindRows = kinds.map((kind) => [
		kind,
		...built.map((measure) => {
			const size = measure.pageKinds.find((entry) => entry.kind === kind);
			return size ? `${kb(size.gzip)} / ${kb(size.raw)}` : '–';
		}),
	]);
	kindRows.push(
		['largest page (raw)', ...built.map(({ largest }) => `${kb(largest.raw)} ${largest.file}`)],
		['dist per view', ...built.map(({ distBytes, views }) => kb(distBytes / views))],
	);
	// The budget is for the cost of a view at scale: the steps from 1,000 views on (1,000 → 10,000
	// by default). Smaller steps also carry what grows with the environments (about 20 at 100 views
	// and up: their pages, their access pages) and start-up noise spread over few views.
	const atScale = steps.filter(({ from, cpuMs }) => from >= 1000 && cpuMs !== undefined);
	const worst = atScale.reduce<(typeof atScale)[number] | undefined>(
		(most, step) => (most && (most.cpuMs ?? 0) >= (step.cpuMs ?? 0) ? most : step),
		undefined,
	);
	const memoryMeasure = measures.find(
		(measure) => measure.ok && measure.views === MEMORY_BUDGET_VIEWS,
	);
	const commit = commitOf(ROOT);
	const baselineCommit = baseline ? commitOf(baseline.root) : undefined;
	const markdown = [
		...(baseline && baselineCommit
			? [
					sideBySide(
						{ checkout: baseline, commit: baselineCommit, measures: baselineMeasures },
						{ commit, measures },
						runs,
						settings.BENCH_ROUNDS,
					),
				]
			: []),
		table(
			[
				'views',
				'built',
				'build time',
				'per view',
				'marginal per view',
				'CPU',
				'CPU per view',
				'marginal CPU per view',
				'peak RSS (largest process)',
				'peak RSS (process tree)',
				'peak RSS (the tree without Pagefind)',
				'peak RSS (Pagefind’s service)',
				'load average (start–end)',
				'dist',
				'search index',
				'one view page',
			],
			rows,
		),
		'',
		table(
			['budget', 'measured', 'verdict'],
			[
				[
					`marginal CPU per view from 1,000 views on ≤ ${MARGINAL_BUDGET_MS} ms`,
					worst?.cpuMs !== undefined
						? `${worst.cpuMs.toFixed(1)} ms (${worst.from}→${worst.to})`
						: 'no step from 1,000 views on',
					verdict(worst?.cpuMs === undefined ? undefined : worst.cpuMs <= MARGINAL_BUDGET_MS),
				],
				[
					`peak RSS of the process tree at ${MEMORY_BUDGET_VIEWS.toLocaleString('en')} views < ${mb(MEMORY_BUDGET_BYTES)}`,
					memoryMeasure ? mb(memoryMeasure.peakTreeBytes) : 'not built',
					verdict(memoryMeasure ? memoryMeasure.peakTreeBytes < MEMORY_BUDGET_BYTES : undefined),
				],
			],
		),
		'',
		`Commit ${commit}; load average over one minute, ${os
			.loadavg()
			.map((load) => load.toFixed(1))
			.join(
				' / ',
			)} (1, 5, 15 minutes) at the end; each build's at its start and end is in the table. CPU is every process of the build (user and system, Pagefind's included); on a busy machine it grows less than the wall time but still grows, so a figure measured under load is an upper bound. The generated views' users are all different people: eight people pages per view. Every step is in the table: the smaller ones also carry what grows with the environments, about 20 from 100 views on, and start-up noise spread over few views.`,
		`Built as \`npm run build\` builds (\`scripts/build.ts\`: \`astro build\`, then the search index once Astro’s process has exited) with no NODE_OPTIONS (Astro’s process with the V8 flag and allocator setting \`npm run build\` gives it, \`scripts/lib/astro-build.ts\`; the search index in bundles of 10,000 pages); views from \`bench/generate-views.ts\`, checked with the view schema${settings.BENCH_ROUNDS > 1 ? `; build time and memory are the medians of ${settings.BENCH_ROUNDS} builds of each size` : ''}.`,
		'',
		'### Page sizes by kind (gzip / raw)',
		'',
		table(
			['page kind', ...built.map(({ views }) => `${views.toLocaleString('en')} views`)],
			kindRows,
		),
		'',
		'A kind with many pages (views, environments) is given by its largest page. The overview (home and environment pages) grows with the environments, not the views; the contract carries one example per view by design.',
		'',
		...(settings.BENCH_CEILING ? [ceilingTable(measures, ceilings)] : []),
	].join('\n');
	await writeResult({
		name: 'build',
		title: 'Build scale',
		markdown,
		data: {
			measures,
			marginals: steps,
			budgetMs: MARGINAL_BUDGET_MS,
			rounds: settings.BENCH_ROUNDS,
			commit,
			...(settings.BENCH_CEILING
				? { ceiling: { measures: ceilings, marginals: marginals(ceilings) } }
				: {}),
			...(baseline
				? {
						baseline: {
							root: baseline.root,
							commit: baselineCommit,
							measures: baselineMeasures,
							marginals: marginals(baselineMeasures),
						},
						runs: runs.map(({ round, label, measure }) => ({ round, checkout: label, ...measure })),
					}
				: {}),
		},
	});
}
