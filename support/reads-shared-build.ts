/**
 * Which test files read the run's shared build, asked by the sequencer in vitest's own process and
 * by the setup file before each integration and e2e file. A module of its own, importing nothing:
 * the sequencer's module loads vitest's node API, which took about a second per file when the
 * setup file imported it (56 s of a run's worker time in CI).
 */

/**
 * Whether a test file, by its source, reads the shared build: it asks for the build's folder or
 * the e2e project's preview of it, uses the browser set-up that serves that preview, or waits for
 * the build itself. Such a file waits for the build before it is imported
 * (tests/support/wait-for-shared-build.ts), and starts once the build is expected to be ready
 * (support/slowest-first-sequencer.ts).
 */
export function readsSharedBuild(source: string): boolean {
	return /\binject\(\s*['"](?:distDir|previewUrl)['"]|support\/(?:portal-in-chromium|shared-build)(?:\.ts)?['"]/.test(
		source,
	);
}
