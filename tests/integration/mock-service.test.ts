/**
 * The mock as a service, as a container or a Kubernetes pod runs it: the address it binds
 * (MOCK_HOST), its probes (/healthz, /readyz), its JSON request log (MOCK_LOG=json), and how it
 * stops on SIGTERM (drained: every request it received is answered). Real `mock/cli.ts`
 * processes on loopback, stopped by process group.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { drainUnderLoad } from '../support/drain.ts';
import { save } from '../support/fixture-edits.ts';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';

const USERS = '/api/v2/users';
let views: ViewEntry[];
let key: string;
const started: Started[] = [];

/** Starts `npm run mock`'s code with some settings, remembered for the clean-up. */
function startMock(env: NodeJS.ProcessEnv): Started {
	const mock = start(bin('node'), ['mock/cli.ts'], { env });
	started.push(mock);
	return mock;
}

beforeAll(async () => {
	views = await loadViews(path.join(ROOT, 'content/views'));
	key = views[0]?.view.users[0]?.apiKey ?? '';
});

afterAll(async () => {
	await Promise.all(started.map((mock) => mock.stop()));
});

describe('MOCK_HOST', () => {
	it('binds the address it names, and no other', async () => {
		const port = await freePort();
		const mock = startMock({ MOCK_PORT: String(port), MOCK_HOST: '::1' });
		await waitForUrl(`http://[::1]:${port}${USERS}`, mock);
		const response = await fetch(`http://[::1]:${port}${USERS}`, {
			headers: { Authorization: `Bearer ${key}` },
		});
		expect(response.status).toBe(200);
		await expect(fetch(`http://127.0.0.1:${port}${USERS}`)).rejects.toMatchObject({
			cause: { code: 'ECONNREFUSED' },
		});
		await expect.poll(() => mock.output()).toContain(`Mock listening on http://[::1]:${port}`);
	});

	it('refuses an address that is not one, with one clear line', async () => {
		const mock = startMock({ MOCK_HOST: 'mock.intranet.example' });
		const code = await new Promise<number | null>((resolve) =>
			mock.child.once('exit', (exitCode) => resolve(exitCode)),
		);
		expect(code).toBe(1);
		expect(mock.output()).toContain(
			'MOCK_HOST: expected an IP address to listen on, such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface), without port or brackets; "mock.intranet.example" is not one',
		);
		expect(mock.output()).not.toMatch(/\n\s+at /);
	});
});

describe('MOCK_LOG=json', () => {
	it('writes one JSON object per request, with the logfmt line’s fields and never a key', async () => {
		const port = await freePort();
		const base = `http://127.0.0.1:${port}`;
		const mock = startMock({ MOCK_PORT: String(port), MOCK_LOG: 'json' });
		await waitForUrl(`${base}${USERS}`, mock);
		const holder = views[0]?.view.users[0];
		await fetch(`${base}${USERS}?n=1`, { headers: { Authorization: `Bearer ${key}` } });
		await fetch(`${base}${USERS}?n=2&token=${key.replaceAll('-', '%2D')}`);
		const lines = (): unknown[] =>
			mock
				.output()
				.split('\n')
				.filter((line) => line !== '')
				.map((line) => JSON.parse(line) as unknown);
		await expect.poll(() => lines().length).toBeGreaterThanOrEqual(3);
		const logged = lines();
		expect(logged).toContainEqual({
			time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown,
			method: 'GET',
			target: `${USERS}?n=1`,
			status: 200,
			durationMs: expect.any(Number) as unknown,
			view: views[0]?.slug,
			user: holder?.name,
			role: holder?.role,
		});
		expect(logged).toContainEqual({
			time: expect.any(String) as unknown,
			method: 'GET',
			target: `${USERS}?n=2&token=<key>`,
			status: 401,
			durationMs: expect.any(Number) as unknown,
			refused: 'no Authorization header',
		});
		// The messages are objects too, so a collector reads every line.
		expect(logged).toContainEqual({
			time: expect.any(String) as unknown,
			message: expect.stringContaining(`Mock listening on ${base}`) as unknown,
		});
		expect(mock.output()).not.toContain(key.split('-')[1]);
	});
});

/** A GET with a Host header of the test's choosing, as a kubelet's probe names the pod's address. */
function probeAs(
	port: number,
	target: string,
	host: string,
): Promise<{ status: number; body: string }> {
	return new Promise((resolve, reject) => {
		const sent = httpRequest(
			{ host: '127.0.0.1', port, path: target, headers: { Host: host }, agent: false },
			(response) => {
				let body = '';
				response.on('data', (chunk: Buffer) => (body += chunk.toString()));
				response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
			},
		);
		sent.on('error', reject);
		sent.end();
	});
}

