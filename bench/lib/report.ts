/**
 * What every benchmark shares: the machine it ran on, a plain-text table, and writing a result to
 * `bench/results/<name>.json` and `<name>.md` under one line giving the date, the commit, the load
 * average before and after, and the machine (`runLine`).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM_PATH } from '../../support/browser.ts';

/**
 * Where results are written: bench/results/, or BENCH_RESULTS_DIR (a trial run at small sizes that
 * must leave the committed results alone).
 */
export const RESULTS_DIR = path.resolve(
	process.env['BENCH_RESULTS_DIR'] ?? path.join(import.meta.dirname, '..', 'results'),
);

/** This checkout: the commit a result names. */
const CHECKOUT = path.resolve(import.meta.dirname, '..', '..');

/**
 * The load average over one minute as the benchmark's process started: this module loads with
 * every benchmark, before it measures anything.
 */
const LOAD_AT_START = os.loadavg()[0] ?? Number.NaN;

/** Scratch space for generated fixtures, builds and the Starlight site (gitignored). */
export const WORK_DIR = path.resolve(import.meta.dirname, '..', '.work');

/** The machine a benchmark ran on. */
export interface Machine {
	cpu: string;
	cores: number;
	memoryGiB: number;
	os: string;
	node: string;
	chromium: string;
}

/** Reads the Chromium version from the binary the browser benchmarks launch. */
function chromiumVersion(): string {
	try {
		const out = execFileSync(CHROMIUM_PATH, ['--version'], {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'ignore'],
		});
		return out.trim();
	} catch {
		// No Chromium there: the report says where it looked.
		return `not found at ${CHROMIUM_PATH}`;
	}
}

/** The machine this process runs on. */
export function machine(): Machine {
	return {
		cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
		cores: os.availableParallelism(),
		memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
		os: `${os.type()} ${os.release()}`,
		node: process.version,
		chromium: chromiumVersion(),
	};
}

/** One line naming the machine, for the head of a markdown result. */
export function machineLine(m: Machine): string {
	return `${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB memory, ${m.os}, Node ${m.node}, ${m.chromium}`;
}

/** When a result was taken, at which commit, and how busy the machine was before and after. */
export interface RunFacts {
	/** The date and time the result was written, ISO 8601. */
	date: string;
	/** This checkout's commit, with "with changes" when its tracked files differ from it. */
	commit: string;
	/** The load average over one minute as the benchmark started and as it ended. */
	load: { before: number; after: number };
}

/** This run's facts, now: the date, this checkout's commit, and the load average then and now. */
export function runFacts(): RunFacts {
	return {
		date: new Date().toISOString(),
		commit: commitOf(CHECKOUT),
		load: { before: LOAD_AT_START, after: os.loadavg()[0] ?? Number.NaN },
	};
}

/**
 * The line under a result's title: the date, the commit, the load average (1 min) before and after,
 * and the machine.
 */
export function runLine(facts: RunFacts = runFacts(), m: Machine = machine()): string {
	return `${facts.date}, commit ${facts.commit}, load average (1 min) ${facts.load.before.toFixed(2)} before and ${facts.load.after.toFixed(2)} after; ${machineLine(m)}.`;
}

/** A markdown table with padded cells, readable as plain text too. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
	const widths = header.map((cell, column) =>
		Math.max(cell.length, ...rows.map((row) => (row[column] ?? '').length)),
	);
	const line = (row: readonly string[]): string =>
		`| ${header.map((_, column) => (row[column] ?? '').padEnd(widths[column] ?? 0)).join(' | ')} |`;
	return [
		line(header),
		`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
		...rows.map(line),
	].join('\n');
}

/** Bytes as KB with one decimal (1 KB = 1,024 bytes). */
export function kb(bytes: number): string {
	return `${(bytes / 1024).toFixed(1)} KB`;
}

/** Bytes as MB with one decimal. */
export function mb(bytes: number): string {
	return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

/** A budget check as a table cell. */
export function verdict(met: boolean | undefined): string {
	if (met === undefined) return 'not measured';
	return met ? 'met' : 'MISSED';
}

/** A benchmark's result: what it measured, as tables and as data. */
export interface BenchResult {
	/** The file name under bench/results/ (without extension). */
	name: string;
	/** The heading of the markdown file. */
	title: string;
	/** Markdown: tables and notes, in order. */
	markdown: string;
	/** The same figures as data. */
	data: unknown;
}

/** A result's markdown: its title, the run's line (`runLine`), then its tables and notes. */
export function resultMarkdown(
	result: Pick<BenchResult, 'title' | 'markdown'>,
	facts: RunFacts = runFacts(),
	m: Machine = machine(),
): string {
	return `# ${result.title}\n\n${runLine(facts, m)}\n\n${result.markdown.trim()}\n`;
}

/**
 * Prints a result and writes it as JSON and markdown, each with the date, the commit, the load
 * average before and after, and the machine.
 */
export async function writeResult(result: BenchResult): Promise<void> {
	const facts = runFacts();
	const m = machine();
	await mkdir(RESULTS_DIR, { recursive: true });
	await writeFile(
		path.join(RESULTS_DIR, `${result.name}.json`),
		`${JSON.stringify({ ...facts, machine: m, title: result.title, data: result.data }, null, '\t')}\n`,
	);
	const markdown = resultMarkdown(result, facts, m);
	await writeFile(path.join(RESULTS_DIR, `${result.name}.md`), markdown);
	console.log(`\n${markdown}`);
}

/** The commit a checkout is at, and whether it has changes beside it. */
export function commitOf(root: string): string {
	try {
		const commit = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], {
			encoding: 'utf8',
		}).trim();
		const changed = execFileSync(
			'git',
			['-C', root, 'status', '--porcelain', '--untracked-files=no'],
			{
				encoding: 'utf8',
			},
		).trim();
		return changed ? `${commit} with changes` : commit;
	} catch {
		// git absent or no checkout here: the report says so in place of a commit.
		return 'not a git checkout';
	}
}

/** The median of some numbers: the middle one, or the mean of the two middle ones. */
export function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2
		? (sorted[middle] ?? NaN)
		: ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}
