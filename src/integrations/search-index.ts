/**
 * The search index: after `astro build`, Pagefind's Node API indexes the built pages and writes
 * `pagefind/` into the same output folder, whatever `--outDir` the build was given.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import type { AstroIntegration } from 'astro';
import * as pagefind from 'pagefind';

/**
 * Parts of a page that never go into the index, on top of `data-pagefind-ignore`: the try-it
 * panel (its key chooser lists keys) and any element marked as holding a secret.
 */
export const SECRET_SELECTORS = ['try-it', '[data-secret]', '.try-it'] as const;

/** Indexes a built site folder and writes the index into `<folder>/pagefind`. */
export async function writeSearchIndex(folder: string): Promise<{ pages: number }> {
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
