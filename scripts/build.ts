/**
 * `npm run build`: `astro build` with the flags given (`--outDir <folder>`; `--help` is Astro's),
 * then the search index in this small process once Astro's has exited
 * (`lib/astro-build.ts`, `src/integrations/search-index.ts`). Indexed inside Astro's process, as a
 * bare `astro build` still does, Pagefind's service ran beside everything Astro kept from
 * rendering: at 10,000 views with 80,000 people's pages, 1.4 GB of Astro's beside Pagefind's
 * 3.0 GB. Run after, the build's peak is the larger of the two, not their sum.
 */
import { astroBuild } from './lib/astro-build.ts';

const built = await astroBuild(process.argv.slice(2));
// Stopped by a signal: no index, and this process ends by the same signal, as Astro's did.
if (built.signal) process.kill(process.pid, built.signal);
else if (built.code !== 0) process.exit(built.code);
else if (built.outDir) {
	const { indexedPages, unsearchedAddresses, writeSearchIndex } =
		await import('../src/integrations/search-index.ts');
	const { mockPlace } = await import('../src/site/mock-place.ts');
	try {
		const started = performance.now();
		const { pages, bundles } = await writeSearchIndex(
			built.outDir,
			unsearchedAddresses(mockPlace()),
		);
		const seconds = ((performance.now() - started) / 1000).toFixed(1);
		console.log(`Indexed ${indexedPages(pages, bundles)} for search in ${seconds} s`);
	} catch (error) {
		console.error(`✖ ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	}
}
// Otherwise Astro built nothing to index: `--help`, `--version`.
