/**
 * `node bench/generate-views.ts <count> <folder> [people]`: the views the scale benchmarks build,
 * by default each with eight people of its own.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../../support/processes.ts';
import { viewSchema } from '../../../src/schemas/view.ts';

let folder: string;
beforeEach(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-generate-views-'));
});
afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

/** Runs the generator with `args`, on the pinned Node. */
function generate(...args: string[]) {
	return spawnSync(process.execPath, [path.join(ROOT, 'bench/generate-views.ts'), ...args], {
		cwd: ROOT,
		encoding: 'utf8',
	});
}

/** Every user's email in the views written to `views`. */
async function emails(views: string): Promise<string[]> {
	const files = await readdir(views);
	const parsed = await Promise.all(
		files.map(async (file) =>
			viewSchema.parse(JSON.parse(await readFile(path.join(views, file), 'utf8'))),
		),
	);
	return parsed.flatMap((view) => view.users.map((user) => user.email));
}

describe('generate-views', () => {
	it('writes views whose users are all different people by default', async () => {
		const views = path.join(folder, 'views');
		const run = generate('20', views);
		expect(run.stderr).toBe('');
		expect(run.stdout).toBe(`Wrote 20 views of distinct people to ${views}\n`);
		const all = await emails(views);
		expect(all).toHaveLength(160);
		expect(new Set(all).size).toBe(160);
	});

	it('names a wrong argument in one line and exits 1, without a stack trace', () => {
		const run = generate('20', path.join(folder, 'views'), 'everyone');
		expect(run.status).toBe(1);
		expect(run.stderr).toBe(
			'generate-views: people: expected distinct, teams or distinct-with-on-call\n' +
				'Usage: node bench/generate-views.ts <count> <folder> [distinct|teams|distinct-with-on-call]\n',
		);
	});
});
