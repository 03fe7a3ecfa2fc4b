import { defineConfig } from 'vitest/config';

export default defineConfig({
	test: {
		reporters: ['default', './tests/support/summary-reporter.ts'],
		testTimeout: 60_000,
		hookTimeout: 180_000,
		// Builds, mock processes and Chromium share two cores: one file at a time keeps them honest.
		fileParallelism: false,
		projects: [
			// Pure logic and schemas: no build, seconds to run (`npm run test:unit`).
			{ extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
			// The build, the mock and the start script as real processes.
			{
				extends: true,
				test: {
					name: 'integration',
					include: ['tests/integration/**/*.test.ts'],
					globalSetup: ['tests/global-setup.ts'],
				},
			},
			// Debian's Chromium on built pages and the dev server (`npm run test:e2e`).
			{
				extends: true,
				test: {
					name: 'e2e',
					include: ['tests/e2e/**/*.test.ts'],
					globalSetup: ['tests/global-setup.ts'],
				},
			},
		],
	},
});
