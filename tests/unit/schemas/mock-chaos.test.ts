/**
 * MOCK_CHAOS as the settings read it: what each good value means, and the one line each bad one
 * gets, naming the variable and the part that is wrong (never a key pasted into it).
 */
import { describe, expect, it } from 'vitest';
import { readChaos, readShare, shownShare } from '../../../src/schemas/mock-chaos.ts';
import { readSettings } from '../../../src/sources/settings.ts';

describe('readShare', () => {
	it.each([
		['2%', 200],
		['0.5%', 50],
		['0.01%', 1],
		['12.34%', 1234],
		['100%', 10_000],
		['100.00%', 10_000],
	])('reads %s as hundredths of a percent', (text, share) => {
		expect(readShare(text)).toBe(share);
	});

	it.each(['0%', '0.00%', '100.01%', '101%', '2', '2 %', '.5%', '0.001%', '-1%', '1e1%', '%'])(
		'refuses %s',
		(text) => {
			expect(readShare(text)).toBeUndefined();
		},
	);

	it('writes a share back as a person does', () => {
		expect([200, 50, 1, 10_000].map(shownShare)).toEqual(['2%', '0.5%', '0.01%', '100%']);
	});
});

describe('readChaos, good values', () => {
	it('reads the README’s example: a delay for every request, a fault and a status for a share', () => {
		expect(readChaos('delay=50-300 fault=reset:2% code=503:5% seed=7')).toEqual({
			ok: true,
			rule: {
				delay: { range: { min: 50, max: 300 }, share: 10_000 },
				outcomes: [
					{ kind: 'fault', fault: 'reset', share: 200 },
					{ kind: 'code', code: 503, share: 500 },
				],
				seed: '7',
			},
		});
	});

	it.each([
		['0', '0'],
		['1', '1'],
		['007', '7'],
		['9007199254740991', '9007199254740991'],
	])('takes seed=%s, a whole number from 0, as the seed %s', (given, seed) => {
		expect(readChaos(`delay=5 seed=${given}`)).toEqual({
			ok: true,
			rule: { delay: { range: { min: 5, max: 5 }, share: 10_000 }, outcomes: [], seed },
		});
	});

	it('reads several faults and statuses, a delay for a share, spaces around, any order', () => {
		expect(
			readChaos(
				'  code=503:5%,500:0.5%   fault=empty:1%,slow-body:3% delay=20:25% view=staging-us-east ',
			),
		).toEqual({
			ok: true,
			rule: {
				delay: { range: { min: 20, max: 20 }, share: 2500 },
				outcomes: [
					{ kind: 'fault', fault: 'empty', share: 100 },
					{ kind: 'fault', fault: 'slow-body', share: 300 },
					{ kind: 'code', code: 503, share: 500 },
					{ kind: 'code', code: 500, share: 50 },
				],
				view: 'staging-us-east',
			},
		});
	});

	it('reads a person’s email in lower case, and shares that add up to exactly 100%', () => {
		expect(readChaos('fault=reset:40% code=503:60% person=Amara.Okafor@Example.com')).toEqual({
			ok: true,
			rule: {
				outcomes: [
					{ kind: 'fault', fault: 'reset', share: 4000 },
					{ kind: 'code', code: 503, share: 6000 },
				],
				person: 'amara.okafor@example.com',
			},
		});
	});
});

