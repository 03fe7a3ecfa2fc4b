/**
 * Two builds at once, of different fixtures, as test files running side by side make them: each
 * gets its own views. Astro writes the collections' data store into its cache folder and reads it
 * back later in the same build; in one shared folder, the build that wrote last gave the other
 * its fixtures (a 200-view build came out with the pages of another set), so each build has its
 * own (PORTAL_BUILD_CACHE_DIR, support/build.ts).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildPortalAsync, type BuildResult } from '../../support/build.ts';
import { ROOT } from '../../support/processes.ts';
import { writeViewSet } from '../../support/view-sets.ts';
import { loadViews } from '../../src/sources/fixtures.ts';

let folder: string;
const built: { own: BuildResult; generated: BuildResult } = {
	own: { status: null, output: '' },
	generated: { status: null, output: '' },
};

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-side-by-side-'));
	await writeViewSet(path.join(folder, 'views'), 30);
	[built.own, built.generated] = await Promise.all([
		buildPortalAsync(path.join(folder, 'dist-own'), path.join(ROOT, 'content', 'views')),
		buildPortalAsync(path.join(folder, 'dist-generated'), path.join(folder, 'views')),
	]);
}, 600_000);

afterAll(async () => {
	if (folder) await rm(folder, { recursive: true, force: true });
});

/** The view pages a build made: the folders under views/. */
async function viewPages(dist: string): Promise<string[]> {
	const entries = await readdir(path.join(folder, dist, 'views'), { withFileTypes: true });
	return entries
		.filter((entry) => entry.isDirectory())
		.map((entry) => entry.name)
		.sort();
}

it('gives each of two builds made at once the pages of its own fixtures', async () => {
	expect(built.own.status, built.own.output).toBe(0);
	expect(built.generated.status, built.generated.output).toBe(0);
	const own = (await loadViews(path.join(ROOT, 'content', 'views'))).map(({ slug }) => slug);
	const generated = (await loadViews(path.join(folder, 'views'))).map(({ slug }) => slug);
	expect(await viewPages('dist-own')).toEqual(own.sort());
	expect(await viewPages('dist-generated')).toEqual(generated.sort());
});
