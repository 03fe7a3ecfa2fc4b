/**
 * `npm run bench:versions`: what the move of the contract from OpenAPI 3.1 to 3.2 costs the build
 * and the mock's start. The same contract in both versions (the 3.1 copy the tests keep,
 * tests/fixtures/openapi-3-1, and the project's own openapi.yaml, in 3.2) is built (`astro build`, wall time) and started on (`node mock/cli.ts`, from spawn
 * to the first 200 for a directory key, asked every 10 ms), side by side on one generated set of
 * views. Each is built and started once unmeasured first (the system's file cache, the mock's
 * contract cache and compile cache), then once per round, in an order that swaps each round, so
 * each round's ratio compares runs made under the same noise. The load average is read before and
 * after each round. BENCH_VERSIONS_VIEWS sets the views (default 200), BENCH_VERSIONS_ROUNDS the
 * rounds (default 4).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { buildPortal } from '../support/build.ts';
import { bin, freePort, ROOT, start } from '../support/processes.ts';
import { writeViewSet } from '../support/view-sets.ts';
import { median, table, writeResult } from './lib/report.ts';

const envSchema = z.object({
	BENCH_VERSIONS_VIEWS: z.coerce.number().int().min(1).max(10_000).default(200),
	BENCH_VERSIONS_ROUNDS: z.coerce.number().int().min(1).max(20).default(4),
});

/** One version of the contract: its name in the tables and its file. */
interface Version {
	id: '3.1' | '3.2';
	file: string;
}

const VERSIONS: readonly Version[] = [
	{ id: '3.1', file: path.join(ROOT, 'tests/fixtures/openapi-3-1/openapi.yaml') },
	{ id: '3.2', file: path.join(ROOT, 'openapi.yaml') },
];

/** How often a starting mock is asked, in milliseconds. */
const POLL_MS = 10;
/** How long a mock may take to answer before the start counts as failed. */
const START_TIMEOUT_MS = 120_000;

/** One round's runs of one version: build and mock start, in seconds. */
interface Run {
	version: Version['id'];
	build: number;
	mockStart: number;
}

/** One round: its runs in the order they were made, and the load average around it. */
interface Round {
	order: Version['id'][];
	runs: Run[];
	loadBefore: number;
	loadAfter: number;
}

/** The one-minute load average. */
const loadAverage = (): number => os.loadavg()[0] ?? NaN;

/** Builds the portal on a contract, failing with the build's output; returns seconds. */
function timeBuild(version: Version, views: string, out: string): number {
	const began = performance.now();
	const result = buildPortal(out, views, { PORTAL_OPENAPI: version.file }, 900_000);
	const seconds = (performance.now() - began) / 1000;
	if (result.status !== 0) {
		throw new Error(`The build on the ${version.id} contract failed:\n${result.output}`);
	}
	return seconds;
}

/** Starts the mock on a contract and returns the seconds from spawn to its first 200 for `key`. */
async function timeMockStart(version: Version, views: string, key: string): Promise<number> {
	const port = await freePort();
	const began = performance.now();
	const mock = start(bin('node'), ['mock/cli.ts'], {
		env: {
			MOCK_PORT: String(port),
			MOCK_LOG: 'off',
			PORTAL_VIEWS_DIR: views,
			PORTAL_OPENAPI: version.file,
		},
	});
	try {
		while (performance.now() - began < START_TIMEOUT_MS) {
			try {
				const response = await fetch(`http://127.0.0.1:${port}/api/v2/users`, {
					headers: { Authorization: `Bearer ${key}` },
				});
				await response.arrayBuffer();
				if (response.status === 200) return (performance.now() - began) / 1000;
			} catch (error) {
				// Not listening yet: asked again after the poll interval, unless the mock has exited.
				if (mock.child.exitCode !== null) {
					throw new Error(`The mock on the ${version.id} contract exited:\n${mock.output()}`, {
						cause: error,
					});
				}
			}
			await new Promise((resolve) => setTimeout(resolve, POLL_MS));
		}
		throw new Error(
			`The mock on the ${version.id} contract did not answer in time:\n${mock.output()}`,
		);
	} finally {
		await mock.stop();
	}
}

