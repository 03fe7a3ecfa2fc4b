/**
 * The MCP server is secret-free by construction: every tool, called for every view and every
 * person of the repository's fixtures, and every resource, is answered without any key or
 * configuration value of any fixture, even by a hostile mock that echoes the key it was sent.
 * The server runs in this process, connected to the SDK's Client by an in-memory transport.
 */
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '../../../src/schemas/view.ts';
import { loadViews } from '../../../src/sources/fixtures.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import { createPortalReader } from '../../../mcp/portal.ts';
import { createPortalServer } from '../../../mcp/server.ts';
import { ROOT } from '../../../support/processes.ts';
import { secretValues } from '../../support/markdown.ts';

const viewsDir = path.join(ROOT, 'content/views');
const views = await loadViews(viewsDir);
const secrets = secretValues(views);

let echo: Server;
let echoBase: string;
let client: Client;
const received: string[] = [];

/** Calls a tool and keeps what came back. */
async function call(name: string, args: Record<string, unknown>): Promise<string> {
	const result = await client.callTool({ name, arguments: args });
	const text = JSON.stringify(result);
	received.push(text);
	return text;
}

beforeAll(async () => {
	// A hostile mock: it sends back, in a header and the body, the Authorization it was sent.
	echo = createServer((request, response) => {
		const sent = request.headers.authorization ?? '';
		response.writeHead(200, { 'content-type': 'application/json', 'x-sent': sent });
		response.end(JSON.stringify({ users: [], sent }));
	});
	await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
	const address = echo.address();
	if (!address || typeof address === 'string') throw new Error('expected a port');
	echoBase = `http://127.0.0.1:${address.port}`;

	const settings = readSettings({ ...process.env, PORTAL_VIEWS_DIR: viewsDir });
	const server = createPortalServer(createPortalReader(settings), {
		version: 'test',
		localMock: echoBase,
		mocks: { portal: [echoBase], listed: [] },
	});
	const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
	await server.connect(serverSide);
	client = new Client({ name: 'secret-scan', version: '1' });
	await client.connect(clientSide);
});

afterAll(async () => {
	await client?.close();
	await new Promise<void>((resolve) => (echo ? echo.close(() => resolve()) : resolve()));
});

describe('the MCP server, secret-free by construction', () => {
	it('no tool result or resource holds a key or a configuration value of any fixture', async () => {
		received.push(JSON.stringify(await client.listTools()));
		await call('list_views', {});
		await call('search', { query: 'key' });
		await call('search', { query: 'secret password token' });
		await call('read_page', { address: '/' });
		await call('read_page', { address: '/reference/' });
		await call('read_page', { address: '/llms.txt' });
		await call('access_changes', {});
		for (const role of ROLES) await call('who_holds', { role });
		for (const { slug, view } of views) {
			await call('read_page', { address: `/views/${slug}/` });
			await call('search', { query: slug });
			await call('list_views', { environment: view.environment });
			for (const user of view.users) {
				await call('who_holds', { email: user.email });
				const answer = await call('call_mock', { slug, email: user.email, baseUrl: echoBase });
				expect(answer).toContain('[secret removed]');
				// A key given back as input is not repeated in the error either.
				await call('call_mock', { slug, email: user.apiKey });
				await call('read_page', { address: user.apiKey });
			}
		}
		for (const person of new Set(views.flatMap(({ view }) => view.users.map((u) => u.email)))) {
			await call('search', { query: person });
		}
		const { resources } = await client.listResources();
		for (const { uri } of resources) {
			received.push(JSON.stringify(await client.readResource({ uri })));
		}
		const all = received.join('\n');
		const found = secrets.filter(({ value }) => all.includes(value)).map(({ where }) => where);
		process.stderr.write(
			`MCP secret scan (in process): ${secrets.length} keys and configuration values of ${views.length} views looked for in ${received.length} tool results and resources (${all.length} characters): ${found.length} found\n`,
		);
		expect(secrets.length).toBeGreaterThan(views.length * 17);
		expect(received.length).toBeGreaterThan(views.length * 8 * 4);
		expect(found).toEqual([]);
	});
});
