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
	const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'astro'), ['build', ...args], {
		env: { ...env, PORTAL_SEARCH_INDEX_AFTER: record },
		stdio: 'inherit',
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
