/**
 * Latency and faults asked for per request, against a real mock (`mock/cli.ts`) over real
 * sockets, read by real clients: Node's fetch, curl, and a raw socket that records each byte's
 * arrival. A delay is measured as "not before N ms" only, never as an upper bound: the machine is
 * shared and slow at times. After each fault, the next request on a new connection is answered.
 */
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { bin, freePort, start, waitForUrl, type Started } from '../../support/processes.ts';

const USERS = '/api/v2/users';
/** A timer in Node may fire up to a millisecond before the clock reads its time. */
const TIMER_SLACK_MS = 2;

const started: Started[] = [];
let port: number;
let base: string;
let key: string;
let mock: Started;

/** What a raw socket read: the bytes, when each chunk came, and how the connection ended. */
interface Exchange {
	bytes: Buffer;
	/** Milliseconds after the request was written at which each chunk arrived. */
	arrivals: number[];
	/** Milliseconds after the request was written at which the connection ended. */
	endedAfter: number;
	/** The socket error's code (ECONNRESET), or undefined for a clean end. */
	error: string | undefined;
}

/** Sends one request on a new connection and reads until the mock closes it. */
function exchange(
	request: { method?: string; target?: string; prefer?: string; close?: boolean; to?: number } = {},
): Promise<Exchange> {
	const { method = 'GET', target = USERS, prefer, close = true, to = port } = request;
	const head = [
		`${method} ${target} HTTP/1.1`,
		`Host: 127.0.0.1:${to}`,
		`Authorization: Bearer ${key}`,
		...(prefer === undefined ? [] : [`Prefer: ${prefer}`]),
		...(close ? ['Connection: close'] : []),
	].join('\r\n');
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		const arrivals: number[] = [];
		let sentAt = 0;
		const socket = connect(to, '127.0.0.1', () => {
			sentAt = performance.now();
			socket.write(`${head}\r\n\r\n`);
		});
		const done = (error: string | undefined): void => {
			socket.destroy();
			resolve({
				bytes: Buffer.concat(chunks),
				arrivals,
				endedAfter: performance.now() - sentAt,
				error,
			});
		};
		socket.on('data', (chunk: Buffer) => {
			chunks.push(chunk);
			arrivals.push(performance.now() - sentAt);
		});
		socket.on('end', () => done(undefined));
		socket.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
		socket.setTimeout(40_000, () => done('no end in 40 s'));
	});
}

/** The head and body of what a raw socket read. */
function split(bytes: Buffer): { head: string; body: Buffer } {
	const end = bytes.indexOf('\r\n\r\n');
	if (end < 0) return { head: bytes.toString('latin1'), body: Buffer.alloc(0) };
	return { head: bytes.subarray(0, end).toString('latin1'), body: bytes.subarray(end + 4) };
}

/** The Content-Length a head declares. */
const contentLength = (head: string): number =>
	Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? Number.NaN);

/** Runs curl on the users path with the key and a Prefer header; resolves with its exit code. */
function curl(prefer: string): Promise<{ code: number; stderr: string }> {
	return new Promise((resolve) => {
		execFile(
			'curl',
			[
				'-sS',
				'-o',
				'/dev/null',
				'-H',
				`Authorization: Bearer ${key}`,
				'-H',
				`Prefer: ${prefer}`,
				`${base}${USERS}`,
			],
			{ timeout: 40_000 },
			(error, _stdout, stderr) => {
				const code = error && typeof error.code === 'number' ? error.code : error ? -1 : 0;
				resolve({ code, stderr });
			},
		);
	});
}

/** Node's fetch of the users path with the key: the answer, or the error it threw. */
async function fetchUsers(prefer?: string, target = USERS) {
	const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
	if (prefer !== undefined) headers['Prefer'] = prefer;
	try {
		const response = await fetch(`${base}${target}`, { headers });
		const text = await response.text();
		return { response, text, error: undefined };
	} catch (error) {
		const cause =
			error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
		return { response: undefined, text: '', error: cause?.code ?? String(cause ?? error) };
	}
}

/** Checks that a plain request on a new connection is answered with the users. */
async function expectAnsweredAfter(): Promise<void> {
	const next = await fetchUsers();
	expect(next.response?.status).toBe(200);
	expect(JSON.parse(next.text)).toHaveProperty('users');
}

/** The request-log lines written so far that mention a control. */
const logLines = (): string[] =>
	mock
		.output()
		.split('\n')
		.filter((line) => line.includes(USERS));

beforeAll(async () => {
	const views = await loadViews(readSettings({}).viewsDir);
	key = views[0]?.view.users[0]?.apiKey ?? '';
	port = await freePort();
	base = `http://127.0.0.1:${port}`;
	mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(port) } });
	started.push(mock);
	await waitForUrl(`${base}/healthz`, mock);
}, 60_000);

afterAll(async () => {
	await Promise.all(started.map((process) => process.stop()));
});

