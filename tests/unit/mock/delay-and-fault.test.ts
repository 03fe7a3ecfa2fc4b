/**
 * Latency and faults asked for per request: how `delay`, `fault` and `seed` are read (Prefer and
 * the query), how a delay is picked, what `decide` returns for them (data on the answer, never
 * kept), and what the server plans from that data, all without a socket.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	FAULT_KINDS,
	LONGEST_DELAY_MS,
	pickDelay,
	readControls,
	readDelay,
	seededRandom,
} from '../../../mock/controls.ts';
import { createMemory, decide, type MockNow } from '../../../mock/decide.ts';
import {
	GARBAGE_BYTES,
	garbageBytes,
	planDelivery,
	SLOW_BODY_MS,
	statusLogged,
} from '../../../mock/delivery.ts';
import { lineParts } from '../../../mock/request-log.ts';
import type { MockRequest } from '../../../mock/sent-answers.ts';
import { loadState } from '../../../mock/state.ts';
import { loadViews } from '../../../src/sources/fixtures.ts';
import { readSettings } from '../../../src/sources/settings.ts';

const none = new URLSearchParams();

describe('readDelay', () => {
	it.each([
		['0', { min: 0, max: 0 }],
		['500', { min: 500, max: 500 }],
		['30000', { min: 30_000, max: 30_000 }],
		['100-500', { min: 100, max: 500 }],
		['0-30000', { min: 0, max: 30_000 }],
		['250-250', { min: 250, max: 250 }],
	])('reads delay=%s as milliseconds, a range low end first', (text, range) => {
		expect(readDelay(text)).toEqual(range);
	});

	it.each([
		'',
		'-1',
		'30001',
		'100000',
		'500-100',
		'100-30001',
		'1.5',
		'1e3',
		' 500',
		'500 ',
		'500-',
		'-500',
		'100-200-300',
		'abc',
		'500ms',
	])('refuses delay=%s', (text) => {
		expect(readDelay(text)).toBeUndefined();
	});

	it('allows 30,000 ms and no more', () => {
		expect(LONGEST_DELAY_MS).toBe(30_000);
	});
});

describe('readControls with delay and fault', () => {
	it('reads delay, fault and seed from a Prefer header, beside Prism’s controls', () => {
		expect(readControls('code=401, delay=100-500, fault=truncated, seed=7', none)).toEqual({
			ok: true,
			controls: {
				code: 401,
				seed: '7',
				delay: { min: 100, max: 500 },
				fault: 'truncated',
				spelled: 'Prefer: code=401, Prefer: seed=7, Prefer: delay=100-500, Prefer: fault=truncated',
			},
		});
	});

	it('reads __delay and __fault from the query when there is no Prefer header', () => {
		expect(readControls(undefined, new URLSearchParams('__delay=250&__fault=slow-body'))).toEqual({
			ok: true,
			controls: {
				delay: { min: 250, max: 250 },
				fault: 'slow-body',
				spelled: '__delay=250, __fault=slow-body',
			},
		});
	});

	it('ignores __delay and __fault when a Prefer header is sent, as for Prism’s controls', () => {
		expect(readControls('code=200', new URLSearchParams('__delay=500&__fault=reset'))).toEqual({
			ok: true,
			controls: { code: 200, spelled: 'Prefer: code=200' },
		});
	});

	it.each(FAULT_KINDS)('reads fault=%s, a kind WireMock names', (kind) => {
		expect(readControls(`fault=${kind}`, none)).toEqual({
			ok: true,
			controls: { fault: kind, spelled: `Prefer: fault=${kind}` },
		});
	});

	it.each([
		['delay=30001', undefined, 'Prefer: delay=30001: expected milliseconds from 0 to 30000'],
		['delay=500-100', undefined, 'Prefer: delay=500-100: expected milliseconds'],
		['delay', undefined, 'Prefer: delay=: expected milliseconds'],
		[undefined, '__delay=-5', '__delay=-5: expected milliseconds'],
		['fault=boom', undefined, 'Prefer: fault=boom: expected one of reset, empty, garbage'],
		['fault', undefined, 'Prefer: fault=: expected one of'],
		[undefined, '__fault=RESET', '__fault=RESET: expected one of'],
	])('refuses %s %s with a problem naming the control', (prefer, query, problem) => {
		const result = readControls(prefer, new URLSearchParams(query ?? ''));
		expect(result).toEqual({ ok: false, problem: expect.stringContaining(problem) as string });
	});

	it('says every kind and a delay’s whole form in its problems', () => {
		expect(readControls('fault=x', none)).toEqual({
			ok: false,
			problem: 'Prefer: fault=x: expected one of reset, empty, garbage, truncated, slow-body',
		});
		expect(readControls('delay=x', none)).toEqual({
			ok: false,
			problem:
				'Prefer: delay=x: expected milliseconds from 0 to 30000, or a range low-high, e.g. delay=500 or delay=100-500',
		});
	});

	it.each([
		['__delay=1&__delay=2', '__delay=1, __delay=2: expected __delay once'],
		['__fault=reset&__fault=empty', '__fault=reset, __fault=empty: expected __fault once'],
	])('refuses %s, a control repeated in the query', (query, problem) => {
		expect(readControls(undefined, new URLSearchParams(query))).toEqual({ ok: false, problem });
	});
});

describe('pickDelay and seededRandom', () => {
	it('picks within the range, both ends included', () => {
		const range = { min: 100, max: 200 };
		expect(pickDelay(range, () => 0)).toBe(100);
		expect(pickDelay(range, () => 0.999_999)).toBe(200);
		expect(pickDelay(range, () => 0.5)).toBe(150);
		expect(pickDelay({ min: 70, max: 70 }, () => 0.9)).toBe(70);
	});

	it('gives the same numbers for the same seed, and others for another seed', () => {
		const first = seededRandom('7');
		const again = seededRandom('7');
		const numbers = [first(), first(), first()];
		expect([again(), again(), again()]).toEqual(numbers);
		expect(new Set(numbers).size).toBe(3);
		const other = seededRandom('8');
		expect(other()).not.toBe(numbers[0]);
		expect(seededRandom('ab')()).not.toBe(seededRandom('ba')());
	});

	it('gives the numbers it gave before for a seed, so a test that names one keeps its delays across versions', () => {
		const random = seededRandom('7');
		expect([random(), random(), random()]).toEqual([
			0.5916928979568183, 0.7049730001017451, 0.5164144658483565,
		]);
		expect(pickDelay({ min: 200, max: 2000 }, seededRandom('7'))).toBe(1265);
		expect(pickDelay({ min: 0, max: 30_000 }, seededRandom('42'))).toBe(9232);
	});

	it('spreads a seed’s picks over the whole range', () => {
		const picks = Array.from({ length: 200 }, (_, seed) =>
			pickDelay({ min: 0, max: 9 }, seededRandom(String(seed))),
		);
		for (const pick of picks) expect(pick).toBeGreaterThanOrEqual(0);
		for (const pick of picks) expect(pick).toBeLessThanOrEqual(9);
		expect(new Set(picks).size).toBe(10);
	});

	it('returns numbers from 0 to 1, 1 left out', () => {
		const random = seededRandom('range');
		for (let index = 0; index < 1000; index += 1) {
			const number = random();
			expect(number).toBeGreaterThanOrEqual(0);
			expect(number).toBeLessThan(1);
		}
	});
});

describe('planDelivery', () => {
	it('waits the delay before the answer, and says so in the log', () => {
		const plan = planDelivery({ delay: { min: 300, max: 300 } });
		expect(plan).toMatchObject({
			waitMs: 300,
			spanMs: 0,
			fault: undefined,
			served: { delay: 300 },
		});
	});

	it('picks a range’s delay with the request’s seed: the same each time', () => {
		const delivery = { delay: { min: 0, max: 30_000 }, seed: '42' };
		const picks = [1, 2, 3].map(() => planDelivery(delivery).waitMs);
		expect(new Set(picks).size).toBe(1);
		expect(picks[0]).toBe(pickDelay(delivery.delay, seededRandom('42')));
	});

	it('picks a range’s delay with the random source when no seed is given', () => {
		expect(planDelivery({ delay: { min: 100, max: 200 } }, () => 0).waitMs).toBe(100);
		expect(planDelivery({ delay: { min: 100, max: 200 } }, () => 0.999).waitMs).toBe(200);
	});

	it('serves a fault at once without a delay, after it with one', () => {
		expect(planDelivery({ fault: 'reset' })).toMatchObject({
			waitMs: 0,
			fault: 'reset',
			served: { fault: 'reset' },
		});
		expect(planDelivery({ fault: 'reset' }).served).toEqual({ fault: 'reset' });
		expect(planDelivery({ fault: 'garbage', delay: { min: 50, max: 50 } })).toMatchObject({
			waitMs: 50,
			spanMs: 0,
			served: { delay: 50, fault: 'garbage' },
		});
	});

	it('trickles a slow body over the delay, or over a second without one, waiting nothing first', () => {
		expect(planDelivery({ fault: 'slow-body', delay: { min: 400, max: 400 } })).toMatchObject({
			waitMs: 0,
			spanMs: 400,
			served: { delay: 400, fault: 'slow-body' },
		});
		expect(planDelivery({ fault: 'slow-body' })).toMatchObject({
			waitMs: 0,
			spanMs: SLOW_BODY_MS,
			served: { delay: SLOW_BODY_MS, fault: 'slow-body' },
		});
		expect(SLOW_BODY_MS).toBe(1000);
	});

	it('draws a seeded request’s garbage from its seed', () => {
		const plan = planDelivery({ fault: 'garbage', seed: 's' });
		expect(garbageBytes(plan.random)).toEqual(garbageBytes(seededRandom('s')));
	});
});

describe('garbageBytes', () => {
	it('are random bytes, as many as asked', () => {
		const bytes = garbageBytes(seededRandom('g'));
		expect(bytes).toHaveLength(GARBAGE_BYTES);
		expect(GARBAGE_BYTES).toBe(256);
		expect(new Set(bytes).size).toBeGreaterThan(100);
		expect(garbageBytes(() => 0.999_9, 3)).toEqual(Buffer.from([255, 255, 255]));
	});

	it('never start with the H of HTTP/, so no client reads a status line', () => {
		const startsWithH = () => 0x48 / 256;
		expect(garbageBytes(startsWithH, 4)).toEqual(Buffer.from([0, 0x48, 0x48, 0x48]));
	});
});

describe('decide, for a request asking for a delay or a fault', () => {
	const settings = readSettings({});
	const HOSTS = { port: 4010, names: [] };
	let now: MockNow;
	let authorization: string;

	beforeAll(async () => {
		const state = await loadState({
			viewsDir: settings.viewsDir,
			contractFile: settings.openApiFile,
			mockOrigin: 'http://127.0.0.1:1',
		});
		now = { state };
		const views = await loadViews(path.resolve(settings.viewsDir));
		authorization = `Bearer ${views[0]?.view.users[0]?.apiKey ?? ''}`;
	});

	const request = (changes: Partial<MockRequest>): MockRequest => ({
		started: 0,
		rawMethod: 'GET',
		method: 'get',
		target: '/api/v2/users',
		host: '127.0.0.1:4010',
		origin: undefined,
		authorization,
		prefer: undefined,
		...changes,
	});

	it('returns the answer with what was asked as data, and the answer is the same as without', async () => {
		const memory = createMemory();
		const plain = await decide(request({}), now, memory, HOSTS);
		const asked = await decide(
			request({ prefer: 'delay=100-200, fault=truncated, seed=3' }),
			now,
			createMemory(),
			HOSTS,
		);
		expect(asked.delivery).toEqual({
			delay: { min: 100, max: 200 },
			fault: 'truncated',
			seed: '3',
		});
		expect(asked.status).toBe(200);
		expect(asked.body.equals(plain.body)).toBe(true);
		expect(asked.logged.controls).toBe(
			'Prefer: seed=3, Prefer: delay=100-200, Prefer: fault=truncated',
		);
		expect(plain.delivery).toBeUndefined();
	});

	it('carries a delay on another status asked for too', async () => {
		const answer = await decide(
			request({ target: '/api/v2/users?__code=401&__delay=50' }),
			now,
			createMemory(),
			HOSTS,
		);
		expect(answer.status).toBe(401);
		expect(answer.delivery).toEqual({
			delay: { min: 50, max: 50 },
			fault: undefined,
			seed: undefined,
		});
	});

	it('never keeps such an answer, so none is replayed, to the same request or another', async () => {
		const memory = createMemory();
		for (const prefer of ['fault=reset', 'delay=10', 'delay=10-20, seed=1']) {
			const first = await decide(request({ prefer }), now, memory, HOSTS);
			expect(first.delivery, prefer).toBeDefined();
			const again = decide(request({ prefer }), now, memory, HOSTS);
			expect(again, prefer).toBeInstanceOf(Promise);
			expect((await again).delivery, prefer).toBeDefined();
		}
		expect(now.state && memory.sent.size(now.state)).toBe(0);
		const plain = await decide(request({}), now, memory, HOSTS);
		expect(plain.delivery).toBeUndefined();
	});

	it('gives a request without a usable key its 401 or 400 with no delay or fault', async () => {
		for (const [header, status] of [
			[undefined, 401],
			['Bearer', 400],
			['Bearer ick-00000000-AAAA', 401],
		] as const) {
			const answer = await decide(
				request({ authorization: header, prefer: 'fault=reset, delay=30000' }),
				now,
				createMemory(),
				HOSTS,
			);
			expect(answer.status).toBe(status);
			expect(answer.delivery).toBeUndefined();
		}
	});

	it('answers an unknown kind or an out-of-range delay with 422 naming it, and no fault', async () => {
		for (const [prefer, named] of [
			['fault=boom', 'Prefer: fault=boom'],
			['delay=30001', 'Prefer: delay=30001'],
		] as const) {
			const answer = await decide(request({ prefer }), now, createMemory(), HOSTS);
			expect(answer.status).toBe(422);
			expect(answer.delivery).toBeUndefined();
			expect(JSON.parse(answer.body.toString('utf8'))).toMatchObject({
				type: 'https://portal.example/problems/invalid-control',
				detail: expect.stringContaining(named) as string,
			});
		}
	});

	it('answers a CORS preflight with its 204 at once, whatever the query asks', async () => {
		const answer = await decide(
			request({
				method: 'options',
				rawMethod: 'OPTIONS',
				origin: 'http://127.0.0.1:4321',
				preflight: true,
				authorization: undefined,
				target: '/api/v2/users?__fault=reset&__delay=5000',
			}),
			now,
			createMemory(),
			HOSTS,
		);
		expect(answer.status).toBe(204);
		expect(answer.delivery).toBeUndefined();
	});

	it('carries the delivery on HEAD as on GET', async () => {
		const answer = await decide(
			request({ method: 'head', rawMethod: 'HEAD', prefer: 'fault=slow-body' }),
			now,
			createMemory(),
			HOSTS,
		);
		expect(answer.status).toBe(200);
		expect(answer.delivery).toEqual({ delay: undefined, fault: 'slow-body', seed: undefined });
	});
});

describe('the request log line of a delay or a fault', () => {
	it('says which delay and fault were served, in both forms', () => {
		const request = { method: 'GET', target: '/api/v2/users', status: 200 };
		expect(lineParts({ ...request, delay: 573, fault: 'truncated' }).after).toBe(
			'delay=573ms fault=truncated',
		);
		expect(lineParts({ ...request, delay: 0 }).after).toBe('delay=0ms');
		expect(lineParts({ ...request, fault: 'reset' }, 'json').after).toBe(',"fault":"reset"');
		expect(lineParts(request).after).toBe('');
	});

	it.each([
		['reset', 'reset'],
		['empty', 'empty'],
		['garbage', 'garbage'],
		['truncated', 200],
		['slow-body', 200],
		[undefined, 200],
	] as const)('gives fault=%s the status it sent: %s', (fault, status) => {
		expect(statusLogged(200, fault)).toBe(status);
	});

	it('names a fault that sent no status where the status goes, in both forms', () => {
		const request = { method: 'GET', target: '/api/v2/users', fault: 'reset' } as const;
		expect(lineParts({ ...request, status: statusLogged(200, 'reset') }).before).toBe(
			'GET /api/v2/users reset',
		);
		expect(lineParts({ ...request, status: statusLogged(503, 'garbage') }, 'json').before).toBe(
			'"method":"GET","target":"/api/v2/users","status":"garbage"',
		);
		expect(lineParts({ ...request, status: statusLogged(200, 'truncated') }).before).toBe(
			'GET /api/v2/users 200',
		);
	});
});
