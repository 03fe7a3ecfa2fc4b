/**
 * The suite's times as bench/test-times.ts prints them: read from what `npm test` recorded, or
 * from an earlier result in Markdown or JSON, and compared by stage and for the slowest files.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestModule } from 'vitest/node';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import FileTimesReporter, { type Recording } from '../../../bench/lib/file-times-reporter.ts';
import QuietJsonReporter from '../../../bench/lib/quiet-json-reporter.ts';
import {
	byProject,
	change,
	comparisonMarkdown,
	outsideMs,
	parseResultJson,
	spanOf,
	parseResultMarkdown,
	readSuiteTimes,
	timesMarkdown,
	type JsonReport,
	type SuiteTimes,
} from '../../../bench/lib/test-times.ts';

const ROOT = '/work/portal';

let folder: string;
beforeEach(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-test-times-'));
});
afterEach(async () => {
	vi.unstubAllEnvs();
	await rm(folder, { recursive: true, force: true });
});

/** What vitest's JSON reporter writes for a run of three files, one of them with a failing test. */
const REPORT: JsonReport = {
	numTotalTests: 6,
	numFailedTests: 1,
	testResults: [
		{
			name: `${ROOT}/tests/unit/a.test.ts`,
			status: 'passed',
			startTime: 1000,
			endTime: 1400,
			assertionResults: [{ status: 'passed' }, { status: 'passed' }],
		},
		{
			name: `${ROOT}/tests/e2e/b.test.ts`,
			status: 'failed',
			startTime: 5000,
			endTime: 12_000,
			assertionResults: [{ status: 'passed' }, { status: 'failed' }, { status: 'passed' }],
		},
		{
			name: `${ROOT}/tests/integration/c.test.ts`,
			status: 'passed',
			startTime: 2000,
			endTime: 2100,
			assertionResults: [{ status: 'passed' }],
		},
	],
};

/** What file-times-reporter.ts writes for the same run, and a file vitest gave no result for. */
const RECORDING: Recording = {
	command: 'vitest run',
	commit: '1a2b3c4',
	startedAt: '2026-11-27T10:00:00.000Z',
	wallMs: 60_000,
	outcome: 'failed',
	files: [
		{
			file: `${ROOT}/tests/unit/a.test.ts`,
			project: 'unit',
			setupMs: 100,
			collectMs: 200,
			runMs: 400,
		},
		{
			file: `${ROOT}/tests/e2e/b.test.ts`,
			project: 'e2e',
			setupMs: 0,
			collectMs: 500,
			runMs: 9500,
		},
		{
			file: `${ROOT}/tests/integration/c.test.ts`,
			project: 'integration',
			setupMs: 50,
			collectMs: 50,
			runMs: 19_900,
		},
		{ file: `${ROOT}/tests/unit/d.test.ts`, project: 'unit', setupMs: 0, collectMs: 300, runMs: 0 },
	],
};

/** Writes a recording folder as npm test does. */
async function writeRecording(report: unknown, recording: unknown): Promise<void> {
	await writeFile(path.join(folder, 'vitest.json'), JSON.stringify(report));
	await writeFile(path.join(folder, 'file-times.json'), JSON.stringify(recording));
}

/** The rows of the first table under a heading, as trimmed cells, header first. */
function rowsUnder(markdown: string, heading: string): string[][] {
	const lines = markdown.split('\n');
	const start = lines.indexOf(heading);
	expect(start, `a heading "${heading}"`).toBeGreaterThanOrEqual(0);
	const rows: string[][] = [];
	for (const line of lines.slice(start + 2)) {
		if (!line.startsWith('|')) break;
		if (/^\|-/.test(line)) continue;
		rows.push(
			line
				.slice(1, -1)
				.split('|')
				.map((cell) => cell.trim()),
		);
	}
	return rows;
}