describe('fault=reset', () => {
	it('resets the connection before any byte: fetch and a socket see ECONNRESET, curl exits 56', async () => {
		const read = await exchange({ prefer: 'fault=reset' });
		expect(read.error).toBe('ECONNRESET');
		expect(read.bytes).toHaveLength(0);
		expect((await fetchUsers('fault=reset')).error).toBe('ECONNRESET');
		const { code, stderr } = await curl('fault=reset');
		expect(code).toBe(56);
		expect(stderr).toMatch(/reset by peer/i);
		await expectAnsweredAfter();
	});
});

describe('fault=empty', () => {
	it('closes the connection with no answer: a socket reads no byte, curl says empty reply (52)', async () => {
		const read = await exchange({ prefer: 'fault=empty' });
		expect(read.error).toBeUndefined();
		expect(read.bytes).toHaveLength(0);
		expect((await fetchUsers('fault=empty')).error).toBeDefined();
		const { code, stderr } = await curl('fault=empty');
		expect(code).toBe(52);
		expect(stderr).toMatch(/empty reply/i);
		await expectAnsweredAfter();
	});
});

describe('fault=garbage', () => {
	it('sends bytes that are no HTTP answer, then closes: curl and fetch cannot read them', async () => {
		const read = await exchange({ prefer: 'fault=garbage' });
		expect(read.error).toBeUndefined();
		expect(read.bytes.length).toBeGreaterThan(0);
		expect(read.bytes.subarray(0, 5).toString('latin1')).not.toBe('HTTP/');
		expect((await fetchUsers('fault=garbage')).error).toBeDefined();
		const { code } = await curl('fault=garbage');
		expect(code).not.toBe(0);
		await expectAnsweredAfter();
	});

	it('sends the same bytes for the same seed', async () => {
		const first = await exchange({ prefer: 'fault=garbage, seed=9' });
		const again = await exchange({ prefer: 'fault=garbage, seed=9' });
		expect(first.bytes.length).toBeGreaterThan(0);
		expect(again.bytes.equals(first.bytes)).toBe(true);
	});
});

describe('fault=truncated', () => {
	it('sends the headers and half the body, then closes: curl exits 18, fetch fails reading', async () => {
		const whole = await exchange();
		const wholeLength = split(whole.bytes).body.length;
		expect(wholeLength).toBeGreaterThan(10);
		const read = await exchange({ prefer: 'fault=truncated' });
		expect(read.error).toBeUndefined();
		const { head, body } = split(read.bytes);
		expect(head).toMatch(/^HTTP\/1\.1 200 /);
		expect(contentLength(head)).toBe(wholeLength);
		expect(body.length).toBe(Math.floor(wholeLength / 2));
		expect(body.equals(split(whole.bytes).body.subarray(0, body.length))).toBe(true);
		const fetched = await fetchUsers('fault=truncated');
		expect(fetched.error).toBeDefined();
		const { code, stderr } = await curl('fault=truncated');
		expect(code).toBe(18);
		expect(stderr).toMatch(/bytes remaining/);
		await expectAnsweredAfter();
	});

	it('on HEAD, sends the headers and closes', async () => {
		const read = await exchange({ method: 'HEAD', prefer: 'fault=truncated', close: false });
		const { head, body } = split(read.bytes);
		expect(head).toMatch(/^HTTP\/1\.1 200 /);
		expect(body).toHaveLength(0);
		expect(read.error).toBeUndefined();
	});
});

describe('fault=slow-body', () => {
	it('sends the body a piece at a time over the delay: the whole body, its last byte not before it', async () => {
		const read = await exchange({ prefer: 'fault=slow-body, delay=800' });
		expect(read.error).toBeUndefined();
		const { head, body } = split(read.bytes);
		expect(head).toMatch(/^HTTP\/1\.1 200 /);
		expect(body.length).toBe(contentLength(head));
		expect(JSON.parse(body.toString('utf8'))).toHaveProperty('users');
		// The headers come first, the body's pieces after: several arrivals, the last after 800 ms.
		expect(read.arrivals.length).toBeGreaterThanOrEqual(3);
		expect(read.arrivals.at(-1)).toBeGreaterThanOrEqual(800 - TIMER_SLACK_MS);
		const fetched = await fetchUsers('fault=slow-body, delay=300');
		expect(fetched.response?.status).toBe(200);
		expect(JSON.parse(fetched.text)).toHaveProperty('users');
	});
});

