/** What the mock refuses to load, with the same message the build gives. */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSourceReader, loadState, viewChanges } from '../../../mock/state.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import { copyFixtures } from '../../../support/fixtures.ts';
import { ROOT } from '../../../support/processes.ts';

describe('the mock reads the fixtures by the build’s rules', () => {
	it('refuses two views that would share a name, naming both files', async () => {
		const loading = loadState({
			viewsDir: path.join(ROOT, 'tests/fixtures/duplicate-names/views'),
			contractFile: readSettings({}).openApiFile,
			mockOrigin: 'http://127.0.0.1:1',
		});
		await expect(loading).rejects.toThrow(
			'tests/fixtures/duplicate-names/views/dr-eu-west.json: name: expected a name no other view has, but tests/fixtures/duplicate-names/views/dr-eu-west-failover.json and this view are both named "dr-eu-west · DR"',
		);
		await expect(loading).rejects.toHaveProperty('name', 'SourceError');
	});

	it('refuses a named pipe in the fixture folder without waiting on it, and loads once it is gone', async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-mock-pipe-'));
		try {
			const viewsDir = path.join(folder, 'views');
			await copyFixtures(viewsDir);
			const pipe = path.join(viewsDir, 'pipe.json');
			execFileSync('mkfifo', [pipe]);
			const reader = createSourceReader({
				viewsDir,
				contractFile: readSettings({}).openApiFile,
				mockOrigin: 'http://127.0.0.1:1',
			});
			const loading = reader.load();
			await expect(loading).rejects.toThrow(
				`Invalid view fixtures (1 problem):\n  ${pipe}: expected a regular file, but this is a named pipe (FIFO)`,
			);
			await expect(loading).rejects.toHaveProperty('name', 'SourceError');
			await rm(pipe);
			const state = await reader.load();
			expect(state.views).toHaveLength(8);
			// Each view's stamp is its file's, as the fixture reader took it.
			const production = path.join(viewsDir, 'production.json');
			const info = await stat(production, { bigint: true });
			expect(state.viewStamps.get('production')).toBe(`${info.ino}:${info.size}:${info.mtimeNs}`);
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});
});

describe('what changed between two readings', () => {
	it('names only the views whose content changed when every file was written anew, as a ConfigMap update does', async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-mock-changes-'));
		try {
			const viewsDir = path.join(folder, 'views');
			await copyFixtures(viewsDir);
			const reader = createSourceReader({
				viewsDir,
				contractFile: readSettings({}).openApiFile,
				mockOrigin: 'http://127.0.0.1:1',
			});
			const before = await reader.load();
			// Every file replaced by a new one (a new inode), one of them with a user renamed.
			for (const name of await readdir(viewsDir)) {
				const file = path.join(viewsDir, name);
				const text = await readFile(file, 'utf8');
				const changed =
					name === 'production.json' ? text.replace('Amara Okafor', 'Amara Renamed') : text;
				expect(name !== 'production.json' || changed !== text).toBe(true);
				await writeFile(`${file}.new`, changed);
				await rename(`${file}.new`, file);
			}
			const after = await reader.load();
			expect(viewChanges(before, after)).toEqual({
				added: [],
				changed: ['production'],
				removed: [],
			});
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});
});
