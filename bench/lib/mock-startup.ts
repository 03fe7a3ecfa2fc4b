/**
 * The start-up part of `npm run bench:mock`: cold start-up, from spawn to the first 200 for a
 * directory key (asked every 10 ms), of our mock beside its peers: Scalar's mock server
 * (`@scalar/mock-server` behind `@hono/node-server`, bench/lib/scalar-mock.ts), Mockoon's CLI and
 * plain Prism, each serving openapi.yaml, and beside a baseline checkout's mock when there is one.
 * Every contestant is started once unmeasured first (it reads its files into the system's cache,
 * and our mock fills its compile cache), then once per round, in an order that moves by one each
 * round, so each round's ratio compares starts made under the same noise. The peers serve the
 * contract only: they have no views to load, so the generated sets (10 to 10,000 views) start
 * ours, and the baseline's, alone.
 */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { freePort, start } from '../../support/processes.ts';
import { toolBin } from '../tools.ts';
import { rssMiB } from './proc.ts';
import { commitOf, table, verdict } from './report.ts';

/** `npm run mock`'s first 200 within this share of the fastest of Scalar's mock and Mockoon's. */
const PEER_BUDGET = 0.8;
/** `npm run mock`'s first 200 at 10,000 views within this many milliseconds. */
const SCALE_BUDGET_MS = 3000;
/** `npm run mock`'s first 200 within this many times a bare node:http server's, npm's own start included. */
export const BARE_BUDGET = 2.8;

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'node_modules', '.bin');
const CONTRACT = path.join(ROOT, 'openapi.yaml');
const USERS_PATH = '/api/v2/users';
/** How often a starting server is asked, in milliseconds. */
const POLL_MS = 10;
/** A key shaped as a directory key that no view holds, to see whether a server checks keys. */
const UNKNOWN_KEY = 'ick-00000000-none';

/** The contract's list of users, as far as the benchmark checks a body: `{ users: [...] }`. */
const userListSchema = z.object({
	users: z.array(z.object({ name: z.string(), email: z.string(), role: z.string() })),
});

/** Who is started: our mock, a baseline checkout's, or a peer. */
export interface Contestant {
	/** The key of its starts in the result's data. */
	id: string;
	name: string;
	/** Whether it loads a folder of views (ours), or serves the contract alone (the peers). */
	loadsViews: boolean;
	/** Whether it is started on the generated sets too (ours as `npm run mock` starts it). */
	atScale?: boolean;
	/**
	 * A floor under every start, not a server: npm alone or Node alone, timed from spawn to exit
	 * (it answers nothing).
	 */
	exits?: boolean;
	command: (
		port: number,
		views: string,
	) => { file: string; args: string[]; env?: NodeJS.ProcessEnv; cwd?: string };
}

/** One start: milliseconds to the first 200, resident memory then, and what it answered. */
export interface Start {
	startup: number;
	rss: number;
	/** The first 200's body: its size, and the list of users in it if it is one. */
	bytes: number;
	users: number | null;
	firstUser: string;
	/** Statuses after the first 200: without a key, and with a key no view holds. */
	withoutKey: number;
	unknownKey: number;
}

/** One set of views and each contestant's starts on it. */
export interface SetRow {
	views: string;
	count: number;
	starts: Record<string, Start[]>;
	/** The order of the rounds' starts, by contestant id, so the alternation can be checked. */
	order: string[][];
}

/**
 * Our mock in a checkout (this one or the baseline), with a compile cache folder if given: as
 * `npm run mock` starts it (npm, a shell, then Node), or `node mock/cli.ts` without npm (its id
 * ends in `-node`; not started on the generated sets).
 */
export function ourMock(
	id: 'this' | 'baseline',
	root: string,
	compileCache: string | undefined,
	via: 'npm' | 'node' = 'npm',
): Contestant {
	const how = via === 'npm' ? 'npm run mock' : 'node mock/cli.ts';
	return {
		id: via === 'npm' ? id : `${id}-node`,
		name: `${id === 'this' ? 'our mock' : "baseline's mock"} (${commitOf(root)}), ${how}`,
		loadsViews: true,
		atScale: via === 'npm',
		command: (port, views) => ({
			// npm from the PATH, which starts with node_modules/.bin, so npm runs on the pinned Node.
			file: via === 'npm' ? 'npm' : path.join(root, 'node_modules', '.bin', 'node'),
			args: via === 'npm' ? ['run', 'mock'] : ['mock/cli.ts'],
			cwd: root,
			env: {
				MOCK_PORT: String(port),
				MOCK_LOG: 'off',
				PORTAL_VIEWS_DIR: views,
				...(compileCache ? { NODE_COMPILE_CACHE: compileCache } : {}),
			},
		}),
	};
}

