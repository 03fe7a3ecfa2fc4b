/**
 * The MCP server as an assistant's client meets it: the configuration block the MCP guide shows,
 * run as shown (the clone's folder in place of the placeholder), driven
 * over stdio by the SDK's own Client. The views are the scripted history repository's (so
 * access_changes has commits and tags), `call_mock` calls a real mock on a free port, a fixture is
 * edited and the next answer follows, and every key and configuration value any version of any
 * fixture held is looked for in every tool result and resource the test received.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { View } from '../../src/schemas/view.ts';
import { loadViews } from '../../src/sources/fixtures.ts';
import {
	bin,
	childEnv,
	freePort,
	ROOT,
	start,
	waitForUrl,
	type Started,
} from '../../support/processes.ts';
import { makeHistoryRepo, secretValues, type HistoryRepo } from '../support/history-repo.ts';

/** The placeholder the block names the clone's folder with. */
const PLACEHOLDER = '/path/to/console-portal';

/** The MCP client block of a Markdown file: the first ```json block naming mcpServers. */
function clientBlock(text: string): { command: string; args: string[] } {
	const blocks = [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
	const block = blocks.find((candidate) => candidate.includes('"mcpServers"'));
	if (!block) throw new Error('expected a ```json block with "mcpServers"');
	const parsed = JSON.parse(block) as {
		mcpServers: Record<string, { command: string; args: string[] }>;
	};
	const server = parsed.mcpServers['console-portal'];
	if (!server) throw new Error('expected the server "console-portal"');
	return server;
}

let folder: string;
let history: HistoryRepo;
let mock: Started;
let mockBase: string;
/** An address nothing listens on, listed in MCP_ALLOWED_MOCKS so that call_mock tries it. */
let closedBase: string;
let client: Client;
let transport: StdioClientTransport;
/** The processes the client's command started: npm and what it ran. */
const started: number[] = [];
/** Every text the server sent back: tool results (errors too) and resources. */
const received: string[] = [];
let firstAnswerMs = 0;

/** Calls a tool and keeps its whole result for the secret scan. */
async function call(name: string, args: Record<string, unknown> = {}) {
	const result = await client.callTool({ name, arguments: args });
	received.push(JSON.stringify(result));
	const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
	return {
		isError: result.isError === true,
		text,
		data: (result.structuredContent ?? {}) as Record<string, unknown>,
	};
}

/** A call that must fail: its one line. */
async function failing(name: string, args: Record<string, unknown>): Promise<string> {
	const result = await call(name, args);
	expect(result.isError, `${name} ${JSON.stringify(args)} should fail`).toBe(true);
	expect(result.text).not.toContain('\n');
	return result.text;
}

/** The views the repository's folder holds now. */
async function viewsNow() {
	return loadViews(history.views);
}

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-mcp-'));
	history = await makeHistoryRepo(folder);
	const port = await freePort();
	mockBase = `http://127.0.0.1:${port}`;
	mock = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(port), PORTAL_VIEWS_DIR: history.views, MOCK_LOG: 'off' },
	});
	await waitForUrl(`${mockBase}/readyz`, mock);
	closedBase = `http://127.0.0.1:${await freePort()}`;

	// The block the MCP server's guide gives a client.
	const readme = clientBlock(
		await readFile(path.join(ROOT, 'content/docs/mcp-server.mdx'), 'utf8'),
	);
	expect(readme.args).toContain(PLACEHOLDER);
	const spawnedAt = Date.now();
	transport = new StdioClientTransport({
		command: readme.command,
		args: readme.args.map((arg) => (arg === PLACEHOLDER ? ROOT : arg)),
		// Run from elsewhere, as a client does; the views are the scripted repository's.
		cwd: os.tmpdir(),
		// The mock on MOCK_PORT is the local one, which call_mock calls without being told of it.
		env: childEnv({
			PORTAL_VIEWS_DIR: history.views,
			MOCK_PORT: String(port),
			MCP_ALLOWED_MOCKS: closedBase,
		}) as Record<string, string>,
		stderr: 'pipe',
	});
	client = new Client({ name: 'console-portal-test', version: '1.0.0' });
	await client.connect(transport);
	if (transport.pid) started.push(transport.pid);
	await call('list_views', {});
	firstAnswerMs = Date.now() - spawnedAt;
	process.stderr.write(`MCP server: ${firstAnswerMs} ms from spawn to the first tool answer\n`);
	// The processes npm started for the server, to stop by pid whatever happens.
	if (transport.pid) {
		try {
			const children = execFileSync('pgrep', ['-P', String(transport.pid)], { encoding: 'utf8' });
			started.push(...children.split('\n').filter(Boolean).map(Number));
		} catch {
			/* none */
		}
	}
}, 120_000);

