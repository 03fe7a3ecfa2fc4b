/**
 * `npm run bench:tests`: where the test suite's time goes, so a change can see what it added. Runs
 * `vitest run` (every project, or what the arguments pick: `npm run bench:tests -- --project
 * unit`) with vitest's JSON reporter, for each file's tests and outcome, and
 * `lib/file-times-reporter.ts`, for each file's whole time (setup, import, hooks and tests).
 * Prints the time by file, slowest first, and by project (unit, integration, e2e), with what ran
 * outside any file (vitest's start and each project's global setup, where the shared build is
 * made) and the total; writes `bench/results/test-times.md`. Exits as vitest did.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { bin } from '../support/processes.ts';
import { fileTimeSchema, type FileTime } from './lib/file-times-reporter.ts';
import { commitOf, table, writeResult } from './lib/report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const REPORTER = path.join(import.meta.dirname, 'lib', 'file-times-reporter.ts');

/** What vitest's JSON reporter writes, as far as this benchmark reads it. */
const jsonReportSchema = z.object({
	numTotalTests: z.number(),
	numFailedTests: z.number(),
	testResults: z.array(
		z.object({
			/** The file's absolute path. */
			name: z.string(),
			status: z.string(),
			/** From the first test's start to the last one's end. */
			startTime: z.number(),
			endTime: z.number(),
			assertionResults: z.array(z.object({ status: z.string() })),
		}),
	),
});

/** Milliseconds as seconds with one decimal. */
function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/** A part of a whole as a percentage. */
function share(part: number, whole: number): string {
	return whole > 0 ? `${((part / whole) * 100).toFixed(0)} %` : '–';
}

/** Runs vitest with both reporters; its exit code and how long it took. */
async function runVitest(
	args: readonly string[],
	jsonFile: string,
	timesFile: string,
): Promise<{ code: number; wallMs: number }> {
	const started = performance.now();
	// On this process's Node, the pinned one, whatever node the PATH finds first.
	const child = spawn(
		process.execPath,
		[
			bin('vitest'),
			'run',
			'--reporter=default',
			'--reporter=json',
			`--outputFile.json=${jsonFile}`,
			`--reporter=${REPORTER}`,
			...args,
		],
		{ cwd: ROOT, stdio: 'inherit', env: { ...process.env, TEST_TIMES_FILE: timesFile } },
	);
	const code = await new Promise<number>((resolve) => {
		child.on('close', (exit) => resolve(exit ?? 1));
	});
	return { code, wallMs: performance.now() - started };
}

const args = process.argv.slice(2);
const scratch = await mkdtemp(path.join(os.tmpdir(), 'test-times-'));
const jsonFile = path.join(scratch, 'vitest.json');
const timesFile = path.join(scratch, 'file-times.json');
let run: { code: number; wallMs: number };
let report: z.infer<typeof jsonReportSchema>;
let times: FileTime[];
try {
	run = await runVitest(args, jsonFile, timesFile);
	try {
		report = jsonReportSchema.parse(JSON.parse(await readFile(jsonFile, 'utf8')));
		times = z.array(fileTimeSchema).parse(JSON.parse(await readFile(timesFile, 'utf8')));
	} catch (error) {
		console.error(
			`vitest (exit ${run.code}) wrote no usable report to ${jsonFile} or ${timesFile}: ${error instanceof Error ? error.message : String(error)}`,
		);
		process.exit(run.code || 1);
	}
} finally {
	await rm(scratch, { recursive: true, force: true });
}

/** One file as the tables show it. */
interface FileRow {
	file: string;
	project: string;
	tests: number;
	failed: number;
	/** Setup, import, hooks and tests. */
	wholeMs: number;
	/** From the first test's start to the last one's end (the JSON reporter's span). */
	testsMs: number;
}

const results = new Map(report.testResults.map((result) => [result.name, result]));
const files: FileRow[] = times
	.map((time) => {
		const result = results.get(time.file);
		return {
			file: path.relative(ROOT, time.file),
			project: time.project,
			tests: result?.assertionResults.length ?? 0,
			failed: result?.assertionResults.filter((test) => test.status === 'failed').length ?? 0,
			wholeMs: time.setupMs + time.collectMs + time.runMs,
			testsMs: result ? result.endTime - result.startTime : 0,
		};
	})
	.sort((a, b) => b.wholeMs - a.wholeMs);

const inFilesMs = files.reduce((sum, file) => sum + file.wholeMs, 0);
const outsideMs = Math.max(0, run.wallMs - inFilesMs);
const projects = [...new Set(files.map((file) => file.project))].map((project) => {
	const own = files.filter((file) => file.project === project);
	return {
		project,
		files: own.length,
		tests: own.reduce((sum, file) => sum + file.tests, 0),
		ms: own.reduce((sum, file) => sum + file.wholeMs, 0),
	};
});

const command = ['vitest run', ...args].join(' ');
const failedNote =
	report.numFailedTests > 0 || run.code !== 0
		? `\n\n**vitest exited ${run.code}, ${report.numFailedTests} tests failed**: times of a failing run.`
		: '';
await writeResult({
	name: 'test-times',
	title: 'Test suite: time by project and file',
	markdown: [
		`\`${command}\` at ${commitOf(ROOT)}: ${report.numTotalTests} tests in ${files.length} files, ${seconds(run.wallMs)} in all.${failedNote}`,
		'',
		'## By project',
		'',
		table(
			['project', 'files', 'tests', 'time', 'share'],
			[
				...projects.map(({ project, files: count, tests, ms }) => [
					project,
					String(count),
					String(tests),
					seconds(ms),
					share(ms, run.wallMs),
				]),
				['outside the files', '', '', seconds(outsideMs), share(outsideMs, run.wallMs)],
				['total', String(files.length), String(report.numTotalTests), seconds(run.wallMs), '100 %'],
			],
		),
		'',
		"A file's time is its setup, import, hooks and tests; files run one at a time (vitest.config.ts), so they add up. Outside the files: vitest's start (its config, plugins and the transforms no file is charged with) and each project's global setup (tests/global-setup.ts, where the integration and e2e tests' one build is made).",
		'',
		'## By file, slowest first',
		'',
		table(
			['file', 'project', 'tests', 'time', 'in tests', 'import and hooks', 'outcome'],
			files.map((file) => [
				file.file,
				file.project,
				String(file.tests),
				seconds(file.wholeMs),
				seconds(file.testsMs),
				seconds(Math.max(0, file.wholeMs - file.testsMs)),
				file.failed > 0
					? `${file.failed} failed`
					: (results.get(path.join(ROOT, file.file))?.status ?? 'no result'),
			]),
		),
		'',
		"In tests: from a file's first test's start to its last one's end, as vitest's JSON reporter gives it; import and hooks is the rest (a build or a server in beforeAll, Chromium's launch).",
	].join('\n'),
	data: { command, code: run.code, wallMs: run.wallMs, projects, files },
});
process.exitCode = run.code;