describe('readChaos, bad values: one line each, naming the variable and the bad part', () => {
	it.each([
		['', 'MOCK_CHAOS: expected what to serve, e.g. delay=50-300 fault=reset:2% code=503:5% seed=7'],
		[
			'delay',
			'MOCK_CHAOS: "delay" is not name=value; expected delay=, fault=, code=, seed=, view= or person=, e.g. delay=50-300 fault=reset:2% code=503:5% seed=7',
		],
		[
			'delay=',
			'MOCK_CHAOS: "delay=" is not name=value; expected delay=, fault=, code=, seed=, view= or person=, e.g. delay=50-300 fault=reset:2% code=503:5% seed=7',
		],
		[
			'=5',
			'MOCK_CHAOS: "=5" is not name=value; expected delay=, fault=, code=, seed=, view= or person=, e.g. delay=50-300 fault=reset:2% code=503:5% seed=7',
		],
		[
			'colour=red',
			'MOCK_CHAOS: "colour=red" names no setting of the chaos; expected delay=, fault=, code=, seed=, view= or person=',
		],
		[
			'fault=reset:1% fault=empty:1%',
			'MOCK_CHAOS: fault= is given twice; give it once (several faults or statuses go in one, separated by commas, e.g. fault=reset:2%,empty:1%)',
		],
		[
			'delay=30001',
			'MOCK_CHAOS: "delay=30001": expected milliseconds from 0 to 30000, or a range low-high, with an optional share of requests, e.g. delay=50-300 or delay=50-300:20%',
		],
		[
			'delay=300-50',
			'MOCK_CHAOS: "delay=300-50": expected milliseconds from 0 to 30000, or a range low-high, with an optional share of requests, e.g. delay=50-300 or delay=50-300:20%',
		],
		[
			'delay=50:0%',
			'MOCK_CHAOS: "delay=50:0%": expected milliseconds from 0 to 30000, or a range low-high, with an optional share of requests, e.g. delay=50-300 or delay=50-300:20%',
		],
		[
			'delay=50:5%:5%',
			'MOCK_CHAOS: "delay=50:5%:5%": expected milliseconds from 0 to 30000, or a range low-high, with an optional share of requests, e.g. delay=50-300 or delay=50-300:20%',
		],
		[
			'fault=boom:2%',
			'MOCK_CHAOS: "fault=boom:2%": "boom" is no fault; expected one of reset, empty, garbage, truncated, slow-body, each with a share of requests, e.g. fault=reset:2%',
		],
		[
			'fault=reset',
			'MOCK_CHAOS: "fault=reset": expected a share of requests from 0.01% to 100% after reset, e.g. fault=reset:2%',
		],
		[
			'fault=reset:2',
			'MOCK_CHAOS: "fault=reset:2": expected a share of requests from 0.01% to 100% after reset, e.g. fault=reset:2%',
		],
		[
			'fault=reset:1%:1%',
			'MOCK_CHAOS: "fault=reset:1%:1%": expected a share of requests from 0.01% to 100% after reset, e.g. fault=reset:2%',
		],
		['fault=reset:1%,reset:2%', 'MOCK_CHAOS: "fault=reset:1%,reset:2%": reset is listed twice'],
		[
			'code=600:5%',
			'MOCK_CHAOS: "code=600:5%": "600" is no status; expected one from 100 to 599, each with a share of requests, e.g. code=503:5%',
		],
		[
			'code=503',
			'MOCK_CHAOS: "code=503": expected a share of requests from 0.01% to 100% after 503, e.g. code=503:5%',
		],
		['code=503:5%,503:1%', 'MOCK_CHAOS: "code=503:5%,503:1%": 503 is listed twice'],
		[
			'fault=reset:60% code=503:40.01%',
			'MOCK_CHAOS: the shares of fault= and code= add up to 100.01%; at most 100%, since a request gets one of them at most',
		],
		[
			'delay=5 seed=seven!',
			'MOCK_CHAOS: "seed=seven!": expected a whole number from 0 to 9007199254740991, e.g. seed=7',
		],
		[
			'delay=5 seed=abc',
			'MOCK_CHAOS: "seed=abc": expected a whole number from 0 to 9007199254740991, e.g. seed=7',
		],
		[
			'delay=5 seed=-1',
			'MOCK_CHAOS: "seed=-1": expected a whole number from 0 to 9007199254740991, e.g. seed=7',
		],
		[
			'delay=5 seed=-1.5',
			'MOCK_CHAOS: "seed=-1.5": expected a whole number from 0 to 9007199254740991, e.g. seed=7',
		],
		[
			'delay=5 seed=1.5',
			'MOCK_CHAOS: "seed=1.5": expected a whole number from 0 to 9007199254740991, e.g. seed=7',
		],
		[
			'delay=5 seed=1e3',
			'MOCK_CHAOS: "seed=1e3": expected a whole number from 0 to 9007199254740991, e.g. seed=7',
		],
		[
			'delay=5 seed=9007199254740992',
			'MOCK_CHAOS: "seed=9007199254740992": expected a whole number from 0 to 9007199254740991, e.g. seed=7',
		],
		[
			'delay=5 view=Staging',
			'MOCK_CHAOS: "view=Staging": expected a view\'s slug, e.g. view=staging-us-east',
		],
		[
			'delay=5 person=amara',
			'MOCK_CHAOS: "person=amara": expected the email address of a person in a view\'s directory, e.g. person=amara.okafor@example.com',
		],
		[
			'seed=7 view=production',
			'MOCK_CHAOS: nothing to serve: add delay=, fault= or code=, e.g. delay=50-300 fault=reset:2% code=503:5% seed=7',
		],
	])('refuses %j', (text, problem) => {
		expect(readChaos(text)).toEqual({ ok: false, problem });
	});

	it('never repeats a key pasted into the value, and cuts a long part', () => {
		const key = 'ick-4f1c9a07-Qx7m';
		const { problem } = readChaos(`delay=5 person=${key}`) as { problem: string };
		expect(problem).not.toContain(key);
		expect(problem).toContain('"person=<key>"');
		const long = readChaos(`colour=${'x'.repeat(200)}`) as { problem: string };
		expect(long.problem).toContain(`"colour=${'x'.repeat(53)}…"`);
		expect(long.problem.length).toBeLessThan(200);
	});
});

describe('MOCK_CHAOS among the settings', () => {
	it('is off by default, and read into its rule when set', () => {
		expect(readSettings({}).mockChaos).toBeUndefined();
		expect(readSettings({ MOCK_CHAOS: 'code=503:5% seed=7' }).mockChaos).toEqual({
			outcomes: [{ kind: 'code', code: 503, share: 500 }],
			seed: '7',
		});
	});

	it('refuses a bad value with one line naming it, as every setting', () => {
		expect(() => readSettings({ MOCK_CHAOS: 'fault=boom:2%' })).toThrow(
			'Invalid environment:\n  MOCK_CHAOS: "fault=boom:2%": "boom" is no fault;',
		);
	});

	it('is refused beside MOCK_UPSTREAM: the proxy passes the console’s answers on as they come', () => {
		expect(() =>
			readSettings({ MOCK_CHAOS: 'code=503:5%', MOCK_UPSTREAM: 'https://console.example' }),
		).toThrow(
			"Invalid environment:\n  MOCK_CHAOS: not with MOCK_UPSTREAM; the validating proxy passes the console's answers on as they come",
		);
	});
});
