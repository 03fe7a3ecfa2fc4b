/**
 * The dev server's word on the fixtures: when an edit breaks one, the content loader keeps the
 * last good views and records the problems here, and every page throws them, so Astro's error
 * overlay shows the file and the field in the browser instead of a stale page. Kept on
 * globalThis because the loader and the pages may run in different module instances of one
 * process.
 */

const KEY = Symbol.for('console-portal.fixture-problems');

/** The shared slot: the problems of the last failed load, or undefined. */
const slot = globalThis as { [KEY]?: string | undefined };

/** Records the problems of a failed load; undefined clears them after a good one. */
export function setFixtureProblems(message: string | undefined): void {
	slot[KEY] = message;
}

/** Throws the recorded problems, if any; pages call it before rendering. */
export function assertFixturesLoaded(): void {
	const message = slot[KEY];
	if (message === undefined) return;
	const error = new Error(message);
	// The message names every file and field; a stack trace into the page adds nothing.
	error.stack = message;
	throw error;
}