afterAll(async () => {
	await client?.close().catch(() => undefined);
	for (const pid of started.reverse()) {
		try {
			process.kill(pid, 'SIGTERM');
		} catch {
			/* already gone */
		}
	}
	await mock?.stop();
	if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the MCP server, over stdio as its guide starts it', () => {
	it('lists its seven tools, each with a description and input and output schemas', async () => {
		const { tools } = await client.listTools();
		received.push(JSON.stringify(tools));
		expect(tools.map((tool) => tool.name).sort()).toEqual(
			[
				'access_changes',
				'call_mock',
				'check_answer',
				'list_views',
				'read_page',
				'search',
				'who_holds',
			].sort(),
		);
		for (const tool of tools) {
			expect(tool.description, tool.name).toMatch(/^[A-Z][^\n]+\.$/);
			expect(tool.inputSchema.type).toBe('object');
			expect(tool.outputSchema?.type, tool.name).toBe('object');
		}
		const who = tools.find((tool) => tool.name === 'who_holds')!;
		expect(who.inputSchema.properties?.['role']).toMatchObject({
			enum: ['admin', 'deployer', 'operator', 'viewer'],
		});
		const mockTool = tools.find((tool) => tool.name === 'call_mock')!;
		expect(mockTool.inputSchema.required).toEqual(['slug', 'email']);
	});

	it('who_holds production admin names exactly the fixtures’ production admins', async () => {
		const views = await viewsNow();
		const expected = views
			.filter(({ view }) => view.environment === 'production')
			.flatMap(({ slug, view }) =>
				view.users.filter((u) => u.role === 'admin').map((u) => `${slug} ${u.email}`),
			)
			.sort();
		const { data } = await call('who_holds', { role: 'admin', environment: 'production' });
		const rows = data['holdings'] as { slug: string; email: string }[];
		expect(rows.map((row) => `${row.slug} ${row.email}`).sort()).toEqual(expected);
	});

	it('list_views, search and read_page answer from the fixtures', async () => {
		const views = await viewsNow();
		const { data } = await call('list_views', { environment: 'production' });
		expect((data['views'] as { slug: string }[]).map((view) => view.slug)).toEqual(
			views.filter(({ view }) => view.environment === 'production').map(({ slug }) => slug),
		);
		const found = await call('search', { query: 'Sam Okoye' });
		expect((found.data['results'] as { href: string }[]).map((r) => r.href)).toContain(
			'/people/sam.okoye/',
		);
		const page = await call('read_page', { address: '/views/production-main/' });
		expect(page.data['markdown']).toContain('Sam Okoye');
		expect(page.data['markdown']).toContain('<API_KEY>');
	});

	it('access_changes gives the scripted history’s changes since a tag', async () => {
		const { data } = await call('access_changes', { since: 'v2.0' });
		const rows = data['rows'] as { kind: string; author: string }[];
		expect(rows.length).toBe(history.staging.users.length);
		expect(new Set(rows.map((row) => `${row.author} ${row.kind}`))).toEqual(
			new Set(['Gus Gallo granted']),
		);
		const roles = await call('access_changes', { kind: 'role changed' });
		expect((roles.data['rows'] as { author: string }[]).map((row) => row.author)).toEqual([
			'Cy Castillo',
			'Cy Castillo',
		]);
	});

	it('call_mock gets the view’s users from a running mock, and the key stays out', async () => {
		const [entry] = (await viewsNow()).filter(({ slug }) => slug === 'staging-us-east');
		const user = entry!.view.users[3]!;
		const { data, isError, text } = await call('call_mock', {
			slug: 'staging-us-east',
			email: user.email,
			baseUrl: mockBase,
		});
		expect(isError, text).toBe(false);
		expect(data['status']).toBe(200);
		const body = JSON.parse(data['body'] as string) as { users: { email: string }[] };
		expect(body.users.map((u) => u.email)).toEqual(entry!.view.users.map((u) => u.email));
		expect(data['check']).toMatchObject({ conforms: true, verdict: 'matches' });
		expect(data['key']).toMatch(
			/^Keys and configuration values are never given here; the HTML page \/views\/staging-us-east\/ shows them/,
		);
		expect(text).not.toContain(user.apiKey);
		const refused = await call('call_mock', {
			slug: 'staging-us-east',
			email: user.email,
			baseUrl: mockBase,
			prefer: 'code=401, example=invalid-key',
		});
		expect(refused.data['status']).toBe(401);
		expect(refused.data['check']).toMatchObject({ conforms: true });
		const head = await call('call_mock', {
			slug: 'staging-us-east',
			email: user.email,
			baseUrl: mockBase,
			method: 'HEAD',
		});
		expect(head.data).toMatchObject({ status: 200, body: '' });
		expect(head.data['check']).toMatchObject({ verdict: 'unchecked' });
	});

	it('check_answer names a violation by its JSON path', async () => {
		const { data } = await call('check_answer', {
			status: 200,
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify({ users: [{ name: 'A', email: 'a@example.com', role: 'root' }] }),
		});
		expect(data['conforms']).toBe(false);
		expect(data['violations']).toContain(
			'/users/0/role: must be one of admin, deployer, operator, viewer',
		);
	});

	it('bad input gets one line naming it, and the server keeps serving', async () => {
		expect(await failing('who_holds', { role: 'root' })).toMatch(/role: expected one of admin/);
		expect(await failing('read_page', { address: '/views/nope/' })).toMatch(
			/^view "nope": no such view/,
		);
		expect(await failing('list_views', { environment: 'moon' })).toMatch(/^environment "moon"/);
		expect(await failing('access_changes', { since: '2026-13-45x' })).toMatch(
			/^since "2026-13-45x": expected a date/,
		);
		expect(await failing('check_answer', { status: 42 })).toMatch(/^status 42: expected an HTTP/);
		// A body that is not JSON is an answer to judge, as the proxy and conform judge it.
		expect((await call('check_answer', { status: 200, body: '{not json' })).data).toMatchObject({
			conforms: false,
			headline: "The answer has no Content-Type; the contract's 200 answer is application/json.",
		});
		expect(
			await failing('call_mock', { slug: 'staging-us-east', email: 'nobody@example.com' }),
		).toMatch(/^email "nobody@example.com": not in the directory of staging-us-east/);
		const someone = (await viewsNow())[0]!;
		expect(
			await failing('call_mock', {
				slug: someone.slug,
				email: someone.view.users[0]!.email,
				baseUrl: closedBase,
			}),
		).toMatch(/no mock answered at http:\/\/127\.0\.0\.1:\d+ .*; start one with npm run mock$/);
		expect(await failing('search', { query: 'x', role: 'root' })).toMatch(/role/);
		expect((await call('list_views')).isError).toBe(false);
	});

	it('follows an edit to a fixture in its next answer', async () => {
		const file = path.join(history.views, 'staging-us-east.json');
		const view = JSON.parse(await readFile(file, 'utf8')) as View;
		const promoted = view.users.find((user) => user.role === 'viewer')!;
		const before = await call('who_holds', { role: 'admin', environment: 'staging-us-east' });
		expect((before.data['holdings'] as { email: string }[]).map((r) => r.email)).not.toContain(
			promoted.email,
		);
		promoted.role = 'admin';
		const demoted = view.users.find((user) => user.role === 'admin' && user !== promoted)!;
		demoted.role = 'viewer';
		await writeFile(file, `${JSON.stringify(view, null, 2)}\n`);
		const after = await call('who_holds', { role: 'admin', environment: 'staging-us-east' });
		const emails = (after.data['holdings'] as { email: string }[]).map((r) => r.email);
		expect(emails).toContain(promoted.email);
		expect(emails).not.toContain(demoted.email);
	});

	it('serves the published contract, llms.txt and each guide as resources', async () => {
		const { resources } = await client.listResources();
		const uris = resources.map((resource) => resource.uri);
		expect(uris).toEqual(
			expect.arrayContaining([
				'portal:///openapi.json',
				'portal:///llms.txt',
				'portal:///docs/mock-server.md',
			]),
		);
		for (const uri of uris) {
			const { contents } = await client.readResource({ uri });
			received.push(JSON.stringify(contents));
			const [content] = contents;
			expect(content && 'text' in content ? content.text : '', uri).toBeTruthy();
		}
		const contract = await client.readResource({ uri: 'portal:///openapi.json' });
		const [content] = contract.contents;
		const document = JSON.parse(content && 'text' in content ? content.text : '{}') as {
			openapi: string;
			$self?: string;
		};
		// The OpenAPI 3.2 contract as /openapi.json publishes it, with that file's address.
		expect(document).toMatchObject({ openapi: '3.2.0', $self: '/openapi.json' });
	});

	it('no tool result or resource holds any key or configuration value, of any version', async () => {
		const secrets = new Set(history.secrets);
		for (const { view } of await viewsNow())
			for (const value of secretValues(view)) secrets.add(value);
		const all = received.join('\n');
		const found = [...secrets].filter((secret) => secret.length >= 6 && all.includes(secret));
		process.stderr.write(
			`MCP secret scan: ${secrets.size} secret values looked for in ${received.length} results and resources (${all.length} characters): ${found.length} found\n`,
		);
		expect(received.length).toBeGreaterThan(20);
		expect(secrets.size).toBeGreaterThanOrEqual(36);
		expect(found).toEqual([]);
	});
});
