/**
 * The closing line of every test run, on a small suite of its own run by vitest: each skipped test
 * is named with its file and reason, unless the run picked tests by name.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin } from '../../../support/processes.ts';

const REPORTER = path.resolve(import.meta.dirname, '../../support/summary-reporter.ts');
let suite: string;

/** Runs the small suite with the summary reporter alone; the lines it printed. */
function run(...args: string[]): string[] {
	const result = spawnSync(
		process.execPath,
		[bin('vitest'), 'run', '--root', suite, '--globals', `--reporter=${REPORTER}`, ...args],
		{ cwd: suite, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
	);
	return result.stdout.trim().split('\n');
}

beforeAll(async () => {
	suite = await mkdtemp(path.join(os.tmpdir(), 'summary-reporter-'));
	await writeFile(
		path.join(suite, 'reader.test.ts'),
		[
			"describe('a reader', () => {",
			"\tit('passes', () => {});",
			"\tit.skip('is skipped in the code', () => {});",
			"\tit.todo('is still to write');",
			"\tit('skips itself with a reason', (ctx) => ctx.skip('no kubectl here'));",
			'});',
		].join('\n'),
	);
});

afterAll(async () => {
	await rm(suite, { recursive: true, force: true });
});

describe('the summary of a test run', () => {
	it('names every skipped test, its file and its reason, so none is skipped unseen', () => {
		expect(run()).toEqual([
			'vitest: skipped: reader.test.ts > a reader > is skipped in the code',
			'vitest: todo: reader.test.ts > a reader > is still to write',
			'vitest: skipped: reader.test.ts > a reader > skips itself with a reason (no kubectl here)',
			'vitest: 1 passed, 0 failed, 3 skipped',
		]);
	});

	it('counts the tests a name filter leaves out without naming each', () => {
		expect(run('-t', 'passes')).toEqual(['vitest: 1 passed, 0 failed, 3 skipped']);
	});
});
