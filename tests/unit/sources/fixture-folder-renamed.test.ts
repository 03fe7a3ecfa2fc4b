/**
 * A fixture renamed or removed between the folder's listing and the look at its file, as an editor
 * or `git mv` does while the mock reloads: the file is gone, not broken. The listing is held by the
 * test (it names a file that is no longer there), so the race is met every time.
 */
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFixtureReader, loadViews } from '../../../src/sources/fixtures.ts';
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

beforeAll(async () => {
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
