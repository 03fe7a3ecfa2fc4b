/**
 * The run's one build is made while the first files run: the files that read it wait for its ready
 * marker, and start once it is expected to be ready, after files that need no build.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readsSharedBuild } from '../../../support/reads-shared-build.ts';
import { afterSharedBuild } from '../../../support/slowest-first-sequencer.ts';
import { markerPath, sharedBuild, writeBuildMarker } from '../../support/shared-build.ts';

let folder: string;
let distDir: string;
beforeEach(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-shared-build-'));
	distDir = path.join(folder, 'dist');
	await mkdir(distDir);
});
afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe('a file that reads the shared build', () => {
	it('waits until the build has ended, then gets its folder and what it printed', async () => {
		let ready = false;
		const waiting = sharedBuild(distDir).then((build) => ({ build, ready }));
		await new Promise((resolve) => setTimeout(resolve, 300));
		ready = true;
		await writeBuildMarker(distDir, { status: 0, output: '12 page(s) built in 3.1s', ms: 300 });
		await expect(waiting).resolves.toEqual({
			build: { distDir, output: '12 page(s) built in 3.1s' },
			ready: true,
		});
	});

	it('fails with the exit status and what the build printed when the build failed', async () => {
		await writeBuildMarker(distDir, { status: 1, output: 'views/x.json: users: Required', ms: 5 });
		await expect(sharedBuild(distDir)).rejects.toThrow(
			/failed \(exit status 1\), so this file cannot run; what it printed:\nviews\/x\.json: users: Required/,
		);
	});

	it('fails naming the marker when no build ends in time, and in a project with no build', async () => {
		await expect(sharedBuild(distDir, 200)).rejects.toThrow(
			`wrote no ready marker (${markerPath(distDir)}) within 0.2 s`,
		);
		await expect(sharedBuild(undefined)).rejects.toThrow(/has no shared build/);
	});

	it('is known by its source: the build folder or preview asked for, or the helpers that use them', () => {
		for (const source of [
			"const distDir = inject('distDir');",
			'path.join(inject("distDir"), "x")',
			"inject('previewUrl')",
			"import { portalInChromium } from '../support/portal-in-chromium.ts';",
			"import { sharedBuild } from '../support/shared-build.ts';",
		]) {
			expect(readsSharedBuild(source), source).toBe(true);
		}
		for (const source of [
			"const port = inject('mockPort');",
			"inject('chromiumEndpoint')",
			"import { buildPortal } from '../../support/build.ts';",
		]) {
			expect(readsSharedBuild(source), source).toBe(false);
		}
	});
});

describe('the wait before each integration and e2e file', () => {
	/** What a module imports before it runs (its static imports, one a line), by specifier. */
	async function staticImports(file: string): Promise<string[]> {
		const source = await readFile(path.join(import.meta.dirname, file), 'utf8');
		return [...source.matchAll(/^import\b.*?['"]([^'"]+)['"];$/gm)].map((match) => match[1] ?? '');
	}

	it('loads nothing heavy for a file that needs no build, so each file does not start a second late', async () => {
		// vitest's node API (through the sequencer's module) once cost about a second per file.
		expect(await staticImports('../../support/wait-for-shared-build.ts')).toEqual([
			'node:fs/promises',
			'vitest',
			'../../support/reads-shared-build.ts',
		]);
		expect(await staticImports('../../../support/reads-shared-build.ts')).toEqual([]);
	});
});

describe('the order files start in, beside the shared build', () => {
	const times = new Map([
		['big-build', 90_000],
		['e2e-a', 40_000],
		['own-build', 30_000],
		['e2e-b', 20_000],
		['unit-a', 15_000],
		['unit-b', 10_000],
		['unit-c', 10_000],
	]);
	const needs = new Set(['e2e-a', 'e2e-b']);
	const order = (files: string[], workers = 2, buildMs = 25_000): string[] =>
		afterSharedBuild(
			files,
			(file) => times.get(file),
			(file) => needs.has(file),
			workers,
			buildMs,
		);

	it('keeps files that read the build until a worker is free after it is expected, slowest first otherwise', () => {
		const slowestFirst = [...times.keys()];
		// Worker 1 takes big-build; worker 2 own-build (till 30 s, past the build's 25 s), then e2e-a.
		expect(order(slowestFirst)).toEqual([
			'big-build',
			'own-build',
			'e2e-a',
			'e2e-b',
			'unit-a',
			'unit-b',
			'unit-c',
		]);
		// A longer build: worker 2 runs the unit files while it builds.
		expect(order(slowestFirst, 2, 60_000)).toEqual([
			'big-build',
			'own-build',
			'unit-a',
			'unit-b',
			'unit-c',
			'e2e-a',
			'e2e-b',
		]);
	});

	it('starts files that read the build when no other is left, and keeps the order when none does', () => {
		expect(order(['e2e-a', 'e2e-b'])).toEqual(['e2e-a', 'e2e-b']);
		expect(order(['unit-b', 'unit-a'], 2, 0)).toEqual(['unit-b', 'unit-a']);
		expect(order(['e2e-a', 'unit-c', 'e2e-b'], 1)).toEqual(['unit-c', 'e2e-a', 'e2e-b']);
	});
});
