/** Runs `astro build` into a folder of the caller's choosing, with optional fixture folder. */
import { spawnSync } from 'node:child_process';
import { bin, childEnv, ROOT } from './processes.ts';

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
	const result = spawnSync(bin('astro'), ['build', '--outDir', outDir], {
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
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}
