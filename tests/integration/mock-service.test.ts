/**
 * The mock as a service, as a container or a Kubernetes pod runs it: the address it binds
 * (MOCK_HOST), its probes (/healthz, /readyz), its JSON request log (MOCK_LOG=json), and how it
 * stops on SIGTERM (drained: every request it received is answered). Real `mock/cli.ts`
 * processes on loopback, stopped by process group.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
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
