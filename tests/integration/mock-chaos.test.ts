/**
 * MOCK_CHAOS against a real mock (`mock/cli.ts`, as `npm run mock` runs it) and Node's fetch over
 * kept-alive connections: over 1,000 requests in scope each share of a seeded chaos lies within
 * four standard deviations of its mean, a second run with the same seed gets the same sequence,
 * a scoped chaos touches only its view or person, and probes, preflights and refused keys are
 * never touched. The client's view (a status, a reset, a closed connection) and the request log's
 * (`chaos="#n …"`) are checked against each other. A bad MOCK_CHAOS stops the mock with one line,
 * and the commands the mock-server guide shows run as shown.
 */
import { readFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';

const USERS = '/api/v2/users';

/** How many requests in scope a run sends. */
const IN_SCOPE = 1000;

/** The soak run's chaos: small delays, so 1,000 requests take a second or two. */
const SOAK = 'delay=0-2:20% fault=reset:3%,empty:2% code=503:10% seed=47';

/** Its shares, as written above. */
const SHARES = { reset: 0.03, empty: 0.02, 503: 0.1, delay: 0.2 } as const;

const started: Started[] = [];
let views: ViewEntry[];

/** A running mock and its base URL. */
interface Mock {
	process: Started;
	base: string;
}

/** Starts `node mock/cli.ts` with these settings, and waits until it answers. */
async function startMock(env: Record<string, string>): Promise<Mock> {
	const port = await freePort();
	const process = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(port), MOCK_LOG_PROBES: 'on', ...env },
	});
	started.push(process);
	const base = `http://127.0.0.1:${port}`;
	await waitForUrl(`${base}/readyz`, process);
	return { process, base };
}

/** Stops a mock and gives what it printed. */
async function stopMock(mock: Mock): Promise<string> {
	await mock.process.stop();
	return mock.process.output();
}

/** A directory key: the nth user of a view. */
function keyOf(slug: string, index = 0): string {
	const key = views.find((entry) => entry.slug === slug)?.view.users[index]?.apiKey;
	if (!key) throw new Error(`no user ${index} in ${slug}`);
	return key;
}

/** One kept-alive connection for the run's requests, as a client of a soak test holds one. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * What the client saw: the status, `reset` for a connection reset, `closed` for one closed
 * without an answer, or the error's code. Node's http client, which never sends a request twice
 * on its own, so each request the client makes is one the mock answers.
 */
function ask(
	base: string,
	target: string,
	headers: Record<string, string> = {},
	method = 'GET',
	through = agent,
): Promise<string> {
	return new Promise((resolve) => {
		const sent = request(`${base}${target}`, { method, headers, agent: through }, (response) => {
			response.resume();
			response.on('end', () => resolve(String(response.statusCode)));
		});
		sent.on('error', (error: NodeJS.ErrnoException) => {
			if (error.message === 'socket hang up') resolve('closed');
			else resolve(error.code === 'ECONNRESET' ? 'reset' : `error ${error.code ?? ''}`);
		});
		sent.end();
	});
}

/** The request-log lines of a method and path, in order, once as many as expected are out. */
async function logLines(mock: Mock, request: string, count: number): Promise<string[]> {
	const lines = () =>
		mock.process
			.output()
			.split('\n')
			.filter((line) => /^\d{4}-\d\d-\d\dT/.test(line) && line.includes(` ${request} `));
	// Lines are written in batches, a little after their answers.
	const deadline = Date.now() + 10_000;
	while (lines().length < count && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	expect(lines()).toHaveLength(count);
	return lines();
}

/** The chaos a log line says was served, or '' for none. */
const chaosOf = (line: string): string => /chaos="([^"]*)"/.exec(line)?.[1] ?? '';

/** What a client should see for what the chaos served. */
function expectedSeen(chaos: string): string {
	if (chaos.includes('fault=reset')) return 'reset';
	if (chaos.includes('fault=empty')) return 'closed';
	if (chaos.includes('code=503')) return '503';
	return '200';
}

/** The counts a share of n should fall in: its mean, plus or minus four standard deviations. */
function within(n: number, share: number): [number, number] {
	const mean = n * share;
	const deviation = Math.sqrt(n * share * (1 - share));
	return [mean - 4 * deviation, mean + 4 * deviation];
}

