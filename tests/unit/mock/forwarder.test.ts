/**
 * The mock as a validating proxy, without sockets: which requests go to the console and how,
 * the 422 for the mock's controls, the console's answer relayed as it came with each violation
 * named (sl-violations, the log line, MOCK_PROXY_ERRORS's 502), and the 502/504 problems of a
 * console that gives no answer.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	announcedBody,
	answerViolations,
	forwardedHeaders,
	proxyStep,
	readinessOf,
	readinessRequest,
	readyAnswer,
	relayed,
	upstreamProblem,
	type Upstream,
	type UpstreamAnswer,
} from '../../../mock/forwarder/decide.ts';
import type { MockNow } from '../../../mock/decide.ts';
import { lineOf } from '../../../mock/request-log.ts';
import type { MockRequest } from '../../../mock/sent-answers.ts';
import { loadState } from '../../../mock/state.ts';
import { contractValidators } from '../../../src/sources/contract-validators.ts';
import type { OperationContract } from '../../../src/shared/exchange-check.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import { ROOT } from '../../../support/processes.ts';

const settings = readSettings({});
const USERS = '/api/v2/users';
const KEY = 'ick-5f6bf1b8-KApG';
const HOSTS = { port: 4010, names: [] };
const UPSTREAM: Upstream = {
	base: 'https://console.example/base',
	timeoutMs: 10_000,
	errors: false,
};
const LOG = { format: 'logfmt' as const, worker: undefined };

let now: MockNow;
let get: OperationContract;

beforeAll(async () => {
	const state = await loadState({
		viewsDir: settings.viewsDir,
		contractFile: settings.openApiFile,
		mockOrigin: 'http://127.0.0.1:1',
	});
	now = { state };
	get = contractValidators(state.reference).get('GET /api/v2/users')!;
});

const request = (changes: Partial<MockRequest> = {}): MockRequest => ({
	started: 0,
	rawMethod: 'GET',
	method: 'get',
	target: USERS,
	host: '127.0.0.1:4010',
	origin: undefined,
	authorization: `Bearer ${KEY}`,
	prefer: undefined,
	...changes,
});

const RAW = ['Host', '127.0.0.1:4010', 'Authorization', `Bearer ${KEY}`, 'Accept', '*/*'];

const USER = { name: 'Ada Example', email: 'ada@example.com', role: 'admin' };
const EIGHT = JSON.stringify({ users: Array.from({ length: 8 }, () => USER) });

function upstreamAnswer(
	body: string,
	headers: string[] = ['Content-Type', 'application/json'],
): UpstreamAnswer {
	return { status: 200, rawHeaders: headers, body: Buffer.from(body) };
}

