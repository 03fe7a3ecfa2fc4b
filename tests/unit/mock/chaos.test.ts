/**
 * The mock's chaos without a socket: what the nth request in scope gets (`pickChaos`), which
 * requests are in scope (through `decide`, as the server calls it), what the log line and the
 * start line say, and what a rule may name that the sources lack.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
	chaosProblem,
	chaosServed,
	chaosSummary,
	createChaos,
	pickChaos,
} from '../../../mock/chaos.ts';
import { createMemory, decide, type MockAnswer, type MockNow } from '../../../mock/decide.ts';
import { lineParts } from '../../../mock/request-log.ts';
import type { MockRequest } from '../../../mock/sent-answers.ts';
import { loadState, type MockState } from '../../../mock/state.ts';
import { readChaos, type ChaosRule } from '../../../src/schemas/mock-chaos.ts';
import { loadViews, type ViewEntry } from '../../../src/sources/fixtures.ts';
import { readSettings } from '../../../src/sources/settings.ts';

/** A rule from MOCK_CHAOS's text, which must read. */
function rule(text: string): ChaosRule {
	const read = readChaos(text);
	if (!read.ok) throw new Error(read.problem);
	return read.rule;
}

/** A source of numbers that gives the ones listed, in turn. */
const numbers =
	(...list: number[]) =>
	() => {
		const next = list.shift();
		if (next === undefined) throw new Error('drew more numbers than listed');
		return next;
	};

describe('pickChaos', () => {
	const soak = rule('delay=100-200:50% fault=reset:2% code=503:5%');

	it('gives a fault or a status by one draw over their shares, in the order written', () => {
		// The first draw picks among reset (0 to 1.99%) and 503 (2% to 6.99%); the second, 0.9, no delay.
		expect(pickChaos(soak, 1, numbers(0, 0.9))).toEqual({ number: 1, fault: 'reset' });
		expect(pickChaos(soak, 1, numbers(0.0199, 0.9))).toEqual({ number: 1, fault: 'reset' });
		expect(pickChaos(soak, 1, numbers(0.02, 0.9))).toEqual({ number: 1, code: 503 });
		expect(pickChaos(soak, 1, numbers(0.0699, 0.9))).toEqual({ number: 1, code: 503 });
		expect(pickChaos(soak, 1, numbers(0.07, 0.9))).toEqual({ number: 1 });
	});

	it('gives the delay to its share, picked from its range by the next draw', () => {
		expect(pickChaos(soak, 4, numbers(0.5, 0.4999, 0))).toEqual({ number: 4, delay: 100 });
		expect(pickChaos(soak, 4, numbers(0.5, 0.4999, 0.9999))).toEqual({ number: 4, delay: 200 });
		expect(pickChaos(soak, 4, numbers(0.5, 0.5))).toEqual({ number: 4 });
		expect(pickChaos(soak, 4, numbers(0.01, 0, 0.5))).toEqual({
			number: 4,
			fault: 'reset',
			delay: 150,
		});
	});

	it('gives a delay without a share to every request', () => {
		expect(pickChaos(rule('delay=7'), 9, numbers(0.99, 0.9999, 0.3))).toEqual({
			number: 9,
			delay: 7,
		});
	});

	it('draws the nth request’s choices from the seed and n alone: the same each time', () => {
		const seeded = { ...soak, seed: '7' };
		const run = () => Array.from({ length: 300 }, (_, index) => pickChaos(seeded, index + 1));
		const first = run();
		expect(run()).toEqual(first);
		expect(pickChaos(seeded, 120)).toEqual(first[119]);
		const other = Array.from({ length: 300 }, (_, index) =>
			pickChaos({ ...soak, seed: '8' }, index + 1),
		);
		expect(other).not.toEqual(first);
	});

	it('serves each share within four standard deviations over 20,000 requests', () => {
		const seeded = rule('delay=1-3:30% fault=reset:2%,empty:3% code=503:10% seed=47');
		const count = 20_000;
		const got = { reset: 0, empty: 0, 503: 0, delay: 0 };
		for (let number = 1; number <= count; number += 1) {
			const pick = pickChaos(seeded, number);
			if (pick.fault === 'reset') got.reset += 1;
			if (pick.fault === 'empty') got.empty += 1;
			if (pick.code === 503) got[503] += 1;
			if (pick.delay !== undefined) got.delay += 1;
		}
		for (const [name, share] of [
			['reset', 0.02],
			['empty', 0.03],
			['503', 0.1],
			['delay', 0.3],
		] as const) {
			const mean = count * share;
			const tolerance = 4 * Math.sqrt(count * share * (1 - share));
			expect(Math.abs(got[name] - mean), name).toBeLessThanOrEqual(tolerance);
		}
	});
});

