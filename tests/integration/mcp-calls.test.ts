/**
 * Where the MCP server sends a person's key, and how it reports a mock that misbehaves, as an
 * assistant's client meets it: `node mcp/cli.ts` driven over stdio by the SDK's own Client,
 * once with the settings' defaults and once with a capture server listed in MCP_ALLOWED_MOCKS.
 * The local mock (`npm run mock` on MOCK_PORT) serves the faults and delays a request asks for
 * with `Prefer`; a capture server on loopback records every request that reaches it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
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

/** A key no fixture holds, as an assistant might have been given one elsewhere. */
const CALLERS_KEY = 'ick-0b5e2d71-Zr4k';
/** A bearer token of another shape, given in a `Prefer` header. */
const CALLERS_TOKEN = 'Bearer tok_7Hq2Lr9Vx4Np';
/** The origin the second server is told the portal is read at. */
const TEAM_PORTAL = 'https://portal.intranet.example';

const views = await loadViews(path.join(ROOT, 'content/views'));
const entry = views[0]!;
const person = entry.view.users[0]!;

let mock: Started;
let mockBase: string;
let capture: Server;
let captureBase: string;
/** What reached the capture server: each request's path and headers. */
const captured: { url: string; headers: IncomingHttpHeaders }[] = [];
/** Every text either server sent back, for the scan for keys. */
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
	const client = new Client({ name: 'console-portal-calls', version: '1.0.0' });
	await client.connect(transport);
	return client;
}

let plain: Client;
let listing: Client;

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

/** `call_mock` as the fixture's first person, with these arguments. */
function callMock(client: Client, args: Record<string, unknown>) {
	return call(client, 'call_mock', { slug: entry.slug, email: person.email, ...args });
}

beforeAll(async () => {
	capture = createServer((request, response) => {
		captured.push({ url: request.url ?? '', headers: request.headers });
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end('{"users":[]}');
	});
	await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
	const address = capture.address();
	if (!address || typeof address === 'string') throw new Error('expected a port');
	captureBase = `http://127.0.0.1:${address.port}`;

	const port = await freePort();
	mockBase = `http://127.0.0.1:${port}`;
	mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(port), MOCK_LOG: 'off' } });
	await waitForUrl(`${mockBase}/readyz`, mock);
	[plain, listing] = await Promise.all([
		connect({}),
		connect({
			MCP_ALLOWED_MOCKS: `${captureBase}, https://mock.intranet.example`,
			PORTAL_URL: TEAM_PORTAL,
		}),
	]);
}, 120_000);

afterAll(async () => {
	await Promise.all(
		[plain?.close(), listing?.close()].map((closing) => closing?.catch(() => undefined)),
	);
	await mock?.stop();
	await new Promise<void>((resolve) => (capture ? capture.close(() => resolve()) : resolve()));
});

describe('call_mock sends a key only to the mock the portal names, or one the settings list', () => {
	it('refuses a capture server it was not told of, without a request, naming the setting', async () => {
		const before = captured.length;
		const { isError, text } = await callMock(plain, { baseUrl: captureBase });
		expect(isError, text).toBe(true);
		expect(text).toContain('MCP_ALLOWED_MOCKS');
		expect(text).not.toContain('\n');
		const elsewhere = await callMock(plain, { baseUrl: `${mockBase}.nip.example/` });
		expect(elsewhere.isError).toBe(true);
		expect(captured.length - before).toBe(0);
	});

	it('calls the same address once MCP_ALLOWED_MOCKS lists it, and the key stays out', async () => {
		const before = captured.length;
		const { isError, text, data } = await callMock(listing, { baseUrl: `${captureBase}/` });
		expect(isError, text).toBe(false);
		expect(data['status']).toBe(200);
		expect(captured.slice(before).map(({ url }) => url)).toEqual(['/api/v2/users']);
		expect(captured.at(-1)?.headers.authorization).toBe(`Bearer ${person.apiKey}`);
		expect(text).not.toContain(person.apiKey);
	});

	it('still calls the local mock on MOCK_PORT, listed or not', async () => {
		for (const client of [plain, listing]) {
			const { isError, text, data } = await callMock(client, { baseUrl: mockBase });
			expect(isError, text).toBe(false);
			expect(data['status']).toBe(200);
		}
	});
});

describe('a key the caller gives is never given back', () => {
	it('leaves a caller’s key out of every result, an answer or an error', async () => {
		await call(plain, 'read_page', { address: `/views/${entry.slug}/?key=${CALLERS_KEY}` });
		await call(plain, 'read_page', { address: `/views/${CALLERS_KEY}/` });
		await callMock(plain, { baseUrl: mockBase, prefer: `code=200, token=${CALLERS_KEY}` });
		await callMock(plain, {
			baseUrl: mockBase,
			prefer: `code=200, authorization=${CALLERS_TOKEN}`,
		});
		await callMock(plain, { baseUrl: `${mockBase}/${CALLERS_KEY}` });
		await callMock(plain, { baseUrl: `http://${CALLERS_KEY}.example/` });
		await callMock(plain, { email: CALLERS_KEY });
		await call(plain, 'who_holds', { email: CALLERS_KEY });
		await call(plain, 'check_answer', {
			status: 200,
			headers: { authorization: CALLERS_TOKEN },
			body: JSON.stringify({
				users: [{ name: CALLERS_KEY, email: 'a@x.example', role: CALLERS_KEY }],
			}),
		});
		const all = received.join('\n');
		expect(all).not.toContain(CALLERS_KEY);
		expect(all).not.toContain(CALLERS_TOKEN.slice('Bearer '.length));
		expect(all).not.toContain(person.apiKey);
	});
});