describe('the probes', () => {
	it('answer a kubelet, which names the pod’s address as Host, and are not logged unless asked', async () => {
		const port = await freePort();
		const base = `http://127.0.0.1:${port}`;
		const mock = startMock({ MOCK_PORT: String(port) });
		await waitForUrl(`${base}${USERS}`, mock);
		const kubelet = `192.0.2.10:${port}`;
		expect(await probeAs(port, '/healthz', kubelet)).toEqual({
			status: 200,
			body: '{"status":"serving"}',
		});
		expect(await probeAs(port, '/readyz', kubelet)).toEqual({
			status: 200,
			body: '{"status":"ready"}',
		});
		// Anything else under that Host is refused as before.
		expect((await probeAs(port, USERS, kubelet)).status).toBe(403);
		await fetch(`${base}${USERS}?after-the-probes`);
		await expect.poll(() => mock.output()).toContain('?after-the-probes');
		expect(mock.output()).not.toMatch(/healthz|readyz/);
	});

	it('are logged with MOCK_LOG_PROBES=on', async () => {
		const port = await freePort();
		const base = `http://127.0.0.1:${port}`;
		const mock = startMock({ MOCK_PORT: String(port), MOCK_LOG_PROBES: 'on' });
		await waitForUrl(`${base}${USERS}`, mock);
		await fetch(`${base}/healthz`);
		await fetch(`${base}/readyz`);
		// Each line is written with its batch, which may come a moment after the other's: wait for both.
		await expect.poll(() => mock.output()).toMatch(/ GET \/healthz 200 [\d.]+ms\n/);
		await expect.poll(() => mock.output()).toMatch(/ GET \/readyz 200 [\d.]+ms\n/);
	});

	it('say not ready while the contract is broken at start, and ready once it is mended', async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-not-ready-'));
		try {
			const contractFile = path.join(folder, 'openapi.yaml');
			await copyFile(readSettings({}).openApiFile, contractFile);
			const original = await readFile(contractFile, 'utf8');
			await save(contractFile, `${original}\npaths: [\n`);
			const port = await freePort();
			const base = `http://127.0.0.1:${port}`;
			const mock = startMock({ MOCK_PORT: String(port), PORTAL_OPENAPI: contractFile });
			await waitForUrl(`${base}/healthz`, mock);
			await expect.poll(() => mock.output()).toContain('Mock waiting for its sources to load');
			expect((await fetch(`${base}/healthz`)).status).toBe(200);
			const ready = await fetch(`${base}/readyz`);
			expect(ready.status).toBe(503);
			expect(ready.headers.get('content-type')).toBe('application/problem+json');
			expect(await ready.json()).toMatchObject({ status: 503 });
			const users = await fetch(`${base}${USERS}`, { headers: { Authorization: `Bearer ${key}` } });
			expect(users.status).toBe(503);
			expect(await users.text()).toContain('openapi.yaml: expected valid YAML');
			await save(contractFile, original);
			await expect
				.poll(async () => (await fetch(`${base}/readyz`)).status, { timeout: 15_000 })
				.toBe(200);
			const mended = await fetch(`${base}${USERS}`, {
				headers: { Authorization: `Bearer ${key}` },
			});
			expect(mended.status).toBe(200);
			expect(mock.child.exitCode).toBeNull();
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});
});

describe('SIGTERM', () => {
	it('drains under load: every request received is answered, none lost, and the mock exits 0 within 10 s', async () => {
		const port = await freePort();
		const mock = startMock({ MOCK_PORT: String(port) });
		await waitForUrl(`http://127.0.0.1:${port}${USERS}`, mock);
		const run = await drainUnderLoad(mock, port, key, 32, 2000);
		const answered = run.statuses.get(200) ?? 0;
		console.log(
			`Drain: ${answered} answered (${[...run.statuses].map(([status, count]) => `${count} × ${status}`).join(', ')}), ${run.lost.length} lost, ${run.refused} connections refused after the signal; exit ${run.exitCode} after ${Math.round(run.exitMs)} ms`,
		);
		expect(run.lost).toEqual([]);
		expect([...run.statuses.keys()]).toEqual([200]);
		expect(answered).toBeGreaterThan(2000);
		// Every client ended on a refused connection: none was cut with a request on it.
		expect(run.refused).toBe(32);
		expect(run.exitCode).toBe(0);
		expect(run.exitMs).toBeLessThan(10_000);
		// The mock's own count: every request it received was answered, and each has its line.
		const logged = mock.output().match(/ GET \/api\/v2\/users\?n=\d+ 200 /g) ?? [];
		expect(logged).toHaveLength(answered);
		expect(mock.output()).toMatch(/Mock stopped: answered all \d+ requests it received\./);
	});
});
