/**
 * `npm run bench:build`: build scale. For generated sets of 10, 100, 1,000 and 10,000 views
 * (BENCH_SIZES overrides), builds the portal at Node's default heap and measures build time, time
 * per view, the marginal cost per view between sizes, peak memory, the size of dist and of the
 * search index (`bench/lib/build-measure.ts`). Each build is stopped after
 * BENCH_BUILD_TIMEOUT_MINUTES (default 25). BENCH_BASELINE names another checkout (with its
 * node_modules) to build side by side from the same views, alternately with this one, and
 * BENCH_ROUNDS how many times each size is built on each side (the median is reported), e.g.
 * `BENCH_SIZES=1000,10000 BENCH_BASELINE=../before BENCH_ROUNDS=2 npm run bench:build`.
 */
import { runBuildBench } from './lib/build-measure.ts';

runBuildBench().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : String(error));
	process.exitCode = 1;
});
