/**
 * Tells the pages whether they are being built (`astro build`) rather than served by the dev
 * server, as `import.meta.env.PORTAL_BUILT_PAGES`: BaseLayout writes the Content-Security-Policy
 * into built pages only (src/site/content-security-policy.ts), as Astro's own CSP did; the dev
 * server's styles are inline. And a build's pages take the views from the build's own reading,
 * where the dev server's take the views collection (src/site/view-collection.ts). Vite's `PROD`
 * says neither: a build run with NODE_ENV=test (as the tests run it) is not "production" to Vite.
 */
import type { AstroIntegration } from 'astro';

declare global {
	interface ImportMetaEnv {
		/** Whether the pages are being built by `astro build`, not served by the dev server. */
		readonly PORTAL_BUILT_PAGES?: boolean;
	}
}

/** Defines `import.meta.env.PORTAL_BUILT_PAGES` for the pages: true in `astro build` only. */
export function builtPagesPolicy(): AstroIntegration {
	return {
		name: 'console-portal:built-pages-policy',
		hooks: {
			'astro:config:setup': ({ command, updateConfig }) => {
				updateConfig({
					vite: {
						define: { 'import.meta.env.PORTAL_BUILT_PAGES': JSON.stringify(command === 'build') },
					},
				});
			},
		},
	};
}
