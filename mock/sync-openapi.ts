/**
 * Keeps openapi.yaml in step with the fixtures: one named 200 example per view (its users in
 * directory order, never keys) and the role enum from the view schema. Everything else in the
 * file (comments, order, hand-written text) is left as it is.
 *
 * Run with `npm run sync:openapi`; the drift test compares the file with `syncContract`'s answer.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { loadViews, type ViewEntry } from '../src/schemas/fixtures.ts';
import { readSettings } from '../src/schemas/settings.ts';
import { ROLES, type Role } from '../src/schemas/view.ts';
import { viewTitle } from '../src/lib/views.ts';

/** The contract file, at the repository root. */
export const CONTRACT_FILE = path.resolve(import.meta.dirname, '..', 'openapi.yaml');

/** The command that regenerates the examples, as messages name it. */
export const SYNC_COMMAND = 'npm run sync:openapi';

/** Where the 200 examples live in the document. */
export const EXAMPLES_PATH = [
	'paths',
	'/api/v2/users',
	'get',
	'responses',
	'200',
	'content',
	'application/json',
	'examples',
] as const;

/** Where the role enum lives in the document. */
export const ROLE_ENUM_PATH = ['components', 'schemas', 'Role', 'enum'] as const;

/** A directory user as the API returns it: no key. */
export interface ListedUser {
	name: string;
	email: string;
	role: Role;
}

/** One named 200 example: a view's users. */
export interface ViewExample {
	summary: string;
	value: { users: ListedUser[] };
}

/** The 200 examples the fixtures call for, keyed by view slug, in fixture order. */
export function contractExamples(views: readonly ViewEntry[]): Record<string, ViewExample> {
	return Object.fromEntries(
		views.map(({ slug, view }) => [
			slug,
			{
				summary: `The directory of the ${viewTitle(view)} view (${slug})`,
				value: { users: view.users.map(({ name, email, role }) => ({ name, email, role })) },
			},
		]),
	);
}

/** The contract text with its generated parts recomputed from the views; the rest untouched. */
export function syncContract(text: string, views: readonly ViewEntry[]): string {
	const document = parseDocument(text);
	if (document.errors.length > 0) {
		throw new Error(`openapi.yaml is not valid YAML: ${document.errors[0]?.message ?? ''}`);
	}
	for (const [label, where] of [
		['the 200 examples', EXAMPLES_PATH],
		['the role enum', ROLE_ENUM_PATH],
	] as const) {
		if (!document.hasIn(where)) {
			throw new Error(`openapi.yaml has no ${where.join(' > ')} for ${label}`);
		}
	}
	document.setIn(EXAMPLES_PATH, document.createNode(contractExamples(views)));
	document.setIn(ROLE_ENUM_PATH, document.createNode([...ROLES]));
	return document.toString({ lineWidth: 0 });
}

/** Rewrites openapi.yaml from the fixtures; says whether anything changed. */
export async function syncContractFile(
	viewsDir: string,
	file: string = CONTRACT_FILE,
): Promise<boolean> {
	const views = await loadViews(viewsDir);
	const before = await readFile(file, 'utf8');
	const after = syncContract(before, views);
	if (after === before) return false;
	await writeFile(file, after);
	return true;
}

if (import.meta.main) {
	try {
		const { viewsDir, openApiFile } = readSettings();
		const changed = await syncContractFile(viewsDir, openApiFile);
		const where = path.relative(process.cwd(), openApiFile);
		console.log(
			changed ? `Updated ${where} from ${viewsDir}` : `${where} already matches the fixtures`,
		);
	} catch (error) {
		console.error(error instanceof Error ? error.message : String(error));
		process.exitCode = 1;
	}
}
