/**
 * `node bench/mock-in-start.ts`: how soon `npm start`'s mock answers, against another checkout's
 * and against the peers `bench:mock` starts (Scalar's mock server, Mockoon's CLI; installed by
 * `node bench/install.ts`). Each checkout is started in two ways, `npm start` through npm as a
 * person runs it and `node scripts/start.ts` without npm, on free ports; each start is timed from
 * the spawn to the mock's first 200 for GET /api/v2/users with a directory key and to the portal's
 * first answer at `/`, then stopped; a peer is timed to its first 200 for the same request. BENCH_BASELINE names the other checkout (with its node_modules, e.g. a
 * git worktree of an earlier commit with a link to this one's). Each round starts every one once,
 * the order moving by one each round, so all meet the same machine noise; each starts once before
 * the rounds, unmeasured (filling the mock's bundle and compile caches, as any first start after
 * an edit does, and the system's file cache). BENCH_ROUNDS rounds (default 5). Each build writes
 * its own checkout's dist/. Writes bench/results/mock-in-start.md.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadViews } from '../src/sources/fixtures.ts';
import { PEERS } from './lib/mock-startup.ts';
import { commitOf, median, RESULTS_DIR, runLine, table } from './lib/report.ts';
import { freePort, start, type Started } from '../support/processes.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const baselineRoot = process.env['BENCH_BASELINE'];
if (!baselineRoot) {
	console.error('BENCH_BASELINE: expected the folder of the checkout to compare with');
	process.exit(2);
}
const rounds = Number(process.env['BENCH_ROUNDS'] ?? '5');
if (!Number.isInteger(rounds) || rounds < 1) {
	console.error(`BENCH_ROUNDS: expected a whole number of rounds from 1, not "${String(rounds)}"`);
	process.exit(2);
}

const [entry] = await loadViews(path.join(ROOT, 'content', 'views'));
const key = entry?.view.users[0]?.apiKey;
if (!key) throw new Error('content/views holds no view with a user');

/** One start: milliseconds from the spawn to the mock's first 200 and to the portal's first answer. */
interface Timing {
	mock: number;
	portal?: number;
}

/** What is started in each round: `npm start` in each checkout, and the peers. */
interface Contestant {
	name: string;
	once: () => Promise<Timing>;
}

