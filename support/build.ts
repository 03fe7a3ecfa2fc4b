/** Runs `astro build` into a folder of the caller's choosing, with optional fixture folder. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bin, childEnv, ROOT } from './processes.ts';

/**
 * Where builds are made before they move to the caller's folder. Astro writes a build's
 * prerendering chunks into its output folder when that folder is inside the project, and into one
 * shared `.astro/.prerender` when it is not (`getOutDirWithinCwd`), where two builds at once
 * delete each other's chunks. Inside the project, and on the same disk as the temporary folders
 * the callers choose, each build has chunks of its own and moves by a rename.
 */
const BUILDS = path.join(ROOT, 'node_modules', '.cache', 'portal-builds');

/** What a build printed and how it ended. */
export interface BuildResult {
	status: number | null;
	output: string;
}

/**
 * Builds the portal into `outDir`; `viewsDir` points the build at another fixture set, and `env`
 * sets further portal settings (PORTAL_DOCS_DIR, PORTAL_OPENAPI, ...). A build still running
 * after `timeoutMs` is killed, and its status is null.
 */
export function buildPortal(
	outDir: string,
	viewsDir?: string,
	env: NodeJS.ProcessEnv = {},
	timeoutMs = 300_000,
): BuildResult {
	mkdirSync(BUILDS, { recursive: true });
	const building = mkdtempSync(path.join(BUILDS, 'build-'));
	const builtDir = path.join(building, 'dist');
	const result = spawnSync(bin('astro'), ['build', '--outDir', builtDir], {
		cwd: ROOT,
		env: childEnv({
			...(viewsDir ? { PORTAL_VIEWS_DIR: viewsDir } : {}),
			...env,
			FORCE_COLOR: '0',
			NO_COLOR: '1',
		}),
		encoding: 'utf8',
		timeout: timeoutMs,
		killSignal: 'SIGKILL',
	});
	try {
		// What a failed build left is moved too: a test may read how far it got.
		rmSync(outDir, { recursive: true, force: true });
		mkdirSync(path.dirname(outDir), { recursive: true });
		renameSync(builtDir, outDir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
	} finally {
		rmSync(building, { recursive: true, force: true });
	}
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