describe('a run recorded by npm test', () => {
	it('shows each file with its whole time, tests and outcome, slowest first', async () => {
		await writeRecording(REPORT, RECORDING);
		const suite = await readSuiteTimes(folder, ROOT);
		expect(suite.files).toEqual([
			{
				file: 'tests/integration/c.test.ts',
				project: 'integration',
				tests: 1,
				failed: 0,
				wholeMs: 20_000,
				testsMs: 100,
				status: 'passed',
			},
			{
				file: 'tests/e2e/b.test.ts',
				project: 'e2e',
				tests: 3,
				failed: 1,
				wholeMs: 10_000,
				testsMs: 7000,
				status: 'failed',
			},
			{
				file: 'tests/unit/a.test.ts',
				project: 'unit',
				tests: 2,
				failed: 0,
				wholeMs: 700,
				testsMs: 400,
				status: 'passed',
			},
			{
				file: 'tests/unit/d.test.ts',
				project: 'unit',
				tests: 0,
				failed: 0,
				wholeMs: 300,
				testsMs: 0,
				status: 'no result',
			},
		]);
		expect(suite).toMatchObject({
			command: 'vitest run',
			commit: '1a2b3c4',
			startedAt: '2026-11-27T10:00:00.000Z',
			outcome: 'failed',
			wallMs: 60_000,
			tests: 6,
			failedTests: 1,
		});
	});

	it('adds the time up by project and puts the rest outside the files', async () => {
		await writeRecording(REPORT, RECORDING);
		const suite = await readSuiteTimes(folder, ROOT);
		expect(byProject(suite.files)).toEqual([
			{ project: 'integration', files: 1, tests: 1, ms: 20_000 },
			{ project: 'e2e', files: 1, tests: 3, ms: 10_000 },
			{ project: 'unit', files: 2, tests: 2, ms: 1000 },
		]);
		expect(outsideMs(suite)).toBe(29_000);
	});

	it('prints the by-project and by-file tables bench:tests prints', async () => {
		await writeRecording(REPORT, RECORDING);
		const markdown = timesMarkdown(await readSuiteTimes(folder, ROOT));
		expect(markdown.split('\n')[0]).toBe(
			'`vitest run` at 1a2b3c4, started 2026-11-27T10:00:00.000Z: 6 tests in 4 files, 60.0 s in all.',
		);
		expect(markdown).toContain('**vitest failed, 1 tests failed**: times of a failing run.');
		expect(rowsUnder(markdown, '## By project')).toEqual([
			['project', 'files', 'tests', 'time', 'share'],
			['integration', '1', '1', '20.0 s', '33 %'],
			['e2e', '1', '3', '10.0 s', '17 %'],
			['unit', '2', '2', '1.0 s', '2 %'],
			['outside the files', '', '', '29.0 s', '48 %'],
			['total', '4', '6', '60.0 s', '100 %'],
		]);
		expect(rowsUnder(markdown, '## By file, slowest first')).toEqual([
			['file', 'project', 'tests', 'time', 'in tests', 'import and hooks', 'outcome'],
			['tests/integration/c.test.ts', 'integration', '1', '20.0 s', '0.1 s', '19.9 s', 'passed'],
			['tests/e2e/b.test.ts', 'e2e', '3', '10.0 s', '7.0 s', '3.0 s', '1 failed'],
			['tests/unit/a.test.ts', 'unit', '2', '0.7 s', '0.4 s', '0.3 s', 'passed'],
			['tests/unit/d.test.ts', 'unit', '0', '0.3 s', '0.0 s', '0.3 s', 'no result'],
		]);
	});

	it('says which file is missing or broken, and that npm test writes it', async () => {
		await expect(readSuiteTimes(folder, ROOT)).rejects.toThrow(
			`${path.join(folder, 'vitest.json')} is missing: npm test writes it`,
		);
		await writeRecording(REPORT, { ...RECORDING, wallMs: 'a minute' });
		await expect(readSuiteTimes(folder, ROOT)).rejects.toThrow(
			`${path.join(folder, 'file-times.json')} is not what vitest wrote: wallMs:`,
		);
		await writeFile(path.join(folder, 'vitest.json'), '{"numTotalTests": 6,');
		await expect(readSuiteTimes(folder, ROOT)).rejects.toThrow(
			`${path.join(folder, 'vitest.json')} is not JSON:`,
		);
	});

	it('names a path that is neither a recording nor a result', async () => {
		await expect(readSuiteTimes(path.join(folder, 'gone'), ROOT)).rejects.toThrow(
			`${path.join(folder, 'gone')} does not exist`,
		);
		await writeFile(path.join(folder, 'times.txt'), 'tests took long');
		await expect(readSuiteTimes(path.join(folder, 'times.txt'), ROOT)).rejects.toThrow(
			"times.txt: expected a recording folder (reports/test-times), or a result's .md or .json",
		);
	});
});

