import { z } from 'zod';

/** The frontmatter of an MDX guide under `content/docs/`. */
export const guideSchema = z.strictObject({
	/** The guide's title, shown as its heading and in navigation. */
	title: z.string().min(1),
	/** One sentence on what the guide teaches. */
	description: z.string().min(1),
	/** Where the guide sits in the navigation; lower comes first. */
	order: z.number().int().default(100),
});
