/** Debian's Chromium, driven by playwright-core, launched the way this machine allows. */
import { chromium, type Browser } from 'playwright-core';

/** Where Debian's chromium package puts the browser; CHROMIUM_PATH overrides it. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Launches headless Chromium with the flags a closed network needs. */
export async function launchChromium(): Promise<Browser> {
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
		],
	});
}