/** The head of bench/results/test-times.md as it was written before npm test recorded its runs. */
const OLD_RESULT = `# Test suite: time by project and file

2026-11-27T13:46:45.332Z, 2 cores (AMD EPYC), 23.5 GiB memory.

\`vitest run\` at 26e13cb: 1997 tests in 138 files, 2716.5 s in all.

**vitest exited 1, 6 tests failed**: times of a failing run.

## By project

| project           | files | tests | time     | share |
|-------------------|-------|-------|----------|-------|
| integration       | 2     | 16    | 379.7 s  | 45 %  |
| total             | 138   | 1997  | 2716.5 s | 100 % |

## By file, slowest first

| file                                                | project     | tests | time    | in tests | import and hooks | outcome  |
|-----------------------------------------------------|-------------|-------|---------|----------|------------------|----------|
| tests/integration/images.test.ts                    | integration | 11    | 220.9 s | 63.3 s   | 157.6 s          | 1 failed |
| tests/integration/scale.test.ts                     | integration | 5     | 158.8 s | 0.1 s    | 158.7 s          | passed   |
| tests/e2e/reading-guides.test.ts                    | e2e         | 22    | 105.9 s | 92.1 s   | 13.9 s           | passed   |
| tests/unit/schemas/key.test.ts                      | unit        | 20    | 0.1 s   | 0.0 s    | 0.1 s            | passed   |
`;

