/**
 * MCP on the 3.2 copy of the contract (tests/fixtures/openapi-3-2), whose QUERY /api/v2/users the
 * mock answers itself: `node mcp/cli.ts` driven over stdio by the SDK's own Client, with a mock
 * started on the same contract. `call_mock` sends a QUERY with its JSON body and checks the answer
 * against the QUERY operation, or with `accept` asks for its stream of JSON lines, checked line by
 * line; `check_answer` checks a QUERY's answer when told the method. On the project's own
 * contract, which has no QUERY, both say so in one line.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

const CONTRACT = path.join(ROOT, 'tests', 'fixtures', 'openapi-3-2', 'openapi.yaml');

const views = await loadViews(path.join(ROOT, 'content/views'));
const entry = views.find(({ slug }) => slug === 'production')!;
const person = entry.view.users[0]!;
/** The production view's users a filter of one role matches, as the API lists them. */
const withRole = (role: string) =>
	entry.view.users
		.filter((user) => user.role === role)
		.map(({ name, email, role: held }) => ({ name, email, role: held }));

let mock: Started;
let mockBase: string;
/** The MCP server on the 3.2 contract, and one on the project's own. */
let on32: Client;
let onOwn: Client;
/** Every text a tool sent back, for the scan for keys. */
const received: string[] = [];

/** An MCP server over stdio, as a client starts it, with extra settings. */
async function connect(env: Record<string, string>): Promise<Client> {
	const transport = new StdioClientTransport({
		command: bin('node'),
		args: [path.join(ROOT, 'mcp/cli.ts')],
		cwd: ROOT,
		env: childEnv({ MOCK_PORT: new URL(mockBase).port, ...env }) as Record<string, string>,
		stderr: 'pipe',
	});
	const client = new Client({ name: 'console-portal-query', version: '1.0.0' });
	await client.connect(transport);
	return client;
}

/** Calls a tool and keeps its whole result. */
async function call(client: Client, name: string, args: Record<string, unknown>) {
	const result = await client.callTool({ name, arguments: args });
	received.push(JSON.stringify(result));
	const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
	return {
		isError: result.isError === true,
		text,
		data: (result.structuredContent ?? {}) as Record<string, unknown>,
	};
}

beforeAll(async () => {
	const port = await freePort();
	mockBase = `http://127.0.0.1:${port}`;
	mock = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(port), MOCK_WORKERS: '1', MOCK_LOG: 'off', PORTAL_OPENAPI: CONTRACT },
	});
	await waitForUrl(`${mockBase}/readyz`, mock);
	[on32, onOwn] = await Promise.all([connect({ PORTAL_OPENAPI: CONTRACT }), connect({})]);
}, 120_000);

afterAll(async () => {
	await Promise.all(
		[on32?.close(), onOwn?.close()].map((closing) => closing?.catch(() => undefined)),
	);
	await mock?.stop();
});

describe('call_mock with QUERY, on a contract that has one', () => {
	it('sends the filter given and gets the matching users, checked against the QUERY operation', async () => {
		const { isError, text, data } = await call(on32, 'call_mock', {
			slug: entry.slug,
			email: person.email,
			method: 'QUERY',
			body: '{"role":"operator"}',
		});
		expect(isError, text).toBe(false);
		expect(data['status']).toBe(200);
		expect(JSON.parse(data['body'] as string)).toEqual({ users: withRole('operator') });
		expect(data['request']).toMatch(
			/^QUERY http:\/\/127\.0\.0\.1:\d+\/api\/v2\/users with the body \{"role":"operator"\}, with the key of /,
		);
		expect(data['check']).toMatchObject({ conforms: true, verdict: 'matches' });
	});

	it("sends the contract's example filter when given no body", async () => {
		const { isError, text, data } = await call(on32, 'call_mock', {
			slug: entry.slug,
			email: person.email,
			method: 'QUERY',
		});
		expect(isError, text).toBe(false);
		expect(JSON.parse(data['body'] as string)).toEqual({ users: withRole('admin') });
	});

	it("gets the mock's 422 for a filter the schema refuses, which conforms to the QUERY's 422", async () => {
		const { data } = await call(on32, 'call_mock', {
			slug: entry.slug,
			email: person.email,
			method: 'QUERY',
			body: '{"role":"owner"}',
		});
		expect(data['status']).toBe(422);
		expect(JSON.parse(data['body'] as string)).toMatchObject({
			title: 'The body is not a filter',
			detail: '/role: must be one of admin, deployer, operator, viewer',
		});
		expect(data['check']).toMatchObject({ conforms: true, verdict: 'matches' });
	});

	it('asks for the JSON lines the QUERY declares with accept, and checks the stream line by line', async () => {
		const { isError, text, data } = await call(on32, 'call_mock', {
			slug: entry.slug,
			email: person.email,
			method: 'QUERY',
			body: '{"role":"operator"}',
			accept: 'application/jsonl',
		});
		expect(isError, text).toBe(false);
		expect(data['status']).toBe(200);
		expect((data['headers'] as Record<string, string>)['content-type']).toMatch(
			/^application\/jsonl/,
		);
		const lines = (data['body'] as string).split('\n').filter((line) => line !== '');
		expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(withRole('operator'));
		expect(data['request']).toMatch(/ asking for application\/jsonl, with the key of /);
		expect(data['check']).toMatchObject({ conforms: true, verdict: 'matches' });
	});

	it('refuses in one line a media type the operation does not declare, without a request', async () => {
		const { isError, text } = await call(on32, 'call_mock', {
			slug: entry.slug,
			email: person.email,
			accept: 'application/jsonl',
		});
		expect(isError).toBe(true);
		expect(text).toBe(
			'accept "application/jsonl": GET /api/v2/users answers 200 as application/json; expected one of those',
		);
	});

	it('refuses a body with GET in one line, without a request', async () => {
		const { isError, text } = await call(on32, 'call_mock', {
			slug: entry.slug,
			email: person.email,
			body: '{}',
		});
		expect(isError).toBe(true);
		expect(text).toContain('body: only a QUERY sends a body');
		expect(text).not.toContain('\n');
	});
});

describe('check_answer with method QUERY', () => {
	it("passes two admins as a QUERY's answer, which breaks GET's eight users", async () => {
		const answer = {
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ users: withRole('admin') }),
		};
		const query = await call(on32, 'check_answer', { ...answer, method: 'QUERY' });
		expect(query.data).toMatchObject({ conforms: true, verdict: 'matches' });
		const get = await call(on32, 'check_answer', answer);
		expect(get.data).toMatchObject({ conforms: false, verdict: 'breaks' });
	});
});

describe('on the project’s own contract, which has no QUERY', () => {
	it('call_mock and check_answer say so in one line', async () => {
		const sent = await call(onOwn, 'call_mock', {
			slug: entry.slug,
			email: person.email,
			method: 'QUERY',
			body: '{}',
		});
		expect(sent.isError).toBe(true);
		expect(sent.text).toBe(
			'method QUERY: the contract has no QUERY /api/v2/users operation; expected one of GET, HEAD, OPTIONS',
		);
		const checked = await call(onOwn, 'check_answer', { status: 200, method: 'QUERY' });
		expect(checked.isError).toBe(true);
		expect(checked.text).toBe(sent.text);
	});

	it('gives back no key of the fixtures in any result', () => {
		const all = received.join('\n');
		for (const { view } of views) {
			for (const user of view.users) expect(all).not.toContain(user.apiKey);
		}
	});
});
