/**
 * Reads a whole set of view fixtures: each file through the view schema, then the rules that
 * span fixtures (no key used twice in the portal, no name given to two views). Every problem names
 * the file, the field as spelled in the fixture (`users[3].apiKey`) and what was expected. The
 * build's content loader and the mock read through the same folder reader, which remembers each
 * file's stamp so that reading again parses only what changed (`fixture-file.ts` reads one file),
 * and, given a cache (`fixture-cache.ts`), takes the view of a file whose bytes the schema
 * accepted at an earlier start from it.
 */
import { readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import unhomoglyph from 'unhomoglyph';
import type { z } from 'zod';
import { nameKey, nameShape, viewName } from '../shared/views.ts';
import { SLUG_MAX_LENGTH, SLUG_PATTERN, viewSchema, type View } from '../schemas/view.ts';
import {
	decodeFixture,
	fieldPath,
	lookAtFixture,
	parseFixtureJson,
	readFixtureBytes,
	readListedFixture,
	type FixtureLook,
} from './fixture-file.ts';
import { openFixtureCache, type FixtureCache, type FixtureCacheOptions } from './fixture-cache.ts';

/** A view read from its fixture file. */
export interface ViewEntry {
	/** The file name without `.json`: the page lives at `/views/<slug>/`. */
	slug: string;
	/** The fixture's path, as given to the reader. */
	file: string;
	/** The validated view. */
	view: View;
}

/** One thing wrong with one fixture. */
export interface FixtureProblem {
	/** The fixture's path. */
	file: string;
	/** The field as spelled in the fixture, e.g. `users[3].apiKey`; empty for the whole file. */
	field: string;
	/** What was expected. */
	message: string;
}

/** The outcome of reading a fixture set. */
export type FixtureResult =
	{ ok: true; views: ViewEntry[] } | { ok: false; problems: FixtureProblem[]; views: ViewEntry[] };

/** A fixture file's path and text. */
export interface FixtureSource {
	file: string;
	text: string;
}

/** Turns zod issues into fixture problems, one per field. */
function problemsFromIssues(file: string, issues: readonly z.core.$ZodIssue[]): FixtureProblem[] {
	return issues.flatMap((issue) => {
		if (issue.code === 'unrecognized_keys') {
			return issue.keys.map((key) => ({
				file,
				field: fieldPath([...issue.path, key]),
				message: 'is not a field of a view fixture; expected it to be removed or renamed',
			}));
		}
		return [{ file, field: fieldPath(issue.path), message: issue.message }];
	});
}

/** Where each key is used, for the rule that no key is used twice in the portal. */
function duplicateKeyProblems(entries: readonly ViewEntry[]): FixtureProblem[] {
	const firstUse = new Map<string, { file: string; field: string }>();
	const problems: FixtureProblem[] = [];
	for (const { file, view } of entries) {
		const uses = [
			{ field: 'config.api_key', key: view.config.api_key },
			...view.users.map((user, index) => ({ field: `users[${index}].apiKey`, key: user.apiKey })),
		];
		for (const { field, key } of uses) {
			const first = firstUse.get(key);
			if (first) {
				problems.push({
					file,
					field,
					message: `expected a key used nowhere else in the portal, but ${first.file} uses it at ${first.field}`,
				});
			} else {
				firstUse.set(key, { file, field });
			}
		}
	}
	return problems;
}

/** A text's confusable skeleton (Unicode UTS #39): look-alike characters become one. */
function skeleton(text: string): string {
	return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

/** The keys under which two names read alike, each view's computed once. */
const alikeKeysOf = new WeakMap<View, readonly string[]>();

/**
 * The forms under which two names read alike: the skeleton of the name with case aside (Cyrillic
 * "р" for Latin "p"), and of the name as cased (capital "I" for small "l"). Both come after
 * `nameKey`'s folding: invisible characters dropped, NFKC, runs of spaces made one.
 */
function alikeKeys(view: View): readonly string[] {
	const known = alikeKeysOf.get(view);
	// Stryker disable next-line ConditionalExpression: a cache: without it the same keys are made again
	if (known) return known;
	const name = viewName(view);
	const keys = [`caseless ${skeleton(nameKey(name))}`, `cased ${skeleton(nameShape(name))}`];
	// Stryker disable next-line CallExpression: a cache: without it the same keys are made again
	alikeKeysOf.set(view, keys);
	return keys;
}

/**
 * Where each view's name is used, for the rule that no two views share one: titles, links,
 * search and compare tell views apart by their names alone, so names that read alike (case,
 * invisible characters, compatibility forms and look-alike letters aside) count as one.
 */
function duplicateNameProblems(entries: readonly ViewEntry[]): FixtureProblem[] {
	const firstUse = new Map<string, ViewEntry>();
	const problems: FixtureProblem[] = [];
	for (const entry of entries) {
		const keys = alikeKeys(entry.view);
		const first = keys.map((key) => firstUse.get(key)).find((found) => found !== undefined);
		if (!first) {
			for (const key of keys) firstUse.set(key, entry);
			continue;
		}
		const name = viewName(entry.view);
		const firstName = viewName(first.view);
		const names =
			firstName === name ? `"${name}"` : `"${firstName}" and "${name}", which read alike`;
		const unnamed =
			first.view.name && entry.view.name
				? ''
				: ' (a view without a "name" field is named by its environment and configuration labels)';
		problems.push({
			file: entry.file,
			field: 'name',
			message: `expected a name no other view has, but ${first.file} and this view are both named ${names}${unnamed}; give one of them a "name" of its own`,
		});
	}
	return problems;
}

/** One fixture file read on its own: its view, or what is wrong with it. */
export type ParsedFixture =
	{ view: ViewEntry; problems: [] } | { view?: undefined; problems: FixtureProblem[] };

/** The problems of a fixture's file name, which becomes its page's address. */
function fileNameProblems(file: string): FixtureProblem[] {
	const slug = path.basename(file, '.json');
	if (!SLUG_PATTERN.test(slug)) {
		return [
			{
				file,
				field: '',
				message: 'expected a file name that is a lowercase slug, like staging-us-east.json',
			},
		];
	}
	if (slug.length > SLUG_MAX_LENGTH) {
		return [
			{
				file,
				field: '',
				message: `expected a file name of at most ${SLUG_MAX_LENGTH} characters before .json, but this one has ${slug.length}`,
			},
		];
	}
	return [];
}

/** Validates one fixture source on its own: file name, JSON and the view schema. */
export function parseFixtureSource({ file, text }: FixtureSource): ParsedFixture {
	const problems = fileNameProblems(file);
	const json = parseFixtureJson(text);
	if (json.problems.length > 0) {
		problems.push(...json.problems.map(({ field, message }) => ({ file, field, message })));
		return { problems };
	}
	const result = viewSchema.safeParse(json.data);
	if (!result.success) problems.push(...problemsFromIssues(file, result.error.issues));
	if (problems.length > 0 || !result.success) return { problems };
	const slug = path.basename(file, '.json');
	return { view: { slug, file, view: result.data }, problems: [] };
}

/** A fixture file read, with the key of its bytes in the cache when it gave a view. */
interface FixtureRead {
	parsed: ParsedFixture;
	key?: string;
}

/** A fixture file refused as a whole, for the reason given (and its name's problems). */
function refused(file: string, message: string): FixtureRead {
	return { parsed: { problems: [...fileNameProblems(file), { file, field: '', message }] } };
}

/**
 * Reads one fixture file as looked at, with a cache of validated fixtures if given (see
 * `fixtureFromBytes`).
 */
function readFixtureWith(file: string, look: FixtureLook, cache?: FixtureCache): FixtureRead {
	if (look.problem !== undefined) return refused(file, look.problem);
	const read = readFixtureBytes(look.file);
	if (read.problem !== undefined) return refused(file, read.problem);
	return fixtureFromBytes(file, read.bytes, cache);
}

/**
 * A fixture file's view from its bytes, with a cache of validated fixtures if given: bytes the
 * schema accepted before give their view again without being parsed, and a view the schema
 * accepts now is kept.
 */
function fixtureFromBytes(file: string, bytes: Uint8Array, cache?: FixtureCache): FixtureRead {
	if (cache === undefined) return parsedFromBytes(file, bytes);
	const key = cache.keyOf(bytes);
	const known = cache.get(key);
	if (known !== undefined) {
		const problems = fileNameProblems(file);
		if (problems.length > 0) return { parsed: { problems } };
		const slug = path.basename(file, '.json');
		return { parsed: { view: { slug, file, view: known }, problems: [] }, key };
	}
	const read = parsedFromBytes(file, bytes);
	if (!read.parsed.view) return read;
	cache.keep(key, read.parsed.view.view);
	return { ...read, key };
}

/** A fixture file's bytes decoded, parsed and validated, with no cache. */
function parsedFromBytes(file: string, bytes: Uint8Array): FixtureRead {
	const decoded = decodeFixture(bytes);
	if (decoded.problem !== undefined) return refused(file, decoded.problem);
	return { parsed: parseFixtureSource({ file, text: decoded.text }) };
}

/**
 * Reads one fixture file as looked at: the file's own problem (not a regular file, a link out of
 * the folder, too large, not UTF-8) or else its text parsed and validated.
 */
export function readFixture(file: string, look: FixtureLook): ParsedFixture {
	return readFixtureWith(file, look).parsed;
}

/**
 * Puts fixtures read one by one together, with the rules across them: no key used twice, no
 * name given to two views.
 */
export function combineFixtures(parsed: readonly ParsedFixture[]): FixtureResult {
	const problems = parsed.flatMap((each) => each.problems);
	const views = parsed.flatMap((each) => (each.view ? [each.view] : []));
	problems.push(...duplicateKeyProblems(views), ...duplicateNameProblems(views));
	return problems.length === 0 ? { ok: true, views } : { ok: false, problems, views };
}

/** Validates a set of fixture sources: each on its own, then the rules across them. */
export function parseFixtureSources(sources: readonly FixtureSource[]): FixtureResult {
	return combineFixtures(sources.map(parseFixtureSource));
}

/** A `*.json` entry of a fixture folder: its path, and whether the listing gives a regular file. */
interface FixtureEntry {
	file: string;
	listedAsFile: boolean;
}

/** The `*.json` entries of a folder, in file-name order. */
async function fixtureEntries(folder: string): Promise<FixtureEntry[]> {
	const entries = (await readdir(folder, { withFileTypes: true })).filter(({ name }) =>
		name.endsWith('.json'),
	);
	const regular = new Set(entries.filter((entry) => entry.isFile()).map(({ name }) => name));
	const names = entries.map(({ name }) => name);
	// Node's readdir (libuv's scandir) already lists names in code-unit order, so no test can
	// tell the sort is there; it stays because Node does not document that order.
	// Stryker disable next-line MethodExpression: the sort only guards an order libuv already gives
	return names
		.sort()
		.map((name) => ({ file: path.join(folder, name), listedAsFile: regular.has(name) }));
}

/** The `*.json` fixture files of a folder, in file-name order. */
export async function fixtureFiles(folder: string): Promise<string[]> {
	return (await fixtureEntries(folder)).map(({ file }) => file);
}

/** The problem of a folder that holds no fixture. */
export function emptyFolderProblem(folder: string): FixtureProblem {
	return { file: folder, field: '', message: 'expected at least one <slug>.json fixture' };
}

/** A fixture folder as read: the outcome, and each fixture file's stamp. */
export interface FixtureReading {
	result: FixtureResult;
	/**
	 * Each fixture file's identity and version (inode, size, modification time; a link's and its
	 * target's), by path: a view's answers stay good while its file's stamp does.
	 */
	stamps: ReadonlyMap<string, string>;
}

/** Reads a fixture folder again and again; each read parses only the files that changed. */
export interface FixtureReader {
	read: () => Promise<FixtureReading>;
}

/**
 * A reader of one fixture folder that remembers what it read: each `read()` looks at every
 * `*.json` entry (no file is opened to do so), and reads and parses again only those whose stamp
 * changed since the last read; the rules across fixtures run over the whole set each time. Each
 * file is looked at and read with synchronous system calls, one after the other (see
 * `fixture-file.ts`). With a cache, a file read is validated only if its bytes were not accepted
 * before, and the views validated are kept for the next start.
 */
export function createFixtureReader(folder: string, cache?: FixtureCacheOptions): FixtureReader {
	const known = new Map<string, FixtureRead & { stamp: string }>();
	/** The folder's cache, opened at the first read (undefined: none), and the folder it is for. */
	let opened: { root: string; cache: FixtureCache | undefined } | undefined;
	/** An entry of the folder (`root`, its real path) as read now, or undefined once it is gone. */
	const readEntry = (
		file: string,
		listedAsFile: boolean,
		root: string,
	): (FixtureRead & { stamp: string }) | undefined => {
		const before = known.get(file);
		// A file not read before that the listing gives as a regular file is opened at once, its
		// stamp taken once open: a system call fewer than a look first, and at a start every file is
		// new. Anything else, or a file not a regular one once open, is looked at first.
		if (before === undefined && listedAsFile) {
			const listed = readListedFixture(file);
			if (listed !== undefined) {
				return { ...fixtureFromBytes(file, listed.bytes, opened?.cache), stamp: listed.stamp };
			}
		}
		const look = lookAtFixture(file, root);
		// Listed, then gone before it was looked at (renamed or removed meanwhile, as an editor or
		// `git mv` does): not a broken fixture but a removed one, and the change that took it away
		// brings another reading. A link whose target is gone stays, and is refused.
		if (look.stamp === 'ENOENT') return undefined;
		return before?.stamp === look.stamp
			? before
			: { ...readFixtureWith(file, look, opened?.cache), stamp: look.stamp };
	};
	const read = async (): Promise<FixtureReading> => {
		let root: string;
		let files: FixtureEntry[];
		try {
			root = await realpath(folder);
			files = await fixtureEntries(folder);
		} catch (error) {
			const reason = (error as NodeJS.ErrnoException).message;
			const problem = { file: folder, field: '', message: `cannot be read (${reason})` };
			return { result: { ok: false, views: [], problems: [problem] }, stamps: new Map() };
		}
		if (files.length === 0) {
			const problems = [emptyFolderProblem(folder)];
			return { result: { ok: false, views: [], problems }, stamps: new Map() };
		}
		// Stryker disable next-line ConditionalExpression: the same cache opened again at each read keeps the same views, each read saving what it kept
		if (cache && opened?.root !== root) opened = { root, cache: openFixtureCache(root, cache) };
		/** The keys in the cache of the views read now, so the cache keeps those and drops others. */
		const current = new Set<string>();
		const stamps = new Map<string, string>();
		const parsed = files.flatMap(({ file, listedAsFile }) => {
			const fresh = readEntry(file, listedAsFile, root);
			if (fresh === undefined) return [];
			stamps.set(file, fresh.stamp);
			if (fresh.key !== undefined) current.add(fresh.key);
			known.set(file, fresh);
			return fresh.parsed;
		});
		opened?.cache?.save(current);
		if (parsed.length === 0) {
			return { result: { ok: false, views: [], problems: [emptyFolderProblem(folder)] }, stamps };
		}
		// Stryker disable next-line ConditionalExpression,CallExpression: forgetting a removed file frees memory; a file made again has a stamp of its own
		for (const file of known.keys()) if (!stamps.has(file)) known.delete(file);
		return { result: combineFixtures(parsed), stamps };
	};
	return { read };
}

/** Reads and validates every `*.json` fixture in a folder, in file-name order. */
export async function readFixtureFolder(folder: string): Promise<FixtureResult> {
	return (await createFixtureReader(folder).read()).result;
}

/** How a character that does not print is written in a message: `\n`, `\u001b`, `\u{e0001}`. */
function escaped(character: string): string {
	const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
	const code = character.codePointAt(0) ?? 0;
	const hex = code.toString(16).padStart(4, '0');
	return named[character] ?? (code > 0xffff ? `\\u{${hex}}` : `\\u${hex}`);
}

/**
 * Text as it may be printed on one line of a terminal: control, format, line-separating and
 * unassigned characters, and spaces other than U+0020, are written as escapes, so a file name or
 * a value can neither break a message into forged lines nor send the terminal an escape sequence.
 */
export function printable(text: string): string {
	return text.replace(/[\p{C}\p{Z}]/gu, (character) =>
		character === ' ' ? character : escaped(character),
	);
}

/** One line per problem: `file: field: expectation`, with what does not print escaped. */
export function formatProblems(problems: readonly FixtureProblem[]): string {
	const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
	const lines = problems.map(
		({ file, field, message }) =>
			`  ${printable(`${file}: ${field ? `${field}: ` : ''}${message}`)}`,
	);
	return [`Invalid view fixtures (${count}):`, ...lines].join('\n');
}

/** Reads a fixture folder and returns its views, or throws one error listing every problem. */
export async function loadViews(folder: string): Promise<ViewEntry[]> {
	const result = await readFixtureFolder(folder);
	if (!result.ok) throw new Error(formatProblems(result.problems));
	return result.views;
}
