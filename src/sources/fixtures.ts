/**
 * Reads a whole set of view fixtures: each file through the view schema, then the rules that
 * span fixtures (no key used twice in the portal, no name given to two views). Every problem names
 * the file, the field as
 * spelled in the fixture (`users[3].apiKey`) and what was expected.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { nameKey, viewName } from '../shared/views.ts';
import { viewSchema, type View } from '../schemas/view.ts';

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

const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Spells a zod path the way the fixture reads: `users[3].apiKey`. */
export function fieldPath(segments: readonly PropertyKey[]): string {
	return segments
		.map((segment, index) =>
			typeof segment === 'number' ? `[${segment}]` : `${index === 0 ? '' : '.'}${String(segment)}`,
		)
		.join('');
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

/**
 * Where each view's name is used, for the rule that no two views share one: titles, links,
 * search and compare tell views apart by their names alone.
 */
function duplicateNameProblems(entries: readonly ViewEntry[]): FixtureProblem[] {
	const firstUse = new Map<string, ViewEntry>();
	const problems: FixtureProblem[] = [];
	for (const entry of entries) {
		const name = viewName(entry.view);
		const first = firstUse.get(nameKey(name));
		if (!first) {
			firstUse.set(nameKey(name), entry);
			continue;
		}
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

/** Validates one fixture source on its own: file name, JSON and the view schema. */
export function parseFixtureSource({ file, text }: FixtureSource): ParsedFixture {
	const problems: FixtureProblem[] = [];
	const slug = path.basename(file, '.json');
	if (!SLUG_PATTERN.test(slug)) {
		problems.push({
			file,
			field: '',
			message: 'expected a file name that is a lowercase slug, like staging-us-east.json',
		});
	}
	let data: unknown;
	try {
		data = JSON.parse(text);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		problems.push({ file, field: '', message: `expected valid JSON (${reason})` });
		return { problems };
	}
	const result = viewSchema.safeParse(data);
	if (!result.success) problems.push(...problemsFromIssues(file, result.error.issues));
	if (problems.length > 0 || !result.success) return { problems };
	return { view: { slug, file, view: result.data }, problems: [] };
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

/** The `*.json` fixture files of a folder, in file-name order. */
export async function fixtureFiles(folder: string): Promise<string[]> {
	const names = (await readdir(folder)).filter((name) => name.endsWith('.json'));
	// Node's readdir (libuv's scandir) already lists names in code-unit order, so no test can
	// tell the sort is there; it stays because Node does not document that order.
	// Stryker disable next-line MethodExpression: the sort only guards an order libuv already gives
	return names.sort().map((name) => path.join(folder, name));
}

/** The problem of a folder that holds no fixture. */
export function emptyFolderProblem(folder: string): FixtureProblem {
	return { file: folder, field: '', message: 'expected at least one <slug>.json fixture' };
}

/** Reads and validates every `*.json` fixture in a folder, in file-name order. */
export async function readFixtureFolder(folder: string): Promise<FixtureResult> {
	const files = await fixtureFiles(folder);
	const sources = await Promise.all(
		// Stryker disable next-line StringLiteral: with no encoding readFile gives a Buffer, which JSON.parse reads as UTF-8 all the same
		files.map(async (file) => ({ file, text: await readFile(file, 'utf8') })),
	);
	if (sources.length === 0) return { ok: false, views: [], problems: [emptyFolderProblem(folder)] };
	return parseFixtureSources(sources);
}

/** One line per problem: `file: field: expectation`. */
export function formatProblems(problems: readonly FixtureProblem[]): string {
	const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
	const lines = problems.map(
		({ file, field, message }) => `  ${file}: ${field ? `${field}: ` : ''}${message}`,
	);
	return [`Invalid view fixtures (${count}):`, ...lines].join('\n');
}

/** Reads a fixture folder and returns its views, or throws one error listing every problem. */
export async function loadViews(folder: string): Promise<ViewEntry[]> {
	const result = await readFixtureFolder(folder);
	if (!result.ok) throw new Error(formatProblems(result.problems));
	return result.views;
}
