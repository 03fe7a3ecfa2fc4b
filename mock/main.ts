/**
 * The mock from its sources: reads the settings, then serves in this process, or runs the primary
 * of MOCK_WORKERS node:cluster workers. `npm run mock` (cli.ts) runs this file bundled; `node
 * mock/main.ts` runs it as it is, each module loaded on its own. Only what this process needs is
 * imported: a primary never loads Prism.
 */
import cluster from 'node:cluster';
import module from 'node:module';
import type { PortalSettings } from '../src/sources/settings.ts';

// V8's compiled code kept on disk from one start to the next (cli.ts says more); enabled before
// any other module of ours loads, so they are compiled from it.
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
