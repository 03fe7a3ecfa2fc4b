/**
 * The e2e project's one Chromium: started once before its files, which connect to it
 * (`inject('chromiumEndpoint')`, read by tests/support/portal-in-chromium.ts) instead of each
 * launching its own, and stopped after them. Files that need launch flags of their own (a host
 * name mapped to 127.0.0.1) still launch their own. Measured by bench/chromium-launch.ts.
 */
import type { TestProject } from 'vitest/node';
import { startChromiumServer, stopChromiumServer } from '../support/browser.ts';
import { freePort } from '../support/processes.ts';

declare module 'vitest' {
	export interface ProvidedContext {
		/** The shared Chromium's WebSocket address, for `chromium.connect`; e2e project only. */
		chromiumEndpoint?: string;
	}
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const server = await startChromiumServer(await freePort());
	project.provide('chromiumEndpoint', server.wsEndpoint());
	return () => stopChromiumServer(server);
}