describe('which requests go to the console', () => {
	it('forwards GET /api/v2/users with its path, query and Authorization under the console’s base', () => {
		const step = proxyStep(request({ target: `${USERS}?page=2` }), RAW, now, HOSTS, UPSTREAM);
		expect(step).toEqual({
			kind: 'forward',
			operation: 'GET /api/v2/users',
			request: {
				url: 'https://console.example/base/api/v2/users?page=2',
				method: 'GET',
				headers: [
					['Host', 'console.example'],
					['Authorization', `Bearer ${KEY}`],
					['Accept', '*/*'],
					['Accept-Encoding', 'identity'],
				],
			},
		});
		expect(
			proxyStep(request({ method: 'head', rawMethod: 'HEAD' }), RAW, now, HOSTS, UPSTREAM),
		).toMatchObject({
			kind: 'forward',
			operation: 'HEAD /api/v2/users',
		});
	});

	it('passes no header of the client’s connection, nor those its Connection header names', () => {
		expect(
			forwardedHeaders([
				'Connection',
				'keep-alive, X-Hop',
				'Keep-Alive',
				'timeout=5',
				'X-Hop',
				'1',
				'Transfer-Encoding',
				'chunked',
				'Proxy-Authorization',
				'Basic x',
				'Accept-Encoding',
				'gzip',
				'Prefer',
				'return=minimal',
			]),
		).toEqual([
			['Prefer', 'return=minimal'],
			['Accept-Encoding', 'identity'],
		]);
	});

	it('passes no Content-Length of the client’s: the proxy frames what it sends itself', () => {
		expect(forwardedHeaders(['Content-Length', '0', 'Accept', '*/*'])).toEqual([
			['Accept', '*/*'],
			['Accept-Encoding', 'identity'],
		]);
	});

	it.each([
		[['Content-Length', '5'], 'Content-Length: 5'],
		[['Transfer-Encoding', 'chunked'], 'Transfer-Encoding: chunked'],
		[
			['Content-Length', '0', 'Transfer-Encoding', 'gzip, chunked'],
			'Transfer-Encoding: gzip, chunked',
		],
		[['Content-Length', ' 12 '], 'Content-Length: 12'],
	])(
		'a request announcing a body (%j) is refused with a 400 that closes the connection, never forwarded',
		(headers, announced) => {
			for (const method of ['get', 'head']) {
				const asked = request({ method, rawMethod: method.toUpperCase() });
				const step = proxyStep(asked, [...RAW, ...headers], now, HOSTS, UPSTREAM);
				if (step.kind !== 'answer') throw new Error(`${announced} was forwarded`);
				const operation = `${method.toUpperCase()} /api/v2/users`;
				expect(step.answer.status).toBe(400);
				expect(step.answer.headers).toMatchObject({
					'Content-Type': 'application/problem+json',
					'WWW-Authenticate': `Bearer realm="console", error="invalid_request", error_description="The request carries a body, which ${operation} does not take"`,
					Connection: 'close',
					'Content-Length': step.answer.body.length,
				});
				expect(JSON.parse(step.answer.body.toString())).toEqual({
					type: 'https://portal.example/problems/request-body',
					title: 'The request carries a body, which the operation does not take',
					status: 400,
					detail: `The request announces a body (${announced}), which ${operation} does not take; the mock forwards no body to the console at https://console.example (MOCK_UPSTREAM), so it refuses the request and closes the connection. Send the request without a body.`,
				});
				expect(step.answer.logged.refused).toBe(
					`a body (${announced}), which ${operation} does not take`,
				);
			}
		},
	);

	it('the 400 for a body keeps the contract: its status, media type, challenge and problem', () => {
		const step = proxyStep(request(), [...RAW, 'Content-Length', '5'], now, HOSTS, UPSTREAM);
		if (step.kind !== 'answer') throw new Error('the body was forwarded');
		const rawHeaders = Object.entries(step.answer.headers).flatMap(([name, value]) => [
			name,
			String(value),
		]);
		const answer = { status: 400, rawHeaders, body: step.answer.body };
		expect(answerViolations(answer, 'GET', get)).toEqual([]);
	});

	it('a request announcing no body (a length of 0, or none) is forwarded', () => {
		for (const headers of [['Content-Length', '0'], ['Content-Length', '000'], []]) {
			expect(proxyStep(request(), [...RAW, ...headers], now, HOSTS, UPSTREAM).kind).toBe('forward');
		}
		expect(announcedBody(['Content-Length', '0'])).toBeUndefined();
		expect(announcedBody(['Content-Length', '10'])).toBe('Content-Length: 10');
	});

	it('refuses the mock’s controls with a 422 that says the console decides', () => {
		for (const changes of [
			{ prefer: 'code=401' },
			{ target: `${USERS}?__code=500` },
			{ prefer: 'code=abc' },
		]) {
			const step = proxyStep(request(changes), RAW, now, HOSTS, UPSTREAM);
			expect(step.kind).toBe('answer');
			if (step.kind !== 'answer') continue;
			expect(step.answer.status).toBe(422);
			const body = JSON.parse(step.answer.body.toString()) as { type: string; detail: string };
			expect(body.type).toBe('https://portal.example/problems/control-in-proxy-mode');
			expect(body.detail).toMatch(/MOCK_UPSTREAM, which decides its answer/);
		}
		expect(proxyStep(request({ prefer: 'return=minimal' }), RAW, now, HOSTS, UPSTREAM).kind).toBe(
			'forward',
		);
	});

	it('names every control the mock takes in its 422, the delays and faults among them', () => {
		for (const [changes, spelled] of [
			[{ prefer: 'delay=100' }, 'Prefer: delay=100'],
			[{ target: `${USERS}?__fault=reset` }, '__fault=reset'],
		] as const) {
			const step = proxyStep(request(changes), RAW, now, HOSTS, UPSTREAM);
			if (step.kind !== 'answer') throw new Error(`${spelled} was not refused: ${step.kind}`);
			const body = JSON.parse(step.answer.body.toString()) as { detail: string };
			expect(body.detail).toBe(
				`${spelled}: the mock forwards every request to the console named by MOCK_UPSTREAM, which decides its answer; the mock's controls (Prefer: code=…, example=…, dynamic=…, seed=…, delay=…, fault=…, or __code, __example, __dynamic, __seed, __delay, __fault) have no meaning there. Send the request without them, or run the mock without MOCK_UPSTREAM.`,
			);
		}
	});

	it('leaves probes, other hosts, preflights and unknown paths to the mock, /readyz to the console', () => {
		expect(proxyStep(request({ target: '/healthz' }), RAW, now, HOSTS, UPSTREAM)).toMatchObject({
			kind: 'answer',
			answer: { status: 200 },
		});
		expect(proxyStep(request({ target: '/readyz' }), RAW, now, HOSTS, UPSTREAM).kind).toBe(
			'readyz',
		);
		expect(
			proxyStep(
				request({ target: '/readyz' }),
				RAW,
				{ state: undefined, waiting: 'x' },
				HOSTS,
				UPSTREAM,
			),
		).toMatchObject({
			kind: 'answer',
			answer: { status: 503 },
		});
		for (const changes of [
			{ host: 'evil.example' },
			{ method: 'options', rawMethod: 'OPTIONS', preflight: true, origin: 'http://localhost:1' },
			{ target: '/api/v2/people' },
			{ method: 'delete', rawMethod: 'DELETE' },
		]) {
			expect(proxyStep(request(changes), RAW, now, HOSTS, UPSTREAM)).toEqual({ kind: 'mock' });
		}
		expect(proxyStep(request(), RAW, { state: undefined, waiting: 'x' }, HOSTS, UPSTREAM)).toEqual({
			kind: 'mock',
		});
	});
});

