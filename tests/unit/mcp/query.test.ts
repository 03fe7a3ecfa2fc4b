/**
 * `call_mock` and `check_answer` on a contract with OpenAPI 3.2's QUERY /api/v2/users (the 3.2 copy
 * in tests/fixtures/openapi-3-2): a QUERY is sent with its JSON body and its answer is checked
 * against the QUERY operation, with the contract's one check; on a contract without one, asking
 * for a QUERY is one line naming what is missing.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { acceptOf, callMock, MOCK_METHODS, requestBody } from '../../../mcp/call-mock.ts';
import { checkAnswer } from '../../../mcp/check-answer.ts';
import { ToolInputError } from '../../../mcp/tool-names.ts';
import { readContract } from '../../../src/sources/contract.ts';
import { loadViews } from '../../../src/sources/fixtures.ts';
import { ROOT } from '../../../support/processes.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));
const entry = views.find(({ slug }) => slug === 'production')!;
const { reference: with32 } = await readContract(
	path.join(ROOT, 'tests/fixtures/openapi-3-2/openapi.yaml'),
);
const { reference: without } = await readContract(
	path.join(ROOT, 'tests/fixtures/openapi-3-1/openapi.yaml'),
);
const admins = entry.view.users
	.filter(({ role }) => role === 'admin')
	.map(({ name, email, role }) => ({ name, email, role }));

/** The message a call fails with: a ToolInputError of one line. */
function failure(call: () => unknown): string {
	try {
		call();
	} catch (error) {
		expect(error).toBeInstanceOf(ToolInputError);
		const message = (error as Error).message;
		expect(message).not.toContain('\n');
		return message;
	}
	throw new Error('expected the call to fail');
}

describe('call_mock with QUERY', () => {
	const mocks = { portal: ['http://127.0.0.1:5999'], listed: [] };

	it('offers QUERY among its methods', () => {
		expect(MOCK_METHODS).toContain('QUERY');
	});

	it("sends the body given, else the contract's example of the filter, as JSON", () => {
		expect(requestBody(with32, 'QUERY', '{"role":"operator"}')).toEqual({
			mediaType: 'application/json',
			text: '{"role":"operator"}',
		});
		expect(requestBody(with32, 'QUERY', undefined)).toEqual({
			mediaType: 'application/json',
			text: '{"role":"admin"}',
		});
		expect(requestBody(with32, 'GET', undefined)).toBeUndefined();
	});

	it('says in one line that a contract without QUERY cannot be sent one, and that only a QUERY takes a body', () => {
		expect(failure(() => requestBody(without, 'QUERY', '{}'))).toBe(
			'method QUERY: the contract has no QUERY /api/v2/users operation; expected one of GET, HEAD, OPTIONS',
		);
		expect(failure(() => requestBody(with32, 'GET', '{}'))).toBe(
			'body: only a QUERY sends a body; GET /api/v2/users takes none (method QUERY sends it)',
		);
	});

	it("sends the QUERY with its body and the person's key, and says the body it sent", async () => {
		let sent:
			{ method: string | undefined; body: string | undefined; headers: Headers } | undefined;
		const mock: typeof fetch = (_input, init) => {
			sent = {
				method: init?.method,
				body: typeof init?.body === 'string' ? init.body : undefined,
				headers: new Headers(init?.headers),
			};
			return Promise.resolve(
				new Response(JSON.stringify({ users: admins }), {
					status: 200,
					headers: { 'content-type': 'application/json' },
				}),
			);
		};
		const user = entry.view.users[0]!;
		const answer = await callMock(
			views,
			{
				slug: 'production',
				email: user.email,
				method: 'QUERY',
				baseUrl: 'http://127.0.0.1:5999',
				body: { mediaType: 'application/json', text: '{"role":"admin"}' },
			},
			mocks,
			mock,
		);
		expect(sent?.method).toBe('QUERY');
		expect(sent?.body).toBe('{"role":"admin"}');
		expect(sent?.headers.get('content-type')).toBe('application/json');
		expect(sent?.headers.get('authorization')).toBe(`Bearer ${user.apiKey}`);
		expect(answer.request).toBe(
			`QUERY http://127.0.0.1:5999/api/v2/users with the body {"role":"admin"}, with the key of ${user.name}`,
		);
		expect(JSON.parse(answer.body)).toEqual({ users: admins });
	});
});

