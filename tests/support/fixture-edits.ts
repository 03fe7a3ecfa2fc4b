/** Edits tests make to a copied fixture folder: a new view beside the real ones, an editor's save. */
import { rename, writeFile } from 'node:fs/promises';
import type { View } from '../../src/schemas/view.ts';

/**
 * A new view made from an existing one, for the slug `qa-eu-west`: its own keys (the seed makes
 * them differ between versions) and emails, so it is valid beside the real set.
 */
export function newView(from: View, seed: number, firstName = 'Quinn Example'): View {
	// Its name comes from its own labels (`qa-eu-west · QA`), never the template's own name.
	const { name: _name, ...template } = from;
	const key = (index: number): string =>
		`ick-${(0xa0000000 + seed * 16 + index).toString(16)}-Live`;
	return {
		...template,
		environment: 'qa-eu-west',
		configuration: 'QA',
		config: { ...from.config, api_key: key(15) },
		users: from.users.map((user, index) => ({
			...user,
			name: index === 0 ? firstName : user.name,
			email: `qa.${index}@example.com`,
			apiKey: key(index),
		})),
	};
}

/** Writes a file the way an editor saves it: a new file renamed over the old one. */
export async function save(file: string, text: string): Promise<void> {
	const temporary = `${file}.tmp-${process.pid}`;
	await writeFile(temporary, text);
	await rename(temporary, file);
}
