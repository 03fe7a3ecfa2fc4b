/**
 * `npm run bench:reload`: how soon the live mock answers an edit. For each scale (the hand-written
 * fixtures, then generated sets), the mock starts on a copy; then one fixture is saved again and
 * again, as an editor saves it, with one user renamed each time, and the time from the save to the
 * first answer that carries the new name is measured. Also the start-up time to the first answer.
 * BENCH_RELOAD_SCALES picks the generated sizes (default 1000,10000); BENCH_RELOAD_EDITS the
 * number of edits per scale (default 10).
 */
import { mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { readSettings } from '../src/sources/settings.ts';
import { copyFixtures } from '../support/fixtures.ts';
import { bin, freePort, start } from '../support/processes.ts';
import { writeViewSet } from '../support/view-sets.ts';
import { table, verdict, writeResult } from './lib/report.ts';

const envSchema = z.object({
	BENCH_RELOAD_SCALES: z
		.string()
		.default('1000,10000')
		.transform((text) => text.split(',').filter(Boolean).map(Number))
		.pipe(z.array(z.number().int().min(1).max(100_000))),
	BENCH_RELOAD_EDITS: z.coerce.number().int().min(1).max(100).default(10),
});

/** What one scale measured. */
interface ReloadMeasure {
	views: number;
	startupMs: number;
	reloadMs: number[];
}

/** The median and the largest of a list. */
function summary(values: readonly number[]): { median: number; max: number } {
	const sorted = [...values].sort((a, b) => a - b);
	return {
		median: sorted[Math.floor(sorted.length / 2)] ?? Number.NaN,
		max: sorted.at(-1) ?? Number.NaN,
	};
}

/** Starts the mock on a fixture folder and measures start-up and reload latency. */
async function measure(viewsDir: string, edits: number): Promise<ReloadMeasure> {
	const names = (await readdir(viewsDir)).filter((name) => name.endsWith('.json')).sort();
	const file = path.join(viewsDir, names[0] ?? '');
	const original = JSON.parse(await readFile(file, 'utf8')) as {
		users: { name: string; apiKey: string }[];
	};
	const key = original.users[0]?.apiKey ?? '';
	const port = await freePort();
	const url = `http://127.0.0.1:${port}/api/v2/users`;
	const started = performance.now();
	const mock = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(port), PORTAL_VIEWS_DIR: viewsDir, MOCK_LOG: 'off' },
	});
	try {
		const ask = async (): Promise<string | undefined> => {
			try {
				const response = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
				return await response.text();
			} catch {
				// No answer yet (the mock reloading or down): asked again until the deadline.
				return undefined;
			}
		};
		const deadline = Date.now() + 120_000;
		while ((await ask()) === undefined) {
			if (Date.now() > deadline || mock.child.exitCode !== null) {
				throw new Error(`the mock did not start:\n${mock.output()}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		const startupMs = performance.now() - started;
		const reloadMs: number[] = [];
		for (let edit = 1; edit <= edits; edit += 1) {
			const name = `Reload Probe ${edit}`;
			const changed = {
				...original,
				users: original.users.map((user, index) => (index === 0 ? { ...user, name } : user)),
			};
			await writeFile(`${file}.tmp`, JSON.stringify(changed, null, 2));
			const saved = performance.now();
			await rename(`${file}.tmp`, file);
			while (!(await ask())?.includes(name)) {
				if (performance.now() - saved > 60_000) throw new Error(`edit ${edit} never showed`);
				await new Promise((resolve) => setTimeout(resolve, 2));
			}
			reloadMs.push(performance.now() - saved);
			// Let the watcher settle, so each edit is measured on its own.
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
		return { views: names.length, startupMs, reloadMs };
	} finally {
		await mock.stop();
	}
}

const { BENCH_RELOAD_SCALES, BENCH_RELOAD_EDITS } = envSchema.parse(process.env);
const scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-reload-'));
const results: ReloadMeasure[] = [];
try {
	const own = path.join(scratch, 'own');
	await copyFixtures(own);
	results.push(await measure(own, BENCH_RELOAD_EDITS));
	for (const count of BENCH_RELOAD_SCALES) {
		const folder = path.join(scratch, `views-${count}`);
		await writeViewSet(folder, count);
		results.push(await measure(folder, BENCH_RELOAD_EDITS));
	}
} finally {
	await rm(scratch, { recursive: true, force: true });
}

const rows = results.map(({ views, startupMs, reloadMs }) => {
	const { median, max } = summary(reloadMs);
	return [
		views.toLocaleString('en'),
		`${(startupMs / 1000).toFixed(2)} s`,
		`${median.toFixed(0)} ms`,
		`${max.toFixed(0)} ms`,
		verdict(median <= 2000 && max <= 2000),
	];
});
await writeResult({
	name: 'mock-reload',
	title: 'Live mock: start-up and reload latency',
	markdown: [
		`Reload: from saving a fixture (written, then renamed over the old one, as editors save) to the first answer that carries the edit, ${BENCH_RELOAD_EDITS} edits per scale, polled every 2 ms. Budget: 2 s. Contract: ${path.relative(process.cwd(), readSettings({}).openApiFile)}.`,
		'',
		table(
			['views', 'start-up to first answer', 'reload, median', 'reload, max', 'within 2 s'],
			rows,
		),
	].join('\n'),
	data: results,
});
