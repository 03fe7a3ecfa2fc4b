// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { searchIndex } from './src/integrations/search-index.ts';
import { tryItValidators } from './src/integrations/try-it-validators.ts';
import { satteri } from '@astrojs/markdown-satteri';
import { safeUrls } from './src/integrations/safe-urls.ts';
import { tableScroll } from './src/integrations/table-scroll.ts';
import { codeBlocks } from './src/integrations/code-blocks.ts';
import { readSettings } from './src/sources/settings.ts';
import { stopOnDisagreement } from './src/sources/settings-agreement.ts';
import { allowedHosts } from './src/integrations/allowed-hosts.ts';
import { builtPagesPolicy } from './src/integrations/built-pages-policy.ts';
import { stopWithParent } from './src/integrations/stop-with-parent.ts';

const { mockUrl, portalUrl, portalAllowedHosts, buildCacheDir } = readSettings();
// Settings that disagree (PORTAL_URL's host not allowed, a mock browsers would block) stop the build.
stopOnDisagreement({ mockUrl, portalUrl, portalAllowedHosts });

export default defineConfig({
	// Where readers reach the portal (PORTAL_URL): samples name a mock on its own origin with it.
	site: portalUrl,
	// The collections' data store is written here and read back by the same build: two builds at
	// once of different fixtures (the tests') each get a folder of their own, PORTAL_BUILD_CACHE_DIR.
	cacheDir: buildCacheDir,
	trailingSlash: 'always',
	markdown: {
		// Guide tables scroll in their own box, as the pages' own tables do; code blocks are the
		// portal's own, highlighted with Shiki at build time (src/site/highlight.ts).
		processor: satteri({ hastPlugins: [safeUrls, tableScroll, codeBlocks] }),
		// Astro's highlighters write inline styles (Shiki) or Prism's classes: codeBlocks marks
		// tokens with the portal's own classes, which the CSP allows without 'unsafe-inline'.
		syntaxHighlight: false,
	},
	integrations: [
		mdx(),
		builtPagesPolicy(),
		searchIndex(),
		tryItValidators(),
		allowedHosts(portalAllowedHosts),
		stopWithParent(),
	],
	// The dev server answers 127.0.0.1, localhost and [::1], and the names in PORTAL_ALLOWED_HOSTS.
	server: { allowedHosts: [...portalAllowedHosts] },
	build: {
		format: 'directory',
		// Stylesheets as cached files, not repeated in every page's HTML.
		inlineStylesheets: 'never',
		// Four pages in flight: a page waits on the file system (its folder made, its file written)
		// while the next ones render. One at a time, a 10,000-view build left the process idle for
		// much of its 33,000 pages and files; four made it 11% faster there and 5 to 10% at 1,000
		// views, with the same pages and no more memory.
		concurrency: 4,
	},
	devToolbar: { enabled: false },
	// Astro's node log with each route built on a line of its own (src/integrations/build-log.ts).
	logger: { entrypoint: './src/integrations/build-log.ts' },
	// Small scripts as cached files too, not inlined (and hashed into the CSP) on every page.
	vite: {
		build: {
			assetsInlineLimit: 0,
			rolldownOptions: {
				// Astro marks every MDX file that imports a component with the directive "use
				// astro:head-inject", which Rolldown then warns it may not keep: six ten-line warnings a
				// build that no one here can act on (withastro/astro#18087, open). Only that warning is
				// dropped; every other one is printed as before.
				onwarn(warning, warn) {
					if (
						warning.code === 'MODULE_LEVEL_DIRECTIVE' &&
						warning.message.includes('astro:head-inject')
					)
						return;
					warn(warning);
				},
			},
		},
	},
	// Each built page carries a CSP <meta> with the hash of its one inline script and no
	// 'unsafe-inline', written by BaseLayout from src/site/content-security-policy.ts (builds only:
	// builtPagesPolicy). Not Astro's
	// security.csp: it hashed every page's stylesheet and script links again as it rendered it and
	// listed hashes no page used, which a second pass then took out of every page.
});
