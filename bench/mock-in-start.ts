/**
 * `node bench/mock-in-start.ts`: how soon `npm start`'s mock answers, against another checkout's.
 * Each start runs `node scripts/start.ts` in its checkout on free ports and measures, from the
 * spawn, the mock's first 200 for GET /api/v2/users with a directory key and the portal's first
 * answer at `/`, then stops it with SIGINT. BENCH_BASELINE names the other checkout (with its
 * node_modules, e.g. a git worktree of an earlier commit with a link to this one's); its start runs
 * in the same rounds as this checkout's, in turn, the first of each round alternating, so both meet
 * the same machine noise. Each checkout starts once before the rounds, unmeasured (it fills the
 * mock's bundle and compile caches, as any first start after an edit does). BENCH_ROUNDS rounds
 * (default 5). Each build writes its own checkout's dist/. Writes bench/results/mock-in-start.md.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadViews } from '../src/sources/fixtures.ts';
import { commitOf, machine, machineLine, median, RESULTS_DIR, table } from './lib/report.ts';
import { freePort, start } from '../support/processes.ts';

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

/** The two checkouts, by the name the table gives them. */
const checkouts = [
	{ name: `before (${commitOf(path.resolve(baselineRoot))})`, root: path.resolve(baselineRoot) },
	{ name: `after (${commitOf(ROOT)})`, root: ROOT },
];

/** One start: milliseconds from the spawn to the mock's first 200 and to the portal's first answer. */
interface Timing {
	mock: number;
	portal: number;
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

/** Runs `npm start` in a checkout once, to the portal's first answer, and stops it. */
async function once(root: string): Promise<Timing> {
	const [portalPort, mockPort] = [await freePort(), await freePort()];
	const began = performance.now();
	const app = start(path.join(ROOT, 'node_modules', '.bin', 'node'), ['scripts/start.ts'], {
		cwd: root,
		env: { PORTAL_PORT: String(portalPort), MOCK_PORT: String(mockPort), MOCK_LOG: 'off' },
	});
	try {
		const portal = when(async () => {
			await fetch(`http://127.0.0.1:${portalPort}/`, { signal: AbortSignal.timeout(2000) });
			return true;
		}, 'the portal');
		const mock = when(async () => {
			const answer = await fetch(`http://127.0.0.1:${mockPort}/api/v2/users`, {
				headers: { Authorization: `Bearer ${key}` },
				signal: AbortSignal.timeout(2000),
			});
			return answer.status === 200;
		}, 'the mock');
		const [mockAt, portalAt] = await Promise.all([mock, portal]);
		return { mock: mockAt - began, portal: portalAt - began };
	} catch (error) {
		throw new Error(`${String(error)}:\n${app.output()}`, { cause: error });
	} finally {
		await app.stop();
	}
}

for (const { name, root } of checkouts) {
	console.log(`${name}: first start, unmeasured…`);
	await once(root);
}
const timings = new Map<string, Timing[]>(checkouts.map(({ name }) => [name, []]));
for (let round = 0; round < rounds; round++) {
	const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
	for (const { name, root } of order) {
		const timing = await once(root);
		timings.get(name)?.push(timing);
		console.log(
			`round ${round + 1}, ${name}: mock ${Math.round(timing.mock)} ms, portal ${Math.round(timing.portal)} ms`,
		);
	}
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const rows = checkouts.map(({ name }) => {
	const each = timings.get(name) ?? [];
	return [
		name,
		seconds(median(each.map(({ mock }) => mock))),
		each.map(({ mock }) => seconds(mock)).join(', '),
		seconds(median(each.map(({ portal }) => portal))),
		each.map(({ portal }) => seconds(portal)).join(', '),
	];
});
const [before, after] = checkouts.map(({ name }) =>
	median((timings.get(name) ?? []).map(({ mock }) => mock)),
);
const markdown = [
	"# npm start's mock: spawn to the first 200",
	'',
	`${new Date().toISOString()}, ${machineLine(machine())}.`,
	'',
	table(
		[
			'npm start',
			'mock: first 200 (median)',
			'each round',
			'portal: first answer (median)',
			'each round',
		],
		rows,
	),
	'',
	`${rounds} rounds, the two checkouts in turn (the first alternating); 8 views (content/views). ` +
		`The mock's first 200 after: ${((after ?? NaN) / (before ?? NaN)).toFixed(2)}x the time before.`,
	'',
].join('\n');
await writeFile(path.join(RESULTS_DIR, 'mock-in-start.md'), markdown);
console.log(`\n${markdown}`);
