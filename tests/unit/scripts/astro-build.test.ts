/**
 * `npm run build` runs Astro under the Node that runs it (the project's pinned one), whatever
 * `node` comes first on PATH: a machine's older Node is refused by Astro.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../support/processes.ts';

let folder: string;

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-other-node-'));
	// Another `node` first on PATH, as a machine's own older Node is.
	await writeFile(
		path.join(folder, 'node'),
		'#!/bin/sh\necho "not the project\'s Node" >&2\nexit 3\n',
	);
	await chmod(path.join(folder, 'node'), 0o755);
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe('npm run build', () => {
	it('runs Astro under its own Node, not the first node on PATH', () => {
		const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build.ts'), '--version'], {
			cwd: ROOT,
			encoding: 'utf8',
			env: { ...process.env, PATH: `${folder}:/usr/bin:/bin` },
			timeout: 60_000,
		});
		expect(run.stderr).not.toContain("not the project's Node");
		// Astro colours its output wherever CI is set, as it is in CI.
		expect(stripVTControlCharacters(run.stdout)).toMatch(/astro\s+v\d+\.\d+\.\d+/);
		expect(run.status).toBe(0);
	});
});
