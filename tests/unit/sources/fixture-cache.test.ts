/**
 * The cache of validated fixtures kept from one start to the next: an unchanged file's view comes
 * from it, while an edited file, a refused one, a change to the schemas' code and a cache that
 * cannot be written all read as they would without it. A view taken from the cache is seen by
 * writing another view into the cache file: a reader that took it from the file shows it.
 */
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FixtureCacheOptions } from '../../../src/sources/fixture-cache.ts';
import {
	createFixtureReader,
	formatProblems,
	readFixtureFolder,
	type FixtureResult,
} from '../../../src/sources/fixtures.ts';
import type { View } from '../../../src/schemas/view.ts';
import { ROOT } from '../../../support/processes.ts';
import { newView, save } from '../../support/fixture-edits.ts';

const production = JSON.parse(
	await readFile(path.join(ROOT, 'content/views/production.json'), 'utf8'),
) as View;

let scratch: string;

beforeAll(async () => {
	scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-fixture-cache-'));
});

afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

/** A folder of two valid views, a cache folder and a copy of a schema file the cache depends on. */
async function setUp(
	name: string,
): Promise<{ views: string; alpha: string; bravo: string; cache: FixtureCacheOptions }> {
	const dir = await mkdtemp(path.join(scratch, `${name}-`));
	const views = path.join(dir, 'views');
	await mkdir(views);
	const alpha = path.join(views, 'alpha.json');
	const bravo = path.join(views, 'bravo.json');
	await writeFile(alpha, JSON.stringify({ ...newView(production, 1), environment: 'qa-alpha' }));
	await writeFile(bravo, JSON.stringify({ ...newView(production, 2), environment: 'qa-bravo' }));
	const schema = path.join(dir, 'view.ts');
	await writeFile(schema, await readFile(path.join(ROOT, 'src/schemas/view.ts')));
	return { views, alpha, bravo, cache: { folder: path.join(dir, 'cache'), code: [schema] } };
}

/** A start's reading of a folder: a new reader, with the cache or without. */
async function start(views: string, cache?: FixtureCacheOptions): Promise<FixtureResult> {
	return (await createFixtureReader(views, cache).read()).result;
}

/** The key of a file's bytes in the cache. */
async function keyOf(file: string): Promise<string> {
	return createHash('sha256')
		.update(await readFile(file))
		.digest('base64url');
}

/** The cache files of a cache folder, as text. */
async function cacheFiles(cache: FixtureCacheOptions): Promise<string[]> {
	const names = await readdir(cache.folder).catch(() => []);
	return Promise.all(names.map((name) => readFile(path.join(cache.folder, name), 'utf8')));
}

/** Writes into the cache, in place of a file's view, that view with another status note. */
async function plant(cache: FixtureCacheOptions, file: string, statusNote: string): Promise<void> {
	const key = await keyOf(file);
	const names = await readdir(cache.folder);
	expect(names).toHaveLength(1);
	const cacheFile = path.join(cache.folder, names[0] ?? '');
	const lines = (await readFile(cacheFile, 'utf8')).split('\n').map((line) => {
		if (!line.startsWith(`${key}\t`)) return line;
		const view = JSON.parse(line.slice(key.length + 1)) as View;
		return `${key}\t${JSON.stringify({ ...view, statusNote })}`;
	});
	await writeFile(cacheFile, lines.join('\n'));
}