describe('an earlier result in Markdown', () => {
	it('reads the run and its files from a result written before runs were recorded', () => {
		const before = parseResultMarkdown(OLD_RESULT, 'test-times.md');
		expect(before).toMatchObject({
			command: 'vitest run',
			commit: '26e13cb',
			outcome: 'failed',
			wallMs: 2_716_500,
			tests: 1997,
			failedTests: 6,
		});
		expect(before.files.map((file) => [file.file, file.project, file.tests, file.failed])).toEqual([
			['tests/integration/images.test.ts', 'integration', 11, 1],
			['tests/integration/scale.test.ts', 'integration', 5, 0],
			['tests/e2e/reading-guides.test.ts', 'e2e', 22, 0],
			['tests/unit/schemas/key.test.ts', 'unit', 20, 0],
		]);
		expect(before.files.map((file) => [file.wholeMs, file.testsMs])).toEqual([
			[220_900, 63_300],
			[158_800, 100],
			[105_900, 92_100],
			[100, 0],
		]);
	});

	it('reads back what it prints, to the tenth of a second', async () => {
		await writeRecording(REPORT, RECORDING);
		const printed = timesMarkdown(await readSuiteTimes(folder, ROOT));
		const read = parseResultMarkdown(`# Test suite\n\n${printed}`, 'printed.md');
		expect(read).toMatchObject({
			command: 'vitest run',
			commit: '1a2b3c4',
			startedAt: '2026-11-27T10:00:00.000Z',
			outcome: 'failed',
			wallMs: 60_000,
			tests: 6,
			failedTests: 1,
		});
		expect(read.files.map((file) => [file.file, file.wholeMs, file.status])).toEqual([
			['tests/integration/c.test.ts', 20_000, 'passed'],
			['tests/e2e/b.test.ts', 10_000, 'failed'],
			['tests/unit/a.test.ts', 700, 'passed'],
			['tests/unit/d.test.ts', 300, 'no result'],
		]);
	});

	it('reads back the run, not the run it was compared with, from a result with a comparison', async () => {
		await writeRecording(REPORT, RECORDING);
		const after = await readSuiteTimes(folder, ROOT);
		const before = parseResultMarkdown(OLD_RESULT, 'test-times.md');
		const written = `# Test suite\n\n${comparisonMarkdown(before, after)}\n\n# This run\n\n${timesMarkdown(after)}`;
		const read = parseResultMarkdown(written, 'written.md');
		expect(read).toMatchObject({ commit: '1a2b3c4', wallMs: 60_000, tests: 6 });
		expect(read.files.map((file) => file.file)).toEqual([
			'tests/integration/c.test.ts',
			'tests/e2e/b.test.ts',
			'tests/unit/a.test.ts',
			'tests/unit/d.test.ts',
		]);
	});

	it('names the file and the part it cannot read', () => {
		expect(() => parseResultMarkdown('# Times\n\nNothing ran.\n', 'empty.md')).toThrow(
			'empty.md has no line saying "<command> at <commit>: <N> tests in <N> files, <N> s in all."',
		);
		expect(() =>
			parseResultMarkdown(OLD_RESULT.replace('## By file, slowest first', '## Files'), 'old.md'),
		).toThrow('old.md has no table under a heading "By file, slowest first"');
		expect(() =>
			parseResultMarkdown(OLD_RESULT.replace('158.8 s', 'two minutes'), 'old.md'),
		).toThrow(
			'old.md, by-file table, row 2, time: expected a time such as "12.3 s", found "two minutes"',
		);
	});
});

describe('an earlier result in JSON', () => {
	it('reads the files of bench/results/test-times.json, slowest first, counting their tests', () => {
		const text = JSON.stringify({
			date: '2026-11-27T12:53:54.663Z',
			data: {
				command: 'vitest run --project unit',
				code: 0,
				wallMs: 136_791,
				files: [
					{
						file: 'tests/unit/a.test.ts',
						project: 'unit',
						tests: 3,
						failed: 0,
						wholeMs: 900,
						testsMs: 800,
					},
					{
						file: 'tests/unit/b.test.ts',
						project: 'unit',
						tests: 19,
						failed: 2,
						wholeMs: 8696,
						testsMs: 6210,
					},
				],
			},
		});
		const before = parseResultJson(text, 'test-times.json');
		expect(before).toMatchObject({
			command: 'vitest run --project unit',
			startedAt: '2026-11-27T12:53:54.663Z',
			outcome: 'passed',
			wallMs: 136_791,
			tests: 22,
			failedTests: 2,
		});
		expect(before.files.map((file) => file.file)).toEqual([
			'tests/unit/b.test.ts',
			'tests/unit/a.test.ts',
		]);
	});

	it('says what is wrong with a JSON that is not such a result', async () => {
		expect(() =>
			parseResultJson('{"date": "today", "data": {"command": "vitest run"}}', 'x.json'),
		).toThrow('x.json is not a result of bench/test-times.ts: data.wallMs:');
		await writeFile(path.join(folder, 'cut.json'), '{"date": ');
		await expect(readSuiteTimes(path.join(folder, 'cut.json'), ROOT)).rejects.toThrow(
			`${path.join(folder, 'cut.json')} is not JSON:`,
		);
	});
});

