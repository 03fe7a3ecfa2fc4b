/**
 * `node bench/mcp.ts`: how long an assistant waits for the MCP server. Spawns it BENCH_ROUNDS
 * times (5 by default) as the README's client block starts it, but with node directly
 * (`node mcp/server.ts`, the command `npm run mcp` runs, without npm's own start), connects the
 * SDK's Client over stdio and times, from the spawn: the connection (initialize), the first
 * `list_views` answer, and the first `search` answer (which indexes the portal with Pagefind).
 * Prints the median and range of each, over the repository's fixtures.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { z } from 'zod';
import { bin, childEnv, ROOT } from '../support/processes.ts';
import { machine, machineLine, table } from './lib/report.ts';

const env = z
	.object({ BENCH_ROUNDS: z.coerce.number().int().min(1).max(21).default(5) })
	.parse(process.env);

/** The middle value of a list of numbers. */
function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1
		? (sorted[middle] ?? 0)
		: ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const steps = ['connected (initialize)', 'first list_views answer', 'first search answer'] as const;
const times: Record<(typeof steps)[number], number[]> = {
	'connected (initialize)': [],
	'first list_views answer': [],
	'first search answer': [],
};

for (let round = 0; round < env.BENCH_ROUNDS; round++) {
	const started = performance.now();
	const transport = new StdioClientTransport({
		command: bin('node'),
		args: ['mcp/server.ts'],
		cwd: ROOT,
		env: childEnv() as Record<string, string>,
		stderr: 'ignore',
	});
	const client = new Client({ name: 'bench', version: '1' });
	try {
		await client.connect(transport);
		times['connected (initialize)'].push(performance.now() - started);
		const listed = await client.callTool({ name: 'list_views', arguments: {} });
		if (listed.isError) throw new Error('list_views failed');
		times['first list_views answer'].push(performance.now() - started);
		const found = await client.callTool({ name: 'search', arguments: { query: 'admin' } });
		if (found.isError) throw new Error('search failed');
		times['first search answer'].push(performance.now() - started);
	} finally {
		await client.close();
	}
}

const ms = (value: number): string => `${Math.round(value)} ms`;
console.log(machineLine(machine()));
console.log(`MCP server, from spawn, over ${env.BENCH_ROUNDS} spawns:\n`);
console.log(
	table(
		['step', 'median', 'fastest', 'slowest'],
		steps.map((step) => [
			step,
			ms(median(times[step])),
			ms(Math.min(...times[step])),
			ms(Math.max(...times[step])),
		]),
	),
);
