import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		include: ['tests/**/*.test.ts'],
		globalSetup: ['tests/global-setup.ts'],
		reporters: ['default', './tests/support/summary-reporter.ts'],
		testTimeout: 60_000,
		hookTimeout: 180_000,
		// Builds, mock processes and Chromium share two cores: one file at a time keeps them honest.
		fileParallelism: false,
	},
});
