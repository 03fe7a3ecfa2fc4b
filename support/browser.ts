/** Debian's Chromium, driven by playwright-core, launched the way this machine allows. */
import { chromium, type Browser, type BrowserServer, type LaunchOptions } from 'playwright-core';

/** Where Debian's chromium package puts the browser; CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * The launch options of every Chromium the tests and benchmarks start: headless, with the flags a
 * closed network needs, and any more a caller asks for (`--host-resolver-rules=MAP
 * portal.intranet.example 127.0.0.1`, to open the portal under a name).
 */
export function chromiumLaunchOptions(extraArgs: readonly string[] = []): LaunchOptions {
	return {
		executablePath: CHROMIUM_PATH,
		headless: true,
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-background-networking',
			'--disable-component-update',
			'--no-first-run',
			'--disable-quic',
			'--disable-sync',
			...extraArgs,
		],
	};
}

/** Launches headless Chromium with `chromiumLaunchOptions`. */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
	return chromium.launch(chromiumLaunchOptions(extraArgs));
}

/**
 * Starts one Chromium, with `chromiumLaunchOptions`, that test files connect to instead of each
 * launching its own (the e2e project's global setup, tests/chromium-setup.ts): its WebSocket
 * listens on 127.0.0.1 at a free port, under a path of Playwright's own random choosing.
 */
export async function startChromiumServer(port: number): Promise<BrowserServer> {
	return chromium.launchServer({ ...chromiumLaunchOptions(), host: '127.0.0.1', port });
}

/**
 * Connects to the run's shared Chromium when there is one (`inject('chromiumEndpoint')`, given in
 * the e2e project), or launches one of its own. `close()` on a connected browser closes the
 * contexts this connection opened and disconnects, leaving the shared Chromium to the others.
 */
export async function connectOrLaunchChromium(wsEndpoint: string | undefined): Promise<Browser> {
	return wsEndpoint ? chromium.connect(wsEndpoint) : launchChromium();
}

/**
 * Stops a shared Chromium: closes it (which also removes its temporary profile), and when that has
 * not ended it within `graceMs`, kills its process group by the process's id.
 */
export async function stopChromiumServer(server: BrowserServer, graceMs = 10_000): Promise<void> {
	const child = server.process();
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<'late'>((resolve) => {
		timer = setTimeout(() => resolve('late'), graceMs);
	});
	const closed = await Promise.race([server.close().then(() => 'closed' as const), late]);
	clearTimeout(timer);
	if (closed === 'late' && child.pid !== undefined && child.exitCode === null) {
		try {
			// Playwright starts Chromium as the leader of a process group of its own.
			process.kill(-child.pid, 'SIGKILL');
		} catch {
			/* already gone */
		}
	}
}
