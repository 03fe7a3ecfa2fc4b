/**
 * Watches the view fixture folder and the contract file for edits, as an editor makes them
 * (in place, or by writing a new file and renaming it over the old one), the folder itself
 * being removed or replaced, and a Kubernetes ConfigMap volume being updated, and calls
 * `onChange` once a burst of events has settled. Reloads never overlap: an edit during a reload
 * is picked up by one more reload after it.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { serially } from '../src/shared/serially.ts';
import type { MockSources } from './state.ts';

/** How long events must pause before a reload: an editor's save is several events. */
export const SETTLE_MS = 100;

/**
 * The link through which a ConfigMap volume's files lead: each `<name>.json` is a link to
 * `..data/<name>.json`, and `..data` a link to a timestamped folder. The kubelet updates the
 * volume by renaming a new `..data` link over the old one, so that is the event to follow: no
 * `*.json` entry of the folder changes. (The fixture reader lists `*.json` only, so neither
 * `..data` nor the timestamped folders are read as fixtures.)
 */
export const CONFIGMAP_DATA = '..data';

/** Starts watching; returns the function that stops it. */
export function watchSources(
	sources: Pick<MockSources, 'viewsDir' | 'contractFile'>,
	onChange: () => Promise<unknown>,
): () => void {
	let timer: NodeJS.Timeout | undefined;
	let stopped = false;
	const reload = serially(onChange);
	const run = (): void => {
		if (!stopped) reload();
	};
	const changed = (): void => {
		clearTimeout(timer);
		timer = setTimeout(run, SETTLE_MS);
	};

	// The folder's own watcher, set up again whenever the folder is removed, replaced or made anew
	// (a script or a branch switch does that): a watcher on a folder that went away hears nothing.
	let folder: FSWatcher | undefined;
	const watchFolder = (): void => {
		folder?.close();
		folder = undefined;
		try {
			folder = watch(sources.viewsDir, (_event, name) => {
				if (name === null || name.endsWith('.json') || name === CONFIGMAP_DATA) changed();
			});
			folder.on('error', () => {
				folder?.close();
				folder = undefined;
			});
		} catch {
			// No folder now: the parent's watcher sets this one up when it comes back.
		}
	};
	watchFolder();

	const folderName = path.basename(sources.viewsDir);
	const contractDir = path.dirname(sources.contractFile);
	const contractName = path.basename(sources.contractFile);
	const watchers: FSWatcher[] = [
		watch(path.dirname(sources.viewsDir), (_event, name) => {
			if (name !== null && name !== folderName) return;
			watchFolder();
			changed();
		}),
		watch(contractDir, (_event, name) => {
			if (name === null || name === contractName) changed();
		}),
	];
	for (const watcher of watchers) watcher.on('error', () => watcher.close());

	return () => {
		stopped = true;
		clearTimeout(timer);
		folder?.close();
		for (const watcher of watchers) watcher.close();
	};
}
