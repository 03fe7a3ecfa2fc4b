/**
 * Builds the portal once, into a temporary folder, for the integration and end-to-end tests
 * (the unit tests need no build). The build is made for a mock on a port chosen now, since each
 * page's Content-Security-Policy lets the try-it panel call that mock origin only: tests that
 * start the mock for these pages start it on `inject('mockPort')`. They read the build's path
 * with `inject('distDir')`. Both projects that need it share one build.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildPortal } from '../support/build.ts';
import { freePort } from '../support/processes.ts';

/** The instant the tests' build describes (SOURCE_DATE_EPOCH): 2026-11-24T00:00:00Z. */
export const BUILT_AT_EPOCH = 1795478400;

declare module 'vitest' {
	export interface ProvidedContext {
		/** The built portal. */
		distDir: string;
		/** The port the built pages expect the mock on (their default server and CSP origin). */
		mockPort: number;
		portalPort: number;
		/** What the build printed, for the test that a healthy build prints no warning. */
		buildOutput: string;
	}
}

/** The one build of this run, and how many projects still use it. */
let shared: Promise<Built> | undefined;
let users = 0;

/** The one build: where it is, the mock port it was made for, and what it printed. */
interface Built {
	folder: string;
	distDir: string;
	mockPort: number;
	portalPort: number;
	output: string;
}

/** Builds the portal for a mock port that is never the default one. */
async function build(): Promise<Built> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-dist-'));
	const distDir = path.join(folder, 'dist');
	// Never the default port: a page that forgot to follow MOCK_PORT would then go unnoticed.
	let mockPort = await freePort();
	while (mockPort === 4010) mockPort = await freePort();
	// Nor the default portal port, for the pages that name the portal's own address.
	let portalPort = await freePort();
	while (portalPort === 4321 || portalPort === mockPort) portalPort = await freePort();
	const result = buildPortal(distDir, undefined, {
		MOCK_PORT: String(mockPort),
		PORTAL_PORT: String(portalPort),
		// A fixed instant for the pages that count from the build's (2026-11-24T00:00:00Z).
		SOURCE_DATE_EPOCH: String(BUILT_AT_EPOCH),
	});
	if (result.status !== 0) throw new Error(`The portal build failed:\n${result.output}`);
	return { folder, distDir, mockPort, portalPort, output: result.output };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	shared ??= build();
	users += 1;
	const { folder, distDir, mockPort, portalPort, output } = await shared;
	project.provide('distDir', distDir);
	project.provide('mockPort', mockPort);
	project.provide('portalPort', portalPort);
	project.provide('buildOutput', output);
	return async () => {
		users -= 1;
		if (users === 0) await rm(folder, { recursive: true, force: true });
	};
}
