/**
 * `npm run bench:mcp`: how long an assistant waits for the MCP server, beside a bare server.
 * Spawns BENCH_ROUNDS times (5 by default), in the same rounds and alternating which goes first:
 * the portal's server as the README's client block starts it, but with node directly (`node
 * mcp/cli.ts`, the command `npm run mcp` runs, without npm's own start), and a bare stdio server
 * on the same SDK that answers "ok" to the same tool names (bench/lib/bare-mcp-server.ts). The
 * SDK's Client connects over stdio and times, from the spawn: the connection (initialize), the
 * tool list, the first tool answer (`list_views`) and the first `search` answer. Then it runs
 * BENCH_SEARCHES searches in a row (100 by default) on the same connection and times each, then as
 * many searches each asking something the others do not (words and the dialog's filters), and as
 * many `list_views` calls, the lightest tool, beside them.
 * BENCH_BASELINE names another checkout (with its node_modules, e.g. a git worktree of an older
 * commit), spawned in the same rounds too. Prints the median and range of each step, the portal's
 * time over the bare server's, the load average, and writes bench/results/mcp.md and .json.
 */
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { bin, childEnv, ROOT } from '../support/processes.ts';
import { commitOf, median, table, verdict, writeResult } from './lib/report.ts';

const env = z
	.object({
		BENCH_ROUNDS: z.coerce.number().int().min(1).max(21).default(5),
		BENCH_SEARCHES: z.coerce.number().int().min(0).max(1000).default(100),
		BENCH_BASELINE: z.string().min(1).optional(),
	})
	.parse(process.env);

const steps = [
	'connected (initialize)',
	'tools listed',
	'first tool answer (list_views)',
	'first search answer',
] as const;
type Step = (typeof steps)[number];

/** The aims of issue 44: the portal's server over the bare one, at most. */
const AIMS: Partial<Record<Step, number>> = {
	'first tool answer (list_views)': 2,
	'first search answer': 2.5,
};

/** The most one search of the run in a row may take (issue 45). */
const SEARCH_AIM_MS = 10;

/** Words an assistant might search for, taken in turn by the searches in a row. */
const QUERIES = ['admin', 'production', 'key', 'deployer', 'mock', 'users', 'staging', 'role'];

/** The dialog's filters, each with every word above: as many questions as searches in a row. */
const FILTERS: Record<string, string>[] = [
	{},
	{ kind: 'view' },
	{ kind: 'person' },
	{ kind: 'guide' },
	{ kind: 'reference' },
	{ kind: 'access' },
	{ environment: 'production' },
	{ environment: 'staging' },
	{ role: 'admin' },
	{ role: 'viewer' },
	{ kind: 'person', role: 'deployer' },
	{ kind: 'view', environment: 'production' },
	{ kind: 'person', environment: 'staging' },
];

/** The calls made in a row after the first answers, each timed from the call to its answer. */
const inARowCalls = [
	'search, the 8 words in turn',
	'search, each question different (words and filters)',
	'list_views',
] as const;
type InARow = (typeof inARowCalls)[number];

/** A server whose answers are timed. */
interface Server {
	name: string;
	root: string;
	entry: string;
	/** Whether its searches in a row are timed (the bare server's answers are not searches). */
	searches: boolean;
	times: Record<Step, number[]>;
	inARow: Record<InARow, number[]>;
}

/** The question of the `at`th search of a row of different ones: a word with a set of filters. */
function differentQuestion(at: number): Record<string, string> {
	const query = QUERIES[at % QUERIES.length] ?? 'admin';
	const filters = FILTERS[Math.floor(at / QUERIES.length) % FILTERS.length] ?? {};
	return { query, ...filters };
}

/** One spawn of a server, each step timed from the spawn, then its searches in a row. */
async function spawnOnce(server: Server): Promise<void> {
	const started = performance.now();
	const transport = new StdioClientTransport({
		command: bin('node'),
		args: [server.entry],
		cwd: server.root,
		env: childEnv() as Record<string, string>,
		stderr: 'ignore',
	});
	const client = new Client({ name: 'bench', version: '1' });
	const mark = (step: Step) => server.times[step].push(performance.now() - started);
	try {
		await client.connect(transport);
		mark('connected (initialize)');
		const { tools } = await client.listTools();
		if (tools.length === 0) throw new Error(`${server.name}: no tools listed`);
		mark('tools listed');
		const listed = await client.callTool({ name: 'list_views', arguments: {} });
		if (listed.isError) throw new Error(`${server.name}: list_views failed`);
		mark('first tool answer (list_views)');
		const found = await client.callTool({ name: 'search', arguments: { query: 'admin' } });
		if (found.isError) throw new Error(`${server.name}: search failed`);
		mark('first search answer');
		if (!server.searches) return;
		/** Makes `count` calls in a row, the `at`th with the arguments given, and times each. */
		const inARow = async (call: InARow, name: string, args: (at: number) => object) => {
			for (let at = 0; at < env.BENCH_SEARCHES; at++) {
				const sent = performance.now();
				const answer = await client.callTool({ name, arguments: { ...args(at) } });
				if (answer.isError)
					throw new Error(`${server.name}: ${call} ${JSON.stringify(args(at))} failed`);
				server.inARow[call].push(performance.now() - sent);
			}
		};
		await inARow('search, the 8 words in turn', 'search', (at) => ({
			query: QUERIES[at % QUERIES.length] ?? 'admin',
		}));
		await inARow(
			'search, each question different (words and filters)',
			'search',
			differentQuestion,
		);
		await inARow('list_views', 'list_views', () => ({}));
	} finally {
		await client.close();
	}
}

