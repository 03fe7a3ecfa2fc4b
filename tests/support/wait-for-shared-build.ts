/**
 * A setup file of the integration and e2e projects (vitest.config.ts): before a test file that
 * reads the run's shared build is imported (`readsSharedBuild`), it waits for that build, which
 * tests/global-setup.ts makes while the files that need no build already run; in the e2e project,
 * for the shared preview of it too (tests/chromium-setup.ts starts it once the build is ready).
 * Files that need no build are imported at once.
 */
import { readFile } from 'node:fs/promises';
import { expect, inject } from 'vitest';
import { waitForUrl } from '../../support/processes.ts';
import { readsSharedBuild } from '../../support/slowest-first-sequencer.ts';
import { sharedBuild } from './shared-build.ts';

/** How long the preview may take to answer once the build is ready. */
const PREVIEW_WAIT_MS = 120_000;

const testFile = expect.getState().testPath;
if (testFile && readsSharedBuild(await readFile(testFile, 'utf8'))) {
	await sharedBuild(inject('distDir'));
	const preview = inject('previewUrl');
	if (preview) await waitForUrl(`${preview}/`, undefined, PREVIEW_WAIT_MS);
}