describe('a run whose files ran two at a time', () => {
	/** The same run's files with the spans the reporter records: a and c side by side, then b. */
	const SIDE_BY_SIDE: Recording = {
		...RECORDING,
		wallMs: 40_000,
		files: RECORDING.files.map((file) => {
			const span = {
				'a.test.ts': [2000, 2700],
				'c.test.ts': [2500, 22_500],
				'b.test.ts': [22_500, 32_500],
				'd.test.ts': [32_600, 32_900],
			}[path.basename(file.file)] ?? [0, 0];
			return { ...file, startMs: span[0] ?? 0, endMs: span[1] ?? 0 };
		}),
	};

	it('counts the time while any of the files ran once, however they overlap', () => {
		const row = (startMs: number, endMs: number) => ({
			file: 'f',
			project: 'unit',
			tests: 1,
			failed: 0,
			wholeMs: endMs - startMs,
			testsMs: 0,
			startMs,
			endMs,
		});
		expect(spanOf([row(0, 10), row(5, 20), row(30, 40), row(32, 35)])).toBe(30);
		expect(spanOf([row(30, 40), row(0, 10)])).toBe(20);
		expect(spanOf([row(0, 10), { ...row(0, 10), startMs: undefined }])).toBeUndefined();
	});

	it("gives each project its files' time and the time while they ran, and the rest outside", async () => {
		await writeRecording(REPORT, SIDE_BY_SIDE);
		const suite = await readSuiteTimes(folder, ROOT);
		expect(byProject(suite.files)).toEqual([
			{ project: 'integration', files: 1, tests: 1, ms: 20_000, spanMs: 20_000 },
			{ project: 'e2e', files: 1, tests: 3, ms: 10_000, spanMs: 10_000 },
			{ project: 'unit', files: 2, tests: 2, ms: 1000, spanMs: 1000 },
		]);
		// The files covered 2.0 s to 32.5 s and 32.6 s to 32.9 s: 30.8 s of the run's 40 s.
		expect(outsideMs(suite)).toBe(9200);
		expect(rowsUnder(timesMarkdown(suite), '## By project')).toEqual([
			['project', 'files', 'tests', 'time of its files', 'while they ran', 'share'],
			['integration', '1', '1', '20.0 s', '20.0 s', '50 %'],
			['e2e', '1', '3', '10.0 s', '10.0 s', '25 %'],
			['unit', '2', '2', '1.0 s', '1.0 s', '3 %'],
			['outside the files', '', '', '', '9.2 s', '23 %'],
			['total', '4', '6', '31.0 s', '40.0 s', '100 %'],
		]);
		expect(timesMarkdown(suite)).toContain('Files ran two at a time (vitest.config.ts)');
	});

	it('compares each stage by the time while its files ran, with a run recorded one file at a time', async () => {
		await writeRecording(REPORT, SIDE_BY_SIDE);
		const after = await readSuiteTimes(folder, ROOT);
		await writeRecording(REPORT, RECORDING);
		const before = await readSuiteTimes(folder, ROOT);
		const twoUnitFilesAtOnce: SuiteTimes = {
			...after,
			files: after.files.map((file) =>
				file.file === 'tests/unit/d.test.ts' ? { ...file, startMs: 2000, endMs: 2300 } : file,
			),
		};
		expect(
			rowsUnder(comparisonMarkdown(before, twoUnitFilesAtOnce), '## By stage, before and after'),
		).toEqual([
			['stage', 'files / tests before', 'files / tests after', 'before', 'after', 'change'],
			['integration', '1 / 1', '1 / 1', '20.0 s', '20.0 s', '0 %'],
			['e2e', '1 / 3', '1 / 3', '10.0 s', '10.0 s', '0 %'],
			['unit', '2 / 2', '2 / 2', '1.0 s', '0.7 s', '-30 %'],
			['outside the files', '', '', '29.0 s', '9.5 s', '-67 %'],
			['total', '4 / 6', '4 / 6', '60.0 s', '40.0 s', '-33 %'],
		]);
	});
});