describe('delay', () => {
	it('answers not before the delay asked for, in Prefer or __delay', async () => {
		for (const [prefer, target] of [
			['delay=700', USERS],
			[undefined, `${USERS}?__delay=700`],
		] as const) {
			const before = performance.now();
			const { response, text } = await fetchUsers(prefer, target);
			expect(performance.now() - before).toBeGreaterThanOrEqual(700 - TIMER_SLACK_MS);
			expect(response?.status).toBe(200);
			expect(JSON.parse(text)).toHaveProperty('users');
		}
	});

	it('picks the same delay in a range for the same seed, and logs it', async () => {
		const served: string[] = [];
		for (let round = 0; round < 2; round += 1) {
			const started = performance.now();
			const { response } = await fetchUsers('delay=100-900, seed=21');
			const took = performance.now() - started;
			expect(response?.status).toBe(200);
			const seeded = (): string[] => logLines().filter((line) => line.includes('seed=21'));
			await expect.poll(() => seeded().length).toBe(round + 1);
			const ms = Number(/ delay=(\d+)ms/.exec(seeded().at(-1) ?? '')?.[1]);
			expect(ms).toBeGreaterThanOrEqual(100);
			expect(ms).toBeLessThanOrEqual(900);
			expect(took).toBeGreaterThanOrEqual(ms - TIMER_SLACK_MS);
			served.push(String(ms));
		}
		expect(served[1]).toBe(served[0]);
	});

	it('delays a HEAD’s headers too', async () => {
		const read = await exchange({ method: 'HEAD', prefer: 'delay=400' });
		expect(split(read.bytes).head).toMatch(/^HTTP\/1\.1 200 /);
		expect(read.arrivals[0]).toBeGreaterThanOrEqual(400 - TIMER_SLACK_MS);
	});
});

describe('the request log', () => {
	it('names the fault and delay served on each line, and never the key', async () => {
		await exchange({ prefer: 'fault=truncated, delay=50' });
		await expect
			.poll(() => logLines().some((line) => / delay=50ms fault=truncated$/.test(line)))
			.toBe(true);
		for (const kind of ['reset', 'empty', 'garbage', 'slow-body']) {
			expect(logLines().some((line) => line.endsWith(` fault=${kind}`))).toBe(true);
		}
		expect(mock.output()).not.toContain(key);
	});

	it('gives as the status what was sent: the fault where no status line went out, else the status', () => {
		const status = (kind: string): string[] =>
			logLines()
				.filter((line) => line.endsWith(` fault=${kind}`))
				.map((line) => line.split(' ')[3] ?? '');
		for (const kind of ['reset', 'empty', 'garbage']) {
			expect(status(kind).length, kind).toBeGreaterThan(0);
			expect(new Set(status(kind)), kind).toEqual(new Set([kind]));
		}
		expect(new Set(status('slow-body'))).toEqual(new Set(['200']));
		expect(new Set(status('truncated'))).toEqual(new Set(['200']));
	});
});

describe('a request that asks for a fault', () => {
	it('without a usable key gets its 401 at once, whatever it asks', async () => {
		const response = await fetch(`${base}${USERS}?__fault=reset&__delay=30000`);
		expect(response.status).toBe(401);
	});

	it('for an unknown kind or an out-of-range delay gets a 422 naming it', async () => {
		for (const [prefer, named] of [
			['fault=boom', 'fault=boom'],
			['delay=30001', 'delay=30001'],
			['delay=9-3', 'delay=9-3'],
		]) {
			const { response, text } = await fetchUsers(prefer);
			expect(response?.status, prefer).toBe(422);
			expect(text).toContain(named);
		}
	});
});

describe('a mock told to stop while a delayed answer is on its way', () => {
	it('answers it when the delay ends within the drain, and cuts one past the deadline', async () => {
		const drainPort = await freePort();
		const draining = start(bin('node'), ['mock/cli.ts'], {
			env: { MOCK_PORT: String(drainPort) },
		});
		started.push(draining);
		await waitForUrl(`http://127.0.0.1:${drainPort}/healthz`, draining);
		const soon = exchange({ to: drainPort, target: `${USERS}?__delay=1500` });
		const late = exchange({ to: drainPort, target: `${USERS}?__delay=30000` });
		// A plain answer on a third connection: the two before it were accepted and read by then.
		const plain = await fetch(`http://127.0.0.1:${drainPort}${USERS}`, {
			headers: { Authorization: `Bearer ${key}` },
		});
		expect(plain.status).toBe(200);
		const exited = new Promise<number | null>((resolve) => draining.child.once('exit', resolve));
		if (draining.child.pid !== undefined) process.kill(draining.child.pid, 'SIGTERM');
		const answered = split((await soon).bytes);
		expect(answered.head).toMatch(/^HTTP\/1\.1 200 /);
		expect(JSON.parse(answered.body.toString('utf8'))).toHaveProperty('users');
		const cut = await late;
		expect(cut.bytes).toHaveLength(0);
		// Cut at the drain deadline (8 s after the signal), not answered after its 30 s.
		expect(cut.endedAfter).toBeGreaterThanOrEqual(8000 - TIMER_SLACK_MS);
		expect(await exited).toBe(0);
		// Received: the probe that saw it listening, the plain request and the two delayed ones.
		expect(draining.output()).toMatch(
			/answered 3 of the 4 requests it received; the connections of the others were cut/,
		);
	}, 30_000);
});
