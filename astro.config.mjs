// @ts-check
import { defineConfig } from 'astro/config';
import mdx from '@astrojs/mdx';
import { searchIndex } from './src/integrations/search-index.ts';
import { satteri } from '@astrojs/markdown-satteri';
import { safeUrls } from './src/lib/safe-urls.ts';

export default defineConfig({
	site: 'http://127.0.0.1:4321',
	trailingSlash: 'always',
	markdown: { processor: satteri({ hastPlugins: [safeUrls] }) },
	integrations: [mdx(), searchIndex()],
	build: { format: 'directory' },
	devToolbar: { enabled: false },
});