/**
 * The floors under a start through npm: npm alone, running a script of npm's own that does
 * nothing but print the environment (`npm run env`, through the same shell `npm run mock` is),
 * and Node alone (`node -e ''`), each timed from spawn to exit.
 */
export const FLOORS: readonly Contestant[] = [
	{
		id: 'npm',
		name: "npm alone (npm run env: npm's own start, its shell, no Node of ours)",
		loadsViews: false,
		exits: true,
		command: () => ({ file: 'npm', args: ['run', '--silent', 'env'] }),
	},
	{
		id: 'node',
		name: "Node alone (node -e '')",
		loadsViews: false,
		exits: true,
		command: () => ({ file: path.join(BIN, 'node'), args: ['-e', ''] }),
	},
];

/** The peers, each serving openapi.yaml on 127.0.0.1 as a user of it would start it. */
export const PEERS: readonly Contestant[] = [
	{
		id: 'scalar',
		name: "Scalar's mock server",
		loadsViews: false,
		command: (port) => ({
			file: path.join(BIN, 'node'),
			args: ['bench/lib/scalar-mock.ts', CONTRACT, String(port)],
		}),
	},
	{
		id: 'mockoon',
		name: 'Mockoon CLI',
		loadsViews: false,
		command: (port) => ({
			file: toolBin('mockoon-cli'),
			args: [
				'start',
				'--data',
				CONTRACT,
				'--port',
				String(port),
				'--hostname',
				'127.0.0.1',
				'--disable-log-to-file',
			],
		}),
	},
	{
		id: 'prism',
		name: 'prism mock openapi.yaml',
		loadsViews: false,
		command: (port) => ({
			file: path.join(BIN, 'prism'),
			args: ['mock', '-h', '127.0.0.1', '-p', String(port), CONTRACT],
		}),
	},
];

/** The status of a GET of the users, with the given Authorization header if any. */
async function statusOf(url: string, authorization?: string): Promise<number> {
	const response = await fetch(url, {
		headers: authorization ? { Authorization: authorization } : {},
		signal: AbortSignal.timeout(10_000),
	});
	await response.body?.cancel();
	return response.status;
}

/** Starts a contestant on a folder of views and measures its start, then stops it by pid. */
async function startOnce(contestant: Contestant, views: string, key: string): Promise<Start> {
	const port = await freePort();
	const url = `http://127.0.0.1:${port}${USERS_PATH}`;
	const { file, args, env, cwd } = contestant.command(port, views);
	const started = performance.now();
	const server = start(file, args, { env: env ?? {}, output: 'ignore', ...(cwd ? { cwd } : {}) });
	if (contestant.exits) {
		const code = await new Promise<number | null>((resolve) => {
			if (server.child.exitCode !== null) resolve(server.child.exitCode);
			else server.child.once('exit', resolve);
		});
		const startup = performance.now() - started;
		if (code !== 0) throw new Error(`${contestant.name} exited with ${code}`);
		return { startup, rss: 0, bytes: 0, users: null, firstUser: '', withoutKey: 0, unknownKey: 0 };
	}
	try {
		const deadline = started + 120_000;
		for (;;) {
			if (server.child.exitCode !== null)
				throw new Error(
					`${contestant.name} exited (${server.child.exitCode}) before ${url} answered`,
				);
			const response = await fetch(url, {
				headers: { Authorization: `Bearer ${key}` },
				signal: AbortSignal.timeout(60_000),
			}).catch(() => undefined);
			if (response?.status === 200) {
				const startup = performance.now() - started;
				const rss = rssMiB(server.child.pid);
				const body = await response.text();
				const parsed = userListSchema.safeParse(safeJson(body));
				return {
					startup,
					rss,
					bytes: Buffer.byteLength(body),
					users: parsed.success ? parsed.data.users.length : null,
					firstUser: parsed.success
						? JSON.stringify(parsed.data.users[0] ?? null)
						: body.slice(0, 80),
					withoutKey: await statusOf(url),
					unknownKey: await statusOf(url, `Bearer ${UNKNOWN_KEY}`),
				};
			}
			await response?.body?.cancel();
			if (performance.now() > deadline)
				throw new Error(`${url}: no 200 within 120 s (last ${response?.status ?? 'no answer'})`);
			await new Promise((resolve) => setTimeout(resolve, POLL_MS));
		}
	} finally {
		await server.stop();
	}
}