describe('the console’s answer, relayed', () => {
	it('a conforming answer goes back byte for byte, with no sl-violations, and the log names the console', () => {
		const answer = upstreamAnswer(EIGHT, [
			'Content-Type',
			'application/json',
			'X-Console',
			'v9',
			'Connection',
			'close',
		]);
		const violations = answerViolations(answer, 'GET', get);
		expect(violations).toEqual([]);
		const sent = relayed(
			request({ origin: 'http://localhost:3000' }),
			answer,
			violations,
			UPSTREAM,
			[],
			LOG,
		);
		expect(sent.status).toBe(200);
		expect(sent.body.equals(Buffer.from(EIGHT))).toBe(true);
		expect(sent.headers).toEqual({
			'Content-Type': 'application/json',
			'X-Console': 'v9',
			'Access-Control-Allow-Origin': 'http://localhost:3000',
			'Access-Control-Expose-Headers':
				'WWW-Authenticate, Allow, Content-Type, Content-Length, Date, sl-violations',
			Vary: 'Origin',
			'Content-Length': EIGHT.length,
		});
		expect(lineOf(sent.line!, 0, 1)).toBe(
			'1970-01-01T00:00:00.000Z GET /api/v2/users 200 1.0ms upstream="https://console.example"',
		);
	});

	it('a violating answer carries sl-violations and a log line naming each, never a key', () => {
		const users = JSON.parse(EIGHT) as { users: Record<string, string>[] };
		users.users[3]!['role'] = 'root';
		users.users[0]!['apiKey'] = KEY;
		const answer = upstreamAnswer(JSON.stringify(users));
		const violations = answerViolations(answer, 'GET', get);
		const sent = relayed(request(), answer, violations, UPSTREAM, [], LOG);
		expect(sent.status).toBe(200);
		expect(JSON.parse(String(sent.headers['sl-violations']))).toEqual([
			{
				location: ['response', 'body'],
				severity: 'Error',
				message: '/users/0/apiKey: is not in the contract',
			},
			{
				location: ['response', 'body'],
				severity: 'Error',
				message: '/users/3/role: must be one of admin, deployer, operator, viewer',
			},
		]);
		const line = lineOf(sent.line!, 0, 1);
		expect(line).toContain(
			'violations="/users/0/apiKey: is not in the contract; /users/3/role: must be one of admin, deployer, operator, viewer"',
		);
		expect(line).not.toContain(KEY);
	});

	it('with MOCK_PROXY_ERRORS=on, a violating answer is a 502 problem naming the violations', () => {
		const answer = upstreamAnswer(EIGHT, ['Content-Type', 'text/html']);
		const violations = answerViolations(answer, 'GET', get);
		const sent = relayed(request(), answer, violations, { ...UPSTREAM, errors: true }, [], LOG);
		expect(sent.status).toBe(502);
		expect(sent.headers['Content-Type']).toBe('application/problem+json');
		expect(JSON.parse(sent.body.toString())).toEqual({
			type: 'https://portal.example/problems/contract-violation',
			title: "The console's answer breaks the contract",
			status: 502,
			detail:
				"The console at https://console.example (MOCK_UPSTREAM) answered 200, which breaks the contract (MOCK_PROXY_ERRORS=on): The answer is text/html; the contract's 200 answer is application/json.",
			violations: ["The answer is text/html; the contract's 200 answer is application/json."],
		});
		// A conforming answer is relayed as it came, errors on or not.
		const fine = upstreamAnswer(EIGHT);
		expect(relayed(request(), fine, [], { ...UPSTREAM, errors: true }, [], LOG).status).toBe(200);
	});

	it('an answer without a body and without Content-Length (HEAD, 204, 304) gets none added', () => {
		const bare = { status: 401, rawHeaders: ['WWW-Authenticate', 'Bearer'], body: Buffer.alloc(0) };
		const head = request({ method: 'head', rawMethod: 'HEAD' });
		expect(relayed(head, bare, [], UPSTREAM, [], LOG).headers).not.toHaveProperty('Content-Length');
		for (const status of [204, 304]) {
			const sent = relayed(request(), { ...bare, status }, [], UPSTREAM, [], LOG);
			expect(sent.headers).not.toHaveProperty('Content-Length');
		}
		// A GET's answer is framed by the proxy: its body's length, whatever the console declared.
		const chunked = {
			status: 200,
			rawHeaders: ['Transfer-Encoding', 'chunked'],
			body: Buffer.from(EIGHT),
		};
		expect(relayed(request(), chunked, [], UPSTREAM, [], LOG).headers).toMatchObject({
			'Content-Length': EIGHT.length,
		});
		expect(relayed(request(), chunked, [], UPSTREAM, [], LOG).headers).not.toHaveProperty(
			'Transfer-Encoding',
		);
	});

	it('a HEAD answer keeps the length the console declared, and sends no body', () => {
		const head = { status: 200, rawHeaders: ['Content-Length', '512'], body: Buffer.alloc(0) };
		const sent = relayed(
			request({ method: 'head', rawMethod: 'HEAD' }),
			head,
			[],
			UPSTREAM,
			[],
			LOG,
		);
		expect(sent.headers['Content-Length']).toBe('512');
	});
});