describe('before and after', () => {
	/** A run of files of two tests each, named by project and number, slowest first. */
	function run(
		files: readonly [project: string, n: number, ms: number][],
		wallMs: number,
	): SuiteTimes {
		const rows = files
			.map(([project, n, ms]) => ({
				file: `tests/${project}/f${n}.test.ts`,
				project,
				tests: 2,
				failed: 0,
				wholeMs: ms,
				testsMs: 0,
				status: 'passed',
			}))
			.sort((a, b) => b.wholeMs - a.wholeMs);
		return { command: 'vitest run', wallMs, tests: files.length * 2, failedTests: 0, files: rows };
	}

	/** Files 1 to `count` of a project, the nth taking `ms(n)`. */
	const numbered = (
		project: string,
		count: number,
		ms: (n: number) => number,
	): [string, number, number][] =>
		Array.from({ length: count }, (_, index) => [project, index + 1, ms(index + 1)]);

	it('gives each stage before and after with its change, then outside the files and the total', () => {
		const before = run([...numbered('e2e', 4, (n) => n * 10_000), ['unit', 1, 5000]], 200_000);
		const after = run([...numbered('e2e', 4, (n) => n * 7500), ['integration', 1, 3000]], 120_000);
		expect(rowsUnder(comparisonMarkdown(before, after), '## By stage, before and after')).toEqual([
			['stage', 'files / tests before', 'files / tests after', 'before', 'after', 'change'],
			['e2e', '4 / 8', '4 / 8', '100.0 s', '75.0 s', '-25 %'],
			['integration', '–', '1 / 2', '–', '3.0 s', '–'],
			['unit', '1 / 2', '–', '5.0 s', '–', '–'],
			['outside the files', '', '', '95.0 s', '42.0 s', '-56 %'],
			['total', '5 / 10', '5 / 10', '200.0 s', '120.0 s', '-40 %'],
		]);
	});

	it('lists the ten slowest files after, each with its time before, or new', () => {
		const before = run(
			numbered('e2e', 11, (n) => n * 1000),
			100_000,
		);
		// f12 is new; f1 and f2 are now the two fastest and drop out of the ten.
		const after = run(
			numbered('e2e', 12, (n) => (n <= 2 ? n * 100 : n * 1100)),
			100_000,
		);
		const rows = rowsUnder(
			comparisonMarkdown(before, after),
			'## The 10 slowest files after, with their time before',
		);
		expect(rows).toEqual([
			['', 'file', 'stage', 'before', 'after', 'change', 'outcome'],
			['1', 'tests/e2e/f12.test.ts', 'e2e', 'new', '13.2 s', '–', 'passed'],
			['2', 'tests/e2e/f11.test.ts', 'e2e', '11.0 s', '12.1 s', '+10 %', 'passed'],
			['3', 'tests/e2e/f10.test.ts', 'e2e', '10.0 s', '11.0 s', '+10 %', 'passed'],
			['4', 'tests/e2e/f9.test.ts', 'e2e', '9.0 s', '9.9 s', '+10 %', 'passed'],
			['5', 'tests/e2e/f8.test.ts', 'e2e', '8.0 s', '8.8 s', '+10 %', 'passed'],
			['6', 'tests/e2e/f7.test.ts', 'e2e', '7.0 s', '7.7 s', '+10 %', 'passed'],
			['7', 'tests/e2e/f6.test.ts', 'e2e', '6.0 s', '6.6 s', '+10 %', 'passed'],
			['8', 'tests/e2e/f5.test.ts', 'e2e', '5.0 s', '5.5 s', '+10 %', 'passed'],
			['9', 'tests/e2e/f4.test.ts', 'e2e', '4.0 s', '4.4 s', '+10 %', 'passed'],
			['10', 'tests/e2e/f3.test.ts', 'e2e', '3.0 s', '3.3 s', '+10 %', 'passed'],
		]);
	});

	it('writes a change as a signed whole percentage, and none without a time before', () => {
		expect(change(1000, 1500)).toBe('+50 %');
		expect(change(1000, 400)).toBe('-60 %');
		expect(change(1000, 1000)).toBe('0 %');
		expect(change(undefined, 1000)).toBe('–');
		expect(change(0, 1000)).toBe('–');
	});
});

