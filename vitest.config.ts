import { globSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { validatorsPlugin } from './src/integrations/try-it-validators.ts';
import SlowestFirstSequencer from './support/slowest-first-sequencer.ts';

/**
 * Where every run records each file's time and outcome (gitignored), for `node bench/test-times.ts
 * --from reports/test-times`: the same as `npm run bench:tests` collects, without a second run.
 */
const TEST_TIMES = path.join(import.meta.dirname, 'reports', 'test-times');

/** How many test files run at once: two, or one on a machine with a single core. */
const FILES_AT_ONCE = Math.min(2, os.availableParallelism());

/**
 * The unit test files that run each in a fresh module graph ('unit-isolated' below); every other
 * unit file shares one graph per worker ('unit'). Those that mock a module (`vi.mock`,
 * `vi.doMock`), since a mock holds only for a graph that has not loaded the real module yet; and
 * the MCP search index's, which starts Pagefind's runtime twice: in the shared graph, with a start
 * that timed out before it on a loaded machine, its next start found no index ("Invalid index,
 * does not yet exist in the Pagefind service"), which it never does in a graph of its own.
 */
const UNIT_FILES_ISOLATED = [
	...globSync('tests/unit/**/*.test.ts', { cwd: import.meta.dirname }).filter((file) =>
		/\bvi\.(?:do)?[mM]ock\(/.test(readFileSync(path.join(import.meta.dirname, file), 'utf8')),
	),
	'tests/unit/mcp/search-index.test.ts',
];

export default defineConfig({
	// The try-it panel's validators, compiled from openapi.yaml, as the build gives them to the page.
	plugins: [validatorsPlugin()],
	test: {
		reporters: [
			'default',
			['./bench/lib/quiet-json-reporter.ts', { outputFile: path.join(TEST_TIMES, 'vitest.json') }],
			[
				'./bench/lib/file-times-reporter.ts',
				{ outputFile: path.join(TEST_TIMES, 'file-times.json') },
			],
			'./tests/support/summary-reporter.ts',
		],
		// The tests' own packages (tests/package.json), installed on first use before any test file
		// runs, whichever project or file is asked for.
		globalSetup: ['tests/tools.ts'],
		testTimeout: 60_000,
		hookTimeout: 180_000,
		// Two files at a time: a file spends much of its time waiting (on a build's one busy core, a
		// server's answer, Chromium's paint), and every file owns its ports, folders and names. More
		// than two at once is untried; one core runs them one at a time.
		maxWorkers: FILES_AT_ONCE,
		// Slowest first, whatever the project, by each file's last recorded time: the two workers
		// then run out of files at about the same moment; the files that read the run's one build
		// start once it is expected to be ready (support/slowest-first-sequencer.ts).
		sequence: { sequencer: SlowestFirstSequencer },
		// `npm run test:coverage`: what the unit tests cover of the code that is ours and pure. The
		// mock's server and the pages run in child processes and browsers, which V8 coverage of
		// this process cannot see; the integration and e2e tests stand for them.
		coverage: {
			provider: 'v8',
			include: [
				'src/schemas/**/*.ts',
				'src/shared/**/*.ts',
				'src/sources/**/*.ts',
				'src/site/**/*.ts',
				'src/client/**/*.ts',
				'mock/**/*.ts',
				'mcp/**/*.ts',
			],
			// The custom elements themselves run only in a page; their DOM-free logic beside them is
			// what the unit tests import.
			exclude: [
				'src/client/code-tabs/code-tabs.ts',
				'src/client/compare/view-compare.ts',
				'src/client/copy-button/copy-button.ts',
				'src/client/search/search-dialog.ts',
				'src/client/search/site-search.ts',
				'src/client/theme/theme-select.ts',
				'src/client/try-it/send.ts',
				'src/client/try-it/try-it-panel.ts',
			],
			reporter: ['text-summary', 'json-summary'],
			reportsDirectory: 'coverage',
			// The level measured when coverage was first reported (2026-11-21), so it cannot fall
			// unnoticed; raise it as tests are added.
			thresholds: { statements: 73, branches: 67, functions: 72, lines: 73 },
		},
		projects: [
			// Pure logic and schemas: no build, seconds to run (`npm run test:unit` runs both unit
			// projects). The files share one module graph per worker, as the mutation run's do: each
			// one loading the contract, zod and Astro's modules afresh took more time than the tests
			// (57 s of loading beside 91 s of tests in CI). A stubbed variable or global is put back
			// after each test, whether or not the file does so itself.
			{
				extends: true,
				test: {
					name: 'unit',
					include: ['tests/unit/**/*.test.ts'],
					exclude: UNIT_FILES_ISOLATED,
					isolate: false,
					unstubEnvs: true,
					unstubGlobals: true,
				},
			},
			// The unit files above that need a module graph of their own, each in one.
			{ extends: true, test: { name: 'unit-isolated', include: UNIT_FILES_ISOLATED } },
			// The build, the mock and the start script as real processes. The run's one build is made
			// while the first files run; a file that reads it waits for it before it is imported.
			{
				extends: true,
				test: {
					name: 'integration',
					include: ['tests/integration/**/*.test.ts'],
					globalSetup: ['tests/global-setup.ts'],
					setupFiles: ['tests/support/wait-for-shared-build.ts'],
				},
			},
			// Debian's Chromium on built pages and the dev server (`npm run test:e2e`): one Chromium,
			// which each file connects to (tests/chromium-setup.ts), rather than a launch per file.
			{
				extends: true,
				test: {
					name: 'e2e',
					include: ['tests/e2e/**/*.test.ts'],
					globalSetup: ['tests/global-setup.ts', 'tests/chromium-setup.ts'],
					setupFiles: ['tests/support/wait-for-shared-build.ts'],
				},
			},
		],
	},
});
