/**
 * What the caches kept under node_modules/.cache share (the fixture cache, `fixture-cache.ts`, the
 * contract cache, `contract-cache.ts`, and the mock's bundle, `mock/bundle.ts`): the hash of the
 * code a cache depends on, which names its files, writing a file whole, and the pruning of the
 * files that code or other inputs left behind.
 */
import { hash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The hash of the code a cache depends on (each file's path and content, then `salt`), or
 * undefined when there is no code or a file of it cannot be read.
 */
export function codeHash(code: readonly string[], salt = ''): string | undefined {
	if (code.length === 0) return undefined;
	try {
		const parts = code.map((file) => `${file}\0${hash('sha256', readFileSync(file))}`);
		return hash('sha256', [...parts, salt].join('\0'), 'hex').slice(0, 16);
	} catch {
		// A file of the code gone or unreadable: no cache, so nothing is read for the wrong code.
		return undefined;
	}
}

/**
 * Writes a file aside (its name and this process's id) and renames it into place, so that a
 * reader meanwhile, in this process or another, reads the whole file or none.
 */
export function writeAside(file: string, data: string | NodeJS.ArrayBufferView): void {
	const aside = `${file}.${process.pid}`;
	writeFileSync(aside, data);
	renameSync(aside, file);
}

/**
 * Removes, of a cache folder's files whose names `matches` accepts, all but `kept` and the newest
 * others up to `maxBytes` (files left aside count too).
 */
export function pruneOthers(
	folder: string,
	kept: string,
	maxBytes: number,
	matches: (name: string) => boolean,
): void {
	const others = readdirSync(folder)
		.filter((name) => matches(name) && name !== kept)
		.map((name) => ({ file: path.join(folder, name), info: statSync(path.join(folder, name)) }))
		.sort((a, b) => b.info.mtimeMs - a.info.mtimeMs);
	let bytes = 0;
	for (const { file, info } of others) {
		bytes += info.size;
		if (bytes > maxBytes) rmSync(file, { force: true });
	}
}
