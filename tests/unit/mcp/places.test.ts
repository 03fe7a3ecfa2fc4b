/**
 * Where the MCP server sends a person's key and what it reads as the portal: the mocks the
 * settings name (and MCP_ALLOWED_MOCKS), the refusal of any other before a request, a caller's key
 * kept out of what comes back, and a misbehaving mock said as what it did.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadViews } from '../../../src/sources/fixtures.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import { callMock, whatTheMockDid } from '../../../mcp/call-mock.ts';
import { mayCall, mockAddresses, portalOrigins, refusal } from '../../../mcp/places.ts';
import { callersKeys } from '../../../mcp/answer.ts';
import { ToolInputError } from '../../../mcp/tool-names.ts';
import { ROOT } from '../../../support/processes.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));

/** The settings from these variables alone. */
function settingsOf(env: Record<string, string>) {
	return readSettings({ PORTAL_VIEWS_DIR: 'content/views', ...env });
}

describe('MCP_ALLOWED_MOCKS', () => {
	it('reads mock addresses separated by commas, each without a trailing slash', () => {
		expect(
			settingsOf({
				MCP_ALLOWED_MOCKS: ' https://mock.intranet.example/, http://192.0.2.10:4010/team-a/ ,,',
			}).mcpAllowedMocks,
		).toEqual(['https://mock.intranet.example', 'http://192.0.2.10:4010/team-a']);
		expect(settingsOf({}).mcpAllowedMocks).toEqual([]);
	});

	it('refuses an address that is not http(s), or that carries a password, naming the setting', () => {
		expect(() => settingsOf({ MCP_ALLOWED_MOCKS: 'ftp://mock.example' })).toThrow(
			/MCP_ALLOWED_MOCKS: expected mock addresses separated by commas .* has the scheme ftp:/,
		);
		expect(() => settingsOf({ MCP_ALLOWED_MOCKS: 'https://ops:hunter2@mock.example' })).toThrow(
			/MCP_ALLOWED_MOCKS: expected an address without a user name or password/,
		);
		expect(() => settingsOf({ MCP_ALLOWED_MOCKS: 'https://mock.example/?k=1' })).toThrow(
			/MCP_ALLOWED_MOCKS: expected an address without a query/,
		);
	});
});

describe('the mocks call_mock may call', () => {
	const local = mockAddresses(settingsOf({ MOCK_PORT: '4010' }));
	const team = mockAddresses(
		settingsOf({
			MOCK_PORT: '4010',
			PORTAL_MOCK_URL: '/mock',
			PORTAL_URL: 'https://portal.intranet.example',
			MCP_ALLOWED_MOCKS: 'http://192.0.2.10:4010/team-a',
		}),
	);
	const allowed = (mocks: typeof local, address: string) => mayCall(mocks, new URL(address));

	it('calls the local mock on MOCK_PORT, by 127.0.0.1 or localhost, at any path under it', () => {
		expect(local).toEqual({
			portal: ['http://127.0.0.1:4010', 'http://localhost:4010'],
			listed: [],
		});
		expect(allowed(local, 'http://127.0.0.1:4010')).toBe(true);
		expect(allowed(local, 'http://127.0.0.1:4010/')).toBe(true);
		expect(allowed(local, 'http://LOCALHOST:4010/v2/')).toBe(true);
	});

	it('refuses another port, scheme or host, and a host that only starts like the mock', () => {
		for (const address of [
			'http://127.0.0.1:4011',
			'https://127.0.0.1:4010',
			'http://127.0.0.1:40100',
			'http://127.0.0.2:4010',
			'http://198.51.100.7/',
		]) {
			expect(allowed(local, address), address).toBe(false);
		}
	});

	it("calls a team's mock under the portal's origin and a listed one, within their paths", () => {
		expect(team.portal).toContain('https://portal.intranet.example/mock');
		expect(allowed(team, 'https://portal.intranet.example/mock')).toBe(true);
		expect(allowed(team, 'https://portal.intranet.example/mock/')).toBe(true);
		expect(allowed(team, 'https://portal.intranet.example/')).toBe(false);
		expect(allowed(team, 'https://portal.intranet.example/mockery')).toBe(false);
		expect(allowed(team, 'http://192.0.2.10:4010/team-a/')).toBe(true);
		expect(allowed(team, 'http://192.0.2.10:4010/team-a/../team-b')).toBe(false);
		expect(allowed(team, 'http://192.0.2.10:4010/team-b')).toBe(false);
	});

	it('says in its refusal which mocks it calls and which setting lists more', () => {
		expect(refusal(local, 'http://198.51.100.7/')).toBe(
			`baseUrl "http://198.51.100.7/": not called; call_mock sends a person's key only to the portal's mock (http://127.0.0.1:4010, http://localhost:4010) and to the mocks MCP_ALLOWED_MOCKS lists (none); to call this one, add it to MCP_ALLOWED_MOCKS in the MCP server's environment`,
		);
		expect(refusal(team, 'http://x.example/')).toContain(
			'MCP_ALLOWED_MOCKS lists (http://192.0.2.10:4010/team-a)',
		);
	});

	it('sends no request to a mock it refuses', async () => {
		const [entry] = views;
		let requests = 0;
		const send: typeof fetch = () => {
			requests += 1;
			return Promise.resolve(new Response('{"users":[]}'));
		};
		const call = {
			slug: entry!.slug,
			email: entry!.view.users[0]!.email,
			method: 'GET' as const,
			baseUrl: 'http://198.51.100.7:4010',
		};
		await expect(callMock(views, call, local, send)).rejects.toThrow(
			/^baseUrl "http:\/\/198\.51\.100\.7:4010": not called; .*MCP_ALLOWED_MOCKS/,
		);
		await expect(callMock(views, { ...call, slug: 'nope' }, local, send)).rejects.toThrow(
			ToolInputError,
		);
		expect(requests).toBe(0);
		await callMock(views, { ...call, baseUrl: 'http://127.0.0.1:4010' }, local, send);
		expect(requests).toBe(1);
	});
});

