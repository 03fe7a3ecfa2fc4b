/**
 * The proxy works out a request's routing and a relayed answer's log line once and answers the
 * same request again from them: a request asked again gets what it got the first time, and one
 * that differs in anything they depend on (its Prefer header, the console's answer, the log's
 * form) gets its own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
	answerViolations,
	proxyStep,
	relayed,
	type ProxyLog,
	type Upstream,
	type UpstreamAnswer,
} from '../../../mock/forwarder/decide.ts';
import type { MockNow } from '../../../mock/decide.ts';
import { lineOf } from '../../../mock/request-log.ts';
import { LONGEST_KEY, type MockRequest } from '../../../mock/sent-answers.ts';
import { loadState } from '../../../mock/state.ts';
import { contractValidators } from '../../../src/sources/contract-validators.ts';
import type { OperationContract } from '../../../src/shared/exchange-check.ts';
import { readSettings } from '../../../src/sources/settings.ts';

const settings = readSettings({});
const USERS = '/api/v2/users';
const KEY = 'ick-4f1c9a07-Qx7m';
const HOSTS = { port: 4010, names: [] };
const UPSTREAM: Upstream = { base: 'https://console.example', timeoutMs: 10_000, errors: false };
const LOGFMT: ProxyLog = { format: 'logfmt', worker: undefined };
const RAW = ['Host', '127.0.0.1:4010', 'Authorization', `Bearer ${KEY}`];

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

const USER = { name: 'Ada Example', email: 'ada@example.com', role: 'admin' };

/** The console's answer: eight users, the fourth with the given role. */
function consoleAnswer(role: string): UpstreamAnswer {
	const users = Array.from({ length: 8 }, (_, index) => (index === 3 ? { ...USER, role } : USER));
	return {
		status: 200,
		rawHeaders: ['Content-Type', 'application/json'],
		body: Buffer.from(JSON.stringify({ users })),
	};
}

/** The log line of a relayed answer, as the proxy writes it. */
function logged(answer: UpstreamAnswer, log = LOGFMT, asked = request()): string {
	const sent = relayed(asked, answer, answerViolations(answer, 'GET', get), UPSTREAM, [], log);
	return lineOf(sent.line!, 0, 1);
}

describe('a request the proxy has answered before', () => {
	it('is refused with a 422 when it comes again with a mock control, and forwarded again without', () => {
		expect(proxyStep(request(), RAW, now, HOSTS, UPSTREAM).kind).toBe('forward');
		const controlled = proxyStep(request({ prefer: 'code=500' }), RAW, now, HOSTS, UPSTREAM);
		expect(controlled.kind).toBe('answer');
		if (controlled.kind === 'answer') expect(controlled.answer.status).toBe(422);
		expect(proxyStep(request(), RAW, now, HOSTS, UPSTREAM).kind).toBe('forward');
	});

	it('gets a log line naming the violations of this answer, not those of the answer before', () => {
		expect(logged(consoleAnswer('admin'))).not.toContain('violations=');
		expect(logged(consoleAnswer('root'))).toContain(
			'violations="/users/3/role: must be one of admin, deployer, operator, viewer"',
		);
		expect(logged(consoleAnswer('sudo'))).toContain('violations="/users/3/role: must be one of');
		expect(logged(consoleAnswer('admin'))).not.toContain('violations=');
	});

	it('gets its log line in the form the log is in, and with the worker that answered', () => {
		const answer = consoleAnswer('admin');
		expect(logged(answer)).toBe(
			'1970-01-01T00:00:00.000Z GET /api/v2/users 200 1.0ms upstream="https://console.example"',
		);
		expect(JSON.parse(logged(answer, { format: 'json', worker: undefined }))).toMatchObject({
			method: 'GET',
			target: USERS,
			status: 200,
			upstream: 'https://console.example',
		});
		expect(logged(answer, { format: 'logfmt', worker: 2 })).toContain('worker=2');
	});

	it('with a target longer than any kept, is still routed and logged, its key never shown', () => {
		const target = `${USERS}?key=${KEY}&note=${'x'.repeat(LONGEST_KEY)}`;
		const step = proxyStep(request({ target }), RAW, now, HOSTS, UPSTREAM);
		expect(step.kind).toBe('forward');
		const line = logged(consoleAnswer('admin'), LOGFMT, request({ target }));
		expect(line).toContain('key=<key>');
		expect(line).not.toContain(KEY);
	});
});
