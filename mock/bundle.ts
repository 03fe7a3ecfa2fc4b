/**
 * The mock's code as one file, made with esbuild as the image's is (scripts/lib/images.ts), and
 * kept under node_modules/.cache/console-portal-mock by the hash of what went into it: `npm run
 * mock` runs it, because loading one file costs far less than resolving, reading and compiling
 * the 1,500-odd modules the mock and Prism are made of. It holds code only: the fixtures and the
 * contract are read, and followed, at run time as from the sources.
 *
 * The hash covers the content of every one of our files in the bundle (mock/, src/), as esbuild
 * read them, this file and the list of Prism's stand-ins (stand-ins.ts), the installed packages
 * (npm's record of them, node_modules/.package-lock.json, and package-lock.json), the checkout's
 * place and Node's version. A start reads those files
 * again (about 60, a few milliseconds), and an edit to any of them, a new dependency or an
 * `npm ci` makes a new bundle at the next start, which takes about a second. What esbuild cannot
 * bundle, or a cache folder that cannot be written, leaves the mock to run from its sources.
 *
 * Prism's five stand-ins (mock/prism-imports.ts says why) are taken as they are at run time,
 * outside the bundle: the resolve hook is not in it, so no import pays for it.
 */
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, readdir, rm } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import type { BuildOptions, Plugin } from 'esbuild';
import { writeAside } from '../src/sources/disk-cache.ts';
import { STAND_INS } from './stand-ins.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Where a checkout keeps its mock bundles. */
export const BUNDLE_FOLDER = path.join('node_modules', '.cache', 'console-portal-mock');

/** A checkout whose mock is bundled: its folder, the entry, and where its bundles are kept. */
interface Checkout {
	root: string;
	entry: string;
	cache: string;
	/**
	 * The checkout's and the entry's name in the cache folder: another checkout may share the
	 * node_modules folder (a git worktree with a link to it), and another entry of this one is
	 * bundled too (`npm start`'s, mock/embedded.ts); each keeps its own bundle beside the others.
	 */
	tag: string;
	record: string;
}

/** A checkout, from its folder and its entry (relative to it). */
function checkout(root: string, entry: string): Checkout {
	const cache = path.join(root, BUNDLE_FOLDER);
	const tag = createHash('sha256').update(`${root}\0${entry}`).digest('hex').slice(0, 8);
	return { root, entry, cache, tag, record: path.join(cache, `${tag}.json`) };
}

/**
 * What every bundle of the mock is, this one and the image's (scripts/lib/images.ts): one ES
 * module for Node 24, whose CommonJS dependencies get a require() of their own.
 */
export const MOCK_BUNDLE_OPTIONS: BuildOptions = {
	bundle: true,
	platform: 'node',
	format: 'esm',
	target: 'node24',
	// jsonc-parser's UMD build loads its parts with a require() no bundler follows.
	mainFields: ['module', 'main'],
	// CommonJS dependencies call require() for Node's built-ins; an ES module has none of its own.
	banner: {
		js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
	},
};

/** The record of the newest bundle: its hash, and our files that went into it. */
interface BundleRecord {
	hash: string;
	inputs: string[];
}

/** The hash of our files' contents (by path, relative to the checkout) and what else a bundle depends on. */
async function hashOf(
	at: Checkout,
	contents: ReadonlyMap<string, Buffer | string>,
): Promise<string> {
	const hash = createHash('sha256');
	const extras = [
		import.meta.filename,
		// Which of Prism's imports the bundle leaves to a stand-in.
		path.join(import.meta.dirname, 'stand-ins.ts'),
		path.join(at.root, 'node_modules', '.package-lock.json'),
		path.join(at.root, 'package-lock.json'),
	];
	hash.update(`${at.root}\0${at.entry}\0${process.version}\0`);
	for (const file of extras) {
		hash.update(`${file}\0`);
		hash.update(await readFile(file).catch(() => 'missing'));
	}
	for (const [file, content] of [...contents].sort(([a], [b]) => (a < b ? -1 : 1))) {
		hash.update(`\0${file}\0`);
		hash.update(content);
	}
	return hash.digest('hex').slice(0, 20);
}

/** The newest bundle's file if it was made from our files as they are now, else undefined. */
async function freshBundle(at: Checkout): Promise<string | undefined> {
	let record: BundleRecord;
	try {
		record = JSON.parse(await readFile(at.record, 'utf8')) as BundleRecord;
		if (typeof record.hash !== 'string' || !Array.isArray(record.inputs)) return undefined;
	} catch {
		// No record yet, or one cut short: a new bundle is made, and recorded whole.
		return undefined;
	}
	const contents = new Map<string, Buffer>();
	try {
		await Promise.all(
			record.inputs.map(async (input) =>
				contents.set(input, await readFile(path.join(at.root, input))),
			),
		);
	} catch {
		// A file gone: the next bundle says what the code is now.
		return undefined;
	}
	if ((await hashOf(at, contents)) !== record.hash) return undefined;
	const file = path.join(at.cache, `${at.tag}-${record.hash}.mjs`);
	return access(file).then(
		() => file,
		() => undefined,
	);
}

