/**
 * The e2e project's one Chromium and one preview of the run's build: started once before its
 * files, which connect to the Chromium (`inject('chromiumEndpoint')`) and open the preview
 * (`inject('previewUrl')`), both read by tests/support/portal-in-chromium.ts, instead of each
 * launching and serving its own, and stopped after them. Files that need launch flags of their
 * own (a host name mapped to 127.0.0.1) still launch their own Chromium, and files with a build or
 * a port of their own serve their own preview. Measured by bench/chromium-launch.ts.
 */
import type { TestProject } from 'vitest/node';
import { startChromiumServer, stopChromiumServer } from '../support/browser.ts';
import { servePortal } from '../support/preview.ts';
import { freePort } from '../support/processes.ts';
import { sharedBuild } from './support/shared-build.ts';

declare module 'vitest' {
	export interface ProvidedContext {
		/** The shared Chromium's WebSocket address, for `chromium.connect`; e2e project only. */
		chromiumEndpoint?: string;
		/** The shared preview of the run's build (`distDir`), without a trailing slash; e2e only. */
		previewUrl?: string;
	}
}

/** The reasons of the outcomes that failed. */
function failures(outcomes: readonly PromiseSettledResult<unknown>[]): unknown[] {
	return outcomes.flatMap((outcome): unknown[] =>
		outcome.status === 'rejected' ? [outcome.reason as unknown] : [],
	);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	// The preview's address is given now; it starts once tests/global-setup.ts's build is ready,
	// and the files that open it wait for it (tests/support/wait-for-shared-build.ts).
	const { distDir } = project.getProvidedContext();
	const previewPort = await freePort();
	const previewing = sharedBuild(distDir).then(() => servePortal(distDir, previewPort));
	previewing.catch((error: unknown) => {
		// Reported here once; the files waiting for the preview fail on their time-out.
		console.error(`The shared preview of the build did not start: ${String(error)}`);
	});
	const [chromium] = await Promise.allSettled([
		freePort().then((port) => startChromiumServer(port)),
	]);
	const stop = async (): Promise<void> => {
		const preview = (await Promise.allSettled([previewing]))[0];
		const stopped = failures(
			await Promise.allSettled([
				chromium.status === 'fulfilled' ? stopChromiumServer(chromium.value) : undefined,
				preview.status === 'fulfilled' ? preview.value.server.stop() : undefined,
			]),
		);
		if (stopped.length > 0) {
			throw new AggregateError(stopped, 'Stopping the shared Chromium or preview failed');
		}
	};
	if (chromium.status === 'rejected') {
		// The preview is stopped once it started; the error says why Chromium did not.
		await stop();
		throw new AggregateError(failures([chromium]), 'Starting the shared Chromium failed');
	}
	project.provide('chromiumEndpoint', chromium.value.wsEndpoint());
	project.provide('previewUrl', `http://127.0.0.1:${String(previewPort)}`);
	return stop;
}
