/**
 * The guides outside Astro: each `content/docs/<id>.mdx` with its frontmatter checked by the
 * collection's own schema (`guideSchema`), for the MCP server, which runs without the build. The
 * build reads the same files through its `docs` collection.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { guideSchema } from '../schemas/guide.ts';

/** One guide: its id (the file name without `.mdx`), its frontmatter, and its MDX source. */
export interface GuideSource {
	id: string;
	title: string;
	description: string;
	order: number;
	/** The MDX after the frontmatter: prose, commands and component tags. */
	body: string;
}

/** A frontmatter block at the start of a file: `---`, YAML, `---`. */
const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

/** Reads one guide's text, or throws naming the file and the field that is wrong. */
export function parseGuide(id: string, text: string, file: string): GuideSource {
	const match = FRONTMATTER.exec(text);
	if (!match) throw new Error(`${file}: expected a frontmatter block between --- lines`);
	const parsed = guideSchema.safeParse(parse(match[1] ?? ''));
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new Error(`${file}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'invalid'}`);
	}
	return { id, ...parsed.data, body: text.slice(match[0].length) };
}

/** Every guide of a folder, in the sidebar's order (by `order`, then title). */
export async function readGuides(folder: string): Promise<GuideSource[]> {
	const names = (await readdir(folder)).filter((name) => name.endsWith('.mdx')).sort();
	const guides = await Promise.all(
		names.map(async (name) => {
			const file = path.join(folder, name);
			return parseGuide(name.slice(0, -'.mdx'.length), await readFile(file, 'utf8'), file);
		}),
	);
	return guides.sort((a, b) => a.order - b.order || a.title.localeCompare(b.title));
}
