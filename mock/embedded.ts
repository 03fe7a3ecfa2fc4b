/**
 * The mock as `npm start` and `npm run dev` run it, in their own process beside the portal: what
 * scripts/start.ts takes from the mock, and the settings reader, which the mock's code holds too.
 * It loads this file bundled (bundle.ts), as one file, first: the mock answers long before the
 * portal's build ends.
 */
export { readSettings } from '../src/sources/settings.ts';
export { chaosSummary } from './chaos.ts';
export { upstreamFrom } from './forwarder/decide.ts';
export { startMock, type RunningMock } from './server.ts';
