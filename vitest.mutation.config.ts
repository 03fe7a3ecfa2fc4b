import { defineConfig } from 'vitest/config';
import { validatorsPlugin } from './src/integrations/try-it-validators.ts';

/**
 * The unit tests alone, for StrykerJS (`npm run test:mutation`): no build, no mock process, no
 * browser, and no projects, which Stryker's vitest runner would run all of.
 */
export default defineConfig({
	// The try-it panel's validators, compiled from openapi.yaml, as the build gives them to the page.
	plugins: [validatorsPlugin()],
	test: {
		include: ['tests/unit/**/*.test.ts'],
		// These two mock astro:content, each with its own collection; with one shared module graph
		// (isolate: false, below) the collection modules keep the first file's mock and the second
		// file's tests fail. Neither covers a mutated module beyond what other tests cover.
		exclude: [
			// In a fresh clone it failed Stryker's first run ("Failed to load Pagefind metadata")
			// though it passes alone with this configuration: it starts Pagefind's runtime twice, and
			// with isolate: false (below) that runtime is most likely shared with the other MCP files'.
			// It tests the MCP server's index cache, which no mutated module is; npm test runs it.
			'tests/unit/mcp/search-index.test.ts',
			'tests/unit/site/view-collection.test.ts',
			'tests/unit/site/published-contract.test.ts',
			// It checks deploy/kubernetes/ (seconds of TypeScript checking per run), and reads
			// settings.ts only to parse the manifests' host names, which settings.test.ts covers.
			'tests/unit/deploy/kubernetes.test.ts',
			// It mocks the build's validators module with a QUERY contract, and try-it-send.test.ts
			// mocks the same module without one; in one shared module graph (isolate: false, below)
			// the first mock holds for both. It covers send.ts, which is not mutated; the contract
			// check it reaches is covered by tests/unit/shared/contract-check-stream*.test.ts.
			'tests/unit/client/try-it/send-query.test.ts',
			// It mocks the build's try-it choices with two answer types; another file loads the real
			// module first, which the shared graph keeps. It covers request-options.ts, not mutated.
			'tests/unit/client/try-it/query-accept.test.ts',
			// Not left out: a test that mocks node:fs or node:fs/promises (fixture-folder-calls,
			// fixture-folder-renamed) loads the fixture reader afresh after vi.resetModules(), so its
			// mocks hold in this one graph.
		],
		// The contract's model loaded before any test: tests/mutation/setup.ts says why.
		setupFiles: ['tests/mutation/setup.ts'],
		testTimeout: 60_000,
		// Stryker runs the covering tests once per mutant; test files sharing one module graph
		// within a run roughly halved the time per mutant (measured on the same 147 mutants: 2 min
		// 39 s against 5 min 9 s, with the same result for each mutant).
		isolate: false,
	},
});
