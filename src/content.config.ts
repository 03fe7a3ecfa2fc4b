import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import { viewsLoader } from './integrations/views-loader.ts';
import { viewSchema } from './schemas/view.ts';
import { guideSchema } from './schemas/guide.ts';
import { readSettings } from './sources/settings.ts';

const settings = readSettings();

const views = defineCollection({
	loader: viewsLoader(settings.viewsDir),
	schema: viewSchema,
});

const docs = defineCollection({
	loader: glob({ pattern: '**/*.mdx', base: settings.docsDir }),
	schema: guideSchema,
});

export const collections = { views, docs };
