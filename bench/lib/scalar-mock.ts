/**
 * Scalar's mock server as a user of it starts one, for the mock benchmark's start-up comparison:
 * `@scalar/mock-server` on the OpenAPI document named first on the command line, served through
 * `@hono/node-server` on 127.0.0.1 at the port named second. Both come from the benchmarks' own
 * packages (bench/tools/package.json).
 */
import { importHonoNodeServer, importScalarMockServer } from '../tools.ts';

const [document = '', port = ''] = process.argv.slice(2);
const [{ createMockServer }, { serve }] = await Promise.all([
	importScalarMockServer(),
	importHonoNodeServer(),
]);
const app = await createMockServer({ document, logger: false });
serve({ fetch: app.fetch, port: Number(port), hostname: '127.0.0.1' });
