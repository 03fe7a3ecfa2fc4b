/**
 * The view fixtures as the portal reads them: every file of the views folder through the view
 * schema and the cross-fixture rules, in file-name order, each named by its path from the working
 * folder. The views collection's loader and a build's pages read them the same way.
 */
import path from 'node:path';
import type { ViewEntry } from '../sources/fixtures.ts';
import { createFixtureReader, formatProblems } from '../sources/fixtures.ts';
import { shownPath } from '../sources/contract.ts';

/**
 * A reader of the views folder: each call reads what changed since the last and gives every view,
 * or throws one error that lists each file, field and expectation (and no stack to read past).
 */
export function viewFilesReader(folder: string): () => Promise<ViewEntry[]> {
	const reader = createFixtureReader(shownPath(folder));
	return async () => {
		const { result } = await reader.read();
		if (!result.ok) {
			const error = new Error(formatProblems(result.problems));
			error.stack = error.message;
			throw error;
		}
		return result.views.map(({ slug, file, view }) => ({
			slug,
			file: path.relative(process.cwd(), file),
			view,
		}));
	};
}
