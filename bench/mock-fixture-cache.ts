/**
 * `node bench/mock-fixture-cache.ts <before> <after> [rounds]`: the mock's start, from spawn to
 * its first 200, of two checkouts side by side (each with its node_modules, e.g. git worktrees
 * with a link to this one's), at 10,000 generated views and at 8: wall time and the CPU time of
 * the mock's processes then (user + system, from /proc), and the machine's load average. Each
 * checkout is started once unmeasured first on each set (which makes its bundle, fills its
 * compile cache and, with the fixture cache, its cache of validated fixtures), then once per
 * round, the order alternating, and the tables give the medians. Each start is `node mock/cli.ts`
 * with MOCK_LOG=off and PORTAL_VIEWS_DIR at the set, asked GET /api/v2/users with a directory key
 * every 10 ms. Writes bench/results/mock-fixture-cache.md.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { freePort, start } from '../support/processes.ts';
import { writeViewSet } from '../support/view-sets.ts';
import { processTree } from './lib/proc.ts';
import { commitOf, median, table, writeResult } from './lib/report.ts';

const argsSchema = z.tuple([
	z.string({ error: 'before: expected the checkout to measure first' }).min(1),
	z.string({ error: 'after: expected the checkout to measure beside it' }).min(1),
	z.coerce.number({ error: 'rounds: expected a whole number' }).int().min(1).max(50).default(5),
]);

const [beforeRoot, afterRoot, rounds] = argsSchema.parse(process.argv.slice(2));
const checkouts = [
	{ id: 'before', root: path.resolve(beforeRoot) },
	{ id: 'after', root: path.resolve(afterRoot) },
] as const;

/** How often a starting mock is asked, in milliseconds. */
const POLL_MS = 10;
/** The kernel's clock ticks per second, in which /proc gives CPU time. */
const TICKS_PER_SECOND = 100;

/** The CPU time (user + system) of a process and its children so far, in ms, from /proc. */
function cpuMs(pid: number): number {
	let ticks = 0;
	for (const each of processTree(pid)) {
		try {
			// The fields after the command's name, which is in parentheses and may hold spaces.
			const fields = readFileSync(`/proc/${each}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
			// utime and stime, fields 14 and 15 of the line, are the 12th and 13th after the name.
			ticks += Number(fields[11]) + Number(fields[12]);
		} catch {
			// Gone since it was listed.
		}
	}
	return (ticks * 1000) / TICKS_PER_SECOND;
}

/** One start: milliseconds to the first 200, and the CPU time spent by then. */
interface Start {
	wall: number;
	cpu: number;
}

/** Starts a checkout's mock on a views folder, measures it to its first 200, and stops it. */
async function startOnce(root: string, views: string, key: string): Promise<Start> {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}/api/v2/users`;
	const started = performance.now();
	const server = start(path.join(root, 'node_modules', '.bin', 'node'), ['mock/cli.ts'], {
		cwd: root,
		env: { MOCK_PORT: String(port), MOCK_LOG: 'off', PORTAL_VIEWS_DIR: views },
		output: 'ignore',
	});
	try {
		for (;;) {
			if (server.child.exitCode !== null)
				throw new Error(`${root}: the mock exited (${server.child.exitCode}) before it answered`);
			const response = await fetch(url, {
				headers: { Authorization: `Bearer ${key}` },
				signal: AbortSignal.timeout(60_000),
			}).catch(() => undefined);
			if (response?.status === 200) {
				const wall = performance.now() - started;
				const cpu = cpuMs(server.child.pid ?? 0);
				await response.body?.cancel();
				return { wall, cpu };
			}
			await response?.body?.cancel();
			if (performance.now() - started > 120_000) throw new Error(`${url}: no 200 within 120 s`);
			await new Promise((resolve) => setTimeout(resolve, POLL_MS));
		}
	} finally {
		await server.stop();
	}
}

/** Milliseconds as a cell. */
const ms = (value: number): string => `${Math.round(value).toLocaleString('en')} ms`;

const scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-fixture-cache-bench-'));
const rows: string[][] = [];
const firsts: string[][] = [];
const eachStart: string[] = [];
const loads: number[] = [os.loadavg()[0] ?? NaN];
try {
	for (const count of [10_000, 8]) {
		const views = path.join(scratch, `views-${count}`);
		const [first] = await writeViewSet(views, count);
		const key = first?.view.users[0]?.apiKey ?? '';
		const starts: Record<string, Start[]> = { before: [], after: [] };
		for (const { id, root } of checkouts) {
			console.error(`${count} views: ${id}, first start…`);
			const measured = await startOnce(root, views, key);
			firsts.push([count.toLocaleString('en'), id, ms(measured.wall), ms(measured.cpu)]);
		}
		for (let round = 0; round < rounds; round++) {
			const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
			for (const { id, root } of order) {
				console.error(`${count} views, round ${round + 1}: ${id}…`);
				starts[id]?.push(await startOnce(root, views, key));
			}
		}
		loads.push(os.loadavg()[0] ?? NaN);
		const of = (id: string, what: keyof Start): number[] =>
			(starts[id] ?? []).map((each) => each[what]);
		const ratios = (what: keyof Start): number =>
			median(of('after', what).map((value, round) => value / (of('before', what)[round] ?? NaN)));
		rows.push([
			count.toLocaleString('en'),
			ms(median(of('before', 'wall'))),
			ms(median(of('after', 'wall'))),
			ratios('wall').toFixed(2),
			ms(median(of('before', 'cpu'))),
			ms(median(of('after', 'cpu'))),
			ratios('cpu').toFixed(2),
		]);
		for (const id of ['before', 'after'])
			eachStart.push(
				`- ${count.toLocaleString('en')} views, ${id}: wall ${of(id, 'wall')
					.map(Math.round)
					.join(' / ')} ms; CPU ${of(id, 'cpu').map(Math.round).join(' / ')} ms`,
			);
	}
} finally {
	await rm(scratch, { recursive: true, force: true });
}

await writeResult({
	name: 'mock-fixture-cache',
	title: "The mock's start at 10,000 views and at 8: two checkouts side by side",
	markdown: [
		`Before: ${commitOf(checkouts[0].root)} (${checkouts[0].root}); after: ${commitOf(checkouts[1].root)} (${checkouts[1].root}). ${rounds} rounds, alternating; load average (1 minute) ${loads.map((load) => load.toFixed(1)).join(' → ')} on ${os.availableParallelism()} cores.`,
		'',
		'Time to the first 200 (medians; "after / before" is the median of each round\'s ratio):',
		'',
		table(
			[
				'views',
				'before wall',
				'after wall',
				'after / before (wall)',
				'before CPU',
				'after CPU',
				'after / before (CPU)',
			],
			rows,
		),
		'',
		'Each start:',
		'',
		...eachStart,
		'',
		'The first start of each (unmeasured in the table: it makes the bundle and fills the caches):',
		'',
		table(['views', 'checkout', 'wall', 'CPU'], firsts),
	].join('\n'),
	data: { checkouts, rounds, loads, rows, firsts },
});
