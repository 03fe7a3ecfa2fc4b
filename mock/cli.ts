/**
 * `npm run mock`: serves the contract composed with every view's directory, follows edits to
 * the fixtures and openapi.yaml, and logs each request, until Ctrl-C or SIGTERM, on which it
 * drains: it stops accepting, answers every request it received, and exits within 10 s.
 * MOCK_PORT moves it, MOCK_HOST binds another address (0.0.0.0 in a container), MOCK_LOG=off
 * silences the request log (json makes it JSON), MOCK_WORKERS serves from that many node:cluster
 * workers (auto: one per core), PORTAL_OPENAPI and PORTAL_VIEWS_DIR point elsewhere. Sources that
 * do not load at start are reported, and the mock waits for them, answering 503 (and /readyz 503)
 * until an edit mends them. Only what this process needs is imported: a primary never loads Prism.
 */
import cluster from 'node:cluster';
import module from 'node:module';
import type { PortalSettings } from '../src/sources/settings.ts';

// V8's compiled code, and Node's TypeScript stripping, kept on disk from one start to the next
// (NODE_COMPILE_CACHE names the folder, else a folder in the system's temporary folder): a start
// with it compiles less, about a fifth less CPU. Where nothing can be written, there is no cache.
module.enableCompileCache();
const { readSettings } = await import('../src/sources/settings.ts');

let settings: PortalSettings;
try {
	settings = readSettings();
} catch (error) {
	console.error(error instanceof Error ? error.message : String(error));
	process.exit(1);
}

if (settings.mockWorkers > 1 && cluster.isPrimary) {
	const { runPrimary } = await import('./cluster.ts');
	runPrimary(settings);
} else {
	const { serve } = await import('./serve.ts');
	await serve(settings);
}
