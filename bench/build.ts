/**
 * `npm run bench:build`: build scale. For generated sets of 10, 100, 1,000 and 10,000 views
 * (BENCH_SIZES overrides) whose users are all different people (eight people pages per view),
 * builds the portal at Node's default heap and measures build time, CPU time (every process of the
 * build), each per view and as the marginal cost per view between sizes, the peak memory of the
 * largest process and of the whole process tree, the load average, the size of dist and of the
 * search index (`bench/lib/build-measure.ts`). Its budgets, each met or MISSED in the table: at
 * most 5 ms of CPU per view from 1,000 views on, and under 1.5 GB for the process tree at 10,000
 * views. Each build is stopped after BENCH_BUILD_TIMEOUT_MINUTES (default 25). BENCH_BASELINE
 * names another checkout (with its node_modules) to build side by side from the same views,
 * alternately with this one, and BENCH_ROUNDS how many times each size is built on each side (the
 * median is reported), e.g. `BENCH_SIZES=1000,10000 BENCH_BASELINE=../before BENCH_ROUNDS=2 npm
 * run bench:build`. BENCH_CEILING=1 builds, after each of this checkout's builds, a bare Astro site
 * making as many pages and files through each route (`bench/lib/build-ceiling.ts`): Astro's own
 * floor per view, in a table beside the portal's with the ratio. Where the time goes:
 * `node bench/build-profile.ts`.
 */
import { runBuildBench } from './lib/build-measure.ts';

runBuildBench().catch((error: unknown) => {
	console.error(error instanceof Error ? error.message : String(error));
	process.exitCode = 1;
});