/** Polls until `check` holds, every 20 ms, for at most three minutes; the time it held. */
async function when(check: () => Promise<boolean>, what: string): Promise<number> {
	const deadline = performance.now() + 180_000;
	for (;;) {
		if (await check().catch(() => false)) return performance.now();
		if (performance.now() > deadline) throw new Error(`${what} did not answer within 3 minutes`);
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
}

/** Whether the mock at the port answers the users with the directory key 200. */
async function answers200(port: number): Promise<boolean> {
	const answer = await fetch(`http://127.0.0.1:${port}/api/v2/users`, {
		headers: { Authorization: `Bearer ${key}` },
		signal: AbortSignal.timeout(2000),
	});
	return answer.status === 200;
}

/** Stops a start, adding what it printed to a failure. */
async function timed<T>(app: Started, measure: () => Promise<T>): Promise<T> {
	try {
		return await measure();
	} catch (error) {
		throw new Error(`${String(error)}:\n${app.output()}`, { cause: error });
	} finally {
		await app.stop();
	}
}

/** Starts a peer once, to its first 200, and stops it. */
async function peerOnce(id: string): Promise<Timing> {
	const peer = PEERS.find((each) => each.id === id);
	if (!peer) throw new Error(`no peer ${id} in bench/lib/mock-startup.ts`);
	const port = await freePort();
	const { file, args, env, cwd } = peer.command(port, '');
	const began = performance.now();
	const app = start(file, args, { env: env ?? {}, cwd: cwd ?? ROOT });
	return timed(app, async () => ({
		mock: (await when(() => answers200(port), peer.name)) - began,
	}));
}

/**
 * Runs `npm start` in a checkout once, to the portal's first answer, and stops it: through npm as
 * a person runs it (npm, a shell, then Node, with what package.json's script sets), or
 * `node scripts/start.ts` alone.
 */
async function startOnce(root: string, via: 'npm' | 'node'): Promise<Timing> {
	const [portalPort, mockPort] = [await freePort(), await freePort()];
	const bin = path.join(root, 'node_modules', '.bin');
	const began = performance.now();
	const app = start(
		via === 'npm' ? 'npm' : path.join(bin, 'node'),
		via === 'npm' ? ['start'] : ['scripts/start.ts'],
		{
			cwd: root,
			env: {
				PORTAL_PORT: String(portalPort),
				MOCK_PORT: String(mockPort),
				MOCK_LOG: 'off',
				// npm from the PATH, which starts with node_modules/.bin, so npm runs on the pinned Node.
				PATH: `${bin}${path.delimiter}${process.env['PATH'] ?? ''}`,
			},
		},
	);
	return timed(app, async () => {
		const portal = when(async () => {
			await fetch(`http://127.0.0.1:${portalPort}/`, { signal: AbortSignal.timeout(2000) });
			return true;
		}, 'the portal');
		const mock = when(() => answers200(mockPort), 'the mock');
		const [mockAt, portalAt] = await Promise.all([mock, portal]);
		return { mock: mockAt - began, portal: portalAt - began };
	});
}

const baseline = path.resolve(baselineRoot);
const ours = [
	{ name: `npm start, before (${commitOf(baseline)})`, root: baseline, via: 'npm' },
	{ name: `npm start, after (${commitOf(ROOT)})`, root: ROOT, via: 'npm' },
	{ name: `node scripts/start.ts, before (${commitOf(baseline)})`, root: baseline, via: 'node' },
	{ name: `node scripts/start.ts, after (${commitOf(ROOT)})`, root: ROOT, via: 'node' },
] as const;
const [before, after] = ours.map(({ name }) => name);
const oursNames = new Set<string>(ours.map(({ name }) => name));
const contestants: Contestant[] = [
	...ours.map(({ name, root, via }) => ({ name, once: () => startOnce(root, via) })),
	...['scalar', 'mockoon'].map((id) => ({
		name: PEERS.find((peer) => peer.id === id)?.name ?? id,
		once: () => peerOnce(id),
	})),
];

for (const { name, once } of contestants) {
	console.log(`${name}: first start, unmeasured…`);
	await once();
}
const timings = new Map<string, Timing[]>(contestants.map(({ name }) => [name, []]));
for (let round = 0; round < rounds; round++) {
	const shift = round % contestants.length;
	const order = [...contestants.slice(shift), ...contestants.slice(0, shift)];
	for (const { name, once } of order) {
		const timing = await once();
		timings.get(name)?.push(timing);
		const portal = timing.portal === undefined ? '' : `, portal ${Math.round(timing.portal)} ms`;
		console.log(`round ${round + 1}, ${name}: first 200 ${Math.round(timing.mock)} ms${portal}`);
	}
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const of = (name: string): Timing[] => timings.get(name) ?? [];
/** In each round, `name`'s mock over the faster peer's: their ratios. */
const overFasterPeer = (name: string): number[] =>
	of(name).map(
		({ mock }, round) =>
			mock /
			Math.min(
				...contestants
					.filter((peer) => !oursNames.has(peer.name))
					.map((peer) => of(peer.name)[round]?.mock ?? NaN),
			),
	);
const rows = contestants.map(({ name }) => {
	const each = of(name);
	const portals = each.flatMap(({ portal }) => (portal === undefined ? [] : [portal]));
	const ratios = oursNames.has(name) ? overFasterPeer(name) : [];
	return [
		name,
		seconds(median(each.map(({ mock }) => mock))),
		each.map(({ mock }) => seconds(mock)).join(', '),
		ratios.length > 0 ? `${median(ratios).toFixed(2)}x` : '–',
		ratios.map((ratio) => ratio.toFixed(2)).join(' / '),
		portals.length > 0 ? seconds(median(portals)) : '–',
	];
});
const ratio = (
	median(of(after ?? '').map(({ mock }) => mock)) / median(of(before ?? '').map(({ mock }) => mock))
).toFixed(2);
const markdown = [
	"# npm start's mock: spawn to the first 200",
	'',
	runLine(),
	'',
	table(
		[
			'server',
			'first 200 (median)',
			'each round',
			'over the faster peer (median of rounds)',
			'each round',
			'npm start: portal answers (median)',
		],
		rows,
	),
	'',
	`${rounds} rounds; each round starts every one once, the order moving by one each round. ` +
		`GET /api/v2/users with a directory key, asked every 20 ms from the spawn; npm start ` +
		`(through npm, as a person runs it, and as node scripts/start.ts without npm) loads ` +
		`the 8 views of content/views, and builds the portal once its mock listens; ` +
		`the peers serve openapi.yaml alone. npm start's mock after: ${ratio}x the time before.`,
	'',
].join('\n');
await writeFile(path.join(RESULTS_DIR, 'mock-in-start.md'), markdown);
console.log(`\n${markdown}`);
