/**
 * A setup file of the integration and e2e projects (vitest.config.ts): before a test file that
 * reads the run's shared build is imported (`readsSharedBuild`), it waits for that build, which
 * tests/global-setup.ts makes while the files that need no build already run; in the e2e project,
 * for the shared preview of it too (tests/chromium-setup.ts starts it once the build is ready).
 * Files that need no build are imported at once.
 */
import { readFile } from 'node:fs/promises';
import { expect, inject } from 'vitest';
import { readsSharedBuild } from '../../support/reads-shared-build.ts';

/** How long the preview may take to answer once the build is ready. */
const PREVIEW_WAIT_MS = 120_000;

const testFile = expect.getState().testPath;
if (testFile && readsSharedBuild(await readFile(testFile, 'utf8'))) {
	// Loaded only here: each file gets a fresh module graph, and a file that needs no build would
	// otherwise load zod and the process helpers before its own imports (a second per file, loaded).
	const { sharedBuild } = await import('./shared-build.ts');
	await sharedBuild(inject('distDir'));
	const preview = inject('previewUrl');
	if (preview) {
		const { waitForUrl } = await import('../../support/processes.ts');
		await waitForUrl(`${preview}/`, undefined, PREVIEW_WAIT_MS);
	}
}
