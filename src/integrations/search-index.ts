/**
 * The search index: after `astro build`, Pagefind's Node API indexes the built pages and writes
 * `pagefind/` into the same output folder, whatever `--outDir` the build was given.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AstroIntegration } from 'astro';
import * as pagefind from 'pagefind';

/**
 * Runs a full garbage collection of this process. Rendering thousands of pages leaves most of a
 * gigabyte of garbage on the heap that V8 would collect only on its next allocation; Pagefind
 * then starts beside it, and the two peaked together at 2.2 GB for 10,000 views (heap profile:
 * some 210 MB of it live). Collecting first returns that memory before Pagefind grows. This is
 * how jest-leak-detector reaches `gc` without `--expose-gc` on the command line.
 */
function collectGarbage(): void {
	setFlagsFromString('--expose-gc');
	const gc: unknown = runInNewContext('gc');
	if (typeof gc === 'function') (gc as () => void)();
}

/**
 * Parts of a page that never go into the index, on top of `data-pagefind-ignore`: the try-it
 * panel (its key chooser lists keys) and any element marked as holding a secret.
 */
export const SECRET_SELECTORS = ['try-it', '[data-secret]', '.try-it'] as const;

/** Indexes a built site folder and writes the index into `<folder>/pagefind`. */
export async function writeSearchIndex(folder: string): Promise<{ pages: number }> {
	collectGarbage();
	const { index, errors } = await pagefind.createIndex({
		excludeSelectors: [...SECRET_SELECTORS],
		forceLanguage: 'en',
	});
	if (!index) throw new Error(`Search index: Pagefind did not start: ${errors.join('; ')}`);
	try {
		const added = await index.addDirectory({ path: folder });
		if (added.errors.length > 0) {
			throw new Error(`Search index: indexing ${folder} failed: ${added.errors.join('; ')}`);
		}
		const written = await index.writeFiles({ outputPath: path.join(folder, 'pagefind') });
		if (written.errors.length > 0) {
			throw new Error(`Search index: writing the index failed: ${written.errors.join('; ')}`);
		}
		return { pages: added.page_count };
	} finally {
		await pagefind.close();
	}
}

/** The Astro integration that writes the search index at the end of every build. */
export function searchIndex(): AstroIntegration {
	return {
		name: 'console-portal:search-index',
		hooks: {
			'astro:build:done': async ({ dir, logger }) => {
				const { pages } = await writeSearchIndex(fileURLToPath(dir));
				logger.info(`Indexed ${pages} pages for search`);
			},
		},
	};
}
