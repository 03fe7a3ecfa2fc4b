/**
 * Watches the view fixture folder and the contract file for edits, as an editor makes them
 * (in place, or by writing a new file and renaming it over the old one), and calls `onChange`
 * once a burst of events has settled. Reloads never overlap: an edit during a reload is picked
 * up by one more reload after it.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import type { MockSources } from './state.ts';

/** How long events must pause before a reload: an editor's save is several events. */
export const SETTLE_MS = 100;

/** Starts watching; returns the function that stops it. */
export function watchSources(
	sources: Pick<MockSources, 'viewsDir' | 'contractFile'>,
	onChange: () => Promise<unknown>,
): () => void {
	let timer: NodeJS.Timeout | undefined;
	let running: Promise<unknown> | undefined;
	let again = false;
	let stopped = false;

	const run = (): void => {
		if (stopped) return;
		if (running) {
			again = true;
			return;
		}
		running = onChange()
			.catch(() => undefined)
			.finally(() => {
				running = undefined;
				if (again) {
					again = false;
					run();
				}
			});
	};
	const changed = (): void => {
		clearTimeout(timer);
		timer = setTimeout(run, SETTLE_MS);
	};

	const contractDir = path.dirname(sources.contractFile);
	const contractName = path.basename(sources.contractFile);
	const watchers: FSWatcher[] = [
		watch(sources.viewsDir, (_event, name) => {
			if (name === null || name.endsWith('.json')) changed();
		}),
		watch(contractDir, (_event, name) => {
			if (name === null || name === contractName) changed();
		}),
	];
	// A folder that goes away stops its watcher; the last good state stays until a restart.
	for (const watcher of watchers) watcher.on('error', () => watcher.close());

	return () => {
		stopped = true;
		clearTimeout(timer);
		for (const watcher of watchers) watcher.close();
	};
}
