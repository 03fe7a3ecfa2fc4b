/**
 * A fixture renamed or removed between the folder's listing and the look at its file, as an editor
 * or `git mv` does while the mock reloads: the file is gone, not broken. The listing is held by the
 * test (it names a file that is no longer there), so the race is met every time.
 */
import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readSettings } from '../../../src/sources/settings.ts';
import { copyFixtures } from '../../../support/fixtures.ts';

/** Names the next listing of the folder adds, as if they were there when it was read. */
const listing = vi.hoisted(() => ({ gone: [] as string[] }));

vi.mock('node:fs/promises', async (importOriginal) => {
	const real = await importOriginal<typeof import('node:fs/promises')>();
	return {
		...real,
		readdir: async (folder: string, options?: { withFileTypes?: boolean }) => {
			if (!options?.withFileTypes) return [...(await real.readdir(folder)), ...listing.gone];
			// Listed as the regular files they were when the folder was read.
			const gone = listing.gone.map((name) => ({ name, isFile: () => true }));
			return [...(await real.readdir(folder, { withFileTypes: true })), ...gone];
		},
	};
});

let folder: string;
let viewsDir: string;
let createFixtureReader: typeof import('../../../src/sources/fixtures.ts').createFixtureReader;
let loadViews: typeof import('../../../src/sources/fixtures.ts').loadViews;

beforeAll(async () => {
	// Loaded afresh, so that it lists folders through the readdir above even where the test files
	// share one module graph (the mutation run's) and another file loaded the reader first.
	vi.resetModules();
	({ createFixtureReader, loadViews } = await import('../../../src/sources/fixtures.ts'));
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-renamed-'));
	viewsDir = path.join(folder, 'views');
	await copyFixtures(viewsDir);
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe('a fixture gone between the listing and the look at it', () => {
	it('is left out as removed, not refused as unreadable (ENOENT), so a rename makes no problem', async () => {
		const expected = (await loadViews(readSettings({}).viewsDir)).map(({ slug }) => slug);
		const reader = createFixtureReader(viewsDir);
		listing.gone = ['staging-renamed.json'];
		const { result, stamps } = await reader.read();
		listing.gone = [];
		expect('problems' in result ? result.problems : []).toEqual([]);
		expect(result.ok).toBe(true);
		expect(result.views.map(({ slug }) => slug)).toEqual(expected);
		expect([...stamps.keys()]).not.toContain(path.join(viewsDir, 'staging-renamed.json'));
	});

	it('says a folder whose every listed fixture is gone holds no fixture, with no stamp', async () => {
		const empty = path.join(folder, 'emptied');
		await mkdir(empty);
		const reader = createFixtureReader(empty);
		listing.gone = ['production.json', 'staging-eu-west.json'];
		const { result, stamps } = await reader.read();
		listing.gone = [];
		expect(result).toEqual({
			ok: false,
			views: [],
			problems: [{ file: empty, field: '', message: 'expected at least one <slug>.json fixture' }],
		});
		expect(stamps.size).toBe(0);
	});

	it('still refuses a link whose target is gone, which stays in the folder', async () => {
		await symlink('nowhere.json', path.join(viewsDir, 'dangling.json'));
		try {
			const { result } = await createFixtureReader(viewsDir).read();
			expect(result.ok).toBe(false);
			expect('problems' in result ? result.problems : []).toEqual([
				{
					file: path.join(viewsDir, 'dangling.json'),
					field: '',
					message:
						'expected a link to a file inside the views folder, but what it leads to does not exist',
				},
			]);
		} finally {
			await rm(path.join(viewsDir, 'dangling.json'));
		}
	});
});