describe('a console that gives no answer', () => {
	it.each([
		[
			{ kind: 'unreachable', cause: 'connect ECONNREFUSED 127.0.0.1:9' } as const,
			502,
			'could not be reached (connect ECONNREFUSED 127.0.0.1:9)',
			'upstream-unreachable',
			'The console cannot be reached',
			"Check the console's address in MOCK_UPSTREAM (--upstream), its scheme (http: or https:) among it, and that the console is up.",
		],
		[
			{ kind: 'timeout' } as const,
			504,
			'did not answer within 10000 ms (MOCK_UPSTREAM_TIMEOUT_MS)',
			'upstream-timeout',
			'The console did not answer in time',
			'Raise MOCK_UPSTREAM_TIMEOUT_MS, or find out why the console is slow.',
		],
		[
			{ kind: 'broken', cause: 'socket hang up' } as const,
			502,
			'closed the connection before its whole answer (socket hang up)',
			'upstream-broken',
			'The console broke off its answer',
			"Check the console's address in MOCK_UPSTREAM (--upstream), its scheme (http: or https:) among it, and that the console is up.",
		],
		[
			{ kind: 'not-http', cause: 'HPE_INVALID_CONSTANT: Expected HTTP/' } as const,
			502,
			'answered something that is not HTTP (HPE_INVALID_CONSTANT: Expected HTTP/)',
			'upstream-not-http',
			'The console did not answer in HTTP',
			"Check the console's address in MOCK_UPSTREAM (--upstream), its scheme (http: or https:) among it, and that the console is up.",
		],
	])(
		'%j gets %i, naming the console, the cause and what to change',
		(failure, status, why, name, title, change) => {
			const sent = upstreamProblem(request(), failure, UPSTREAM, [], LOG);
			expect(sent.status).toBe(status);
			expect(JSON.parse(sent.body.toString())).toEqual({
				type: `https://portal.example/problems/${name}`,
				title,
				status,
				detail: `The mock forwards to the console at https://console.example (MOCK_UPSTREAM), which ${why}. ${change}`,
			});
			expect(lineOf(sent.line!, 0, 1)).toContain(
				`failed="the console at https://console.example ${why}"`,
			);
		},
	);

	it('/readyz says ready, or not ready without naming the console, whose name goes to the log', () => {
		const readyz = request({ target: '/readyz', authorization: undefined });
		expect(readyAnswer(readyz, { answers: true, status: 401 }, false, UPSTREAM, LOG).status).toBe(
			200,
		);
		const not = readyAnswer(
			readyz,
			{ answers: false, cause: 'does not answer (ECONNREFUSED)' },
			false,
			UPSTREAM,
			LOG,
		);
		expect(not.status).toBe(503);
		expect(not.body.toString()).not.toContain('console.example');
		expect(not.logged.refused).toBe(
			'the console at https://console.example does not answer (ECONNREFUSED)',
		);
	});

	it('/readyz asks the console as a client does: HEAD of the users path, with its Host', () => {
		expect(readinessRequest(UPSTREAM)).toEqual({
			url: 'https://console.example/base/api/v2/users',
			method: 'HEAD',
			headers: [
				['Host', 'console.example'],
				['Accept-Encoding', 'identity'],
			],
		});
		expect(readinessOf(401)).toEqual({ answers: true, status: 401 });
		expect(readinessOf(499)).toEqual({ answers: true, status: 499 });
		expect(readinessOf(500)).toEqual({
			answers: false,
			cause: 'answered 500 to HEAD /api/v2/users',
		});
	});

	it('/readyz logs a change of readiness without MOCK_LOG_PROBES, and says why', () => {
		const readyz = request({ target: '/readyz', authorization: undefined });
		const cause = 'did not answer within 2000 ms';
		const same = readyAnswer(readyz, { answers: false, cause }, false, UPSTREAM, LOG);
		expect(same.probe).toBe(true);
		const lost = readyAnswer(readyz, { answers: false, cause }, true, UPSTREAM, LOG);
		expect(lost.probe).toBe(false);
		expect(lineOf(lost.line!, 0, 1)).toBe(
			'1970-01-01T00:00:00.000Z GET /readyz 503 1.0ms refused="the console at https://console.example did not answer within 2000 ms" upstream="https://console.example"',
		);
		const back = readyAnswer(readyz, { answers: true, status: 401 }, true, UPSTREAM, LOG);
		expect(back.probe).toBe(false);
		expect(lineOf(back.line!, 0, 1)).toBe(
			'1970-01-01T00:00:00.000Z GET /readyz 200 1.0ms upstream="https://console.example" ready="the console answers again (HEAD /api/v2/users: 401)"',
		);
		const still = readyAnswer(readyz, { answers: true, status: 401 }, false, UPSTREAM, LOG);
		expect(still.probe).toBe(true);
		expect(lineOf(still.line!, 0, 1)).not.toContain('ready=');
	});
});

