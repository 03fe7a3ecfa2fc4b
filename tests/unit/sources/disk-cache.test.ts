/**
 * Writing a cache file whole: the contract cache, the fixture cache and the mock's bundle all
 * write aside and rename, so a start that reads meanwhile reads a whole file or none.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeAside } from '../../../src/sources/disk-cache.ts';

let folder: string;

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-disk-cache-'));
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe('writeAside', () => {
	it('replaces a cache file with the new text and leaves no file aside', async () => {
		const file = path.join(folder, 'cache.views');
		await writeFile(file, 'the reading before\n');
		writeAside(file, 'the new reading\n');
		expect(await readFile(file, 'utf8')).toBe('the new reading\n');
		writeAside(file, new Uint8Array([0x6f, 0x6b]));
		expect(await readFile(file, 'utf8')).toBe('ok');
		expect(await readdir(folder)).toEqual(['cache.views']);
	});

	it('fails where the folder is missing, which the caches take as no cache', () => {
		expect(() => writeAside(path.join(folder, 'gone', 'cache.v8'), 'text')).toThrow(/ENOENT/);
	});
});
