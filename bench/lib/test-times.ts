/**
 * The test suite's times as `bench/test-times.ts` prints them: read from a run's recording (what
 * vitest's JSON reporter and `file-times-reporter.ts` wrote, by `npm test` into
 * `reports/test-times/` or by `npm run bench:tests` into a scratch folder), or from an earlier
 * result (`bench/results/test-times.md` or `.json`); tabled by project and by file, and compared
 * before and after by stage (unit, integration, e2e) and for the ten slowest files.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { markdownToMdast, type MdastNode } from 'satteri';
import { z } from 'zod';
import { fileTimeSchema, recordingSchema, type Recording } from './file-times-reporter.ts';
import { table } from './report.ts';

/** The files a recording folder holds. */
export const RECORDING_FILES = { vitest: 'vitest.json', times: 'file-times.json' } as const;

/** What vitest's JSON reporter writes, as far as these tables read it. */
export const jsonReportSchema = z.object({
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

export type JsonReport = z.infer<typeof jsonReportSchema>;

/** One file as the tables show it. */
export const fileRowSchema = z.object({
	/** Relative to the repository. */
	file: z.string(),
	project: z.string(),
	tests: z.number(),
	failed: z.number(),
	/** Setup, import, hooks and tests. */
	wholeMs: z.number(),
	/** From the first test's start to the last one's end (the JSON reporter's span). */
	testsMs: z.number(),
	/** vitest's word for the file (passed, failed, skip), or "no result"; absent in older results. */
	status: z.string().optional(),
	/** When the file was handed to a worker and when it ended, from the run's start, if recorded. */
	startMs: z.number().optional(),
	endMs: z.number().optional(),
});

export type FileRow = z.infer<typeof fileRowSchema>;

/** A whole run: what ran, how long it took and each file, slowest first. */
export interface SuiteTimes {
	/** The command, e.g. `vitest run` or `vitest run --project unit`. */
	command: string;
	/** The commit it ran at, when known. */
	commit?: string;
	/** When it started (ISO), when known. */
	startedAt?: string;
	/** Whether vitest's run passed, when known. */
	outcome?: string;
	wallMs: number;
	tests: number;
	failedTests: number;
	files: FileRow[];
}

/** One project's share of a run. */
export interface ProjectTimes {
	project: string;
	files: number;
	tests: number;
	/** The sum of its files' times. */
	ms: number;
	/**
	 * The time while any of its files ran (the union of their spans), which is less than the sum
	 * when files ran side by side; absent when the run recorded no spans.
	 */
	spanMs?: number;
}

/** Milliseconds as seconds with one decimal. */
export function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/** A part of a whole as a percentage. */
export function share(part: number, whole: number): string {
	return whole > 0 ? `${((part / whole) * 100).toFixed(0)} %` : '–';
}

/** A change from one time to another as a signed percentage. */
export function change(beforeMs: number | undefined, afterMs: number): string {
	if (beforeMs === undefined || beforeMs <= 0) return '–';
	const percent = ((afterMs - beforeMs) / beforeMs) * 100;
	return `${percent > 0 ? '+' : ''}${percent.toFixed(0)} %`;
}

/** A file's outcome as the by-file table shows it. */
export function outcome(file: FileRow): string {
	if (file.failed > 0) return `${file.failed} failed`;
	return file.status ?? 'passed';
}

/** Joins a recording's file times with the JSON report's tests: one row per file, slowest first. */
export function fileRows(
	report: JsonReport,
	times: readonly z.infer<typeof fileTimeSchema>[],
	root: string,
): FileRow[] {
	// By path: the JSON report does not name a file's project, and each file is in one project here
	// (a file included by two projects would get the tests of one of its runs).
	const results = new Map(report.testResults.map((result) => [result.name, result]));
	return times
		.map((time) => {
			const result = results.get(time.file);
			return {
				file: path.relative(root, time.file),
				project: time.project,
				tests: result?.assertionResults.length ?? 0,
				failed: result?.assertionResults.filter((test) => test.status === 'failed').length ?? 0,
				wholeMs: time.setupMs + time.collectMs + time.runMs,
				testsMs: result ? result.endTime - result.startTime : 0,
				status: result?.status ?? 'no result',
				...(time.startMs === undefined || time.endMs === undefined
					? {}
					: { startMs: time.startMs, endMs: time.endMs }),
			};
		})
		.sort((a, b) => b.wholeMs - a.wholeMs);
}

/** A run from what `npm test` recorded: its files joined with the JSON report's tests. */
export function suiteFromRecording(
	report: JsonReport,
	recording: Recording,
	root: string,
): SuiteTimes {
	return {
		command: recording.command,
		commit: recording.commit,
		startedAt: recording.startedAt,
		outcome: recording.outcome,
		wallMs: recording.wallMs,
		tests: report.numTotalTests,
		failedTests: report.numFailedTests,
		files: fileRows(report, recording.files, root),
	};
}

/**
 * The time while any of the files ran: the union of their spans, or undefined when one of them
 * has no span recorded.
 */
export function spanOf(files: readonly FileRow[]): number | undefined {
	const spans: [number, number][] = [];
	for (const { startMs, endMs } of files) {
		if (startMs === undefined || endMs === undefined) return undefined;
		spans.push([startMs, endMs]);
	}
	spans.sort((a, b) => a[0] - b[0]);
	let total = 0;
	let current: [number, number] | undefined;
	for (const [start, end] of spans) {
		if (current && start <= current[1]) current[1] = Math.max(current[1], end);
		else {
			if (current) total += current[1] - current[0];
			current = [start, end];
		}
	}
	return total + (current ? current[1] - current[0] : 0);
}

/** Each project's files, tests and time, in the order the projects first appear. */
export function byProject(files: readonly FileRow[]): ProjectTimes[] {
	const projects = new Map<string, { times: ProjectTimes; rows: FileRow[] }>();
	for (const file of files) {
		const own = projects.get(file.project) ?? {
			times: { project: file.project, files: 0, tests: 0, ms: 0 },
			rows: [],
		};
		own.times.files += 1;
		own.times.tests += file.tests;
		own.times.ms += file.wholeMs;
		own.rows.push(file);
		projects.set(file.project, own);
	}
	return [...projects.values()].map(({ times, rows }) => {
		const spanMs = spanOf(rows);
		return spanMs === undefined ? times : { ...times, spanMs };
	});
}

/**
 * A stage's time as the comparison gives it: the span its files covered, or the sum of their
 * times for a run that recorded no spans (the same, when files ran one at a time).
 */
export function stageMs(project: ProjectTimes): number {
	return project.spanMs ?? project.ms;
}

/** The files' times added up: the run's work, more than its time when files ran side by side. */
function addedMs(files: readonly FileRow[]): number {
	return files.reduce((sum, file) => sum + file.wholeMs, 0);
}

/** The run's time spent outside any file: vitest's start and the projects' global setups. */
export function outsideMs(suite: SuiteTimes): number {
	return Math.max(0, suite.wallMs - (spanOf(suite.files) ?? addedMs(suite.files)));
}

/** Whether the run's files ran side by side: their times add up to more than the span they covered. */
function sideBySide(suite: SuiteTimes): boolean {
	const span = spanOf(suite.files);
	return span !== undefined && addedMs(suite.files) > span;
}

/** The line that heads a run's tables: what ran, where, how many tests and how long. */
export function headline(suite: SuiteTimes): string {
	const at = suite.commit ? ` at ${suite.commit}` : '';
	const when = suite.startedAt ? `, started ${suite.startedAt}` : '';
	const verb = suite.outcome === 'interrupted' ? 'was interrupted' : 'failed';
	const failed =
		suite.failedTests > 0 || suite.outcome === 'failed' || suite.outcome === 'interrupted'
			? `\n\n**vitest ${verb}, ${suite.failedTests} tests failed**: times of a failing run.`
			: '';
	return `\`${suite.command}\`${at}${when}: ${suite.tests} tests in ${suite.files.length} files, ${seconds(suite.wallMs)} in all.${failed}`;
}

/** The by-project and by-file tables of a run, with their notes, as Markdown. */
export function timesMarkdown(suite: SuiteTimes): string {
	const outside = outsideMs(suite);
	// Side by side, a project's files' times added up and the time while they ran differ, and
	// both are shown; one at a time they are the same, and the sum stands for both.
	const overlapped = sideBySide(suite);
	const shownMs = (project: ProjectTimes): number => (overlapped ? stageMs(project) : project.ms);
	/** A cell of the column only a run with files side by side has. */
	const added = (cell: string): string[] => (overlapped ? [cell] : []);
	return [
		headline(suite),
		'',
		'## By project',
		'',
		table(
			[
				'project',
				'files',
				'tests',
				...(overlapped ? ['time of its files', 'while they ran'] : ['time']),
				'share',
			],
			[
				...byProject(suite.files).map((project) => [
					project.project,
					String(project.files),
					String(project.tests),
					...added(seconds(project.ms)),
					seconds(shownMs(project)),
					share(shownMs(project), suite.wallMs),
				]),
				['outside the files', '', '', ...added(''), seconds(outside), share(outside, suite.wallMs)],
				[
					'total',
					String(suite.files.length),
					String(suite.tests),
					...added(seconds(addedMs(suite.files))),
					seconds(suite.wallMs),
					'100 %',
				],
			],
		),
		'',
		`${
			overlapped
				? "A file's time is its setup, import, hooks and tests. Files ran two at a time (vitest.config.ts), so their times add up to more than the run took: \"while they ran\" is the time while at least one of a project's files was running, and the projects' files ran side by side with each other's too, so those add up to more than the total as well."
				: "A file's time is its setup, import, hooks and tests; these files ran one at a time, so they add up."
		} Outside the files: vitest's start (its config, plugins and the transforms no file is charged with) and each project's global setup (tests/global-setup.ts, which starts the integration and e2e tests' one build in the background while the first files run, and the e2e tests' shared Chromium).`,
		'',
		'## By file, slowest first',
		'',
		table(
			['file', 'project', 'tests', 'time', 'in tests', 'import and hooks', 'outcome'],
			suite.files.map((file) => [
				file.file,
				file.project,
				String(file.tests),
				seconds(file.wholeMs),
				seconds(file.testsMs),
				seconds(Math.max(0, file.wholeMs - file.testsMs)),
				outcome(file),
			]),
		),
		'',
		"In tests: from a file's first test's start to its last one's end, as vitest's JSON reporter gives it; import and hooks is the rest (a build or a server in beforeAll, Chromium's launch).",
	].join('\n');
}

/** How many of the slowest files the comparison lists. */
export const SLOWEST = 10;

/**
 * A run against an earlier one: the time by stage (each project, outside the files, the total)
 * before and after, and the run's ten slowest files with their time before.
 */
export function comparisonMarkdown(before: SuiteTimes, after: SuiteTimes): string {
	const beforeProjects = new Map(
		byProject(before.files).map((project) => [project.project, project]),
	);
	const afterProjects = byProject(after.files);
	const stages = [
		...afterProjects.map((project) => project.project),
		...[...beforeProjects.keys()].filter(
			(project) => !afterProjects.some((own) => own.project === project),
		),
	];
	const stageRow = (
		stage: string,
		was: ProjectTimes | undefined,
		now: ProjectTimes | undefined,
	): string[] => [
		stage,
		was ? `${was.files} / ${was.tests}` : '–',
		now ? `${now.files} / ${now.tests}` : '–',
		was ? seconds(stageMs(was)) : '–',
		now ? seconds(stageMs(now)) : '–',
		now ? change(was && stageMs(was), stageMs(now)) : '–',
	];
	const beforeFiles = new Map(before.files.map((file) => [file.file, file]));
	return [
		`Before: ${headline(before).split('\n')[0] ?? ''}`,
		'',
		`After: ${headline(after).split('\n')[0] ?? ''}`,
		'',
		'## By stage, before and after',
		'',
		table(
			['stage', 'files / tests before', 'files / tests after', 'before', 'after', 'change'],
			[
				...stages.map((stage) =>
					stageRow(
						stage,
						beforeProjects.get(stage),
						afterProjects.find((project) => project.project === stage),
					),
				),
				[
					'outside the files',
					'',
					'',
					seconds(outsideMs(before)),
					seconds(outsideMs(after)),
					change(outsideMs(before), outsideMs(after)),
				],
				[
					'total',
					`${before.files.length} / ${before.tests}`,
					`${after.files.length} / ${after.tests}`,
					seconds(before.wallMs),
					seconds(after.wallMs),
					change(before.wallMs, after.wallMs),
				],
			],
		),
		'',
		`## The ${SLOWEST} slowest files after, with their time before`,
		'',
		table(
			['', 'file', 'stage', 'before', 'after', 'change', 'outcome'],
			after.files.slice(0, SLOWEST).map((file, index) => {
				const was = beforeFiles.get(file.file);
				return [
					String(index + 1),
					file.file,
					file.project,
					was ? seconds(was.wholeMs) : 'new',
					seconds(file.wholeMs),
					change(was?.wholeMs, file.wholeMs),
					outcome(file),
				];
			}),
		),
		'',
		"A stage's time is the time while any of its files ran; for a run that recorded no such spans (before files ran two at a time), the sum of its files' times, which was the same then. Stages that ran side by side overlap, so they add up to more than the total.",
		'',
		'Times from two runs are comparable only as far as the machines and their load were: the figures of a loaded machine vary by a quarter or more from run to run.',
	].join('\n');
}

/** The text of an mdast node and its children. */
function textOf(node: MdastNode): string {
	if ('value' in node && typeof node.value === 'string') return node.value;
	if ('children' in node && Array.isArray(node.children))
		return (node.children as MdastNode[]).map(textOf).join('');
	return '';
}

/** A table's rows as records keyed by its header's cells. */
function tableRecords(node: MdastNode): Record<string, string>[] {
	const rows = ('children' in node ? (node.children as MdastNode[]) : []).map((row) =>
		('children' in row ? (row.children as MdastNode[]) : []).map((cell) => textOf(cell).trim()),
	);
	const [header = [], ...body] = rows;
	return body.map((cells) =>
		Object.fromEntries(header.map((name, column) => [name, cells[column] ?? ''])),
	);
}

/** Seconds as a table shows them (`1224.7 s`), in milliseconds. */
function parseSeconds(text: string, where: string): number {
	const match = /^(\d+(?:\.\d+)?) s$/.exec(text.trim());
	if (!match?.[1]) throw new Error(`${where}: expected a time such as "12.3 s", found "${text}"`);
	return Number(match[1]) * 1000;
}

/** A count as a table shows it. */
function parseCount(text: string, where: string): number {
	if (!/^\d+$/.test(text.trim())) throw new Error(`${where}: expected a count, found "${text}"`);
	return Number(text);
}

/**
 * An earlier result as `bench/test-times.ts` wrote it in Markdown (`bench/results/test-times.md`):
 * its headline and its by-file table, whose times are rounded to a tenth of a second.
 */
export function parseResultMarkdown(text: string, source: string): SuiteTimes {
	const nodes = (markdownToMdast(text) as { children?: MdastNode[] }).children ?? [];
	/** The first table after the heading named `title`. */
	const tableAfter = (title: string): Record<string, string>[] => {
		const heading = nodes.findIndex(
			(node) => node.type === 'heading' && textOf(node).trim() === title,
		);
		const found =
			heading < 0 ? undefined : nodes.slice(heading + 1).find((n) => n.type === 'table');
		if (!found) throw new Error(`${source} has no table under a heading "${title}"`);
		return tableRecords(found);
	};
	// The run's own line, not the comparison's "Before: …" and "After: …" above it.
	const lead = nodes
		.filter((node) => node.type === 'paragraph')
		.map(textOf)
		.find(
			(line) =>
				!/^(Before|After): /.test(line) && / tests in \d+ files, [\d.]+ s in all\./.test(line),
		);
	const match =
		lead &&
		/^(.+?)(?: at (\S+(?: with changes)?))?(?:, started (\S+))?: (\d+) tests in \d+ files, ([\d.]+) s in all\./.exec(
			lead,
		);
	if (!match?.[1] || !match[4] || !match[5]) {
		throw new Error(
			`${source} has no line saying "<command> at <commit>: <N> tests in <N> files, <N> s in all."`,
		);
	}
	const files = tableAfter('By file, slowest first').map((row, index) => {
		const where = `${source}, by-file table, row ${index + 1}`;
		const failed = /^(\d+) failed$/.exec(row['outcome'] ?? '');
		const wholeMs = parseSeconds(row['time'] ?? '', `${where}, time`);
		return {
			file: row['file'] ?? '',
			project: row['project'] ?? '',
			tests: parseCount(row['tests'] ?? '', `${where}, tests`),
			failed: failed?.[1] ? Number(failed[1]) : 0,
			wholeMs,
			testsMs: parseSeconds(row['in tests'] ?? '', `${where}, in tests`),
			status: failed ? 'failed' : row['outcome'],
		};
	});
	// "vitest exited 1" in results written before npm test recorded its runs.
	const failedTests = /\*\*vitest (exited \d+|failed|was interrupted), (\d+) tests failed\*\*/.exec(
		text,
	);
	return {
		command: match[1],
		...(match[2] ? { commit: match[2] } : {}),
		...(match[3] ? { startedAt: match[3] } : {}),
		...(failedTests
			? { outcome: failedTests[1] === 'was interrupted' ? 'interrupted' : 'failed' }
			: {}),
		wallMs: Number(match[5]) * 1000,
		tests: Number(match[4]),
		failedTests: failedTests?.[2] ? Number(failedTests[2]) : 0,
		files,
	};
}

/** An earlier result as `bench/test-times.ts` wrote it in JSON (`bench/results/test-times.json`). */
const resultJsonSchema = z.object({
	date: z.string(),
	data: z.object({
		command: z.string(),
		commit: z.string().optional(),
		/** When the run started, if it was recorded by npm test; otherwise the result's date stands. */
		startedAt: z.string().optional(),
		/** vitest's word for the run (passed, failed, interrupted), or its exit code when it ran here. */
		outcome: z.string().optional(),
		code: z.number().optional(),
		wallMs: z.number(),
		tests: z.number().optional(),
		failedTests: z.number().optional(),
		files: z.array(fileRowSchema),
	}),
});

/** An earlier result read from its JSON. */
export function parseResultJson(text: string, source: string): SuiteTimes {
	const parsed = resultJsonSchema.safeParse(JSON.parse(text));
	if (!parsed.success) {
		throw new Error(
			`${source} is not a result of bench/test-times.ts: ${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`,
		);
	}
	const { data, date } = parsed.data;
	const files = [...data.files].sort((a, b) => b.wholeMs - a.wholeMs);
	return {
		command: data.command,
		...(data.commit ? { commit: data.commit } : {}),
		startedAt: data.startedAt ?? date,
		...(data.outcome
			? { outcome: data.outcome }
			: data.code === undefined
				? {}
				: { outcome: data.code === 0 ? 'passed' : 'failed' }),
		wallMs: data.wallMs,
		tests: data.tests ?? files.reduce((sum, file) => sum + file.tests, 0),
		failedTests: data.failedTests ?? files.reduce((sum, file) => sum + file.failed, 0),
		files,
	};
}

/** Reads and checks one JSON file of a recording, naming it in any error. */
async function readJson<T>(file: string, schema: z.ZodType<T>): Promise<T> {
	let text: string;
	try {
		text = await readFile(file, 'utf8');
	} catch (error) {
		throw new Error(`${file} is missing: npm test writes it (vitest.config.ts records every run)`, {
			cause: error,
		});
	}
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new Error(
			`${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
			{ cause: error },
		);
	}
	const parsed = schema.safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new Error(
			`${file} is not what vitest wrote: ${issue?.path.join('.')}: ${issue?.message}`,
		);
	}
	return parsed.data;
}

/** A run's recording read from its folder (`reports/test-times/`). */
export async function readRecording(folder: string, root: string): Promise<SuiteTimes> {
	const report = await readJson(path.join(folder, RECORDING_FILES.vitest), jsonReportSchema);
	const recording = await readJson(path.join(folder, RECORDING_FILES.times), recordingSchema);
	return suiteFromRecording(report, recording, root);
}

/** A run's times from a recording folder, or an earlier result's `.md` or `.json`. */
export async function readSuiteTimes(source: string, root: string): Promise<SuiteTimes> {
	const found = await stat(source).catch(() => undefined);
	if (!found) throw new Error(`${source} does not exist`);
	if (found.isDirectory()) return readRecording(source, root);
	const text = await readFile(source, 'utf8');
	if (source.endsWith('.md')) return parseResultMarkdown(text, source);
	if (source.endsWith('.json')) {
		try {
			return parseResultJson(text, source);
		} catch (error) {
			if (error instanceof SyntaxError) {
				throw new Error(`${source} is not JSON: ${error.message}`, { cause: error });
			}
			throw error;
		}
	}
	throw new Error(
		`${source}: expected a recording folder (reports/test-times), or a result's .md or .json`,
	);
}
