/**
 * The mock on every core: MOCK_WORKERS=2 serves from two node:cluster workers. Both answer, each
 * request has one whole line in the log, a fixture edit reaches both within 2 s, and SIGTERM to
 * the primary alone (as Kubernetes sends it to PID 1) drains both. A real `mock/cli.ts` on a
 * copy of the fixtures, stopped by process group.
 */
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, rename, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { copyFixtures } from '../../support/fixtures.ts';
import { freePort, start, bin, waitForUrl, type Started } from '../../support/processes.ts';
import { drainUnderLoad } from '../support/drain.ts';
import { newView, save } from '../support/fixture-edits.ts';

const USERS = '/api/v2/users';
let folder: string;
let viewsDir: string;
let views: ViewEntry[];
let key: string;
let mock: Started;
let port: number;

/** A request-log line as MOCK_LOG=json writes it, with the worker that answered. */
const loggedSchema = z.object({
	time: z.string(),
	method: z.string(),
	target: z.string(),
	status: z.number(),
	durationMs: z.number(),
	worker: z.number().int().min(1),
});

/** Every line the mock wrote, each parsed as JSON: a line cut or run into another fails. */
function outputLines(): unknown[] {
	return mock
		.output()
		.split('\n')
		.filter((line) => line !== '')
		.map((line, index) => {
			try {
				return JSON.parse(line) as unknown;
			} catch {
				// JSON.parse's own words add nothing to the line itself, shown whole below.
				throw new Error(`Line ${index + 1} of the mock's output is not whole JSON: ${line}`);
			}
		});
}

/** The request-log lines so far, by the `n` of their target. */
function loggedByN(): Map<number, z.infer<typeof loggedSchema>> {
	const byN = new Map<number, z.infer<typeof loggedSchema>>();
	for (const line of outputLines()) {
		const logged = loggedSchema.safeParse(line);
		const n = logged.success ? /[?&]n=(\d+)/.exec(logged.data.target)?.[1] : undefined;
		if (logged.success && n !== undefined) byN.set(Number(n), logged.data);
	}
	return byN;
}

/** One GET of the users with a key, on a new connection (Connection: close), so each may reach another worker. */
function ask(n: number, withKey: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const sent = httpRequest(
			{
				host: '127.0.0.1',
				port,
				path: `${USERS}?n=${n}`,
				agent: false,
				headers: { Authorization: `Bearer ${withKey}`, Connection: 'close' },
			},
			(response) => {
				response.resume();
				response.on('end', () => resolve(response.statusCode ?? 0));
			},
		);
		sent.on('error', reject);
		sent.end();
	});
}

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-workers-'));
	viewsDir = path.join(folder, 'views');
	const contractFile = path.join(folder, 'openapi.yaml');
	await copyFixtures(viewsDir);
	await copyFile(readSettings({}).openApiFile, contractFile);
	views = await loadViews(viewsDir);
	key = views[0]?.view.users[0]?.apiKey ?? '';
	port = await freePort();
	mock = start(bin('node'), ['mock/cli.ts'], {
		env: {
			MOCK_PORT: String(port),
			MOCK_WORKERS: '2',
			MOCK_LOG: 'json',
			PORTAL_VIEWS_DIR: viewsDir,
			PORTAL_OPENAPI: contractFile,
		},
	});
	await waitForUrl(`http://127.0.0.1:${port}${USERS}`, mock);
	// Said once every worker listens, which may be a moment after the first one answers.
	const deadline = Date.now() + 30_000;
	while (!mock.output().includes('Mock listening on') && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
});

afterAll(async () => {
	await mock?.stop();
	await rm(folder, { recursive: true, force: true });
});

