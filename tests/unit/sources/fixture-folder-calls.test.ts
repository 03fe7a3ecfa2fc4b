/**
 * What reading a fixture folder asks of the file system. At a start every file is new, and one the
 * listing gives as a regular file is opened at once, its stamp taken once open: no look at it
 * first. A link or a named pipe is looked at and never opened by its own name; a file read before
 * is looked at, and read again only when its stamp changed. An entry the listing gives as a
 * regular file that is something else once open (swapped since) is refused as a look at it
 * refuses it.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { View } from '../../../src/schemas/view.ts';
import { ROOT } from '../../../support/processes.ts';
import { newView } from '../../support/fixture-edits.ts';

/** The paths given to lstat and open, and whether the next listing calls every entry a file. */
const seen = vi.hoisted(() => ({ lstat: [] as string[], open: [] as string[], allFiles: false }));

vi.mock('node:fs', async (importOriginal) => {
	const real = await importOriginal<typeof import('node:fs')>();
	const lstatSync = ((file: string, options?: object) => {
		seen.lstat.push(String(file));
		return real.lstatSync(file, options);
	}) as typeof real.lstatSync;
	const openSync = ((file: string, flags: number) => {
		seen.open.push(String(file));
		return real.openSync(file, flags);
	}) as typeof real.openSync;
	return { ...real, lstatSync, openSync };
});

vi.mock('node:fs/promises', async (importOriginal) => {
	const real = await importOriginal<typeof import('node:fs/promises')>();
	const readdir = async (folder: string, options?: { withFileTypes?: boolean }) => {
		if (!options?.withFileTypes) return real.readdir(folder);
		const entries = await real.readdir(folder, { withFileTypes: true });
		if (!seen.allFiles) return entries;
		// Each entry as the regular file it was when the folder was listed.
		return entries.map(({ name }) => ({ name, isFile: () => true }));
	};
	return { ...real, readdir };
});

const production = JSON.parse(
	await readFile(path.join(ROOT, 'content/views/production.json'), 'utf8'),
) as View;

let scratch: string;
let createFixtureReader: typeof import('../../../src/sources/fixtures.ts').createFixtureReader;

beforeAll(async () => {
	// Loaded afresh, so that it calls the file system through the mocks above even where the test
	// files share one module graph (the mutation run's) and another file loaded the reader first.
	vi.resetModules();
	({ createFixtureReader } = await import('../../../src/sources/fixtures.ts'));
	scratch = await realpath(await mkdtemp(path.join(os.tmpdir(), 'console-portal-calls-')));
});

afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

beforeEach(() => {
	seen.lstat.length = 0;
	seen.open.length = 0;
	seen.allFiles = false;
});

/**
 * A views folder of two views, a link to a third kept in a subfolder, a named pipe, a folder and a
 * file over 1 MiB, each named `*.json`.
 */
async function hostileFolder(name: string): Promise<string> {
	const views = path.join(scratch, name);
	await mkdir(path.join(views, 'kept'), { recursive: true });
	for (const [index, slug] of ['alpha', 'bravo', 'charlie'].entries()) {
		const view = { ...newView(production, index + 1, `Quinn ${slug}`), environment: `qa-${slug}` };
		const file = slug === 'charlie' ? path.join('kept', 'charlie.view') : `${slug}.json`;
		await writeFile(path.join(views, file), JSON.stringify(view));
	}
	await symlink(path.join('kept', 'charlie.view'), path.join(views, 'charlie.json'));
	execFileSync('mkfifo', [path.join(views, 'pipe.json')]);
	await mkdir(path.join(views, 'shelf.json'));
	await writeFile(path.join(views, 'zulu.json'), Buffer.alloc(1024 * 1024 + 1));
	return views;
}

/** The calls made on a folder's `*.json` entries (not on a link's target), by file name. */
function namesIn(folder: string, calls: readonly string[]): string[] {
	return calls.filter((file) => path.dirname(file) === folder).map((file) => path.basename(file));
}

describe('reading a fixture folder', () => {
	it('opens each regular file at a start without looking at it first, and never opens a link or a named pipe by its name', async () => {
		const views = await hostileFolder('start');
		const reader = createFixtureReader(views);
		const first = await reader.read();
		expect(first.result.views.map(({ slug }) => slug)).toEqual(['alpha', 'bravo', 'charlie']);
		// The file over 1 MiB is opened, then looked at, so that its refusal is a look's.
		expect(namesIn(views, seen.lstat).sort()).toEqual([
			'charlie.json',
			'pipe.json',
			'shelf.json',
			'zulu.json',
		]);
		expect(namesIn(views, seen.open).sort()).toEqual(['alpha.json', 'bravo.json', 'zulu.json']);

		// Read again, nothing changed: every entry is looked at, and nothing is opened.
		seen.lstat.length = 0;
		seen.open.length = 0;
		const second = await reader.read();
		expect(second.stamps).toEqual(first.stamps);
		expect(second.result.views[0]).toBe(first.result.views[0]);
		expect(namesIn(views, seen.lstat).sort()).toEqual([
			'alpha.json',
			'bravo.json',
			'charlie.json',
			'pipe.json',
			'shelf.json',
			'zulu.json',
		]);
		expect(namesIn(views, seen.open)).toEqual([]);
	});

	it('refuses an entry listed as a regular file but something else once opened as a look at it does', async () => {
		const views = await hostileFolder('swapped');
		const asListed = await createFixtureReader(views).read();
		seen.allFiles = true;
		const asSwapped = await createFixtureReader(views).read();
		expect(asSwapped).toEqual(asListed);
		expect(
			asSwapped.result.ok ? [] : asSwapped.result.problems.map(({ message }) => message),
		).toEqual([
			'expected a regular file, but this is a named pipe (FIFO)',
			'expected a regular file, but this is a folder',
			'expected a file of at most 1 MiB (1048576 bytes), but this one has 1048577 bytes',
		]);
	});
});
