/**
 * Building generated view sets and measuring each build: time, peak memory of the process tree,
 * the size of dist and of the search index, and the marginal cost per view between sizes.
 */
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { bin, childEnv, ROOT } from '../../support/processes.ts';
import { writeViewSet } from '../../support/view-sets.ts';
import { largestPage, pageKindSizes, type PageKindSize } from '../../support/page-sizes.ts';
import { kb, mb, table, verdict, WORK_DIR, writeResult } from './report.ts';

const GNU_TIME = '/usr/bin/time';

/** Marginal build cost budget, in milliseconds per view. */
export const MARGINAL_BUDGET_MS = 10;

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
});

/** Where a generated set of `count` views and its build live. */
export function setPaths(count: number): { views: string; dist: string } {
	return {
		views: path.join(WORK_DIR, `views-${count}`),
		dist: path.join(WORK_DIR, `dist-${count}`),
	};
}

/** What one build of a generated set measured. */
export interface BuildMeasure {
	views: number;
	ok: boolean;
	/** Why the build failed, if it did: timeout, out of memory, or its last lines. */
	failure?: string;
	seconds: number;
	/** Peak resident memory of the largest single process (GNU time), in bytes. */
	peakProcessBytes?: number;
	/** Peak resident memory of the whole process tree (sampled every 250 ms), in bytes. */
	peakTreeBytes: number;
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

/** The summed resident memory of every process in a process group, in bytes. */
function groupRss(pgid: number): number {
	try {
		const out = execFileSync('ps', ['-o', 'rss=', '-g', String(pgid)], { encoding: 'utf8' });
		return out
			.split('\n')
			.map((line) => Number(line.trim()) || 0)
			.reduce((sum, value) => sum + value * 1024, 0);
	} catch {
		return 0;
	}
}

/** Generates `count` views and builds them, measuring the build. */
export async function buildViewSet(count: number, timeoutMinutes = 25): Promise<BuildMeasure> {
	const paths = setPaths(count);
	const [first] = await writeViewSet(paths.views, count);
	await rm(paths.dist, { recursive: true, force: true });
	const useTime = existsSync(GNU_TIME);
	const astroArgs = ['build', '--outDir', paths.dist];
	const env = childEnv({
		PORTAL_VIEWS_DIR: paths.views,
		FORCE_COLOR: '0',
		NO_COLOR: '1',
	});
	// The default heap: nothing from the caller's NODE_OPTIONS may raise it.
	delete env['NODE_OPTIONS'];
	const started = performance.now();
	const child = spawn(
		useTime ? GNU_TIME : bin('astro'),
		useTime ? ['-v', bin('astro'), ...astroArgs] : astroArgs,
		{ cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
	);
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
	let peakTreeBytes = 0;
	const sampler = setInterval(() => {
		if (child.pid !== undefined) peakTreeBytes = Math.max(peakTreeBytes, groupRss(child.pid));
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

	const maxRss = /Maximum resident set size \(kbytes\): (\d+)/.exec(output)?.[1];
	const ok = code === 0 && !timedOut;
	let failure: string | undefined;
	if (timedOut) failure = `stopped after ${timeoutMinutes} min`;
	else if (/heap out of memory|JavaScript heap/i.test(output)) failure = 'out of memory (heap)';
	else if (!ok) failure = output.trim().split('\n').slice(-8).join('\n');
	const viewPage = first ? path.join(paths.dist, 'views', first.slug, 'index.html') : '';
	return {
		views: count,
		ok,
		...(failure ? { failure } : {}),
		seconds,
		...(maxRss ? { peakProcessBytes: Number(maxRss) * 1024 } : {}),
		peakTreeBytes,
		distBytes: await folderBytes(paths.dist),
		searchIndexBytes: await folderBytes(path.join(paths.dist, 'pagefind')),
		viewPageBytes: viewPage && existsSync(viewPage) ? (await stat(viewPage)).size : 0,
		pageKinds: ok ? await pageKindSizes(paths.dist) : [],
		largest: ok ? await largestPage(paths.dist) : { file: '', raw: 0 },
	};
}

/** Marginal cost per view between consecutive successful sizes, in ms. */
function marginals(measures: readonly BuildMeasure[]): { from: number; to: number; ms: number }[] {
	const done = measures.filter((measure) => measure.ok);
	return done.slice(1).map((measure, index) => {
		const previous = done[index] ?? measure;
		return {
			from: previous.views,
			to: measure.views,
			ms: ((measure.seconds - previous.seconds) * 1000) / (measure.views - previous.views),
		};
	});
}

/** Runs the build-scale benchmark and writes its result. */
export async function runBuildBench(): Promise<void> {
	const settings = envSchema.parse(process.env);
	const keep = new Set(settings.BENCH_KEEP_DIST.split(',').map((size) => Number(size.trim())));
	const measures: BuildMeasure[] = [];
	for (const count of settings.BENCH_SIZES) {
		console.error(`bench:build: ${count} views…`);
		const measure = await buildViewSet(count, settings.BENCH_BUILD_TIMEOUT_MINUTES);
		console.error(
			`bench:build: ${count} views ${measure.ok ? 'built' : `FAILED (${measure.failure ?? ''})`} in ${measure.seconds.toFixed(1)} s`,
		);
		measures.push(measure);
		// Big builds are measured, then removed: a 10,000-view dist is many gigabytes.
		if (!keep.has(count)) await rm(setPaths(count).dist, { recursive: true, force: true });
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
			measure.peakProcessBytes ? mb(measure.peakProcessBytes) : '–',
			mb(measure.peakTreeBytes),
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
	// The budget is for the cost of a view at scale: the last step (1,000 → 10,000 by default).
	// Smaller steps also carry what grows with the environments (about 20 at 100 views and up: their
	// pages, their access pages) and a second or so of start-up noise spread over few views.
	const last = steps.at(-1);
	const markdown = [
		table(
			[
				'views',
				'built',
				'build time',
				'per view',
				'marginal per view',
				'peak RSS (largest process)',
				'peak RSS (process tree)',
				'dist',
				'search index',
				'one view page',
			],
			rows,
		),
		'',
		`Marginal build cost budget ≤ ${MARGINAL_BUDGET_MS} ms per view at scale: ${verdict(last ? last.ms <= MARGINAL_BUDGET_MS : undefined)} (${last ? `${last.ms.toFixed(1)} ms from ${last.from} to ${last.to} views` : 'no step'}; every step is in the table: the smaller ones also carry what grows with the environments, about 20 from 100 views on, and start-up noise spread over few views).`,
		'Built with `astro build` at Node’s default heap (no NODE_OPTIONS); views from `bench/generate-views.ts`, checked with the view schema.',
		'',
		'### Page sizes by kind (gzip / raw)',
		'',
		table(
			['page kind', ...built.map(({ views }) => `${views.toLocaleString('en')} views`)],
			kindRows,
		),
		'',
		'A kind with many pages (views, environments) is given by its largest page. The overview (home and environment pages) grows with the environments, not the views; the contract carries one example per view by design.',
	].join('\n');
	await writeResult({
		name: 'build',
		title: 'Build scale',
		markdown,
		data: { measures, marginals: steps, budgetMs: MARGINAL_BUDGET_MS },
	});
}