describe('the file-times reporter', () => {
	/** A test module as vitest gives it to a reporter, with its phases' durations. */
	function testModule(file: string, project: string): TestModule {
		return {
			moduleId: file,
			project: { name: project },
			diagnostic: () => ({
				environmentSetupDuration: 10,
				prepareDuration: 20,
				setupDuration: 30,
				collectDuration: 400,
				duration: 5000,
			}),
		} as unknown as TestModule;
	}

	it('records the run and each file into the file vitest.config.ts names', async () => {
		vi.stubEnv('TEST_TIMES_FILE', '');
		const out = path.join(folder, 'reports', 'test-times', 'file-times.json');
		new FileTimesReporter({ outputFile: out }).onTestRunEnd(
			[testModule('/work/portal/tests/e2e/b.test.ts', 'e2e')],
			[],
			'passed',
		);
		const recording = JSON.parse(await readFile(out, 'utf8')) as Recording;
		expect(recording.files).toEqual([
			{
				file: '/work/portal/tests/e2e/b.test.ts',
				project: 'e2e',
				setupMs: 60,
				collectMs: 400,
				runMs: 5000,
			},
		]);
		expect(recording.outcome).toBe('passed');
		expect(recording.command).toMatch(/^vitest\b/);
		expect(recording.wallMs).toBeGreaterThan(0);
		expect(Date.parse(recording.startedAt)).toBeLessThanOrEqual(Date.now());
	});

	it('records when each file was handed to a worker and when it ended, so overlapping files are seen', async () => {
		vi.stubEnv('TEST_TIMES_FILE', '');
		const out = path.join(folder, 'file-times.json');
		const reporter = new FileTimesReporter({ outputFile: out });
		const [first, second] = [
			testModule('/work/portal/tests/e2e/b.test.ts', 'e2e'),
			testModule('/work/portal/tests/unit/a.test.ts', 'unit'),
		];
		const clock = vi.spyOn(performance, 'now');
		clock.mockReturnValueOnce(1000);
		reporter.onTestModuleQueued(first);
		clock.mockReturnValueOnce(1500);
		reporter.onTestModuleQueued(second);
		clock.mockReturnValueOnce(4000);
		reporter.onTestModuleEnd(second);
		clock.mockReturnValueOnce(9000);
		reporter.onTestModuleEnd(first);
		clock.mockReturnValueOnce(9500);
		reporter.onTestRunEnd([first, second], [], 'passed');
		clock.mockRestore();
		const recording = JSON.parse(await readFile(out, 'utf8')) as Recording;
		expect(recording.files.map(({ project, startMs, endMs }) => [project, startMs, endMs])).toEqual(
			[
				['e2e', 1000, 9000],
				['unit', 1500, 4000],
			],
		);
		expect(recording.wallMs).toBe(9500);
	});

	it('writes where TEST_TIMES_FILE says when bench:tests sets it', async () => {
		const out = path.join(folder, 'scratch.json');
		vi.stubEnv('TEST_TIMES_FILE', out);
		new FileTimesReporter({ outputFile: path.join(folder, 'not-here.json') }).onTestRunEnd(
			[testModule('/work/portal/tests/unit/a.test.ts', 'unit')],
			[],
			'failed',
		);
		const recording = JSON.parse(await readFile(out, 'utf8')) as Recording;
		expect(recording.outcome).toBe('failed');
		await expect(readFile(path.join(folder, 'not-here.json'))).rejects.toThrow('ENOENT');
	});

	it('says what it needs when it is given no file to write', () => {
		vi.stubEnv('TEST_TIMES_FILE', '');
		expect(() => new FileTimesReporter()).toThrow(
			'file-times-reporter needs a file to write: set TEST_TIMES_FILE, or give the reporter an outputFile in vitest.config.ts',
		);
	});
});

