/** The order test files start in: slowest first by their last recorded time, unknown ones first. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lastTimes, slowestFirst } from '../../../support/slowest-first-sequencer.ts';

const ROOT = '/work/portal';
let folder: string;
beforeEach(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-slowest-first-'));
});
afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe('the order files start in', () => {
	const times = new Map([
		['tests/integration/images.test.ts', 190_000],
		['tests/e2e/try-it.test.ts', 48_000],
		['tests/unit/a.test.ts', 300],
	]);

	it('starts the slowest first whatever its project, and files without a time before them all', () => {
		const given = [
			'tests/e2e/try-it.test.ts',
			'tests/unit/a.test.ts',
			'tests/unit/new.test.ts',
			'tests/integration/images.test.ts',
			'tests/e2e/new.test.ts',
		];
		expect(slowestFirst(given, (file) => file, times)).toEqual([
			'tests/unit/new.test.ts',
			'tests/e2e/new.test.ts',
			'tests/integration/images.test.ts',
			'tests/e2e/try-it.test.ts',
			'tests/unit/a.test.ts',
		]);
	});

	it('keeps the order given when no time is known', () => {
		const given = ['c', 'a', 'b'];
		expect(slowestFirst(given, (file) => file, new Map())).toEqual(['c', 'a', 'b']);
	});
});

describe('the last times', () => {
	it("reads npm test's recording first, and the committed result for the files it lacks", async () => {
		const recording = path.join(folder, 'file-times.json');
		const committed = path.join(folder, 'test-times.json');
		await writeFile(
			recording,
			JSON.stringify({
				command: 'vitest run tests/e2e/try-it.test.ts',
				files: [
					{ file: `${ROOT}/tests/e2e/try-it.test.ts`, setupMs: 100, collectMs: 900, runMs: 40_000 },
				],
			}),
		);
		await writeFile(
			committed,
			JSON.stringify({
				date: '2026-11-27',
				data: {
					files: [
						{ file: 'tests/e2e/try-it.test.ts', wholeMs: 90_000 },
						{ file: 'tests/integration/images.test.ts', wholeMs: 190_000 },
					],
				},
			}),
		);
		expect(lastTimes([recording, committed], ROOT)).toEqual(
			new Map([
				['tests/e2e/try-it.test.ts', 41_000],
				['tests/integration/images.test.ts', 190_000],
			]),
		);
	});

	it('passes over a source that is missing, not JSON or of another shape', async () => {
		const broken = path.join(folder, 'broken.json');
		const other = path.join(folder, 'other.json');
		const good = path.join(folder, 'good.json');
		await writeFile(broken, '{ not json');
		await writeFile(other, JSON.stringify({ files: [{ path: 'x' }] }));
		await writeFile(
			good,
			JSON.stringify({ data: { files: [{ file: 'tests/unit/a.test.ts', wholeMs: 5 }] } }),
		);
		expect(lastTimes([path.join(folder, 'missing.json'), broken, other, good], ROOT)).toEqual(
			new Map([['tests/unit/a.test.ts', 5]]),
		);
		expect(lastTimes([path.join(folder, 'missing.json'), broken], ROOT)).toEqual(new Map());
	});
});