/** A body as JSON, or undefined when it is not. */
function safeJson(body: string): unknown {
	try {
		return JSON.parse(body) as unknown;
	} catch {
		// JSON.parse throws only for a body that is no JSON: undefined says so.
		return undefined;
	}
}

/** A set of views to start on: a folder, a directory key in it, and how to clean it up. */
export interface ViewSet {
	views: string;
	count: number;
	/** Whether the peers are started too: the hand-written views, whose contract they serve. */
	withPeers: boolean;
	folder: () => Promise<{ folder: string; key: string; done: () => Promise<void> }>;
}

/**
 * Each set's rows: every contestant that serves the set is started once unmeasured (its first
 * start overall, reported apart), then `starts` rounds each starting every contestant once, the
 * order moving by one each round.
 */
export async function startUps(
	contestants: readonly Contestant[],
	sets: readonly ViewSet[],
	starts: number,
): Promise<{ rows: SetRow[]; firstStarts: Record<string, Start> }> {
	const rows: SetRow[] = [];
	const firstStarts: Record<string, Start> = {};
	for (const set of sets) {
		const { folder, key, done } = await set.folder();
		try {
			const here = contestants.filter(
				(each) => set.withPeers || (each.loadsViews && each.atScale !== false),
			);
			for (const contestant of here) {
				if (firstStarts[contestant.id]) continue;
				console.error(`start-up at ${set.views} views: ${contestant.name}, first start…`);
				firstStarts[contestant.id] = await startOnce(contestant, folder, key);
			}
			const row: SetRow = { views: set.views, count: set.count, starts: {}, order: [] };
			for (let round = 0; round < starts; round++) {
				const shift = round % here.length;
				const order = [...here.slice(shift), ...here.slice(0, shift)];
				row.order.push(order.map((each) => each.id));
				for (const contestant of order) {
					console.error(`start-up at ${set.views} views, round ${round + 1}: ${contestant.name}…`);
					const measured = await startOnce(contestant, folder, key);
					row.starts[contestant.id] = [...(row.starts[contestant.id] ?? []), measured];
				}
			}
			rows.push(row);
		} finally {
			await done();
		}
	}
	return { rows, firstStarts };
}

/** The median of some numbers. */
function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2
		? (sorted[middle] ?? NaN)
		: ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** Milliseconds as a cell. */
const ms = (value: number): string => `${Math.round(value)} ms`;

/** What a server's answers say it checks of the key. */
function checks(starts: readonly Start[]): string {
	if (starts.every((each) => each.withoutKey === 0)) return '– (answers nothing)';
	const without = [...new Set(starts.map((each) => each.withoutKey))].join('/');
	const unknown = [...new Set(starts.map((each) => each.unknownKey))].join('/');
	return `no key: ${without}; unknown key: ${unknown}`;
}

