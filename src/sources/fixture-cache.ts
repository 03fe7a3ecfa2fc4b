/**
 * The views the view schema gave for fixture files' bytes, kept on disk from one start to the
 * next (under node_modules/.cache, as the mock's bundle is), so an unchanged file is not put
 * through the schema again: at 10,000 views the schema is most of reading a folder. An entry is
 * found by the hash of a file's bytes, in a cache file named for the fixture folder and for the
 * code that decides what a valid fixture is (the schemas, the fixture readers, zod's version): an
 * edited file has other bytes and is validated again, and a change to that code starts a new
 * cache file. Only what the schema accepted is kept, as the schema's output (it trims text), so
 * a refused file is read and refused again each time, with the same messages. The rules across
 * fixtures are no part of it. Where nothing can be read or written, there is no cache.
 *
 * A cache file is a line per view: the hash of its bytes, a tab, the view as JSON. New views are
 * added at the end; once it holds more old lines than current ones, it is written afresh.
 */
import { hash } from 'node:crypto';
import { appendFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { View } from '../schemas/view.ts';
import { codeHash, pruneOthers, writeAside } from './disk-cache.ts';

/** Where a checkout keeps its fixture caches, relative to it. */
export const FIXTURE_CACHE_FOLDER = path.join('node_modules', '.cache', 'console-portal-fixtures');

/** The most a cache folder keeps of the caches of other folders (or of older code), in bytes. */
const OTHER_CACHES_MAX_BYTES = 64 * 1024 * 1024;

/** Where a fixture cache is kept and what code it depends on. */
export interface FixtureCacheOptions {
	/** The folder of the cache files. */
	folder: string;
	/** The files whose content decides what a valid fixture is: a change to any starts afresh. */
	code: readonly string[];
}

/**
 * The fixture cache of a checkout (the current folder, as `npm run mock` runs in it): kept in its
 * node_modules/.cache, and depending on its view schemas, its fixture readers and zod.
 */
export function checkoutFixtureCache(root = process.cwd()): FixtureCacheOptions {
	const schemas = path.join(root, 'src', 'schemas');
	let names: string[] = [];
	try {
		names = readdirSync(schemas).filter((name) => name.endsWith('.ts'));
	} catch {
		// No schemas to hash (a checkout without its sources): the code list below cannot be read.
	}
	return {
		folder: path.join(root, FIXTURE_CACHE_FOLDER),
		code: [
			...names.sort().map((name) => path.join(schemas, name)),
			path.join(root, 'src', 'sources', 'fixture-file.ts'),
			path.join(root, 'src', 'sources', 'fixtures.ts'),
			path.join(root, 'src', 'sources', 'fixture-cache.ts'),
			path.join(root, 'node_modules', 'zod', 'package.json'),
		],
	};
}

/** The validated views of one fixture folder's files, by the hash of each file's bytes. */
export interface FixtureCache {
	/** The key of a file's bytes. */
	keyOf: (bytes: Uint8Array) => string;
	/** The view the schema gave for bytes of this key before, a new object each time. */
	get: (key: string) => View | undefined;
	/** Keeps the view the schema gave for bytes of this key; written by `save`. */
	keep: (key: string, view: View) => void;
	/** Writes what was kept since the last save; the views of `current` keys are those in use. */
	save: (current: ReadonlySet<string>) => void;
}

/** The lines of a cache file, by key, as text not yet parsed. */
function readLines(file: string): Map<string, string> {
	const lines = new Map<string, string>();
	let text: string;
	try {
		text = readFileSync(file, 'utf8');
	} catch {
		// No cache file yet, or one that cannot be read: every file is validated, as without a
		// cache.
		return lines;
	}
	for (const line of text.split('\n')) {
		const tab = line.indexOf('\t');
		if (tab > 0) lines.set(line.slice(0, tab), line.slice(tab + 1));
	}
	return lines;
}

/**
 * The cache of a fixture folder (`root`, its real path), or undefined when the code it depends
 * on cannot be read. Its file is read at the first `get`; nothing fails for a cache that cannot
 * be read or written.
 */
export function openFixtureCache(
	root: string,
	options: FixtureCacheOptions,
): FixtureCache | undefined {
	const code = codeHash(options.code);
	if (code === undefined) return undefined;
	const name = `${hash('sha256', root, 'hex').slice(0, 16)}-${code}.views`;
	const file = path.join(options.folder, name);
	let lines: Map<string, string> | undefined;
	const kept: string[] = [];
	const loaded = (): Map<string, string> => (lines ??= readLines(file));
	return {
		keyOf: (bytes) => hash('sha256', bytes, 'base64url'),
		get: (key) => {
			const line = loaded().get(key);
			if (line === undefined) return undefined;
			try {
				return JSON.parse(line) as View;
			} catch {
				// A line cut short or damaged: that file is validated again, as without a cache.
				return undefined;
			}
		},
		keep: (key, view) => {
			const line = JSON.stringify(view);
			loaded().set(key, line);
			kept.push(`${key}\t${line}\n`);
		},
		save: (current) => {
			const all = loaded();
			let stale = 0;
			for (const key of all.keys()) if (!current.has(key)) stale += 1;
			if (kept.length === 0 && stale <= current.size) return;
			try {
				mkdirSync(options.folder, { recursive: true });
				if (stale > current.size) {
					for (const key of all.keys()) if (!current.has(key)) all.delete(key);
					const text = [...all].map(([key, line]) => `${key}\t${line}\n`).join('');
					writeAside(file, text);
				} else {
					appendFileSync(file, kept.join(''));
				}
				kept.length = 0;
				pruneOthers(options.folder, name, OTHER_CACHES_MAX_BYTES, (other) =>
					other.includes('.views'),
				);
			} catch {
				// A cache that cannot be written: the next start validates these files again.
			}
		},
	};
}