/**
 * One soak run: 1,000 requests in scope with one key, and between them probes, preflights and
 * requests with a refused key. Returns what the client saw of each request in scope, the log's
 * chaos and status for each, and what the others got.
 */
async function soakRun(
	mock: Mock,
): Promise<{ seen: string[]; chaos: string[]; logged: string[]; others: string[] }> {
	const key = keyOf('production');
	const seen: string[] = [];
	const others: string[] = [];
	for (let index = 0; index < IN_SCOPE; index += 1) {
		if (index % 10 === 3)
			others.push(await ask(mock.base, index % 20 === 3 ? '/healthz' : '/readyz'));
		if (index % 20 === 7) {
			others.push(
				await ask(
					mock.base,
					USERS,
					{ Origin: 'http://127.0.0.1:4321', 'Access-Control-Request-Method': 'GET' },
					'OPTIONS',
				),
			);
		}
		if (index % 20 === 11) {
			others.push(await ask(mock.base, USERS, { Authorization: 'Bearer ick-00000000-AAAA' }));
		}
		seen.push(await ask(mock.base, USERS, { Authorization: `Bearer ${key}` }));
	}
	const lines = await logLines(mock, `GET ${USERS}`, IN_SCOPE + IN_SCOPE / 20);
	const inScope = lines.filter((line) => line.includes('view=production'));
	expect(inScope).toHaveLength(IN_SCOPE);
	// The status each line gives: time, method and target come before it.
	const logged = inScope.map((line) => line.split(' ')[3] ?? '');
	return { seen, chaos: inScope.map(chaosOf), logged, others };
}

beforeAll(async () => {
	views = await loadViews(path.join(ROOT, 'content/views'));
});

afterAll(async () => {
	await Promise.all(started.map((process) => process.stop()));
});

