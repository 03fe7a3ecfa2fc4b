/**
 * A second, independent MCP client: the MCP Inspector's CLI (`@modelcontextprotocol/inspector-cli`)
 * starts the server with the MCP guide's command and arguments, lists its tools and calls one.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadViews } from '../../src/sources/fixtures.ts';
import { childEnv, ROOT } from '../../support/processes.ts';
import { toolBin } from '../tools.ts';

const run = promisify(execFile);

/** The MCP guide's client block: its command and arguments, the clone's folder filled in. */
async function readmeCommand(): Promise<string[]> {
	const text = await readFile(path.join(ROOT, 'content/docs/mcp-server.mdx'), 'utf8');
	const block = [...text.matchAll(/```json\n([\s\S]*?)```/g)]
		.map((match) => match[1] ?? '')
		.find((candidate) => candidate.includes('"mcpServers"'));
	if (!block) throw new Error('expected the MCP guide to show an MCP client block');
	const { command, args } = (
		JSON.parse(block) as { mcpServers: Record<string, { command: string; args: string[] }> }
	).mcpServers['console-portal']!;
	return [command, ...args.map((arg) => (arg === '/path/to/console-portal' ? ROOT : arg))];
}

/** Runs the Inspector's CLI on the server with a method and its options; gives its JSON answer. */
async function inspect(options: string[]): Promise<Record<string, unknown>> {
	const [command, ...args] = await readmeCommand();
	const { stdout } = await run(
		toolBin('mcp-inspector-cli'),
		['--cli', command!, ...options, '--', ...args],
		{
			// Inspector CLI 1.0.3 reads its own package.json as `../package.json` when that path
			// exists from the working folder; a folder one level inside the repository has one.
			cwd: path.join(ROOT, 'mcp'),
			env: childEnv(),
			timeout: 90_000,
			maxBuffer: 16 * 1024 * 1024,
		},
	);
	return JSON.parse(stdout.slice(stdout.indexOf('{'))) as Record<string, unknown>;
}

describe('the MCP Inspector CLI, as a second client', () => {
	it('lists the seven tools', async () => {
		const { tools } = (await inspect(['--method', 'tools/list'])) as {
			tools: { name: string; inputSchema: object }[];
		};
		expect(tools.map((tool) => tool.name).sort()).toEqual([
			'access_changes',
			'call_mock',
			'check_answer',
			'list_views',
			'read_page',
			'search',
			'who_holds',
		]);
	}, 120_000);

	it('calls who_holds and gets exactly the production admins', async () => {
		const answer = (await inspect([
			'--method',
			'tools/call',
			'--tool-name',
			'who_holds',
			'--tool-arg',
			'role=admin',
			'--tool-arg',
			'environment=production',
		])) as { structuredContent: { holdings: { slug: string; email: string }[] } };
		const views = await loadViews(path.join(ROOT, 'content/views'));
		const expected = views
			.filter(({ view }) => view.environment === 'production')
			.flatMap(({ slug, view }) =>
				view.users.filter((u) => u.role === 'admin').map((u) => `${slug} ${u.email}`),
			)
			.sort();
		expect(answer.structuredContent.holdings.map((h) => `${h.slug} ${h.email}`).sort()).toEqual(
			expected,
		);
	}, 120_000);
});
