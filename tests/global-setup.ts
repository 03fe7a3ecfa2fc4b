/**
 * Builds the portal once, into a temporary folder, for the integration and end-to-end tests
 * (the unit tests need no build). The build is made for a mock on a port chosen now, since each
 * page's Content-Security-Policy lets the try-it panel call that mock origin only: tests that
 * start the mock for these pages start it on `inject('mockPort')`. They read the build's path
 * with `inject('distDir')`. Both projects that need it share one build.
 *
 * The build runs in the background: the folder and ports are given at once, and the files that
 * need no build (the unit tests, an integration test that makes its own) run while it builds. A
 * file that reads the build waits for its ready marker (tests/support/shared-build.ts), and fails
 * with what the build printed when it failed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildPortalAsync } from '../support/build.ts';
import { freePort } from '../support/processes.ts';
import { writeBuildMarker } from './support/shared-build.ts';

/** The instant the tests' build describes (SOURCE_DATE_EPOCH): 2026-11-24T00:00:00Z. */
export const BUILT_AT_EPOCH = 1795478400;

declare module 'vitest' {
	export interface ProvidedContext {
		/** The built portal, ready once `sharedBuild` (tests/support/shared-build.ts) says so. */
		distDir: string;
		/** The port the built pages expect the mock on (their default server and CSP origin). */
		mockPort: number;
		portalPort: number;
	}
}

/** The one build of this run, and how many projects still use it. */
let shared: Promise<Building> | undefined;
let users = 0;

/** The one build: where it goes, the ports it is made for, and its end (marker written). */
interface Building {
	folder: string;
	distDir: string;
	mockPort: number;
	portalPort: number;
	done: Promise<void>;
}

/** Starts the build for a mock port that is never the default one; it ends by writing its marker. */
async function startBuild(): Promise<Building> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-dist-'));
	const distDir = path.join(folder, 'dist');
	// Never the default port: a page that forgot to follow MOCK_PORT would then go unnoticed.
	let mockPort = await freePort();
	while (mockPort === 4010) mockPort = await freePort();
	// Nor the default portal port, for the pages that name the portal's own address.
	let portalPort = await freePort();
	while (portalPort === 4321 || portalPort === mockPort) portalPort = await freePort();
	const started = performance.now();
	const done = buildPortalAsync(distDir, undefined, {
		MOCK_PORT: String(mockPort),
		PORTAL_PORT: String(portalPort),
		// A fixed instant for the pages that count from the build's (2026-11-24T00:00:00Z).
		SOURCE_DATE_EPOCH: String(BUILT_AT_EPOCH),
	}).then(
		(result) => result,
		// The build could not be started at all: the files that need it say why.
		(error: unknown) => ({ status: null, output: `The build could not run: ${String(error)}` }),
	);
	return {
		folder,
		distDir,
		mockPort,
		portalPort,
		done: done
			.then(({ status, output }) =>
				writeBuildMarker(distDir, { status, output, ms: performance.now() - started }),
			)
			.catch((error: unknown) => {
				// Reported here once: the files waiting for the marker then fail on their time-out.
				console.error(`The shared build's ready marker could not be written: ${String(error)}`);
			}),
	};
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	shared ??= startBuild();
	users += 1;
	const { folder, distDir, mockPort, portalPort, done } = await shared;
	project.provide('distDir', distDir);
	project.provide('mockPort', mockPort);
	project.provide('portalPort', portalPort);
	return async () => {
		users -= 1;
		if (users > 0) return;
		// A run of files that never needed the build still waits for it, then removes it.
		await done;
		await rm(folder, { recursive: true, force: true });
	};
}