describe('MOCK_CHAOS over 1,000 requests with a seed', () => {
	let first: Awaited<ReturnType<typeof soakRun>>;
	let firstOutput: string;

	beforeAll(async () => {
		const mock = await startMock({ MOCK_CHAOS: SOAK });
		first = await soakRun(mock);
		firstOutput = await stopMock(mock);
	}, 120_000);

	it('serves each share within four standard deviations of its mean', () => {
		const count = (match: (chaos: string) => boolean) => first.chaos.filter(match).length;
		const got = {
			reset: count((chaos) => chaos.includes('fault=reset')),
			empty: count((chaos) => chaos.includes('fault=empty')),
			503: count((chaos) => chaos.includes('code=503')),
			delay: count((chaos) => / delay=\d+ms/.test(chaos)),
		};
		for (const [name, share] of Object.entries(SHARES)) {
			const [low, high] = within(IN_SCOPE, share);
			const value = got[name as keyof typeof got];
			expect(value, name).toBeGreaterThanOrEqual(low);
			expect(value, name).toBeLessThanOrEqual(high);
		}
		// A request gets one fault or status at most.
		expect(count((chaos) => /fault=.*code=/.test(chaos))).toBe(0);
	});

	it('numbers only the requests in scope, and the client sees what the log says was served', () => {
		for (const [index, chaos] of first.chaos.entries()) {
			if (chaos !== '') expect(chaos).toMatch(new RegExp(`^#${index + 1}( |$)`));
			expect(first.seen[index], `request ${index + 1}: ${chaos}`).toBe(expectedSeen(chaos));
			// The log's status is what was sent: a fault that sent none is named in its place.
			expect(first.logged[index], `request ${index + 1}: ${chaos}`).toBe(
				expectedSeen(chaos).replace('closed', 'empty'),
			);
		}
		for (const line of firstOutput.split('\n').filter((each) => / delay=\d+ms/.test(each))) {
			const delay = Number(/ delay=(\d+)ms/.exec(line)?.[1]);
			expect(delay).toBeGreaterThanOrEqual(0);
			expect(delay).toBeLessThanOrEqual(2);
		}
	});

	it('never touches probes, preflights or a refused key', () => {
		const expected = Array.from({ length: IN_SCOPE }, (_, index) => [
			...(index % 10 === 3 ? ['200'] : []),
			...(index % 20 === 7 ? ['204'] : []),
			...(index % 20 === 11 ? ['401'] : []),
		]).flat();
		expect(first.others).toEqual(expected);
		const untouched = firstOutput
			.split('\n')
			.filter((line) => /(GET \/healthz|GET \/readyz|OPTIONS |refused=)/.test(line));
		// And the one /readyz that waited for the mock to start.
		expect(untouched.length).toBe(expected.length + 1);
		expect(untouched.filter((line) => line.includes('chaos='))).toEqual([]);
	});

	it('says at start, in one line, what chaos is on', () => {
		const lines = firstOutput.split('\n').filter((line) => line.startsWith('Mock chaos on'));
		expect(lines).toEqual([
			'Mock chaos on (MOCK_CHAOS): delay=0-2ms to 20%, fault=reset to 3%, fault=empty to 2%, code=503 to 10% of the GET /api/v2/users requests a directory key opens, unless a request asks for its own delay, fault or code; seed=47: the nth request in scope gets the same each run.',
		]);
	});

	it('gives the same sequence on a second run with the same seed, and another with another seed', async () => {
		// The two runs side by side, each with a mock and a connection of its own.
		const [second, third] = await Promise.all(
			[SOAK, SOAK.replace('seed=47', 'seed=48')].map(async (chaos) => {
				const mock = await startMock({ MOCK_CHAOS: chaos });
				const run = await soakRun(mock);
				await stopMock(mock);
				return run;
			}),
		);
		expect(second?.chaos).toEqual(first.chaos);
		expect(second?.seen).toEqual(first.seen);
		expect(third?.chaos).not.toEqual(first.chaos);
	}, 120_000);

	it("with MOCK_WORKERS=2, gives each worker's nth request in scope what the nth gets from one process", async () => {
		const mock = await startMock({ MOCK_CHAOS: SOAK, MOCK_WORKERS: '2' });
		const key = keyOf('production');
		// Two kept-alive connections, which the primary hands to its workers in turn.
		const agents = [0, 1].map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
		const requests = 300;
		const seen: string[] = [];
		for (let index = 0; index < requests; index += 1) {
			const through = agents[index % 2];
			seen.push(await ask(mock.base, USERS, { Authorization: `Bearer ${key}` }, 'GET', through));
		}
		for (const each of agents) each.destroy();
		const lines = await logLines(mock, `GET ${USERS}`, requests);
		await stopMock(mock);
		const byWorker = new Map<string, string[]>();
		for (const line of lines) {
			const worker = /\bworker=(\d+)/.exec(line)?.[1] ?? 'none';
			byWorker.set(worker, [...(byWorker.get(worker) ?? []), chaosOf(line)]);
		}
		expect([...byWorker.keys()].sort()).toEqual(['1', '2']);
		for (const [worker, chaos] of byWorker) {
			expect(chaos, `worker ${worker}`).toEqual(first.chaos.slice(0, chaos.length));
		}
		// What the clients saw is what the log says each worker served.
		expect(seen.filter((status) => status === '200').length).toBe(
			lines.filter((line) => expectedSeen(chaosOf(line)) === '200').length,
		);
	}, 120_000);
});

describe('MOCK_CHAOS scoped', () => {
	it('with view=, touches only the requests of that view, and its share of them', async () => {
		const mock = await startMock({ MOCK_CHAOS: 'code=503:50% seed=3 view=staging-us-east' });
		const production = keyOf('production');
		const staging = keyOf('staging-us-east', 2);
		const seen: Record<string, string[]> = { production: [], staging: [] };
		for (let index = 0; index < 400; index += 1) {
			const slug = index % 2 === 0 ? 'production' : 'staging';
			const key = slug === 'production' ? production : staging;
			seen[slug]?.push(await ask(mock.base, USERS, { Authorization: `Bearer ${key}` }));
		}
		await stopMock(mock);
		expect(new Set(seen['production'])).toEqual(new Set(['200']));
		const served = seen['staging']?.filter((status) => status === '503').length ?? 0;
		const [low, high] = within(200, 0.5);
		expect(served).toBeGreaterThanOrEqual(low);
		expect(served).toBeLessThanOrEqual(high);
		expect(served + (seen['staging']?.filter((status) => status === '200').length ?? 0)).toBe(200);
	}, 60_000);

	it('with person=, touches only the keys that person holds, in every view, and logs no email', async () => {
		const person = 'amara.okafor@example.com';
		const mock = await startMock({ MOCK_CHAOS: `code=503:100% person=${person}` });
		const keys = views.flatMap(({ view }) =>
			view.users.map((user) => ({ key: user.apiKey, held: user.email === person })),
		);
		expect(keys.filter(({ held }) => held).length).toBeGreaterThan(1);
		for (const { key, held } of keys) {
			expect(await ask(mock.base, USERS, { Authorization: `Bearer ${key}` })).toBe(
				held ? '503' : '200',
			);
		}
		const output = await stopMock(mock);
		expect(output).toContain('only for person=<scoped>');
		expect(output).not.toContain(person);
	}, 60_000);
});