describe('the origins read_page reads', () => {
	it("is PORTAL_URL's and this machine's on PORTAL_PORT", () => {
		expect(portalOrigins(settingsOf({ PORTAL_PORT: '4400' }))).toEqual([
			'http://127.0.0.1:4400',
			'http://localhost:4400',
		]);
		expect(portalOrigins(settingsOf({ PORTAL_URL: 'https://portal.intranet.example' }))).toEqual([
			'https://portal.intranet.example',
			'http://127.0.0.1:4321',
			'http://localhost:4321',
		]);
	});
});

describe('a key the caller gives', () => {
	it('is found anywhere in the input: shaped as a key, or after Bearer', () => {
		expect(
			callersKeys({
				address: '/views/x/?k=ick-0b5e2d71-Zr4k',
				prefer: 'code=200, authorization=Bearer tok_7Hq2Lr9Vx4Np',
				headers: { 'abc-12345678-abcd': 'bearer other.token-1' },
				list: ['ops-0b5e2d71-AAAA'],
				count: 3,
			}),
		).toEqual([
			'ick-0b5e2d71-Zr4k',
			'abc-12345678-abcd',
			'ops-0b5e2d71-AAAA',
			'tok_7Hq2Lr9Vx4Np',
			'other.token-1',
		]);
		expect(callersKeys({ query: 'production admins', slug: 'staging-us-east' })).toEqual([]);
		expect(callersKeys({ query: 'Bearer challenge', other: 'bearer a1b2' })).toEqual([]);
	});
});

describe('a mock that misbehaves', () => {
	const origin = 'http://127.0.0.1:4010';
	/** The error fetch fails with, with its cause. */
	const failed = (cause: Error) => new TypeError('fetch failed', { cause });
	const coded = (message: string, code: string, name = 'Error') =>
		Object.assign(new Error(message), { code, name });

	it('is said as what it did, before or after the status came', () => {
		const timeout = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
		expect(whatTheMockDid({ error: timeout }, origin, 15_000)).toBe(
			'the mock at http://127.0.0.1:4010 did not answer within 15 s (timeoutMs waits longer)',
		);
		expect(whatTheMockDid({ error: timeout, status: 200 }, origin, 2500)).toBe(
			'the mock at http://127.0.0.1:4010 sent 200 and its headers but not its whole body within 2.5 s',
		);
		const reset = failed(coded('read ECONNRESET', 'ECONNRESET'));
		expect(whatTheMockDid({ error: reset }, origin, 1)).toBe(
			'the mock at http://127.0.0.1:4010 reset the connection before answering (ECONNRESET)',
		);
		expect(whatTheMockDid({ error: reset, status: 200 }, origin, 1)).toMatch(
			/sent 200 and its headers but then reset the connection \(ECONNRESET\), its body cut short$/,
		);
		const garbage = failed(
			Object.assign(new Error('Response does not match the HTTP/1.1 protocol'), {
				name: 'HTTPParserError',
			}),
		);
		expect(whatTheMockDid({ error: garbage }, origin, 1)).toBe(
			'the mock at http://127.0.0.1:4010 answered with bytes that are not HTTP (Response does not match the HTTP/1.1 protocol)',
		);
		const closed = failed(coded('other side closed', 'UND_ERR_SOCKET', 'SocketError'));
		expect(whatTheMockDid({ error: closed }, origin, 1)).toBe(
			'the mock at http://127.0.0.1:4010 closed the connection without answering (other side closed)',
		);
		expect(
			whatTheMockDid(
				{ error: new TypeError('terminated', { cause: closed.cause }), status: 503 },
				origin,
				1,
			),
		).toBe(
			'the mock at http://127.0.0.1:4010 sent 503 and its headers but then closed the connection, its body cut short (other side closed)',
		);
		expect(whatTheMockDid({ error: new Error('odd'), status: 200 }, origin, 1)).toMatch(
			/sent 200 and its headers but its body could not be read \(odd\)$/,
		);
	});

	it('that is not there asks for one to be started, and a host that is not found is named', () => {
		const refused = failed(coded('connect ECONNREFUSED 127.0.0.1:4010', 'ECONNREFUSED'));
		expect(whatTheMockDid({ error: refused }, origin, 1)).toBe(
			'no mock answered at http://127.0.0.1:4010 (connect ECONNREFUSED 127.0.0.1:4010); start one with npm run mock',
		);
		const unknown = failed(coded('getaddrinfo ENOTFOUND mock.example', 'ENOTFOUND'));
		expect(whatTheMockDid({ error: unknown }, 'https://mock.example', 1)).toBe(
			'no host mock.example was found (ENOTFOUND)',
		);
		expect(whatTheMockDid({ error: 'down' }, origin, 1)).toBe(
			'no mock answered at http://127.0.0.1:4010 (down); start one with npm run mock',
		);
	});
});