describe('the log line and the start line', () => {
	it('say what the chaos served to a request, numbered', () => {
		expect(chaosServed({ number: 42, delay: 120, code: 503 })).toBe('#42 delay=120ms code=503');
		expect(chaosServed({ number: 3, fault: 'reset' })).toBe('#3 fault=reset');
		expect(chaosServed({ number: 5, delay: 0 })).toBe('#5 delay=0ms');
	});

	it('write it in the request log line, in both forms', () => {
		const request = { method: 'GET', target: '/api/v2/users', status: 503 };
		expect(lineParts({ ...request, chaos: '#42 delay=120ms code=503' }).after).toBe(
			'chaos="#42 delay=120ms code=503"',
		);
		expect(lineParts({ ...request, chaos: '#3 fault=reset' }, 'json').after).toBe(
			',"chaos":"#3 fault=reset"',
		);
	});

	it('says at start what is on, for whom, and what the seed promises; never the person’s email', () => {
		expect(chaosSummary(rule('delay=50-300 fault=reset:2% code=503:5% seed=7'), false)).toBe(
			'Mock chaos on (MOCK_CHAOS): delay=50-300ms to every one, fault=reset to 2%, code=503 to 5% of the GET /api/v2/users requests a directory key opens, unless a request asks for its own delay, fault or code; seed=7: the nth request in scope gets the same each run.',
		);
		const scoped = chaosSummary(
			rule('delay=20:50% view=production person=amara.okafor@example.com'),
			true,
		);
		expect(scoped).toContain('delay=20ms to 50% of');
		expect(scoped).toContain('only for view=production and person=<scoped>');
		expect(scoped).toContain('no seed, so the choices differ from run to run');
		expect(scoped).not.toContain('amara');
		expect(chaosSummary(rule('code=503:1% seed=5'), true)).toContain(
			'the nth request in scope gets the same each run (each worker counts its own).',
		);
	});
});

