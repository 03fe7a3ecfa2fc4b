/** A copy of the repository's view fixtures, for tests and benchmarks that add to or edit them. */
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { readSettings } from '../src/sources/settings.ts';

/** Copies the repository's view fixtures into `folder` (created). */
export async function copyFixtures(folder: string): Promise<void> {
	await mkdir(folder, { recursive: true });
	const source = readSettings({}).viewsDir;
	for (const name of await readdir(source)) {
		await copyFile(path.join(source, name), path.join(folder, name));
	}
}