describe('a bad MOCK_CHAOS', () => {
	it.each([
		[
			'fault=boom:2%',
			'Invalid environment:\n  MOCK_CHAOS: "fault=boom:2%": "boom" is no fault; expected one of reset, empty, garbage, truncated, slow-body, each with a share of requests, e.g. fault=reset:2%\n',
		],
		[
			'code=418:5%',
			/^MOCK_CHAOS: code=418 is not a status the contract declares for GET \/api\/v2\/users; it declares 200, [\d, ]+\n$/,
		],
		['delay=5 view=nowhere', 'MOCK_CHAOS: view=nowhere is no view the mock serves\n'],
	])(
		'%s stops the mock with one line naming it',
		async (value, message) => {
			const port = await freePort();
			const process = start(bin('node'), ['mock/cli.ts'], {
				env: { MOCK_PORT: String(port), MOCK_CHAOS: value },
			});
			started.push(process);
			const code = await new Promise<number | null>((resolve) => {
				if (process.child.exitCode !== null) resolve(process.child.exitCode);
				else process.child.once('exit', resolve);
			});
			expect(code).toBe(1);
			if (typeof message === 'string') expect(process.output()).toBe(message);
			else expect(process.output()).toMatch(message);
		},
		60_000,
	);
});

describe('the commands the mock-server guide shows', () => {
	/** The MOCK_CHAOS values of every `MOCK_CHAOS='…' npm run mock` line of a file. */
	async function shown(file: string): Promise<string[]> {
		const text = await readFile(path.join(ROOT, file), 'utf8');
		return [...text.matchAll(/^MOCK_CHAOS='([^']+)' npm run mock$/gm)].map(
			(match) => match[1] ?? '',
		);
	}

	it('are npm run mock, node mock/cli.ts, with MOCK_CHAOS as shown, and each starts and serves it', async () => {
		const scripts = (
			JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
				scripts: Record<string, string>;
			}
		).scripts;
		expect(scripts['mock']).toBe(
			'NODE_COMPILE_CACHE=${NODE_COMPILE_CACHE:-node_modules/.cache/node-compile-cache} node mock/cli.ts',
		);
		const guide = await shown('content/docs/mock-server.mdx');
		expect(guide.length).toBeGreaterThan(0);
		// Each value's mock side by side with the others'.
		const tried = [...new Set(guide)].map(async (value) => {
			const mock = await startMock({ MOCK_CHAOS: value });
			const key = keyOf(
				value.includes('view=') ? (/view=([\w-]+)/.exec(value)?.[1] ?? '') : 'production',
			);
			const seen: string[] = [];
			for (let index = 0; index < 20; index += 1) {
				seen.push(await ask(mock.base, USERS, { Authorization: `Bearer ${key}` }));
			}
			const lines = await logLines(mock, `GET ${USERS}`, 20);
			const output = await stopMock(mock);
			expect(output, value).toMatch(/^Mock chaos on \(MOCK_CHAOS\): /m);
			expect(seen, value).toEqual(lines.map((line) => expectedSeen(chaosOf(line))));
			expect(lines.filter((line) => line.includes('chaos=')).length, value).toBeGreaterThan(0);
		});
		await Promise.all(tried);
	}, 120_000);
});