const emptyTimes = (): Record<Step, number[]> => ({
	'connected (initialize)': [],
	'tools listed': [],
	'first tool answer (list_views)': [],
	'first search answer': [],
});
const emptyInARow = (): Record<InARow, number[]> => ({
	'search, the 8 words in turn': [],
	'search, each question different (words and filters)': [],
	list_views: [],
});
const portal: Server = {
	name: `this checkout (${commitOf(ROOT)})`,
	root: ROOT,
	entry: 'mcp/cli.ts',
	searches: true,
	times: emptyTimes(),
	inARow: emptyInARow(),
};
const bare: Server = {
	name: 'bare server (same SDK, answers "ok")',
	root: ROOT,
	entry: 'bench/lib/bare-mcp-server.ts',
	searches: false,
	times: emptyTimes(),
	inARow: emptyInARow(),
};
const servers: Server[] = [portal, bare];
const baselineRoot = env.BENCH_BASELINE ? path.resolve(env.BENCH_BASELINE) : undefined;
const baseline: Server | undefined = baselineRoot
	? {
			name: `baseline at ${commitOf(baselineRoot)}`,
			root: baselineRoot,
			entry: 'mcp/cli.ts',
			searches: true,
			times: emptyTimes(),
			inARow: emptyInARow(),
		}
	: undefined;
if (baseline) servers.push(baseline);

const loadBefore = os.loadavg();
for (let round = 0; round < env.BENCH_ROUNDS; round++) {
	// Each round starts with another server, so none always runs first.
	const order = servers.map((_, at) => servers[(at + round) % servers.length]!);
	for (const server of order) await spawnOnce(server);
}
const loadAfter = os.loadavg();

const ms = (value: number): string => `${Math.round(value)} ms`;
const load = (values: readonly number[]): string => values.map((v) => v.toFixed(2)).join(' ');
const rows = servers.flatMap((server) =>
	steps.map((step) => [
		server.name,
		step,
		ms(median(server.times[step])),
		ms(Math.min(...server.times[step])),
		ms(Math.max(...server.times[step])),
	]),
);
/** A server's median of a step over the bare server's. */
const ratio = (server: Server, step: Step): number =>
	median(server.times[step]) / median(bare.times[step]);
const sections = [
	`## From spawn, over ${env.BENCH_ROUNDS} spawns of each`,
	table(['server', 'step', 'median', 'fastest', 'slowest'], rows),
	'## Beside the bare server, in the same rounds',
	table(
		['server', 'step', 'median', 'bare median', 'over bare', 'aim'],
		servers
			.filter((server) => server !== bare)
			.flatMap((server) =>
				steps.map((step) => {
					const aim = AIMS[step];
					const times = ratio(server, step);
					return [
						server.name,
						step,
						ms(median(server.times[step])),
						ms(median(bare.times[step])),
						`${times.toFixed(2)}x`,
						aim === undefined ? '' : `at most ${aim}x: ${verdict(times <= aim)}`,
					];
				}),
			),
	),
];
if (env.BENCH_SEARCHES > 0) {
	sections.push(
		`## ${env.BENCH_SEARCHES} calls in a row, after the first answers, on one connection`,
		table(
			[
				'server',
				'tool call',
				'calls',
				'median',
				'fastest',
				'slowest',
				`at most ${SEARCH_AIM_MS} ms`,
			],
			servers
				.filter((server) => server.searches)
				.flatMap((server) =>
					inARowCalls.map((call) => {
						const times = server.inARow[call];
						const aim = verdict(median(times) <= SEARCH_AIM_MS);
						return [
							server.name,
							call,
							String(times.length),
							`${median(times).toFixed(1)} ms`,
							`${Math.min(...times).toFixed(1)} ms`,
							`${Math.max(...times).toFixed(1)} ms`,
							`${aim} (${times.filter((time) => time <= SEARCH_AIM_MS).length} of ${times.length} calls)`,
						];
					}),
				),
		),
	);
}
sections.push(
	`Load average (1, 5, 15 min): ${load(loadBefore)} before, ${load(loadAfter)} after, on ${os.availableParallelism()} cores.`,
	'Each spawn is `node <entry>` in the checkout, with the repository fixtures, timed by the SDK Client over stdio from the spawn: connected is the answer to initialize; tools listed, the answer to tools/list; then the first list_views and the first search ("admin"). The bare server answers "ok" to both. The portal\'s server keeps its search index under node_modules/.cache by its sources and code: a spawn after they changed (the first of a new checkout, or after an edit) makes it again, and is the slowest first search; the others load it. Compiled code is kept between spawns (both servers enable the compile cache), as between an assistant\'s starts. The searches in a row take the words ' +
		QUERIES.map((query) => `"${query}"`).join(', ') +
		' in turn, each timed from the call to its answer; the different questions take each word with each of ' +
		`${FILTERS.length} sets of the dialog's filters (none, a page kind, an environment, a role, and pairs of them), so no question is asked twice in ${QUERIES.length * FILTERS.length}; list_views is called as many times, without arguments.`,
);
if (baseline) {
	sections.push(
		`Baseline: a checkout of its own (BENCH_BASELINE=${baselineRoot ?? ''}), spawned the same way in the same rounds.`,
	);
}
await writeResult({
	name: 'mcp',
	title: 'MCP server: an assistant’s wait from spawn, beside a bare server',
	markdown: sections.join('\n\n'),
	data: {
		load: { before: loadBefore, after: loadAfter },
		servers: Object.fromEntries(
			servers.map((server) => [
				server.name,
				{ root: server.root, entry: server.entry, times: server.times, inARow: server.inARow },
			]),
		),
	},
});
