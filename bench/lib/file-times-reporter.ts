/**
 * A vitest reporter that records each test file's whole time, which vitest's JSON reporter does
 * not give (its span runs from the first test's start to the last one's end, so a file's import
 * and its hooks, such as a build in beforeAll, fall outside it), with the run's own: its command,
 * commit, start, outcome and time from the process's start. Every `npm test` records it into
 * `reports/test-times/` (vitest.config.ts gives the reporter its `outputFile`); `npm run
 * bench:tests` names a scratch file in TEST_TIMES_FILE, which wins.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule, TestRunEndReason } from 'vitest/node';
import { z } from 'zod';
import { commitOf } from './report.ts';

/** One test file's time, in milliseconds, by phase. */
export const fileTimeSchema = z.object({
	/** The file's absolute path. */
	file: z.string(),
	/** The vitest project that ran it: unit, integration or e2e. */
	project: z.string(),
	/** Setting up the environment, the runner and the setup files. */
	setupMs: z.number(),
	/** Importing the file and running its describe blocks. */
	collectMs: z.number(),
	/** Its tests and hooks (beforeAll, afterAll…). */
	runMs: z.number(),
	/**
	 * When the file started and ended, from the run's start: files run two at a time, so a stage's
	 * time is the span its files covered, not their sum. Absent in recordings made before.
	 */
	startMs: z.number().optional(),
	endMs: z.number().optional(),
});

export type FileTime = z.infer<typeof fileTimeSchema>;

/** What the reporter writes: the run, and each of its files. */
export const recordingSchema = z.object({
	/** How vitest was started, e.g. `vitest run` or `vitest run --project unit`. */
	command: z.string(),
	/** The commit, "with changes" when tracked files differ from it. */
	commit: z.string(),
	/** When the vitest process started (ISO). */
	startedAt: z.string(),
	/** From the vitest process's start to the end of its last file, in milliseconds. */
	wallMs: z.number(),
	/** vitest's word for the run: passed, failed or interrupted. */
	outcome: z.string(),
	files: z.array(fileTimeSchema),
});

export type Recording = z.infer<typeof recordingSchema>;

/** The reporter's options in vitest.config.ts. */
export interface FileTimesOptions {
	/** Where to write the recording, unless TEST_TIMES_FILE names another file. */
	outputFile?: string;
}

export default class FileTimesReporter implements Reporter {
	private readonly out: string;
	/** When each file started and ended, by file and project, from the run's start. */
	private readonly spans = new Map<string, { startMs?: number; endMs?: number }>();

	constructor(options: FileTimesOptions = {}) {
		const out = process.env['TEST_TIMES_FILE'] || options.outputFile;
		if (!out) {
			throw new Error(
				'file-times-reporter needs a file to write: set TEST_TIMES_FILE, or give the reporter an outputFile in vitest.config.ts',
			);
		}
		this.out = out;
	}

	// Queued: right before the worker imports the file and its setup, so the span holds them.
	onTestModuleQueued(testModule: TestModule): void {
		this.spans.set(spanKey(testModule), { startMs: performance.now() });
	}

	onTestModuleEnd(testModule: TestModule): void {
		const span = this.spans.get(spanKey(testModule)) ?? {};
		this.spans.set(spanKey(testModule), { ...span, endMs: performance.now() });
	}

	onTestRunEnd(
		testModules: readonly TestModule[],
		_errors: unknown,
		reason: TestRunEndReason,
	): void {
		const recording: Recording = {
			command: ['vitest', ...process.argv.slice(2)].join(' '),
			commit: commitOf(process.cwd()),
			startedAt: new Date(performance.timeOrigin).toISOString(),
			// performance.now() counts from this process's start, which includes vitest's own start.
			wallMs: performance.now(),
			outcome: reason,
			files: testModules.map((module) => {
				const diagnostic = module.diagnostic();
				const { startMs, endMs } = this.spans.get(spanKey(module)) ?? {};
				return {
					file: module.moduleId,
					project: module.project.name,
					setupMs:
						diagnostic.environmentSetupDuration +
						diagnostic.prepareDuration +
						diagnostic.setupDuration,
					collectMs: diagnostic.collectDuration,
					runMs: diagnostic.duration,
					...(startMs === undefined || endMs === undefined ? {} : { startMs, endMs }),
				};
			}),
		};
		mkdirSync(path.dirname(this.out), { recursive: true });
		writeFileSync(this.out, JSON.stringify(recording));
	}
}

/** A file's key among the run's: its path in its project. */
function spanKey(testModule: TestModule): string {
	return `${testModule.project.name}\0${testModule.moduleId}`;
}