/** Seconds with two decimals. */
const seconds = (value: number): string => `${value.toFixed(2)} s`;

const env = envSchema.parse(process.env);
const work = await mkdtemp(path.join(os.tmpdir(), 'console-portal-versions-'));
try {
	const views = path.join(work, 'views');
	const set = await writeViewSet(views, env.BENCH_VERSIONS_VIEWS);
	const key = set[0]?.view.users[0]?.apiKey ?? '';
	const out = path.join(work, 'dist');
	for (const version of VERSIONS) {
		console.error(`${version.id}: unmeasured build and mock start…`);
		timeBuild(version, views, out);
		await timeMockStart(version, views, key);
	}
	const rounds: Round[] = [];
	for (let round = 0; round < env.BENCH_VERSIONS_ROUNDS; round++) {
		const order = round % 2 === 0 ? [...VERSIONS] : [...VERSIONS].reverse();
		const loadBefore = loadAverage();
		const runs: Run[] = [];
		for (const version of order) {
			console.error(`round ${round + 1}: ${version.id}…`);
			const build = timeBuild(version, views, out);
			const mockStart = await timeMockStart(version, views, key);
			runs.push({ version: version.id, build, mockStart });
		}
		rounds.push({ order: order.map(({ id }) => id), runs, loadBefore, loadAfter: loadAverage() });
	}

	const of = (round: Round, id: Version['id']): Run | undefined =>
		round.runs.find((run) => run.version === id);
	const ratio = (round: Round, part: 'build' | 'mockStart'): number =>
		(of(round, '3.2')?.[part] ?? NaN) / (of(round, '3.1')?.[part] ?? NaN);
	const roundRows = rounds.map((round, index) => [
		String(index + 1),
		round.order.join(' then '),
		seconds(of(round, '3.1')?.build ?? NaN),
		seconds(of(round, '3.2')?.build ?? NaN),
		ratio(round, 'build').toFixed(2),
		seconds(of(round, '3.1')?.mockStart ?? NaN),
		seconds(of(round, '3.2')?.mockStart ?? NaN),
		ratio(round, 'mockStart').toFixed(2),
		`${round.loadBefore.toFixed(1)} → ${round.loadAfter.toFixed(1)}`,
	]);
	const medianOf = (id: Version['id'], part: 'build' | 'mockStart'): number =>
		median(rounds.map((round) => of(round, id)?.[part] ?? NaN));
	const medianRow = [
		'median',
		'',
		seconds(medianOf('3.1', 'build')),
		seconds(medianOf('3.2', 'build')),
		median(rounds.map((round) => ratio(round, 'build'))).toFixed(2),
		seconds(medianOf('3.1', 'mockStart')),
		seconds(medianOf('3.2', 'mockStart')),
		median(rounds.map((round) => ratio(round, 'mockStart'))).toFixed(2),
		'',
	];
	const loads = rounds.flatMap((round) => [round.loadBefore, round.loadAfter]);
	const markdown = [
		`${env.BENCH_VERSIONS_VIEWS} generated views, ${env.BENCH_VERSIONS_ROUNDS} rounds; the order of the two versions swaps each round. The same contract in OpenAPI 3.1 (tests/fixtures/openapi-3-1) and 3.2 (openapi.yaml). Build: \`astro build\` wall time. Mock start: \`node mock/cli.ts\` from spawn to the first 200 for a directory key, its contract cache warm. Ratio: 3.2 ÷ 3.1 in the same round.`,
		'',
		table(
			[
				'round',
				'order',
				'build 3.1',
				'build 3.2',
				'build ratio',
				'mock start 3.1',
				'mock start 3.2',
				'start ratio',
				'load average (1 min) before → after',
			],
			[...roundRows, medianRow],
		),
		'',
		`Load average over the run: ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)} on ${os.availableParallelism()} cores. The seconds are only as good as that load; the ratios compare runs made side by side in the same round.`,
	].join('\n');
	await writeResult({
		name: 'contract-versions',
		title: 'Build and mock start: the contract in OpenAPI 3.1 and 3.2',
		markdown,
		data: { views: env.BENCH_VERSIONS_VIEWS, rounds },
	});
} finally {
	await rm(work, { recursive: true, force: true });
}
