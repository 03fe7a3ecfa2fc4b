/**
 * `npm run test:mutation`: installs StrykerJS on first use (tests/mutation/package.json, kept out
 * of the portal's own install), runs it over the code that guards input and output, prints the
 * score of each module and fails when the set falls under Stryker's `thresholds.break` or a
 * module under its floor
 * (MODULE_FLOORS). `--force` tests every mutant again instead of reusing the results in
 * tests/mutation/incremental.json for code and tests that did not change; `--record` (`npm run
 * bench:mutation`) writes the table to bench/results/mutation.md and .json.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { table, writeResult } from '../../bench/lib/report.ts';

/** The score every module should reach, in percent (issue 14); the table shows it. */
const MODULE_TARGET = 85;

/**
 * The lowest score each module may have, in percent: just under its score of 2026-11-22, so a
 * deleted or weakened test fails the run even where the module is above the target. Raise a
 * floor when tests are added; a module missing here is held to the target.
 */
const MODULE_FLOORS: Readonly<Record<string, number>> = {
	// 99 again since 2026-11-28 (100 %), 92 for a day: controls.test.ts tests each rule by which the
	// request log shows a control's value or its length only (shownControls, shownRefusal) and a
	// quote left open as people type it.
	'mock/controls.ts': 99,
	'mock/authorization.ts': 99,
	// 99 since 2026-11-28 (100 %): the string escapes (jsString, pyString, singleQuoted) are
	// functions, not constants holding arrow functions that the run, loading the module once, never
	// saw mutated; a unit test sends two header parameters in PHP.
	'src/site/code-samples.ts': 99,
	// 96 since 2026-11-28 (96.7 %), 93 before: a test counts the cache look-ups of a reading that
	// failed, so forgetting it is tested. Left: the check that the reading forgotten is the failed
	// one and not a newer one (two readings racing), the slug order's ties, one static text.
	'src/sources/contract.ts': 96,
	'src/shared/curl.ts': 99,
	'mock/directory.ts': 99,
	'src/sources/openapi.ts': 88,
	'src/client/try-it/check.ts': 99,
	// Moved out of check.ts (2026-11-27) with its tests: the same code, held to the same floor.
	'src/shared/contract-check.ts': 99,
	// 99 again since 2026-11-28 (100 %), 92 for a day: the summaries of a failed send (a fault asked
	// for, a header the mock's CORS refuses) and the reading of the proxy's sl-violations are
	// unit-tested in try-it/exchange-failures.test.ts, not only in Chromium.
	'src/client/try-it/exchange.ts': 99,
	'src/schemas/address.ts': 99,
	// 99 again since 2026-11-28 (99.7 %), 90 for a day: the cache's branches are one, a fixture
	// named badly with cached bytes and a folder whose listed fixtures are all gone are tested, and
	// the mutation run counts a start's file-system calls (fixture-folder-calls.test.ts). Left: one
	// more undefined among the keys kept in the cache, seen only in when the file is rewritten.
	'src/sources/fixtures.ts': 99,
	// 92 since 2026-11-28 (92.6 %): what is left is the fast way of reading well-formed JSON (colons
	// counted, fields counted, JSON.parse first), whose mutants send a fixture the slower way to the
	// same value, and the guards after the slower parser that no text reaches.
	'src/sources/fixture-file.ts': 92,
	'src/schemas/key.ts': 99,
	'src/schemas/timestamp.ts': 99,
	'src/schemas/view.ts': 99,
};

/** The floor of one module. */
const floorOf = (file: string): number => MODULE_FLOORS[file] ?? MODULE_TARGET;

const HERE = import.meta.dirname;
const ROOT = path.resolve(HERE, '../..');
const REPORT = path.join(ROOT, 'reports/mutation/mutation.json');
const args = process.argv.slice(2);
const force = args.includes('--force');
const record = args.includes('--record');
/** The committed results of the last full run, which only `--record` rewrites. */
const INCREMENTAL = path.join(HERE, 'incremental.json');
/**
 * The file Stryker reads and rewrites: a working copy of the committed one, so that `npm run
 * verify` never changes a tracked file (Stryker rewrites its incremental file on every run).
 */
const WORKING_INCREMENTAL = record
	? INCREMENTAL
	: path.join(ROOT, 'reports/mutation/incremental.json');