describe('the cache of validated fixtures', () => {
	it('gives an unchanged fixture its view at the next start without the schema, as the schema gave it', async () => {
		const { views, alpha, cache } = await setUp('unchanged');
		// The schema trims text: the cache keeps what it gave, not the file's text.
		await writeFile(alpha, JSON.stringify({ ...newView(production, 1), name: '  Alpha view  ' }));
		const first = await start(views, cache);
		expect(first.ok).toBe(true);
		expect(first).toEqual(await readFixtureFolder(views));
		expect(first.views[0]?.view.name).toBe('Alpha view');
		await plant(cache, alpha, 'Planted in the cache.');
		const second = await start(views, cache);
		expect(second.views[0]?.view.statusNote).toBe('Planted in the cache.');
		expect(second.views[0]?.view.name).toBe('Alpha view');
	});

	it('validates an edited fixture again, and refuses a bad edit with the messages it gives without the cache', async () => {
		const { views, alpha, cache } = await setUp('edited');
		await start(views, cache);
		await plant(cache, alpha, 'Planted in the cache.');
		const reader = createFixtureReader(views, cache);
		await reader.read();
		const bad = { ...newView(production, 1), statusNote: ' ' };
		bad.users[2] = { ...production.users[2], email: 'someone@elsewhere.test' } as View['users'][2];
		await save(alpha, JSON.stringify(bad));
		const uncached = await readFixtureFolder(views);
		expect(uncached.ok).toBe(false);
		// The same reader after the edit, and a new start with the cache.
		const again = (await reader.read()).result;
		const restarted = await start(views, cache);
		expect(formatProblems(again.ok ? [] : again.problems)).toBe(
			formatProblems(uncached.ok ? [] : uncached.problems),
		);
		expect(restarted).toEqual(uncached);
		// Edited back to a good view of other bytes: validated, not the planted view.
		await save(alpha, JSON.stringify({ ...newView(production, 1), statusNote: 'Edited back.' }));
		expect((await start(views, cache)).views[0]?.view.statusNote).toBe('Edited back.');
	});

	it('never keeps a refused fixture, which is refused again at every start with the same messages', async () => {
		const { views, alpha, bravo, cache } = await setUp('refused');
		await writeFile(alpha, JSON.stringify({ ...newView(production, 1), statusNote: ' ' }));
		const uncached = await readFixtureFolder(views);
		expect(uncached.ok).toBe(false);
		expect(await start(views, cache)).toEqual(uncached);
		const kept = (await cacheFiles(cache)).join('');
		expect(kept).not.toContain(await keyOf(alpha));
		expect(kept).toContain(await keyOf(bravo));
		expect(await start(views, cache)).toEqual(uncached);
	});

	it('keeps the rules across fixtures at every start: a key used twice is refused though each file is cached', async () => {
		const { views, alpha, bravo, cache } = await setUp('across');
		const alphaView = { ...newView(production, 1), environment: 'qa-alpha' };
		await writeFile(alpha, JSON.stringify(alphaView));
		await writeFile(
			bravo,
			JSON.stringify({ ...newView(production, 2), config: { ...alphaView.config } }),
		);
		const uncached = await readFixtureFolder(views);
		expect(uncached.ok).toBe(false);
		expect(await start(views, cache)).toEqual(uncached);
		expect(await start(views, cache)).toEqual(uncached);
	});

	it('starts afresh when the schemas change: a view kept under the old code is validated again', async () => {
		const { views, alpha, cache } = await setUp('schema');
		await start(views, cache);
		await plant(cache, alpha, 'Planted in the cache.');
		expect((await start(views, cache)).views[0]?.view.statusNote).toBe('Planted in the cache.');
		const [schema = ''] = cache.code;
		await writeFile(schema, `${await readFile(schema, 'utf8')}\n// A rule changed.\n`);
		const after = await start(views, cache);
		expect(after).toEqual(await readFixtureFolder(views));
		expect(after.views[0]?.view.statusNote).not.toBe('Planted in the cache.');
	});

	it('leaves reading as it is without a cache when the cache folder cannot be written or the code read', async () => {
		const { views, alpha, cache } = await setUp('unwritable');
		await writeFile(alpha, JSON.stringify({ ...newView(production, 1), statusNote: ' ' }));
		const uncached = await readFixtureFolder(views);
		// A cache folder inside a regular file cannot be made.
		const blocked = path.join(path.dirname(views), 'a-file');
		await writeFile(blocked, 'not a folder\n');
		const unwritable = { ...cache, folder: path.join(blocked, 'cache') };
		expect(await start(views, unwritable)).toEqual(uncached);
		expect(await start(views, unwritable)).toEqual(uncached);
		const unreadable = { ...cache, code: [path.join(path.dirname(views), 'gone.ts')] };
		expect(await start(views, unreadable)).toEqual(uncached);
		expect(await cacheFiles(unreadable)).toEqual([]);
	});

	it('reads a damaged cache file as no cache for the views it cannot give', async () => {
		const { views, cache } = await setUp('damaged');
		const uncached = await readFixtureFolder(views);
		await start(views, cache);
		const [name = ''] = await readdir(cache.folder);
		const cacheFile = path.join(cache.folder, name);
		const text = await readFile(cacheFile, 'utf8');
		// Cut in the middle of the first view, as a start stopped while writing would leave it.
		await writeFile(cacheFile, text.slice(0, text.indexOf('\t') + 40));
		expect(await start(views, cache)).toEqual(uncached);
	});
	it('refuses a file whose name is no slug though its bytes are a cached view, as without the cache', async () => {
		const { views, alpha, cache } = await setUp('renamed-badly');
		await start(views, cache);
		const copy = path.join(views, 'Alpha Copy.json');
		await writeFile(copy, await readFile(alpha));
		const result = await start(views, cache);
		expect(result.ok).toBe(false);
		expect(result.views.map(({ slug }) => slug)).toEqual(['alpha', 'bravo']);
		expect('problems' in result ? result.problems : []).toEqual([
			{
				file: copy,
				field: '',
				message: 'expected a file name that is a lowercase slug, like staging-us-east.json',
			},
		]);
	});
});
