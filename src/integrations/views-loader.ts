/**
 * The content loader of the `views` collection: reads every fixture in the views folder
 * through the view schema and the cross-fixture rules (the fixture reader the mock uses too),
 * and fails the build with one message that names each file, field and expectation. In the dev
 * server an edit that breaks a fixture keeps the last good views and shows the message on every
 * page, as Astro's error overlay.
 *
 * Only the dev server keeps the views in the collection, where a changed entry tells the pages to
 * reload. A build reads and checks them here and hands them to its pages (`site/view-files.ts`):
 * Astro writes a collection's entries into one module that the build bundles and loads whole,
 * which at 10,000 views held 90 MB of text beside the views themselves for the whole build.
 */
import type { Loader } from 'astro/loaders';
import { setFixtureProblems } from '../site/fixture-status.ts';
import { handViewsToPages, viewFilesReader } from '../site/view-files.ts';
import { serially } from '../shared/serially.ts';
import type { ViewEntry } from '../sources/fixtures.ts';
import { viewSchema } from '../schemas/view.ts';

/** Loads the view fixtures of `folder` into the collection, keyed by slug. */
export function viewsLoader(folder: string): Loader {
	return {
		name: 'console-views',
		schema: viewSchema,
		load: async (context) => {
			const { store, watcher, logger } = context;
			// One reader for the dev server's life: an edit parses again only the files it changed.
			const read = viewFilesReader(folder);
			const fill = (views: readonly ViewEntry[], mark = ''): void => {
				store.clear();
				// A build's views go to its pages directly; a store left by an earlier build is
				// emptied, so that none of it is written into the build.
				if (!watcher) {
					handViewsToPages(views);
					return;
				}
				for (const { slug, file, view } of views) {
					store.set({
						id: slug,
						data: view,
						filePath: file,
						digest: `${context.generateDigest(view)}${mark}`,
					});
				}
			};
			let good: ViewEntry[] = [];
			try {
				good = await read();
				setFixtureProblems(undefined);
			} catch (error) {
				// The build stops here; the dev server starts, and every page shows the problem.
				if (!watcher) throw error;
				const message = error instanceof Error ? error.message : String(error);
				logger.error(message);
				setFixtureProblems(message);
			}
			fill(good);
			watcher?.add(folder);
			let failures = 0;
			// One read at a time, so an older read never lands after a newer one.
			const reread = serially(() =>
				read().then(
					(views) => {
						good = views;
						setFixtureProblems(undefined);
						fill(views);
					},
					(error: unknown) => {
						const message = error instanceof Error ? error.message : String(error);
						logger.error(message);
						setFixtureProblems(message);
						// The same views under new digests: the store changes, so the browser reloads
						// and the page shows the problems instead of staying on the last good page.
						failures += 1;
						fill(good, `-broken-${failures}`);
					},
				),
			);
			watcher?.on('all', (_event, changed) => {
				if (changed.startsWith(folder) && changed.endsWith('.json')) reread();
			});
		},
	};
}