/** Installs Stryker's packages when they are missing or their lock is newer. */
function install(): void {
	const lock = path.join(HERE, 'package-lock.json');
	const installed = path.join(HERE, 'node_modules', '.package-lock.json');
	if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
	console.error('Installing StrykerJS (tests/mutation/package.json)…');
	const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
		cwd: HERE,
		stdio: 'inherit',
	});
	if (result.status !== 0) {
		console.error('Could not install tests/mutation/package.json; the messages above say why.');
		process.exit(1);
	}
}

/** One mutant as Stryker's JSON report holds it. */
interface ReportedMutant {
	status: string;
}

/** A module's counts and score. */
interface ModuleScore {
	file: string;
	mutants: number;
	detected: number;
	survived: number;
	noCoverage: number;
	ignored: number;
	score: number;
}

/**
 * The score as Stryker counts it: killed and timed-out mutants over those that ran or had no
 * test; compile and runtime errors and ignored (disabled) mutants count for neither.
 */
function scoreOf(file: string, mutants: readonly ReportedMutant[]): ModuleScore {
	const count = (...statuses: string[]): number =>
		mutants.filter(({ status }) => statuses.includes(status)).length;
	const detected = count('Killed', 'Timeout');
	const survived = count('Survived');
	const noCoverage = count('NoCoverage');
	const valid = detected + survived + noCoverage;
	return {
		file,
		mutants: mutants.length,
		detected,
		survived,
		noCoverage,
		ignored: count('Ignored'),
		score: valid === 0 ? 100 : (detected / valid) * 100,
	};
}

install();
if (!record) {
	mkdirSync(path.dirname(WORKING_INCREMENTAL), { recursive: true });
	if (existsSync(INCREMENTAL)) copyFileSync(INCREMENTAL, WORKING_INCREMENTAL);
}
const load = os.loadavg();
const started = performance.now();
const stryker = spawnSync(
	process.execPath,
	[
		path.join(HERE, 'node_modules/@stryker-mutator/core/bin/stryker.js'),
		'run',
		path.relative(ROOT, path.join(HERE, 'stryker.config.mjs')),
		...(force ? ['--force'] : []),
		'--incrementalFile',
		path.relative(ROOT, WORKING_INCREMENTAL),
	],
	{ cwd: ROOT, stdio: 'inherit' },
);
const seconds = (performance.now() - started) / 1000;
if (!existsSync(REPORT)) {
	console.error(
		`StrykerJS wrote no report (${path.relative(ROOT, REPORT)}); see its messages above.`,
	);
	process.exit(stryker.status ?? 1);
}

const report = JSON.parse(readFileSync(REPORT, 'utf8')) as {
	files: Record<string, { mutants: ReportedMutant[] }>;
};
const modules = Object.entries(report.files)
	.map(([file, { mutants }]) => scoreOf(file, mutants))
	.sort((a, b) => a.file.localeCompare(b.file));
const all = scoreOf(
	'the set',
	Object.values(report.files).flatMap(({ mutants }) => mutants),
);
const percent = (score: number): string => `${score.toFixed(1)} %`;
const scoreTable = table(
	['module', 'mutants', 'caught', 'survived', 'no test', 'disabled', 'score'],
	[...modules, all].map((m) => [
		m === all ? `**${m.file}**` : m.file,
		String(m.mutants),
		String(m.detected),
		String(m.survived),
		String(m.noCoverage),
		String(m.ignored),
		percent(m.score),
	]),
);
console.log(`\nMutation score by module (target ${MODULE_TARGET} % each):\n\n${scoreTable}\n`);

const low = modules.filter(({ file, score }) => score < floorOf(file));
for (const m of low) {
	console.error(
		`${m.file}: mutation score ${percent(m.score)}, under its floor of ${floorOf(m.file)} %; ` +
			`reports/mutation/index.html shows the ${m.survived + m.noCoverage} mutants no test caught.`,
	);
}

if (record) {
	const mode = force ? 'every mutant tested (`--force`)' : 'incremental';
	await writeResult({
		name: 'mutation',
		title: 'Mutation testing: the code that guards input and output',
		markdown: [
			scoreTable,
			'',
			'StrykerJS with the vitest runner over the unit tests (`vitest.mutation.config.ts`, no ' +
				`build), \`coverageAnalysis: 'perTest'\`, concurrency 2, ${mode}: ${seconds.toFixed(0)} s ` +
				`wall time, load average ${load.map((l) => l.toFixed(1)).join(', ')} at the start (the ` +
				'machine is shared). "Disabled" mutants are equivalent ones, each disabled in place with ' +
				'its reason.',
		].join('\n'),
		data: { seconds, load, modules, all },
	});
}

if (stryker.status !== 0) process.exit(stryker.status ?? 1);
if (low.length > 0) process.exit(1);