describe('MOCK_WORKERS=2', () => {
	it('says it serves with two workers', () => {
		expect(outputLines()).toContainEqual({
			time: expect.any(String) as unknown,
			message: expect.stringMatching(
				new RegExp(`^Mock listening on http://127\\.0\\.0\\.1:${port} with 2 workers`),
			) as unknown,
		});
	});

	it('answers from both workers, and logs each request on one whole line', async () => {
		const total = 2000;
		let next = 0;
		const statuses: number[] = [];
		await Promise.all(
			Array.from({ length: 16 }, async () => {
				while (next < total) statuses.push(await ask((next += 1), key));
			}),
		);
		expect(statuses).toEqual(Array(total).fill(200));
		await expect.poll(() => loggedByN().size, { timeout: 15_000 }).toBe(total);
		const byN = loggedByN();
		const workers = new Set([...byN.values()].map(({ worker }) => worker));
		expect(workers.size).toBe(2);
		for (let n = 1; n <= total; n += 1) expect(byN.get(n)?.status).toBe(200);
	});

	it('brings a fixture edit to every worker within 2 s', async () => {
		const template = views[0]?.view;
		if (!template) throw new Error('expected a fixture');
		const added = newView(template, 21);
		const addedKey = added.users[0]?.apiKey ?? '';
		const file = path.join(viewsDir, 'qa-eu-west.json');
		const first = 100_000;
		const asked: { n: number; at: number; status: number }[] = [];
		const saved = performance.now();
		await save(file, JSON.stringify(added, null, 2));
		// Four at a time for 3.5 s, each on a new connection, so both workers get some.
		let n = first;
		await Promise.all(
			Array.from({ length: 4 }, async () => {
				while (performance.now() - saved < 3500) {
					const mine = (n += 1);
					const at = performance.now() - saved;
					asked.push({ n: mine, at, status: await ask(mine, addedKey) });
				}
			}),
		);
		await expect
			.poll(
				() => {
					const logged = loggedByN();
					return asked.every(({ n: each }) => logged.has(each));
				},
				{ timeout: 15_000 },
			)
			.toBe(true);
		const byN = loggedByN();
		const late = asked.filter(({ at }) => at > 2000);
		const lateWorkers = new Set(late.map(({ n: each }) => byN.get(each)?.worker));
		const firstNew = new Map<number, number>();
		for (const { n: each, at, status } of [...asked].sort((a, b) => a.at - b.at)) {
			const worker = byN.get(each)?.worker ?? 0;
			if (status === 200 && !firstNew.has(worker)) firstNew.set(worker, at);
		}
		console.log(
			`Fixture edit: each worker's first answer from the new state came ${[...firstNew]
				.sort(([a], [b]) => a - b)
				.map(([worker, at]) => `${Math.round(at)} ms (worker ${worker})`)
				.join(' and ')} after the save; ${asked.length} requests asked`,
		);
		expect(lateWorkers.size).toBe(2);
		expect(late.filter(({ status }) => status !== 200)).toEqual([]);
		await rm(file);
	});

	it('says nothing but its reloads while a fixture is renamed back and forth, never that a file cannot be read', async () => {
		const messages = (): string[] =>
			outputLines().flatMap((line) => {
				const said = z.object({ message: z.string() }).safeParse(line);
				return said.success ? [said.data.message] : [];
			});
		const before = messages().length;
		const named = path.join(viewsDir, 'dr-eu-west.json');
		const renamed = path.join(viewsDir, 'dr-eu-west-renamed.json');
		const renames = 30;
		for (let index = 0; index < renames; index += 1) {
			const [from, to] = index % 2 === 0 ? [named, renamed] : [renamed, named];
			await rename(from, to);
			// Around the watcher's settling time (100 ms), so some reloads run while a rename lands.
			await new Promise((resolve) => setTimeout(resolve, 60 + (index % 4) * 25));
		}
		// The last rename put the file back: its view answers again from both workers.
		const drKey = views.find(({ slug }) => slug === 'dr-eu-west')?.view.users[0]?.apiKey ?? '';
		await expect.poll(() => ask(900_000, drKey), { timeout: 10_000 }).toBe(200);
		await new Promise((resolve) => setTimeout(resolve, 500));
		const said = messages().slice(before);
		expect(said.filter((message) => !message.startsWith('Mock reloaded:'))).toEqual([]);
		expect(said.length).toBeGreaterThan(0);
		expect(said.length).toBeLessThanOrEqual(renames);
	});

	it('replaces a worker that dies, and goes on answering from both', async () => {
		const primary = mock.child.pid ?? 0;
		const children = (): number[] =>
			readFileSync(`/proc/${primary}/task/${primary}/children`, 'utf8')
				.trim()
				.split(/\s+/)
				.filter(Boolean)
				.map(Number);
		const [victim] = children();
		if (victim === undefined) throw new Error('expected the primary to have workers');
		process.kill(victim, 'SIGKILL');
		await expect
			.poll(() => mock.output(), { timeout: 15_000 })
			.toMatch(/Mock worker \d+ stopped \(SIGKILL\); starting another\./);
		await expect.poll(() => children().length, { timeout: 30_000 }).toBe(2);
		expect(children()).not.toContain(victim);
		// The new worker answers too: requests on new connections reach both again.
		const first = 200_000;
		await expect
			.poll(
				async () => {
					const asked = await Promise.all(
						Array.from({ length: 20 }, (_, index) => ask(first + index, key)),
					);
					const byN = loggedByN();
					return (
						asked.every((status) => status === 200) &&
						new Set(asked.map((_, index) => byN.get(first + index)?.worker)).size === 2
					);
				},
				{ timeout: 30_000, interval: 500 },
			)
			.toBe(true);
	});

	it('drains both workers when SIGTERM reaches the primary alone, and exits 0 within 10 s', async () => {
		const run = await drainUnderLoad(mock, port, key, 32, 2000, true);
		const answered = run.statuses.get(200) ?? 0;
		console.log(
			`Drain with 2 workers: ${answered} answered, ${run.lost.length} lost, ${run.refused} connections refused after the signal; exit ${run.exitCode} after ${Math.round(run.exitMs)} ms`,
		);
		expect(run.lost).toEqual([]);
		expect([...run.statuses.keys()]).toEqual([200]);
		expect(run.refused).toBe(32);
		expect(run.exitCode).toBe(0);
		expect(run.exitMs).toBeLessThan(10_000);
		expect(outputLines()).toContainEqual({
			time: expect.any(String) as unknown,
			message: expect.stringMatching(
				/^Mock stopped: answered all \d+ requests it received\.$/,
			) as unknown,
		});
	});
});