describe('the chaos in the mock’s decision', () => {
	const settings = readSettings({});
	const HOSTS = { port: 4010, names: [] };
	let now: MockNow & { state: MockState };
	let views: ViewEntry[];

	beforeAll(async () => {
		now = {
			state: await loadState({
				viewsDir: settings.viewsDir,
				contractFile: settings.openApiFile,
				mockOrigin: 'http://127.0.0.1:1',
			}),
		};
		views = await loadViews(path.resolve(settings.viewsDir));
	});

	const keyOf = (slug: string, index = 0): string =>
		views.find((entry) => entry.slug === slug)?.view.users[index]?.apiKey ?? '?';

	const request = (changes: Partial<MockRequest>): MockRequest => ({
		started: 0,
		rawMethod: 'GET',
		method: 'get',
		target: '/api/v2/users',
		host: '127.0.0.1:4010',
		origin: undefined,
		authorization: `Bearer ${keyOf('production')}`,
		prefer: undefined,
		...changes,
	});

	/** The answers of a run of requests with a chaos, as the server gets them. */
	async function run(text: string, requests: MockRequest[]): Promise<MockAnswer[]> {
		const chaos = createChaos(rule(text));
		const memory = createMemory();
		const mocked = (asked: MockRequest) => decide(asked, now, memory, HOSTS);
		const answers: MockAnswer[] = [];
		for (const each of requests) {
			answers.push(await chaos.apply(each, mocked(each), () => now.state, mocked));
		}
		return answers;
	}

	it('serves the contract’s own answer for a status, with the key’s holder in the line', async () => {
		const [answer] = await run('code=503:100%', [request({})]);
		expect(answer?.status).toBe(503);
		expect(JSON.parse(answer?.body.toString() ?? '')).toMatchObject({ status: 503 });
		expect(answer?.logged).toEqual({
			holder: expect.objectContaining({ slug: 'production' }) as unknown,
			chaos: '#1 code=503',
		});
		expect(answer?.delivery).toBeUndefined();
	});

	it('hands a delay or a fault to the server as a request’s own would be, seeded per request', async () => {
		const [answer] = await run('delay=40 fault=truncated:100% seed=9', [request({})]);
		expect(answer?.status).toBe(200);
		expect(answer?.delivery).toEqual({
			delay: { min: 40, max: 40 },
			fault: 'truncated',
			seed: '9#1',
		});
		expect(answer?.logged.chaos).toBe('#1 delay=40ms fault=truncated');
	});

	it('leaves a kept answer alone, and the same request again gets the chaos again', async () => {
		const chaos = createChaos(rule('code=503:100%'));
		const memory = createMemory();
		const mocked = (asked: MockRequest) => decide(asked, now, memory, HOSTS);
		const clean = await mocked(request({}));
		expect(clean.status).toBe(200);
		for (const number of [1, 2]) {
			const again = mocked(request({}));
			expect(again).not.toBeInstanceOf(Promise);
			const served = await chaos.apply(request({}), again, () => now.state, mocked);
			expect(served.status).toBe(503);
			expect(served.logged.chaos).toBe(`#${number} code=503`);
		}
		const kept = await mocked(request({}));
		expect(kept.status).toBe(200);
		expect(kept.logged.chaos).toBeUndefined();
	});

	it('never touches probes, preflights, refused keys, hosts or controls, other paths, or own controls', async () => {
		const untouched = [
			request({ target: '/healthz', authorization: undefined }),
			request({ target: '/readyz', authorization: undefined }),
			request({
				method: 'options',
				rawMethod: 'OPTIONS',
				origin: 'http://127.0.0.1:4321',
				preflight: true,
				authorization: undefined,
			}),
			request({ authorization: undefined }),
			request({ authorization: 'Bearer ick-00000000-AAAA' }),
			request({ host: 'evil.example' }),
			request({ target: '/api/v2/other' }),
			request({ method: 'post', rawMethod: 'POST' }),
			request({ prefer: 'code=abc' }),
			request({ prefer: 'code=401' }),
			request({ prefer: 'delay=0' }),
			request({ target: '/api/v2/users?__fault=empty' }),
		];
		const answers = await run('fault=reset:100%', untouched);
		for (const [index, answer] of answers.entries()) {
			expect(answer.logged.chaos, untouched[index]?.target).toBeUndefined();
			expect(answer.delivery?.fault, untouched[index]?.target).not.toBe('reset');
		}
		// Counted from the first request in scope: none of those above was.
		const [after] = await run('fault=reset:100%', [request({})]);
		expect(after?.logged.chaos).toBe('#1 fault=reset');
	});

	it('still serves a request that asks only for an example, dynamic or a seed', async () => {
		const answers = await run('code=503:100%', [
			request({ prefer: 'example=staging-us-east' }),
			request({ prefer: 'dynamic=true, seed=3' }),
			request({ method: 'head', rawMethod: 'HEAD' }),
		]);
		expect(answers.map(({ status }) => status)).toEqual([503, 503, 503]);
	});

	it('with view=, only the requests of that view: its keys, or its example asked for', async () => {
		const answers = await run('code=503:100% view=staging-us-east', [
			request({}),
			request({ authorization: `Bearer ${keyOf('staging-us-east', 3)}` }),
			request({ prefer: 'example=staging-us-east' }),
			request({ prefer: 'example=production' }),
		]);
		expect(answers.map(({ status }) => status)).toEqual([200, 503, 503, 200]);
		expect(answers.map(({ logged }) => logged.chaos)).toEqual([
			undefined,
			'#1 code=503',
			'#2 code=503',
			undefined,
		]);
	});

	it('with person=, only the keys that person holds, in every view', async () => {
		const person = 'Amara.Okafor@example.com';
		const held = views.flatMap(({ slug, view }) =>
			view.users.flatMap((user, index) =>
				user.email.toLowerCase() === person.toLowerCase() ? [{ slug, index }] : [],
			),
		);
		const others = views.flatMap(({ slug, view }) =>
			view.users.flatMap((user, index) =>
				user.email.toLowerCase() === person.toLowerCase() ? [] : [{ slug, index }],
			),
		);
		expect(held.length).toBeGreaterThan(1);
		const asked = [...held, ...others.slice(0, 6)].map(({ slug, index }) =>
			request({ authorization: `Bearer ${keyOf(slug, index)}` }),
		);
		const answers = await run(`code=503:100% person=${person}`, asked);
		expect(answers.map(({ status }) => status)).toEqual([
			...held.map(() => 503),
			...others.slice(0, 6).map(() => 200),
		]);
	});

	it('names what the sources lack: an undeclared status, an unknown view, a person with no key', () => {
		expect(chaosProblem(rule('code=503:5%,500:1%'), now.state)).toBeUndefined();
		// The statuses the contract declares, which its edits may change, are listed after these.
		expect(chaosProblem(rule('code=418:5%'), now.state)).toMatch(
			/^MOCK_CHAOS: code=418 is not a status the contract declares for GET \/api\/v2\/users; it declares 200, 400, 401, (?:\d{3}, )*503$/,
		);
		expect(chaosProblem(rule('delay=5 view=nowhere'), now.state)).toBe(
			'MOCK_CHAOS: view=nowhere is no view the mock serves',
		);
		expect(chaosProblem(rule('delay=5 person=nobody@example.com'), now.state)).toBe(
			"MOCK_CHAOS: the person= given holds no key in any view's directory",
		);
	});

	it('reports a problem once, until it changes', () => {
		const chaos = createChaos(rule('code=418:5%'));
		expect(chaos.check(now.state)).toContain('code=418');
		expect(chaos.check(now.state)).toBeUndefined();
	});
});
