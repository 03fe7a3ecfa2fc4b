/** Debian's Chromium, driven by playwright-core, launched the way this machine allows. */
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's chromium package puts the browser; CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium with the flags a closed network needs, and any more a test asks for
 * (`--host-resolver-rules=MAP portal.intranet.example 127.0.0.1`, to open the portal under a name).
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
	return chromium.launch({
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
	});
}
