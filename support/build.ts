/**
 * Builds the portal as `npm run build` does (`scripts/build.ts`: `astro build`, then the search
 * index) into a folder of the caller's choosing, with optional fixture folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bin, childEnv, ROOT } from './processes.ts';

/**
 * Where builds are made before they move to the caller's folder. Astro writes a build's
 * prerendering chunks into its output folder when that folder is inside the project, and into one
 * shared `.astro/.prerender` when it is not (`getOutDirWithinCwd`), where two builds at once
 * delete each other's chunks. Inside the project, and on the same disk as the temporary folders
 * the callers choose, each build has chunks of its own and moves by a rename. Each build has its
 * own cache folder there too (PORTAL_BUILD_CACHE_DIR): Astro writes the collections' data store
 * into its cache folder and reads it back, and two builds at once in one folder read each other's
 * fixtures.
 */
const BUILDS = path.join(ROOT, 'node_modules', '.cache', 'portal-builds');

/** What a build printed and how it ended. */
export interface BuildResult {
	status: number | null;
	output: string;
}

/** A build's own folder, the command that makes it, and what moves it to `outDir` afterwards. */
function prepare(
	outDir: string,
	viewsDir: string | undefined,
	env: NodeJS.ProcessEnv,
): { args: string[]; env: NodeJS.ProcessEnv; finish: () => void } {
	mkdirSync(BUILDS, { recursive: true });
	const building = mkdtempSync(path.join(BUILDS, 'build-'));
	const builtDir = path.join(building, 'dist');
	return {
		args: [path.join(ROOT, 'scripts', 'build.ts'), '--outDir', builtDir],
		env: childEnv({
			...(viewsDir ? { PORTAL_VIEWS_DIR: viewsDir } : {}),
			PORTAL_BUILD_CACHE_DIR: path.join(building, 'cache'),
			...env,
			FORCE_COLOR: '0',
			NO_COLOR: '1',
		}),
		finish: () => {
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
		},
	};
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
	const build = prepare(outDir, viewsDir, env);
	const result = spawnSync(bin('node'), build.args, {
		cwd: ROOT,
		env: build.env,
		encoding: 'utf8',
		timeout: timeoutMs,
		// Passed on to Astro's process by the build script, which a SIGKILL would leave running.
		killSignal: 'SIGTERM',
	});
	build.finish();
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * `buildPortal`, without blocking this process: for builds made side by side, each in a process
 * of its own.
 */
export function buildPortalAsync(
	outDir: string,
	viewsDir?: string,
	env: NodeJS.ProcessEnv = {},
	timeoutMs = 300_000,
): Promise<BuildResult> {
	const build = prepare(outDir, viewsDir, env);
	return new Promise((resolve, reject) => {
		const child = spawn(bin('node'), build.args, { cwd: ROOT, env: build.env });
		let output = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
		// Passed on to Astro's process by the build script, which a SIGKILL would leave running.
		const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
		child.on('error', (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on('close', (status) => {
			clearTimeout(timer);
			try {
				build.finish();
				resolve({ status, output });
			} catch (error) {
				reject(error instanceof Error ? error : new Error(String(error)));
			}
		});
	});
}
