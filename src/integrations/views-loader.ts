/**
 * The content loader of the `views` collection: reads every fixture in the views folder
 * through the view schema and the cross-fixture rules (the fixture reader the mock uses too),
 * and fails the build with one message that names each file, field and expectation. In the dev
 * server an edit that breaks a fixture keeps the last good views and shows the message on every
 * page, as Astro's error overlay.
 */
import path from 'node:path';
import type { Loader } from 'astro/loaders';
import { shownPath } from '../sources/contract.ts';
import { setFixtureProblems } from '../site/fixture-status.ts';
import { serially } from '../shared/serially.ts';
import { createFixtureReader, formatProblems } from '../sources/fixtures.ts';
import { viewSchema } from '../schemas/view.ts';

/** Loads the view fixtures of `folder` into the collection, keyed by slug. */
export function viewsLoader(folder: string): Loader {
	return {
		name: 'console-views',
		schema: viewSchema,
		load: async (context) => {
			const { store, watcher, logger } = context;
			// One reader for the dev server's life: an edit parses again only the files it changed.
			const reader = createFixtureReader(shownPath(folder));
			/** Reads the folder; throws the problems, naming each file and field. */
			const read = async () => {
				const { result } = await reader.read();
				if (!result.ok) {
					const error = new Error(formatProblems(result.problems));
					error.stack = error.message;
					throw error;
				}
				return result.views;
			};
			const fill = (views: Awaited<ReturnType<typeof read>>, mark = ''): void => {
				store.clear();
				for (const { slug, file, view } of views) {
					store.set({
						id: slug,
						data: view,
						filePath: path.relative(process.cwd(), file),
						digest: `${context.generateDigest(view)}${mark}`,
					});
				}
			};
			let good: Awaited<ReturnType<typeof read>> = [];
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
