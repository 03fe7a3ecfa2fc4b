/**
 * `npm run bench:mcp`: how long an assistant waits for the MCP server. Spawns it BENCH_ROUNDS
 * times (5 by default) as the README's client block starts it, but with node directly
 * (`node mcp/cli.ts`, the command `npm run mcp` runs, without npm's own start), connects the
 * SDK's Client over stdio and times, from the spawn: the connection (initialize), the tool list,
 * the first `list_views` answer, and the first `search` answer (which indexes the portal with
 * Pagefind). BENCH_BASELINE names another checkout (with its node_modules, e.g. a git worktree of
 * an older commit): its server is spawned in the same rounds, one after the other, so both meet
 * the same load. Prints the median and range of each step and writes bench/results/mcp.md.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { bin, childEnv, ROOT } from '../support/processes.ts';
import { commitOf, median, table, writeResult } from './lib/report.ts';

const env = z
	.object({
		BENCH_ROUNDS: z.coerce.number().int().min(1).max(21).default(5),
		BENCH_BASELINE: z.string().min(1).optional(),
	})
	.parse(process.env);

const steps = [
	'connected (initialize)',
	'tools listed',
	'first list_views answer',
	'first search answer',
] as const;
type Step = (typeof steps)[number];

/** A checkout whose server is timed. */
interface Checkout {
	name: string;
	root: string;
	times: Record<Step, number[]>;
}

/** One spawn of a checkout's server, each step timed from the spawn. */
async function spawnOnce(checkout: Checkout): Promise<void> {
	const started = performance.now();
	const transport = new StdioClientTransport({
		command: bin('node'),
		args: ['mcp/cli.ts'],
		cwd: checkout.root,
		env: childEnv() as Record<string, string>,
		stderr: 'ignore',
	});
	const client = new Client({ name: 'bench', version: '1' });
	const mark = (step: Step) => checkout.times[step].push(performance.now() - started);
	try {
		await client.connect(transport);
		mark('connected (initialize)');
		const { tools } = await client.listTools();
		if (tools.length === 0) throw new Error(`${checkout.name}: no tools listed`);
		mark('tools listed');
		const listed = await client.callTool({ name: 'list_views', arguments: {} });
		if (listed.isError) throw new Error(`${checkout.name}: list_views failed`);
		mark('first list_views answer');
		const found = await client.callTool({ name: 'search', arguments: { query: 'admin' } });
		if (found.isError) throw new Error(`${checkout.name}: search failed`);
		mark('first search answer');
	} finally {
		await client.close();
	}
}

const emptyTimes = (): Record<Step, number[]> => ({
	'connected (initialize)': [],
	'tools listed': [],
	'first list_views answer': [],
	'first search answer': [],
});
const checkouts: Checkout[] = [
	{ name: `this checkout (${commitOf(ROOT)})`, root: ROOT, times: emptyTimes() },
];
const baseline = env.BENCH_BASELINE ? path.resolve(env.BENCH_BASELINE) : undefined;
if (baseline) {
	checkouts.push({
		name: `baseline at ${commitOf(baseline)}`,
		root: baseline,
		times: emptyTimes(),
	});
}

for (let round = 0; round < env.BENCH_ROUNDS; round++) {
	// Each round starts with the other checkout, so neither always runs first.
	const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
	for (const checkout of order) await spawnOnce(checkout);
}

const ms = (value: number): string => `${Math.round(value)} ms`;
const rows = checkouts.flatMap((checkout) =>
	steps.map((step) => [
		checkout.name,
		step,
		ms(median(checkout.times[step])),
		ms(Math.min(...checkout.times[step])),
		ms(Math.max(...checkout.times[step])),
	]),
);
const sections = [
	`## From spawn, over ${env.BENCH_ROUNDS} spawns of each`,
	table(['server', 'step', 'median', 'fastest', 'slowest'], rows),
];
const [now, old] = checkouts;
if (now && old) {
	sections.push(
		'## This checkout beside the baseline, in the same rounds',
		table(
			['step', 'baseline median', 'this median', 'this / baseline'],
			steps.map((step) => {
				const before = median(old.times[step]);
				const after = median(now.times[step]);
				return [step, ms(before), ms(after), `${Math.round((after / before) * 100)} %`];
			}),
		),
		`Baseline: a checkout of its own (BENCH_BASELINE=${baseline ?? ''}), spawned the same way in the same rounds, alternating which goes first.`,
	);
}
sections.push(
	'Each spawn is `node mcp/cli.ts` in the checkout, with the repository fixtures, timed by the SDK Client over stdio from the spawn: connected is the answer to initialize; tools listed, the answer to tools/list; then the first list_views and the first search ("admin", which reads the contract history and indexes the portal with Pagefind). Compiled code is kept between spawns (the server enables the compile cache), as between an assistant\'s starts.',
);
await writeResult({
	name: 'mcp',
	title: 'MCP server: an assistant’s wait from spawn',
	markdown: sections.join('\n\n'),
	data: Object.fromEntries(
		checkouts.map((checkout) => [checkout.name, { root: checkout.root, times: checkout.times }]),
	),
});
