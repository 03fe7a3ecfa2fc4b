/**
 * The mock as `npm start` and `npm run dev` run it, in their own process beside the portal: what
 * scripts/start.ts takes from the mock. It loads this file bundled (bundle.ts), as one file, so
 * the mock answers long before the portal's build ends.
 */
export { chaosSummary } from './chaos.ts';
export { upstreamFrom } from './forwarder/decide.ts';
export { startMock, type RunningMock } from './server.ts';
