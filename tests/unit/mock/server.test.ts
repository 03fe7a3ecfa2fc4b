/**
 * The mock's start, in this process: it listens before it reads its sources, so the probes
 * answer while they load, reads them once, and watches before it reads, so an edit made during
 * that reading is not missed. The source reader is the real one, counted and held by the test.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startMock } from '../../../mock/server.ts';
import { loadViews, type ViewEntry } from '../../../src/sources/fixtures.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import { copyFixtures } from '../../../support/fixtures.ts';
import { freePort } from '../../../support/processes.ts';
import { newView, save } from '../../support/fixture-edits.ts';

/** The loads the mock asked of its source reader, and a gate the test may hold the next one at. */
const reading = vi.hoisted(() => ({
	loads: 0,
	gate: undefined as Promise<void> | undefined,
}));

vi.mock('../../../mock/state.ts', async (importOriginal) => {
	const real = await importOriginal<typeof import('../../../mock/state.ts')>();
	return {
		...real,
		createSourceReader: (sources: Parameters<typeof real.createSourceReader>[0]) => {
			const reader = real.createSourceReader(sources);
			return {
				load: async () => {
					reading.loads += 1;
					const gate = reading.gate;
					reading.gate = undefined;
					await gate;
					return reader.load();
				},
			};
		},
	};
});

const USERS = '/api/v2/users';
let folder: string;
let viewsDir: string;
let contractFile: string;
let views: ViewEntry[];

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-mock-start-'));
	viewsDir = path.join(folder, 'views');
	contractFile = path.join(folder, 'openapi.yaml');
	await copyFixtures(viewsDir);
	await copyFile(readSettings({}).openApiFile, contractFile);
	views = await loadViews(viewsDir);
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

beforeEach(() => {
	reading.loads = 0;
	reading.gate = undefined;
});

/** A request for the users with a key. */
const users = (base: string, key: string) =>
	fetch(`${base}${USERS}`, { headers: { Authorization: `Bearer ${key}` } });

describe('the mock’s start', () => {
	it('reads its sources once', async () => {
		const running = await startMock({ port: 0, viewsDir, contractFile, watch: true });
		try {
			expect((await users(running.url, views[0]?.view.users[0]?.apiKey ?? '')).status).toBe(200);
			expect(reading.loads).toBe(1);
		} finally {
			await running.close();
		}
	});

	it('answers the probes while its sources load, and holds other requests until they have', async () => {
		let release = (): void => {};
		reading.gate = new Promise<void>((resolve) => (release = resolve));
		const port = await freePort();
		const mock = startMock({ port, viewsDir, contractFile, watch: true });
		const base = `http://127.0.0.1:${port}`;
		// Listening comes first: the probe answers as soon as the port is open.
		await vi.waitFor(async () => expect((await fetch(`${base}/healthz`)).status).toBe(200), {
			timeout: 10_000,
			interval: 20,
		});
		const ready = await fetch(`${base}/readyz`);
		expect(ready.status).toBe(503);
		expect(await ready.json()).toMatchObject({
			detail: 'The mock is not ready: it is still loading its sources.',
		});
		const held = users(base, views[0]?.view.users[0]?.apiKey ?? '');
		const early = await Promise.race([
			held.then(() => 'answered'),
			new Promise((resolve) => setTimeout(resolve, 300, 'held')),
		]);
		expect(early).toBe('held');
		release();
		expect((await held).status).toBe(200);
		expect((await fetch(`${base}/readyz`)).status).toBe(200);
		await (await mock).close();
	});

	it('answers an edit made while its sources were first read', async () => {
		let release = (): void => {};
		reading.gate = new Promise<void>((resolve) => (release = resolve));
		const mock = startMock({ port: 0, viewsDir, contractFile, watch: true });
		const template = views[0]?.view;
		if (!template) throw new Error('expected a fixture');
		const added = newView(template, 7);
		const file = path.join(viewsDir, 'qa-eu-west.json');
		// Once the first reading has begun (the reader was asked), the edit is made, then it ends.
		await vi.waitFor(() => expect(reading.loads).toBe(1));
		await save(file, JSON.stringify(added, null, 2));
		// Time for the watcher to see the save before the first reading ends.
		await new Promise((resolve) => setTimeout(resolve, 50));
		release();
		const running = await mock;
		try {
			await vi.waitFor(
				async () =>
					expect((await users(running.url, added.users[0]?.apiKey ?? '')).status).toBe(200),
				{ timeout: 5000, interval: 50 },
			);
		} finally {
			await running.close();
			await rm(file, { force: true });
		}
	});

	it('answers a request held during a first load that fails, and stops at once', async () => {
		let release = (): void => {};
		reading.gate = new Promise<void>((resolve) => (release = resolve));
		const port = await freePort();
		const missing = path.join(folder, 'no-such-contract.yaml');
		const mock = startMock({ port, viewsDir, contractFile: missing });
		const base = `http://127.0.0.1:${port}`;
		await vi.waitFor(async () => expect((await fetch(`${base}/healthz`)).status).toBe(200), {
			timeout: 10_000,
			interval: 20,
		});
		const held = users(base, views[0]?.view.users[0]?.apiKey ?? '');
		release();
		const started = performance.now();
		await expect(mock).rejects.toThrow('no-such-contract.yaml');
		expect((await held).status).toBe(503);
		expect(performance.now() - started).toBeLessThan(2000);
	});
});
