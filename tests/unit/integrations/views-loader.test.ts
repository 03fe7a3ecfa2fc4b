/**
 * The views collection's loader: the dev server's collection holds every view, and a build's holds
 * none (Astro would write them all into one module the build bundles and keeps), its pages taking
 * the views the loader read instead.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { LoaderContext } from 'astro/loaders';
import { viewsLoader } from '../../../src/integrations/views-loader.ts';
import { viewsOfBuild } from '../../../src/site/view-files.ts';
import { loadViews } from '../../../src/sources/fixtures.ts';
import { readSettings } from '../../../src/sources/settings.ts';

const folder = readSettings({}).viewsDir;

/** What the loader is given: a store that records its calls, and a watcher for the dev server. */
function fakeContext(dev: boolean) {
	const store = { clear: vi.fn(), set: vi.fn((_entry: { id: string }) => true) };
	const watcher = { add: vi.fn(), on: vi.fn() };
	const logger = { error: vi.fn() };
	const context = {
		store,
		logger,
		watcher: dev ? watcher : undefined,
		generateDigest: (data: unknown) => JSON.stringify(data).length.toString(16),
	};
	// Only the fields the loader reads: the rest of Astro's context plays no part here.
	return { context: context as unknown as LoaderContext, store, watcher };
}

describe('the views loader', () => {
	it('gives the dev server every view in the collection, watching the folder', async () => {
		const views = await loadViews(folder);
		const { context, store, watcher } = fakeContext(true);
		await viewsLoader(folder).load(context);
		expect(store.clear).toHaveBeenCalledOnce();
		expect(store.set.mock.calls.map(([entry]) => entry.id)).toEqual(views.map(({ slug }) => slug));
		expect(watcher.add).toHaveBeenCalledWith(folder);
	});

	it("keeps a build's views out of the collection, emptying one an earlier build left, and hands them to its pages", async () => {
		const views = await loadViews(folder);
		const copy = await mkdtemp(path.join(os.tmpdir(), 'console-portal-views-loader-'));
		try {
			await cp(folder, copy, { recursive: true });
			const { context, store } = fakeContext(false);
			await viewsLoader(copy).load(context);
			expect(store.clear).toHaveBeenCalledOnce();
			expect(store.set).not.toHaveBeenCalled();
			// The folder is gone once the loader has read it: the pages get what it read, not a
			// second reading.
			await rm(copy, { recursive: true, force: true });
			const handed = await viewsOfBuild(copy);
			expect(handed.map(({ slug }) => slug)).toEqual(views.map(({ slug }) => slug));
			expect(handed[0]?.view).toEqual(views[0]?.view);
			// Taken once: a later call reads the folder, here gone, and says so.
			await expect(viewsOfBuild(copy)).rejects.toThrow(/cannot be read/);
		} finally {
			await rm(copy, { recursive: true, force: true });
		}
	});
});
