/** Reading a build's search index from disk, as the MCP server's loadIndex takes it. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Every file of the built search index, by its path under `pagefind/`. */
export async function indexFiles(folder: string): Promise<{ path: string; content: Uint8Array }[]> {
	const entries = await readdir(folder, { recursive: true, withFileTypes: true });
	return Promise.all(
		entries
			.filter((entry) => entry.isFile())
			.map(async (entry) => {
				const file = path.join(entry.parentPath, entry.name);
				return { path: path.relative(folder, file), content: await readFile(file) };
			}),
	);
}
