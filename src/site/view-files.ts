/**
 * The view fixtures as the portal reads them: every file of the views folder through the view
 * schema and the cross-fixture rules, in file-name order, each named by its path from the working
 * folder. The views collection's loader reads them; in a build it hands what it read to the pages,
 * which read the folder themselves only when nothing was handed (each input is read once per
 * build). Handed on globalThis, as `fixture-status.ts` does: the loader and the pages run in
 * different module instances of one process.
 */
import path from 'node:path';
import { createFixtureReader, formatProblems, type ViewEntry } from '../sources/fixtures.ts';
import { shownPath } from '../sources/contract.ts';

const KEY = Symbol.for('console-portal.views-read');

/** The shared slot: the views a build's loader read, until the pages take them. */
const slot = globalThis as { [KEY]?: readonly ViewEntry[] | undefined };

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

/** Leaves the views a build's loader read for the build's pages. */
export function handViewsToPages(views: readonly ViewEntry[]): void {
	slot[KEY] = views;
}

/** The views of a build: those its loader handed over (taken once), else the folder read now. */
export async function viewsOfBuild(folder: string): Promise<readonly ViewEntry[]> {
	const handed = slot[KEY];
	slot[KEY] = undefined;
	return handed ?? viewFilesReader(folder)();
}