describe('the log line of a request the proxy refuses for its controls', () => {
	it('shows only the length of a control it does not take, so no key reaches the log in any spelling', () => {
		for (const spelled of [
			KEY.replaceAll('-', '%2D'),
			Buffer.from(KEY).toString('base64'),
			Buffer.from(KEY).toString('hex'),
			[...KEY].reverse().join(''),
		]) {
			for (const changes of [
				{ prefer: `example=${spelled}` },
				{ target: `${USERS}?__seed=${encodeURIComponent(spelled)}` },
			]) {
				const step = proxyStep(request(changes), RAW, now, HOSTS, UPSTREAM);
				if (step.kind !== 'answer') throw new Error(`${spelled} was not refused: ${step.kind}`);
				expect(step.answer.logged.refused).toMatch(
					/^(?:Prefer: example|__seed)=<(?:unrecognised|not shown), \d+ chars>: a mock control in proxy mode$/,
				);
			}
		}
	});
});

describe('a QUERY in front of a console', () => {
	/** A state on the 3.2 test copy, whose contract has QUERY /api/v2/users. */
	let withQuery: MockNow;

	beforeAll(async () => {
		withQuery = {
			state: await loadState({
				viewsDir: settings.viewsDir,
				contractFile: path.join(ROOT, 'tests', 'fixtures', 'openapi-3-2', 'openapi.yaml'),
				mockOrigin: 'http://127.0.0.1:1',
			}),
		};
	}, 60_000);

	it('is refused with 501 naming MOCK_UPSTREAM, not answered from the fixtures as if the console had', () => {
		const asked = request({ method: 'query', rawMethod: 'QUERY', body: '{"role":"admin"}' });
		const raw = [...RAW, 'Content-Type', 'application/json', 'Content-Length', '16'];
		const step = proxyStep(asked, raw, withQuery, HOSTS, UPSTREAM);
		if (step.kind !== 'answer') throw new Error(`the QUERY went to ${step.kind}`);
		expect(step.answer.status).toBe(501);
		expect(step.answer.headers['Content-Type']).toBe('application/problem+json');
		expect(JSON.parse(step.answer.body.toString('utf8'))).toEqual({
			type: 'https://portal.example/problems/query-in-proxy-mode',
			title: 'The mock in front of a console does not forward QUERY',
			status: 501,
			detail:
				'QUERY /api/v2/users carries its filter in a body, which the mock never forwards to the console at https://console.example (MOCK_UPSTREAM); it will not answer it from its fixtures as if the console had. Send the QUERY to the console itself, or run the mock without MOCK_UPSTREAM to get the fixtures’ answer.',
		});
	});
});
