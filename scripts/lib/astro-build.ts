/**
 * `astro build` run by `npm run build` (scripts/build.ts): with the person's flags, the search
 * index left to this process, and signals passed on. Astro records the folder it wrote in a file of
 * this run's (PORTAL_SEARCH_INDEX_AFTER, written by `src/integrations/search-index.ts`), so the
 * index goes where Astro wrote, whatever flags or configuration chose that folder.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** Astro's command line, run by this process's Node, not by whichever `node` is first on PATH. */
const ASTRO_BIN = path.join(ROOT, 'node_modules', 'astro', 'bin', 'astro.mjs');

/**
 * How V8 runs Astro's build: its heap may grow by half its live size between full collections
 * (`--heap-growing-percent`), not by V8's own factor of up to four. Rendering the 172,000 files of
 * 10,000 views of all different people left up to 2 GB of garbage beside 0.7 GB live, with no full
 * collection to free it. With this and ASTRO_ENV, Astro's process peaked at 1,765 MB there, against
 * 2,176 MB with ASTRO_ENV alone and 2.4 to 3.0 GB with neither (one build each, sampled every second).
 * More full collections cost CPU: six 1,000-view builds in a row, the settings rotated, did not
 * tell that cost from the noise (the same setting moved by 60 %); bench/results/build.md has the
 * build's CPU beside its memory.
 *
 * Its young objects get 16 MB a half (`--max-semi-space-size`), not the 32 MB Node 24's V8 gives
 * a process on a machine of this size (its new space, read with `v8.getHeapSpaceStatistics()`,
 * grows to 67 MB): the pages in flight die young either way, and the young space is committed
 * whole. Rendering the pages of the same 10,000-view build, Astro's process held at most 1,314 MB
 * with it and 1,486 MB without, at the same CPU (390 and 410 s; one build each). With the contract
 * written in parts besides, the build's whole tree peaked at 1,451 MB against 1,773 MB, at the
 * same CPU (bench/results/build.md, two builds a side).
 */
const ASTRO_NODE_FLAGS = ['--heap-growing-percent=50', '--max-semi-space-size=16'];

/**
 * Rolldown (Vite's bundler, native code, run at the start of the build) keeps the memory it frees
 * in its allocator's (mimalloc's) pages; at 0 it gives them back as it frees them. In the build
 * above, its region held 452 MB of Astro's process to the end without it, 266 MB with it. A value
 * in the environment of `npm run build` is kept.
 */
const ASTRO_ENV = { MIMALLOC_PURGE_DELAY: '0' };

/** How `astro build` ended: its exit code, the signal that ended it or this process, the folder. */
export interface AstroBuilt {
	code: number;
	/** The signal this process was sent while Astro ran (passed on to Astro), if any. */
	signal?: NodeJS.Signals;
	/** The folder Astro wrote, when it built and recorded it. */
	outDir?: string;
}

/**
 * Runs `astro build` with `args`. A SIGINT or SIGTERM sent to this process while Astro runs is
 * passed on to Astro and reported, so the caller writes no index and ends by the same signal.
 */
export async function astroBuild(
	args: readonly string[],
	env: NodeJS.ProcessEnv = process.env,
): Promise<AstroBuilt> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-build-'));
	const record = path.join(folder, 'out-dir');
	const child = spawn(process.execPath, [...ASTRO_NODE_FLAGS, ASTRO_BIN, 'build', ...args], {
		env: { ...ASTRO_ENV, ...env, PORTAL_SEARCH_INDEX_AFTER: record },
		// The channel closes when this process ends, however it ends: Astro's build then stops
		// (src/integrations/stop-with-parent.ts). Nothing is sent on it.
		stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
	});
	let signal: NodeJS.Signals | undefined;
	const passOn = (received: NodeJS.Signals): void => {
		signal ??= received;
		child.kill(received);
	};
	process.on('SIGINT', passOn);
	process.on('SIGTERM', passOn);
	try {
		const code = await new Promise<number>((resolve) => {
			child.once('error', (error) => {
				console.error(`✖ astro build could not start: ${error.message}`);
				resolve(1);
			});
			child.once('close', (exitCode) => resolve(exitCode ?? 1));
		});
		const outDir = await readFile(record, 'utf8').catch(() => undefined);
		return { code, ...(signal ? { signal } : {}), ...(outDir ? { outDir } : {}) };
	} finally {
		process.off('SIGINT', passOn);
		process.off('SIGTERM', passOn);
		await rm(folder, { recursive: true, force: true });
	}
}