describe("vitest's JSON report, recorded quietly", () => {
	it('writes the report to its outputFile, making the folder, and prints nothing after the summary', async () => {
		const out = path.join(folder, 'reports', 'test-times', 'vitest.json');
		const reporter = new QuietJsonReporter({ outputFile: out });
		const log = vi.fn();
		Object.assign(reporter, { ctx: { logger: { log } } });
		await reporter.writeReport('{"numTotalTests":6}');
		await expect(readFile(out, 'utf8')).resolves.toBe('{"numTotalTests":6}');
		expect(log).not.toHaveBeenCalled();
	});
});

describe('node bench/test-times.ts --from, as the lead runs it after .ci/run', () => {
	const SCRIPT = path.resolve(import.meta.dirname, '../../../bench/test-times.ts');

	/** Runs the script on this Node; its exit code and what it printed. */
	function script(...args: string[]): { status: number | null; stdout: string; stderr: string } {
		return spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });
	}

	it('runs as the README shows it, against the committed result, from the recording npm test left', async () => {
		// A checkout's layout: npm test's recording in reports/test-times, the last committed run.
		await mkdir(path.join(folder, 'reports', 'test-times'), { recursive: true });
		await mkdir(path.join(folder, 'bench', 'results'), { recursive: true });
		await writeFile(
			path.join(folder, 'reports', 'test-times', 'vitest.json'),
			JSON.stringify(REPORT),
		);
		await writeFile(
			path.join(folder, 'reports', 'test-times', 'file-times.json'),
			JSON.stringify(RECORDING),
		);
		await copyFile(
			path.resolve(import.meta.dirname, '../../../bench/results/test-times.md'),
			path.join(folder, 'bench', 'results', 'test-times.md'),
		);
		const { status, stdout, stderr } = spawnSync(
			process.execPath,
			[SCRIPT, '--from', 'reports/test-times', '--before', 'bench/results/test-times.md'],
			{ cwd: folder, encoding: 'utf8' },
		);
		expect(status, stderr).toBe(0);
		expect(rowsUnder(stdout, '## By stage, before and after').map((row) => row[0])).toEqual([
			'stage',
			'integration',
			'e2e',
			'unit',
			'outside the files',
			'total',
		]);
	});

	it('prints the stages before and after and the ten slowest from a recording, running nothing', async () => {
		await writeRecording(REPORT, RECORDING);
		const before = path.join(folder, 'before.md');
		await writeFile(before, OLD_RESULT);
		const { status, stdout } = script('--from', folder, '--before', before);
		expect(status).toBe(0);
		expect(rowsUnder(stdout, '## By stage, before and after').at(-1)).toEqual([
			'total',
			// The earlier result's own count of tests, and the files its table lists (four here).
			'4 / 1997',
			'4 / 6',
			'2716.5 s',
			'60.0 s',
			'-98 %',
		]);
		expect(rowsUnder(stdout, '## The 10 slowest files after, with their time before').length).toBe(
			5,
		);
		expect(rowsUnder(stdout, '## By project').at(-1)).toEqual([
			'total',
			'4',
			'6',
			'60.0 s',
			'100 %',
		]);
	});

	it('refuses in one line an option it lacks a path for, or one of vitest beside --from', () => {
		const bare = script('--from');
		expect(bare.status).toBe(2);
		expect(bare.stderr.trim()).toBe('bench/test-times.ts: --from needs a path after it');
		const mixed = script('--from', folder, '--project', 'unit');
		expect(mixed.status).toBe(2);
		expect(mixed.stderr.trim()).toBe(
			'bench/test-times.ts: --from prints a recorded run and runs nothing: --project unit is not one of its options (--before, --record)',
		);
	});
});
