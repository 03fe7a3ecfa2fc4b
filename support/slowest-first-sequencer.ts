/**
 * The order test files start in: slowest first, whatever their project, by each file's time in the
 * last run this checkout recorded (`reports/test-times/`, which every `npm test` writes), else in
 * the committed `bench/results/test-times.json`. Files run two at a time, and a long file started
 * last (the image test, three minutes and more) would keep one worker busy after the other ran out
 * of files: longest first ends both workers' share nearest together. vitest's own order runs the
 * projects one after the other and, on a fresh clone, knows no times at all.
 *
 * A file no record knows (a new one) starts first, as vitest starts unknown files first: it may be
 * slow, and its time is recorded for the next run.
 *
 * The run's one build (tests/global-setup.ts) is made while the first files run, and a file that
 * reads it waits for it (tests/support/wait-for-shared-build.ts): such files start only once the
 * build is expected to be ready, each worker taking the slowest file that needs no build until then.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { z } from 'zod';
import { readsSharedBuild } from './reads-shared-build.ts';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Where each file's last time is read from, the first that has a file's time winning. */
export const TIME_SOURCES = [
	path.join(ROOT, 'reports', 'test-times', 'file-times.json'),
	path.join(ROOT, 'bench', 'results', 'test-times.json'),
];

/** What either source holds of each file: its path and its time, in one of their two shapes. */
const timesSchema = z.union([
	// reports/test-times/file-times.json (bench/lib/file-times-reporter.ts), absolute paths.
	z.object({
		files: z.array(
			z.object({ file: z.string(), setupMs: z.number(), collectMs: z.number(), runMs: z.number() }),
		),
	}),
	// bench/results/test-times.json (bench/test-times.ts), paths relative to the checkout.
	z.object({
		data: z.object({ files: z.array(z.object({ file: z.string(), wholeMs: z.number() })) }),
	}),
]);

/**
 * Each file's last recorded time in milliseconds, by path relative to `root`: from the first
 * source that has it (a local run of a few files leaves the rest to the committed times); an empty
 * map when no source can be read (the order then is vitest's own).
 */
export function lastTimes(sources: readonly string[], root: string): Map<string, number> {
	const times = new Map<string, number>();
	for (const source of [...sources].reverse()) {
		let parsed;
		try {
			parsed = timesSchema.safeParse(JSON.parse(readFileSync(source, 'utf8')));
		} catch {
			// No times file yet, or one cut short or from another version: its files are ordered as
			// new ones.
			continue;
		}
		if (!parsed.success) continue;
		if ('files' in parsed.data) {
			for (const { file, setupMs, collectMs, runMs } of parsed.data.files)
				times.set(path.relative(root, file), setupMs + collectMs + runMs);
		} else {
			for (const { file, wholeMs } of parsed.data.data.files) times.set(file, wholeMs);
		}
	}
	return times;
}

/**
 * The files in the order to start them: those without a time first, in the order given, then the
 * rest slowest first. Stable: files of equal time keep the order given.
 */
export function slowestFirst<T>(
	files: readonly T[],
	relativePath: (file: T) => string,
	times: ReadonlyMap<string, number>,
): T[] {
	const known = (file: T): number | undefined => times.get(relativePath(file));
	return [...files].sort((a, b) => {
		const [timeA, timeB] = [known(a), known(b)];
		if (timeA === undefined || timeB === undefined) {
			return (timeA === undefined ? 0 : 1) - (timeB === undefined ? 0 : 1);
		}
		return timeB - timeA;
	});
}

/**
 * How long the shared build is expected to take beside the first files (about 30 s alone on a
 * two-core machine in CI, more with two files running): a file that reads it is not started before.
 * Too long costs nothing while files that need no build are left; too short leaves a worker waiting.
 */
export const SHARED_BUILD_MS = 60_000;

/** The time a file without a record is counted at when the workers' starts are simulated. */
const UNKNOWN_MS = 5_000;

/**
 * The files (in the order to start them) reordered so that none that needs the shared build starts
 * before `buildMs`: the starts are simulated on `workers` workers by each file's time, and a worker
 * free before then takes the first file in order that needs no build, one that needs it only when
 * no other is left. Each file keeps its place otherwise.
 */
export function afterSharedBuild<T>(
	files: readonly T[],
	time: (file: T) => number | undefined,
	needsBuild: (file: T) => boolean,
	workers: number,
	buildMs = SHARED_BUILD_MS,
): T[] {
	const free = Array.from({ length: Math.max(1, workers) }, () => 0);
	const left = [...files];
	const ordered: T[] = [];
	while (left.length > 0) {
		const now = Math.min(...free);
		const worker = free.indexOf(now);
		const next = now >= buildMs ? 0 : left.findIndex((file) => !needsBuild(file));
		const file = left.splice(Math.max(0, next), 1)[0];
		if (file === undefined) break;
		const start = needsBuild(file) ? Math.max(now, buildMs) : now;
		free[worker] = start + (time(file) ?? UNKNOWN_MS);
		ordered.push(file);
	}
	return ordered;
}

/** Whether a file waits for the shared build: its project waits for it, and its source reads it. */
function waitsForSharedBuild(spec: TestSpecification): boolean {
	if (!spec.project.config.setupFiles.some((file) => file.endsWith('wait-for-shared-build.ts'))) {
		return false;
	}
	try {
		return readsSharedBuild(readFileSync(spec.moduleId, 'utf8'));
	} catch {
		// A file that cannot be read here fails when vitest imports it, wherever it is placed.
		return false;
	}
}

export default class SlowestFirstSequencer extends BaseSequencer {
	override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
		// vitest's order first (a file that failed last time before one that passed, by project),
		// for the files no record knows and for ties.
		const ordered = await super.sort(files);
		const times = lastTimes(TIME_SOURCES, ROOT);
		const relative = (spec: TestSpecification): string => path.relative(ROOT, spec.moduleId);
		const waiting = new Set(ordered.filter(waitsForSharedBuild));
		return afterSharedBuild(
			slowestFirst(ordered, relative, times),
			(spec) => times.get(relative(spec)),
			(spec) => waiting.has(spec),
			this.ctx.config.maxWorkers,
		);
	}
}
