/**
 * The content loader of the `views` collection: reads every fixture in the views folder
 * through the view schema and the cross-fixture rules, and fails the build with one message
 * that names each file, field and expectation.
 */
import path from 'node:path';
import type { Loader } from 'astro/loaders';
import { formatProblems, readFixtureFolder } from '../schemas/fixtures.ts';
import { viewSchema } from '../schemas/view.ts';

/** Loads the view fixtures of `folder` into the collection, keyed by slug. */
export function viewsLoader(folder: string): Loader {
	return {
		name: 'console-views',
		schema: viewSchema,
		load: async (context) => {
			const relative = path.relative(process.cwd(), folder);
			const shownFolder = relative && !relative.startsWith('..') ? relative : folder;
			const { store, watcher, logger } = context;
			const sync = async (): Promise<void> => {
				const result = await readFixtureFolder(shownFolder);
				if (!result.ok) {
					// The message names every file and field; a stack trace into the loader adds nothing.
					const error = new Error(formatProblems(result.problems));
					error.stack = error.message;
					throw error;
				}
				store.clear();
				for (const { slug, file, view } of result.views) {
					store.set({
						id: slug,
						data: view,
						filePath: path.relative(process.cwd(), file),
						digest: context.generateDigest(view),
					});
				}
			};
			await sync();
			watcher?.add(folder);
			watcher?.on('all', (_event, changed) => {
				if (!changed.startsWith(folder) || !changed.endsWith('.json')) return;
				sync().catch((error: unknown) => {
					logger.error(error instanceof Error ? error.message : String(error));
				});
			});
		},
	};
}