/** The start-up tables and what they say. */
export function startupSection(
	contestants: readonly Contestant[],
	rows: readonly SetRow[],
	firstStarts: Readonly<Record<string, Start>>,
	starts: number,
	load: { before: number; after: number },
): string[] {
	const [peerRow] = rows.filter((row) => PEERS.some((peer) => row.starts[peer.id]));
	const ours = (row: SetRow): Start[] => row.starts['this'] ?? [];
	/** Ours over another's, each round's starts compared: the median and the range of the ratios. */
	const ratios = (row: SetRow, id: string): number[] =>
		(row.starts[id] ?? []).map(
			(other, round) => (ours(row)[round]?.startup ?? NaN) / other.startup,
		);
	const range = (values: readonly number[]): string =>
		`${Math.round(Math.min(...values))}–${Math.round(Math.max(...values))} ms`;
	const peersTable = peerRow
		? [
				`### Start-up beside the peers, at ${peerRow.count} views`,
				'',
				table(
					[
						'server',
						'start-up (median)',
						'range',
						'ours / it (median of rounds)',
						'ours / it, each round',
						'each start',
						'what it checks of the key',
						'RSS',
					],
					contestants
						.filter((each) => peerRow.starts[each.id])
						.map((each) => {
							const measured = peerRow.starts[each.id] ?? [];
							const times = measured.map(({ startup }) => startup);
							const ratio = ratios(peerRow, each.id);
							return [
								each.name,
								ms(median(times)),
								range(times),
								each.id === 'this' ? '–' : `${median(ratio).toFixed(2)}×`,
								each.id === 'this' ? '–' : ratio.map((value) => value.toFixed(2)).join(' / '),
								times.map((value) => Math.round(value)).join(' / '),
								checks(measured),
								`${median(measured.map(({ rss }) => rss)).toFixed(0)} MiB`,
							];
						}),
				),
				'',
				...budgetLines(peerRow),
				...breakdown(peerRow),
				'What each answered at its first 200 (the body of the first measured start; "users" counts a `{ "users": [{ name, email, role }] }` list, as the contract shapes it, on every start):',
				'',
				table(
					['server', 'body', 'users (each start)', 'first user'],
					contestants
						.filter((each) => peerRow.starts[each.id] && !each.exits)
						.map((each) => {
							const measured = peerRow.starts[each.id] ?? [];
							return [
								each.name,
								`${measured[0]?.bytes ?? 0} bytes`,
								measured
									.map(({ users }) => (users === null ? 'not a list' : String(users)))
									.join(' / '),
								`\`${measured[0]?.firstUser ?? ''}\``,
							];
						}),
				),
				'',
				`Each server started ${starts} times on 127.0.0.1, in rounds: each round starts every server once, the order moving by one server each round (${peerRow.order.map((order) => order.join(', ')).join('; ')}), so each round's ratio compares starts made under the same noise, and the median of those ratios is less moved by the machine's other work than the ratio of medians. Start-up is from spawn to the first 200 for GET ${USERS_PATH} with \`Authorization: Bearer <a directory key>\`, asked every ${POLL_MS} ms; RSS (with children) is read then. Before the rounds each server was started once, unmeasured, so every one reads its files from the system's cache (${Object.entries(
					firstStarts,
				)
					.filter(([id]) => peerRow.starts[id])
					.map(([id, first]) => `${id} ${ms(first.startup)}`)
					.join(
						', ',
					)}). Ours loads the 8 hand-written views and answers with the key's directory; the peers serve openapi.yaml alone and answer from its schema. Scalar: \`@scalar/mock-server\` through \`@hono/node-server\` (bench/lib/scalar-mock.ts, the pinned Node); Mockoon: \`mockoon-cli start --data openapi.yaml --port N --hostname 127.0.0.1 --disable-log-to-file\`; Prism: \`prism mock -h 127.0.0.1 -p N openapi.yaml\`. Our mock enables Node's compile cache itself (module.enableCompileCache); here it is a folder of this run's, filled by the unmeasured start. "What it checks": the statuses each answered right after its first 200, without an Authorization header and with a made-up key of a directory key's shape (${UNKNOWN_KEY}). The machine's load average (1 minute) was ${load.before.toFixed(1)} before the start-up rounds and ${load.after.toFixed(1)} after them, on ${os.availableParallelism()} cores: other work shares the machine, and the absolute times move with it far more than the ratios of the same rounds.`,
				'',
			]
		: [];
	/** The budgets: ours against the fastest of Scalar's and Mockoon's, round by round. */
	function budgetLines(row: SetRow): string[] {
		const fastest = (round: number): number =>
			Math.min(
				row.starts['scalar']?.[round]?.startup ?? NaN,
				row.starts['mockoon']?.[round]?.startup ?? NaN,
			);
		const lines: string[] = [];
		// Without Scalar's and Mockoon's tools installed there is no peer to compare with.
		const peered = Boolean(row.starts['scalar'] ?? row.starts['mockoon']);
		for (const id of ['this', 'this-node', 'baseline', 'baseline-node']) {
			const measured = row.starts[id];
			if (!measured || !peered) continue;
			const each = measured.map((start, round) => start.startup / fastest(round));
			lines.push(
				`- ${contestants.find((one) => one.id === id)?.name ?? id} / the faster of Scalar's mock and Mockoon in the same round: ${median(each).toFixed(2)}× (rounds ${each.map((value) => value.toFixed(2)).join(' / ')})${id === 'this' ? `; budget ≤ ${PEER_BUDGET}×: ${verdict(median(each) <= PEER_BUDGET)}` : ''}`,
			);
		}
		const large = rows.find((each) => each.count === 10_000);
		const atScale = large
			? median((large.starts['this'] ?? []).map(({ startup }) => startup))
			: NaN;
		if (large)
			lines.push(
				`- ${contestants.find((one) => one.id === 'this')?.name ?? 'this'} at 10,000 views: ${ms(atScale)} (median); budget ≤ ${SCALE_BUDGET_MS / 1000} s: ${verdict(atScale <= SCALE_BUDGET_MS)}`,
			);
		return ['', ...lines, ''];
	}
	/**
	 * Where a start through npm goes: npm alone, Node alone, the bare server, the mock through
	 * Node and through npm, and the budget of `npm run mock` against the bare server.
	 */
	function breakdown(row: SetRow): string[] {
		if (!row.starts['bare'] || !row.starts['this']) return [];
		const of = (id: string): number => median((row.starts[id] ?? []).map(({ startup }) => startup));
		/** One's start over another's, each round compared: the median of the rounds' ratios. */
		const over = (id: string, base: string): number[] =>
			(row.starts[id] ?? []).map(
				(one, round) => one.startup / (row.starts[base]?.[round]?.startup ?? NaN),
			);
		const bareRatio = over('this', 'bare');
		const steps: [string, string, string][] = [
			['npm', 'npm alone (`npm run env`, spawn to exit)', 'the floor of any `npm run`'],
			['node', "Node alone (`node -e ''`, spawn to exit)", 'the floor of any Node process'],
			[
				'bare',
				'bare node:http server (spawn to first 200)',
				'the ceiling: Node, one module, listen',
			],
			[
				'this-node',
				'our mock through node (`node mock/cli.ts`)',
				'ours: what the mock loads and reads',
			],
			['this', 'our mock through npm (`npm run mock`)', 'as a person starts it'],
		];
		return [
			'#### Where a start through npm goes',
			'',
			table(
				['step', 'start (median)', 'over the bare server (median of rounds)', 'what it is'],
				steps
					.filter(([id]) => row.starts[id])
					.map(([id, label, what]) => [
						label,
						ms(of(id)),
						`${median(over(id, 'bare')).toFixed(2)}×`,
						what,
					]),
			),
			'',
			`- ours beyond the bare server (the mock through node less the bare server, medians): ${ms(of('this-node') - of('bare'))}; npm's part (the mock through npm less through node): ${ms(of('this') - of('this-node'))}${row.starts['npm'] && row.starts['node'] ? `, against npm alone less Node alone: ${ms(of('npm') - of('node'))}` : ''}`,
			`- our mock through npm / the bare server in the same round: ${median(bareRatio).toFixed(2)}× (rounds ${bareRatio.map((value) => value.toFixed(2)).join(' / ')}); budget ≤ ${BARE_BUDGET}×: ${verdict(median(bareRatio) <= BARE_BUDGET)}`,
			'',
		];
	}
	const withBaseline = contestants.some((each) => each.id === 'baseline');
	const startupOf = (row: SetRow, id: string): number =>
		median((row.starts[id] ?? []).map(({ startup }) => startup));
	const rssOf = (row: SetRow, id: string): number =>
		median((row.starts[id] ?? []).map(({ rss }) => rss));
	const eachStart = (row: SetRow, id: string): string =>
		(row.starts[id] ?? []).map(({ startup }) => Math.round(startup)).join(' / ');
	const name = (id: string): string => contestants.find((each) => each.id === id)?.name ?? id;
	return [
		...peersTable,
		'### Start-up and memory by number of views',
		'',
		table(
			withBaseline
				? [
						'views',
						`start-up, ${name('baseline')}`,
						`start-up, ${name('this')}`,
						'this / baseline',
						'each start, baseline',
						'each start, this',
						'RSS, baseline',
						'RSS, this',
					]
				: ['views', 'start-up (median)', 'range', 'each start', 'RSS'],
			rows.map((row) =>
				withBaseline
					? [
							row.views,
							ms(startupOf(row, 'baseline')),
							ms(startupOf(row, 'this')),
							`${median(ratios(row, 'baseline')).toFixed(2)}×`,
							eachStart(row, 'baseline'),
							eachStart(row, 'this'),
							`${rssOf(row, 'baseline').toFixed(0)} MiB`,
							`${rssOf(row, 'this').toFixed(0)} MiB`,
						]
					: [
							row.views,
							ms(startupOf(row, 'this')),
							range(ours(row).map(({ startup }) => startup)),
							eachStart(row, 'this'),
							`${rssOf(row, 'this').toFixed(0)} MiB`,
						],
			),
		),
		'',
		`Our mock alone${withBaseline ? ', and the baseline checkout beside it' : ''}: the peers serve the contract only and have no views to load, so the generated sets (support/view-sets.ts) are ours alone. MOCK_LOG=off; started ${starts} times at each size${withBaseline ? ', alternately with the baseline, and "this / baseline" is the median of each round’s ratio' : ''}; the table gives the medians. Start-up is from spawn to the first 200 for a directory key, asked every ${POLL_MS} ms; RSS is read then. Its first start (unmeasured, which fills the compile cache) took ${firstStarts['this'] ? ms(firstStarts['this'].startup) : '–'}.`,
	];
}
