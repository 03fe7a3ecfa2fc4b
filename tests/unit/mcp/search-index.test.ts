/**
 * The MCP server's search index is kept on disk by the sources' search key: a start with the same
 * sources searches from the index kept, without reading the contract, its history or the guides
 * or running Pagefind's indexer; a change to the sources makes it again.
 */
import { copyFile, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPortalReader, type PortalReader } from '../../../mcp/portal.ts';
import { createSearchIndex, type SearchCacheOptions } from '../../../mcp/search-index.ts';
import { searchPortal } from '../../../mcp/search-query.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import { createRepo } from '../../../support/git-repo.ts';
import { ROOT } from '../../../support/processes.ts';

let folder: string;
let cache: SearchCacheOptions;

/** The repository's reader, counting the readings that making an index needs, under a key given. */
function countingReader(key: () => string): { reader: PortalReader; made: () => number } {
	const reader = createPortalReader(
		readSettings({ ...process.env, PORTAL_VIEWS_DIR: path.join(ROOT, 'content/views') }),
	);
	let made = 0;
	return {
		reader: {
			...reader,
			searchKey: () => Promise.resolve(key()),
			snapshot: () => {
				made += 1;
				return reader.snapshot();
			},
		},
		made: () => made,
	};
}

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'mcp-search-cache-'));
	const code = path.join(folder, 'code.ts');
	await writeFile(code, 'export {};\n');
	cache = { folder: path.join(folder, 'cache'), code: [code] };
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe('the search index kept between starts', () => {
	it('a second start with the same sources searches from the index kept, without making it', async () => {
		const first = countingReader(() => 'sources-1');
		const found = await searchPortal(await createSearchIndex(first.reader, cache)(), 'admin');
		expect(first.made()).toBe(1);
		expect(await readdir(cache.folder)).toHaveLength(1);

		const second = countingReader(() => 'sources-1');
		const again = await searchPortal(await createSearchIndex(second.reader, cache)(), 'admin');
		expect(second.made()).toBe(0);
		expect(again).toEqual(found);
	});

	it('sources that changed make the index again, once, and searches after it reuse it', async () => {
		let key = 'sources-2';
		const reader = countingReader(() => key);
		const index = createSearchIndex(reader.reader, cache);
		await index();
		await index();
		expect(reader.made()).toBe(1);
		key = 'sources-3';
		await index();
		expect(reader.made()).toBe(2);
	});

	it('the search key changes when a guide changes, and not from one call to the next', async () => {
		const docs = path.join(folder, 'docs');
		await mkdir(docs);
		await writeFile(path.join(docs, 'a.mdx'), '---\ntitle: A\n---\nOne.\n');
		const reader = createPortalReader(
			readSettings({
				...process.env,
				PORTAL_VIEWS_DIR: path.join(ROOT, 'content/views'),
				PORTAL_DOCS_DIR: docs,
			}),
		);
		const before = await reader.searchKey();
		expect(await reader.searchKey()).toBe(before);
		await writeFile(path.join(docs, 'a.mdx'), '---\ntitle: A\n---\nOne, and two.\n');
		expect(await reader.searchKey()).not.toBe(before);
	});

	it('a commit of other files keeps the search key; a commit of the contract changes it', async () => {
		const repo = await createRepo(path.join(folder, 'repo'));
		const contract = path.join(repo.folder, 'openapi.yaml');
		await copyFile(path.join(ROOT, 'openapi.yaml'), contract);
		const by = { author: 'Ada Lovelace', date: '2026-10-01T09:00:00Z' };
		repo.commit('Add the contract', by);
		const reader = createPortalReader(
			readSettings({
				...process.env,
				PORTAL_VIEWS_DIR: path.join(ROOT, 'content/views'),
				PORTAL_OPENAPI: contract,
			}),
		);
		const before = await reader.searchKey();
		await writeFile(path.join(repo.folder, 'notes.txt'), 'other work\n');
		repo.commit('Other work', { ...by, date: '2026-10-02T09:00:00Z' });
		expect(await reader.searchKey()).toBe(before);
		repo.git(['rm', '--quiet', '--cached', 'openapi.yaml']);
		// The file itself is left as it was: only its history changed.
		const ada = { NAME: 'Ada Lovelace', EMAIL: 'ada.lovelace@example.com' };
		repo.git(['commit', '--quiet', '--no-verify', '-m', 'Contract dropped from git'], {
			GIT_AUTHOR_NAME: ada.NAME,
			GIT_AUTHOR_EMAIL: ada.EMAIL,
			GIT_COMMITTER_NAME: ada.NAME,
			GIT_COMMITTER_EMAIL: ada.EMAIL,
		});
		expect(await reader.searchKey()).not.toBe(before);
	});
});
