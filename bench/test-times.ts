/**
 * `npm run bench:tests`: where the test suite's time goes, so a change can see what it added. Runs
 * `vitest run` (every project, or what the arguments pick: `npm run bench:tests -- --project
 * unit`) with vitest's JSON reporter, for each file's tests and outcome, and
 * `lib/file-times-reporter.ts`, for each file's whole time (setup, import, hooks and tests).
 * Prints the time by file, slowest first, and by project (unit, integration, e2e), with what ran
 * outside any file (vitest's start and each project's global setup, which starts the shared
 * build in the background) and the total; writes `bench/results/test-times.md`. Exits as vitest did.
 *
 * Every `npm test` records the same into `reports/test-times/`, so the suite need not run twice:
 * `node bench/test-times.ts --from reports/test-times` prints that run's tables without running
 * anything (and writes them to bench/results/ only with `--record`). `--before <result>` (an
 * earlier bench/results/test-times.md or .json, or a recording folder) adds the time by stage
 * before and after, and the ten slowest files with their time before.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bin } from '../support/processes.ts';
import {
	byProject,
	comparisonMarkdown,
	fileRows,
	jsonReportSchema,
	readSuiteTimes,
	RECORDING_FILES,
	timesMarkdown,
	type SuiteTimes,
} from './lib/test-times.ts';
import { recordingSchema } from './lib/file-times-reporter.ts';
import { commitOf, writeResult } from './lib/report.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const REPORTER = path.join(import.meta.dirname, 'lib', 'file-times-reporter.ts');
const TITLE = 'Test suite: time by project and file';

/** This script's own options, taken out of the arguments; the rest are vitest's. */
interface Options {
	/** A recording folder to print instead of running vitest. */
	from?: string;
	/** An earlier result to compare with. */
	before?: string;
	/** Whether to write bench/results/test-times.{md,json} with `--from`. */
	record: boolean;
	vitestArgs: string[];
}

/** Reads `--from <folder>`, `--before <result>` and `--record`; passes the rest on to vitest. */
function parseOptions(args: readonly string[]): Options {
	const options: Options = { record: false, vitestArgs: [] };
	for (let index = 0; index < args.length; index++) {
		const arg = args[index] ?? '';
		const [name, inline] = arg.split(/=(.*)/s, 2) as [string, string | undefined];
		if (name === '--from' || name === '--before') {
			const value = inline ?? args[++index];
			if (!value || value.startsWith('--')) throw new Error(`${name} needs a path after it`);
			options[name === '--from' ? 'from' : 'before'] = value;
		} else if (arg === '--record') options.record = true;
		else options.vitestArgs.push(arg);
	}
	if (options.from && options.vitestArgs.length > 0) {
		throw new Error(
			`--from prints a recorded run and runs nothing: ${options.vitestArgs.join(' ')} is not one of its options (--before, --record)`,
		);
	}
	if (!options.from && options.record)
		throw new Error('--record goes with --from (a run always records)');
	return options;
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

/** Runs the suite as today's bench:tests does; its times and vitest's exit code. */
async function runSuite(args: readonly string[]): Promise<{ suite: SuiteTimes; code: number }> {
	const scratch = await mkdtemp(path.join(os.tmpdir(), 'test-times-'));
	const jsonFile = path.join(scratch, RECORDING_FILES.vitest);
	const timesFile = path.join(scratch, RECORDING_FILES.times);
	try {
		const run = await runVitest(args, jsonFile, timesFile);
		try {
			const report = jsonReportSchema.parse(JSON.parse(await readFile(jsonFile, 'utf8')));
			const recording = recordingSchema.parse(JSON.parse(await readFile(timesFile, 'utf8')));
			const suite: SuiteTimes = {
				command: ['vitest run', ...args].join(' '),
				commit: commitOf(ROOT),
				outcome: run.code === 0 ? 'passed' : 'failed',
				// From this script's spawn, which includes starting vitest's process.
				wallMs: run.wallMs,
				tests: report.numTotalTests,
				failedTests: report.numFailedTests,
				files: fileRows(report, recording.files, ROOT),
			};
			return { suite, code: run.code };
		} catch (error) {
			console.error(
				`vitest (exit ${run.code}) wrote no usable report to ${jsonFile} or ${timesFile}: ${error instanceof Error ? error.message : String(error)}`,
			);
			process.exit(run.code || 1);
		}
	} finally {
		await rm(scratch, { recursive: true, force: true });
	}
}

/** The result's tables, with the comparison first when there is an earlier result. */
function markdownOf(suite: SuiteTimes, before: SuiteTimes | undefined): string {
	return before
		? `${comparisonMarkdown(before, suite)}\n\n# This run\n\n${timesMarkdown(suite)}`
		: timesMarkdown(suite);
}

/** The result as data, in the shape `--before` reads back; vitest's exit code when it ran here. */
function dataOf(suite: SuiteTimes, code?: number): unknown {
	return {
		command: suite.command,
		commit: suite.commit,
		startedAt: suite.startedAt,
		outcome: suite.outcome,
		code,
		wallMs: suite.wallMs,
		tests: suite.tests,
		failedTests: suite.failedTests,
		projects: byProject(suite.files),
		files: suite.files,
	};
}

let options: Options;
let before: SuiteTimes | undefined;
let recorded: SuiteTimes | undefined;
try {
	options = parseOptions(process.argv.slice(2));
	// Read before anything runs or is written: the earlier result may be the file this run rewrites.
	before = options.before ? await readSuiteTimes(options.before, ROOT) : undefined;
	recorded = options.from ? await readSuiteTimes(options.from, ROOT) : undefined;
} catch (error) {
	console.error(`bench/test-times.ts: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(2);
}

if (recorded) {
	const markdown = markdownOf(recorded, before);
	if (options.record) {
		await writeResult({ name: 'test-times', title: TITLE, markdown, data: dataOf(recorded) });
	} else {
		console.log(`# ${TITLE}\n\n${markdown}`);
	}
} else {
	const { suite, code } = await runSuite(options.vitestArgs);
	await writeResult({
		name: 'test-times',
		title: TITLE,
		markdown: markdownOf(suite, before),
		data: dataOf(suite, code),
	});
	process.exitCode = code;
}