describe('a mock that misbehaves is reported as what it did', () => {
	it('a reset is a reset, not "no mock answered"', async () => {
		const { isError, text } = await callMock(plain, { baseUrl: mockBase, prefer: 'fault=reset' });
		expect(isError).toBe(true);
		expect(text).toMatch(/reset the connection/);
		expect(text).not.toMatch(/no mock answered|start one with npm run mock/);
	});

	it('garbage is bytes that are not HTTP', async () => {
		const { isError, text } = await callMock(plain, { baseUrl: mockBase, prefer: 'fault=garbage' });
		expect(isError).toBe(true);
		expect(text).toMatch(/not HTTP/);
		expect(text).not.toMatch(/no mock answered/);
	});

	it('an empty answer and a cut body are said as such', async () => {
		const empty = await callMock(plain, { baseUrl: mockBase, prefer: 'fault=empty' });
		expect(empty.text).toMatch(/closed the connection without answering/);
		const truncated = await callMock(plain, { baseUrl: mockBase, prefer: 'fault=truncated' });
		expect(truncated.isError).toBe(true);
		expect(truncated.text).toMatch(/200 .*cut short/);
	});

	it('a delay longer than the wait is a wait that ran out, in seconds', async () => {
		const startedAt = Date.now();
		const { isError, text } = await callMock(plain, {
			baseUrl: mockBase,
			prefer: 'delay=4000',
			timeoutMs: 1000,
		});
		expect(isError).toBe(true);
		expect(text).toMatch(/did not answer within 1 s/);
		expect(text).not.toMatch(/no mock answered/);
		expect(Date.now() - startedAt).toBeLessThan(3500);
		const slow = await callMock(plain, {
			baseUrl: mockBase,
			prefer: 'fault=slow-body, delay=4000',
			timeoutMs: 1000,
		});
		expect(slow.text).toMatch(/sent 200 and its headers but not its whole body within 1 s/);
	});

	it('a mock that is not running is still "no mock answered"', async () => {
		const closed = `http://127.0.0.1:${await freePort()}`;
		const off = await connect({ MCP_ALLOWED_MOCKS: closed });
		try {
			const { isError, text } = await callMock(off, { baseUrl: closed });
			expect(isError).toBe(true);
			expect(text).toMatch(
				/no mock answered at http:\/\/127\.0\.0\.1:\d+ .*start one with npm run mock$/,
			);
		} finally {
			await off.close();
		}
	});
});

describe('read_page reads the portal only', () => {
	it('an address on another origin is an error, not the home page', async () => {
		for (const address of [
			'http://198.51.100.7/x',
			'http://198.51.100.7/',
			'https://other.example/views/production/',
			'//other.example/',
			'file:///etc/passwd',
		]) {
			const { isError, text } = await call(plain, 'read_page', { address });
			expect(isError, address).toBe(true);
			expect(text, address).toMatch(/not the portal/);
		}
	});

	it('an address on the portal’s own origin is read, the local one or PORTAL_URL', async () => {
		const local = await call(plain, 'read_page', { address: 'http://127.0.0.1:4321/' });
		expect(local.isError, local.text).toBe(false);
		const team = await call(listing, 'read_page', {
			address: `${TEAM_PORTAL}/views/${entry.slug}/`,
		});
		expect(team.isError, team.text).toBe(false);
		expect(team.data['markdown']).toContain(person.name);
		const refused = await call(plain, 'read_page', { address: `${TEAM_PORTAL}/` });
		expect(refused.isError).toBe(true);
	});
});

describe('call_mock, when the mock answers a problem', () => {
	it('names its title and what to change as the problems guide does, beside the answer', async () => {
		const { isError, text, data } = await callMock(plain, {
			baseUrl: mockBase,
			prefer: 'code=abc',
		});
		expect(isError, text).toBe(false);
		expect(data['status']).toBe(422);
		expect(data['problem']).toEqual({
			type: 'https://portal.example/problems/invalid-control',
			title: 'The mock cannot read a control',
			change:
				'Mend the control the detail names, in the Prefer header or its __ query parameter, e.g. Prefer: code=401 or __code=401.',
			guide: '/docs/problems/#invalid-control',
		});
		const ok = await callMock(plain, { baseUrl: mockBase });
		expect(ok.data['status']).toBe(200);
		expect(ok.data).not.toHaveProperty('problem');
	});
});