/**
 * Esbuild's plugin that keeps what our files hold as it reads them (so the hash is of what was
 * bundled), leaves the resolve hook out, and takes Prism's stand-ins from mock/ at run time.
 */
function recording(at: Checkout, contents: Map<string, string>): Plugin {
	return {
		name: 'console-portal-mock',
		setup(build) {
			build.onResolve(
				{ filter: /^(?:@(?:faker-js|stoplight)\/|(?:node|isomorphic)-fetch$)/ },
				({ path: specifier, importer }) => {
					const standIn = STAND_INS.find(
						(each) => each.specifier === specifier && importer.endsWith(each.importer),
					);
					return standIn
						? { path: path.join(at.root, 'mock', standIn.file), external: true }
						: undefined;
				},
			);
			// Node's built-ins as require() gives them: imported as ES modules, each gets a namespace
			// of all its exports, and node:http's reads its lazy WebSocket ones, which load undici,
			// Node's fetch: a third of a second at each start for nothing the mock uses.
			build.onResolve({ filter: /^(?:node:)?[a-z_/0-9]+$/ }, ({ path: specifier, kind }) =>
				kind === 'import-statement' && isBuiltin(specifier)
					? { path: specifier, namespace: 'node-builtin' }
					: undefined,
			);
			build.onLoad({ filter: /.*/, namespace: 'node-builtin' }, ({ path: specifier }) => ({
				contents: `module.exports = require(${JSON.stringify(specifier)});`,
				loader: 'js',
			}));
			build.onLoad({ filter: /\.(?:ts|js|cjs|mjs|json)$/ }, async ({ path: file }) => {
				const relative = path.relative(at.root, file);
				if (relative.startsWith('..') || relative.split(path.sep).includes('node_modules'))
					return undefined;
				const text = await readFile(file, 'utf8');
				contents.set(relative, text);
				const loader = file.endsWith('.ts') ? 'ts' : file.endsWith('.json') ? 'json' : 'js';
				// The hook is for Prism loaded from node_modules; the bundle holds Prism already.
				return { contents: relative === path.join('mock', 'prism-imports.ts') ? '' : text, loader };
			});
		},
	};
}

/** Makes a bundle of the mock, records it, and removes the older ones; its file, or undefined. */
async function makeBundle(at: Checkout): Promise<string | undefined> {
	const { build } = await import('esbuild');
	const contents = new Map<string, string>();
	const made = await build({
		...MOCK_BUNDLE_OPTIONS,
		entryPoints: [path.join(at.root, at.entry)],
		absWorkingDir: at.root,
		write: false,
		logLevel: 'silent',
		plugins: [recording(at, contents)],
	});
	const [output] = made.outputFiles;
	if (!output) return undefined;
	const hash = await hashOf(at, contents);
	const file = path.join(at.cache, `${at.tag}-${hash}.mjs`);
	await mkdir(at.cache, { recursive: true });
	// Each written whole, so a mock starting meanwhile reads a whole file or none.
	writeAside(file, output.contents);
	const record: BundleRecord = { hash, inputs: [...contents.keys()].sort() };
	writeAside(at.record, JSON.stringify(record));
	for (const name of await readdir(at.cache)) {
		if (name.startsWith(`${at.tag}-`) && name.endsWith('.mjs') && name !== path.basename(file))
			await rm(path.join(at.cache, name), { force: true });
	}
	return file;
}

/** Says on stderr why the mock runs from its sources. */
function warn(line: string): void {
	console.warn(line);
}

/**
 * The mock's bundle for the code as it is now: the one kept if it was made from it, else a new
 * one; undefined when none can be made (the mock then runs from its sources), which is said once
 * with its cause through `report`. `root` and `entry` name another checkout and file to bundle
 * (the tests' own).
 */
export async function mockBundle(
	root = ROOT,
	entry = 'mock/main.ts',
	report: (line: string) => void = warn,
): Promise<string | undefined> {
	const at = checkout(root, entry);
	try {
		return (await freshBundle(at)) ?? (await makeBundle(at));
	} catch (error) {
		const cause = error instanceof Error ? error.message : String(error);
		report(
			`The mock runs from its sources, more slowly: its bundle could not be made (${cause.trim().replaceAll('\n', '; ')}).`,
		);
		return undefined;
	}
}
