/**
 * The run's one shared build of the portal (tests/global-setup.ts) is made while the first test
 * files run, not before them: when it ends, the global setup writes a ready marker beside the
 * build, and a file that reads the build waits here for that marker
 * (tests/support/wait-for-shared-build.ts does so before such a file is imported). Kept free of
 * vitest's worker API, for the global setups and the sequencer in vitest's own process.
 */
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/** How long a file waits for the build's marker before it gives up: the build's own limit and more. */
export const SHARED_BUILD_WAIT_MS = 420_000;

/** What the marker says of the build: how it ended, what it printed, and how long it took. */
const markerSchema = z.object({
	status: z.number().nullable(),
	output: z.string(),
	ms: z.number(),
});

/** The shared build's ready marker. */
export type SharedBuildMarker = z.infer<typeof markerSchema>;

/** The finished shared build: its folder and what the build printed. */
export interface SharedBuild {
	distDir: string;
	output: string;
}

/** Where the ready marker of the build in `distDir` is written: beside it, in the run's folder. */
export function markerPath(distDir: string): string {
	return path.join(path.dirname(distDir), 'shared-build.json');
}

/** Writes the ready marker of the build in `distDir` whole (written aside, then renamed). */
export async function writeBuildMarker(distDir: string, marker: SharedBuildMarker): Promise<void> {
	const file = markerPath(distDir);
	const partial = `${file}.${String(process.pid)}`;
	await writeFile(partial, JSON.stringify(marker));
	await rename(partial, file);
}

/** Whether a file is there yet. */
async function exists(file: string): Promise<boolean> {
	try {
		await stat(file);
		return true;
	} catch {
		// Not written yet (or its folder already removed): asked again until the deadline.
		return false;
	}
}

/**
 * Waits for the shared build in `distDir` to end and returns it; throws with what the build printed
 * when it failed, or when no marker came within `timeoutMs`.
 */
export async function sharedBuild(
	distDir: string | undefined,
	timeoutMs = SHARED_BUILD_WAIT_MS,
): Promise<SharedBuild> {
	if (!distDir) {
		throw new Error(
			'This project has no shared build: only the integration and e2e projects run tests/global-setup.ts',
		);
	}
	const file = markerPath(distDir);
	const deadline = Date.now() + timeoutMs;
	while (!(await exists(file))) {
		if (Date.now() > deadline) {
			throw new Error(
				`The shared portal build (tests/global-setup.ts) wrote no ready marker (${file}) within ${String(timeoutMs / 1000)} s`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	const marker = markerSchema.parse(JSON.parse(await readFile(file, 'utf8')));
	if (marker.status !== 0) {
		throw new Error(
			`The shared portal build (tests/global-setup.ts) failed (exit status ${String(marker.status)}), so this file cannot run; what it printed:\n${marker.output}`,
		);
	}
	return { distDir, output: marker.output };
}