describe('check_answer with method QUERY', () => {
	it("passes a QUERY's answer of two admins, which the GET answer's eight users would break", () => {
		const sent = {
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ users: admins }),
		};
		expect(checkAnswer(with32, sent, 'QUERY')).toMatchObject({
			conforms: true,
			verdict: 'matches',
		});
		expect(checkAnswer(with32, sent)).toMatchObject({ conforms: false, verdict: 'breaks' });
	});

	it("names each violation of a QUERY's answer by its JSON path, and its own 422 problem conforms", () => {
		const broken = checkAnswer(
			with32,
			{
				status: 200,
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ users: [{ ...admins[0], role: 'owner' }] }),
			},
			'QUERY',
		);
		expect(broken.violations).toEqual([
			'/users/0/role: must be one of admin, deployer, operator, viewer',
		]);
		const refused = checkAnswer(
			with32,
			{
				status: 422,
				headers: { 'content-type': 'application/problem+json' },
				body: JSON.stringify({
					type: 'https://portal.example/problems/invalid-filter',
					title: 'The body is not a filter',
					status: 422,
					detail: '/role: must be one of admin, deployer, operator, viewer',
				}),
			},
			'QUERY',
		);
		expect(refused).toMatchObject({ conforms: true, verdict: 'matches' });
	});

	it('says in one line that a contract without QUERY has no answer of it to check', () => {
		expect(failure(() => checkAnswer(without, { status: 200 }, 'QUERY'))).toBe(
			'method QUERY: the contract has no QUERY /api/v2/users operation; expected one of GET, HEAD, OPTIONS',
		);
	});
});

describe('call_mock asking for a stream of JSON lines (accept)', () => {
	const mocks = { portal: ['http://127.0.0.1:5999'], listed: [] };
	const user = entry.view.users[0]!;
	const lines = admins.map((admin) => `${JSON.stringify(admin)}\n`).join('');

	/** A mock that answers the admins as JSON lines, keeping the headers it was sent. */
	function streaming(seen: Headers[]): typeof fetch {
		return (_input, init) => {
			seen.push(new Headers(init?.headers));
			return Promise.resolve(
				new Response(lines, { status: 200, headers: { 'content-type': 'application/jsonl' } }),
			);
		};
	}

	it("takes a media type the operation's 200 declares, and application/json when not told", () => {
		expect(acceptOf(with32, 'QUERY', 'application/jsonl')).toBe('application/jsonl');
		expect(acceptOf(with32, 'QUERY', 'Application/JSONL')).toBe('application/jsonl');
		expect(acceptOf(with32, 'QUERY', undefined)).toBe('application/json');
		expect(acceptOf(with32, 'GET', 'application/json')).toBe('application/json');
	});

	it('refuses in one line a media type the 200 does not declare, naming the ones it does', () => {
		expect(failure(() => acceptOf(with32, 'GET', 'application/jsonl'))).toBe(
			'accept "application/jsonl": GET /api/v2/users answers 200 as application/json; expected one of those',
		);
		expect(failure(() => acceptOf(with32, 'QUERY', 'text/csv'))).toBe(
			'accept "text/csv": QUERY /api/v2/users answers 200 as application/json, application/jsonl; expected one of those',
		);
		expect(failure(() => acceptOf(without, 'QUERY', 'application/jsonl'))).toBe(
			'method QUERY: the contract has no QUERY /api/v2/users operation; expected one of GET, HEAD, OPTIONS',
		);
	});

	it('sends Accept: the type asked for, says so in the request line, and returns the stream as it came', async () => {
		const seen: Headers[] = [];
		const answer = await callMock(
			views,
			{
				slug: 'production',
				email: user.email,
				method: 'QUERY',
				baseUrl: 'http://127.0.0.1:5999',
				body: { mediaType: 'application/json', text: '{"role":"admin"}' },
				accept: 'application/jsonl',
			},
			mocks,
			streaming(seen),
		);
		expect(seen[0]?.get('accept')).toBe('application/jsonl');
		expect(answer.request).toBe(
			`QUERY http://127.0.0.1:5999/api/v2/users with the body {"role":"admin"} asking for application/jsonl, with the key of ${user.name}`,
		);
		expect(answer.body).toBe(lines);
	});

	it('still sends Accept: application/json when not told', async () => {
		const seen: Headers[] = [];
		await callMock(
			views,
			{ slug: 'production', email: user.email, method: 'GET', baseUrl: 'http://127.0.0.1:5999' },
			mocks,
			streaming(seen),
		);
		expect(seen[0]?.get('accept')).toBe('application/json');
	});

	it("checks the stream line by line against the QUERY's item schema", () => {
		const headers = { 'content-type': 'application/jsonl' };
		expect(checkAnswer(with32, { status: 200, headers, body: lines }, 'QUERY')).toMatchObject({
			conforms: true,
			verdict: 'matches',
		});
		const broken = checkAnswer(
			with32,
			{
				status: 200,
				headers,
				body: `${lines}${JSON.stringify({ ...admins[0], role: 'owner' })}\n`,
			},
			'QUERY',
		);
		expect(broken.conforms).toBe(false);
		expect(broken.violations.join('\n')).toContain(
			'must be one of admin, deployer, operator, viewer',
		);
	});
});
