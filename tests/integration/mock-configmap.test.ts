/**
 * The mock on a Kubernetes ConfigMap volume: the kubelet mounts the fixtures as links through a
 * `..data` link to a timestamped folder, and updates them by writing a new folder and renaming a
 * new `..data` link over the old one (its AtomicWriter), then removing the old folder. The mock
 * follows that swap as it follows an edit: new data is answered, broken data is reported and the
 * last good state kept, mended data is answered again. A real `mock/cli.ts` on such a folder.
 */
import {
	mkdir,
	mkdtemp,
	readdir,
	readFile,
	rename,
	rm,
	symlink,
	unlink,
	writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { View } from '../../src/schemas/view.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { bin, freePort, start, waitForUrl, type Started } from '../../support/processes.ts';
import { newView } from '../support/fixture-edits.ts';

const USERS = '/api/v2/users';
let folder: string;
let mount: string;
let mock: Started;
let base: string;
/** The fixtures as the repository has them, by file name. */
let fixtures: Map<string, string>;
let generation = 0;

/**
 * Writes a ConfigMap's data the way the kubelet does: a new timestamped folder holding the files,
 * a `..data_tmp` link to it renamed over `..data`, a link per file name through `..data` for any
 * name not yet linked, links of names no longer given removed, and the old folder removed.
 * Resolves to the time of the rename, when the new data took effect.
 */
async function updateConfigMap(files: Map<string, string>): Promise<number> {
	generation += 1;
	const stamped = `..2026_11_24_01_02_${String(generation).padStart(2, '0')}.${100 + generation}`;
	await mkdir(path.join(mount, stamped));
	for (const [name, text] of files) await writeFile(path.join(mount, stamped, name), text);
	const entries = await readdir(mount);
	const old = entries.find((entry) => entry.startsWith('..20') && entry !== stamped);
	await symlink(stamped, path.join(mount, '..data_tmp'));
	const swapped = performance.now();
	await rename(path.join(mount, '..data_tmp'), path.join(mount, '..data'));
	for (const name of files.keys()) {
		if (!entries.includes(name)) await symlink(path.join('..data', name), path.join(mount, name));
	}
	for (const name of entries.filter((entry) => !entry.startsWith('..') && !files.has(entry))) {
		await unlink(path.join(mount, name));
	}
	if (old) await rm(path.join(mount, old), { recursive: true });
	return swapped;
}

/** The users' names a key's view lists, or the status when it is not 200. */
async function namesFor(key: string): Promise<string[] | number> {
	const response = await fetch(`${base}${USERS}`, { headers: { Authorization: `Bearer ${key}` } });
	if (response.status !== 200) return response.status;
	const body = (await response.json()) as { users: { name: string }[] };
	return body.users.map(({ name }) => name);
}

/** Milliseconds from `since` until `check` holds; fails with what the mock printed if it never does. */
async function until(since: number, what: string, check: () => Promise<boolean>): Promise<number> {
	const deadline = Date.now() + 15_000;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${mock.output()}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	return performance.now() - since;
}

/** A fixture with its first user renamed. */
function renamed(text: string, name: string): string {
	const view = JSON.parse(text) as View;
	const [first, ...rest] = view.users;
	if (!first) throw new Error('expected a user');
	return JSON.stringify({ ...view, users: [{ ...first, name }, ...rest] }, null, 2);
}

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-configmap-'));
	mount = path.join(folder, 'views');
	await mkdir(mount);
	const source = readSettings({}).viewsDir;
	fixtures = new Map();
	for (const name of (await readdir(source)).filter((entry) => entry.endsWith('.json'))) {
		fixtures.set(name, await readFile(path.join(source, name), 'utf8'));
	}
	await updateConfigMap(fixtures);
	const port = await freePort();
	base = `http://127.0.0.1:${port}`;
	mock = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(port), PORTAL_VIEWS_DIR: mount, MOCK_LOG: 'off' },
	});
	await waitForUrl(`${base}${USERS}`, mock);
});

afterAll(async () => {
	await mock?.stop();
	await rm(folder, { recursive: true, force: true });
});

describe('a ConfigMap update', () => {
	const key = (): string => {
		const view = JSON.parse(fixtures.get('production.json') ?? '{}') as View;
		return view.users[0]?.apiKey ?? '';
	};
	const reloads: number[] = [];

	it('reads the fixtures through the ..data link', async () => {
		expect(await namesFor(key())).toContain('Amara Okafor');
	});

	it('is answered once the ..data link is swapped to new data', async () => {
		const next = new Map(fixtures);
		next.set('production.json', renamed(fixtures.get('production.json') ?? '', 'Quinn Swapped'));
		const swapped = await updateConfigMap(next);
		reloads.push(
			await until(swapped, 'the new data being answered', async () => {
				const names = await namesFor(key());
				return Array.isArray(names) && names.includes('Quinn Swapped');
			}),
		);
		await expect
			.poll(() => mock.output())
			.toContain('Mock reloaded: 8 views (changed production).');
	});

	it('keeps the last good state when the swap brings data that does not load, and says why', async () => {
		const broken = new Map(fixtures);
		broken.set('production.json', '{ "environment": ');
		await updateConfigMap(broken);
		await expect
			.poll(() => mock.output(), { timeout: 15_000 })
			.toContain(`Mock kept its last good state (8 views); this edit could not be loaded:`);
		expect(mock.output()).toContain(`${path.join(mount, 'production.json')}: expected valid JSON`);
		expect(await namesFor(key())).toContain('Quinn Swapped');
	});

	it('is answered again once a swap brings mended data, a new file with it', async () => {
		const mended = new Map(fixtures);
		mended.set('production.json', renamed(fixtures.get('production.json') ?? '', 'Quinn Mended'));
		const addedView = newView(JSON.parse(fixtures.get('production.json') ?? '{}') as View, 31);
		mended.set('qa-eu-west.json', JSON.stringify(addedView, null, 2));
		const swapped = await updateConfigMap(mended);
		reloads.push(
			await until(swapped, 'the mended data being answered', async () => {
				const names = await namesFor(key());
				return Array.isArray(names) && names.includes('Quinn Mended');
			}),
		);
		await expect
			.poll(async () => namesFor(addedView.users[0]?.apiKey ?? ''))
			.toEqual(addedView.users.map(({ name }) => name));
		console.log(
			`ConfigMap swap: answered ${reloads.map((ms) => `${Math.round(ms)} ms`).join(' and ')} after the ..data rename`,
		);
	});
});
