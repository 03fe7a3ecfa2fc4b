/** Serves a built portal folder with `astro preview` on a free 127.0.0.1 port. */
import { bin, freePort, startAndWait, type Started } from './processes.ts';

/** A running preview server. */
export interface Preview {
	url: string;
	server: Started;
}

/**
 * Starts `astro preview` for `distDir` on `port` (a free one if not given), with `env` added to its
 * environment (a team's PORTAL_ALLOWED_HOSTS, say); stop it with `preview.server.stop()`.
 */
export async function servePortal(
	distDir: string,
	port?: number,
	env: NodeJS.ProcessEnv = {},
): Promise<Preview> {
	port ??= await freePort();
	const url = `http://127.0.0.1:${port}`;
	// --ignore-lock: otherwise Astro allows one preview per project, and tests run beside others'.
	const server = await startAndWait(
		bin('astro'),
		[
			'preview',
			'--ignore-lock',
			'--outDir',
			distDir,
			'--host',
			'127.0.0.1',
			'--port',
			String(port),
		],
		`${url}/`,
		{ env },
	);
	return { url, server };
}
