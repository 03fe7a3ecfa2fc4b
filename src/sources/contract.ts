/**
 * The contract, read in one place: openapi.yaml as written by hand, parsed, checked and modelled
 * (`readContract`), then composed with one named 200 example per view (its users, never keys),
 * named by the view's slug, and the configured mock address as its first server. The build
 * publishes the composed document as /openapi.json and /openapi.yaml and renders the reference
 * page from it; the mock serves the same document from memory and answers its problems from the
 * model, so the three agree.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import type { ViewEntry } from './fixtures.ts';
import type { Role } from '../schemas/view.ts';
import { USERS_PATH } from '../shared/curl.ts';
import { localMockUrl } from '../shared/urls.ts';
import type { ContractCache } from './contract-cache.ts';
import { isMapping } from './mapping.ts';
import type { ApiReference, NamedExample } from './openapi.ts';
import { viewName } from '../shared/views.ts';

/** Where the per-view 200 examples go in the document. */
export const EXAMPLES_PATH = [
	'paths',
	USERS_PATH,
	'get',
	'responses',
	'200',
	'content',
	'application/json',
	'examples',
] as const;

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

/** A contract file that cannot be read or composed, naming the file, the field and the expectation. */
export class ContractError extends Error {
	override name = 'ContractError';
}

/** A YAML or JSON mapping. */
const mappingSchema = z.record(z.string(), z.unknown());

/** The address of the local mock on a port, as `npm run mock` serves it. */
export function mockOrigin(port: number): string {
	return localMockUrl(port);
}

/** How the published contract describes a shared mock, listed before a reader's own. */
export const SHARED_MOCK_DESCRIPTION =
	"The mock this portal calls, shared by its readers: every view's keys get its users, as on the local mock.";

/** The 200 examples the fixtures call for, keyed by view slug, in slug order whoever reads them. */
export function viewExamples(views: readonly ViewEntry[]): Record<string, ViewExample> {
	// Slugs are file names of one folder, so no two are equal (and <= would order as < does).
	const bySlug = [...views].sort((a, b) => (a.slug < b.slug ? -1 : 1));
	return Object.fromEntries(
		bySlug.map(({ slug, view }) => [
			slug,
			{
				summary: `The directory of the ${viewName(view)} view (${slug})`,
				value: { users: view.users.map(({ name, email, role }) => ({ name, email, role })) },
			},
		]),
	);
}

/** Parses contract text (YAML, which JSON also is) into a mapping, or names what is wrong. */
export function parseContract(text: string, file: string): Record<string, unknown> {
	let raw: unknown;
	try {
		raw = parse(text);
	} catch (error) {
		const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
		throw new ContractError(`${file}: expected valid YAML (${reason})`);
	}
	const parsed = mappingSchema.safeParse(raw);
	if (!parsed.success) throw new ContractError(`${file}: expected an OpenAPI document (a mapping)`);
	return parsed.data;
}

/** A contract as read: the document as written, and its checked model. */
export interface Contract {
	file: string;
	/** The document as written, `$ref`s and all: what is composed and published. */
	document: Record<string, unknown>;
	/** Its model, dereferenced and checked: what the reference page and the mock read. */
	reference: ApiReference;
}

/**
 * Parses and checks contract text: valid YAML, a valid OpenAPI 3.1 or 3.2 model, and a place for each
 * view's example. Throws a `ContractError` or an `OpenApiError` naming the file and the field.
 */
export async function loadContract(text: string, file: string): Promise<Contract> {
	const document = parseContract(text, file);
	// Loaded when a contract is read, not with this module: a start from the cache never needs it.
	const { referenceFromDocument } = await import('./openapi.ts');
	const reference = await referenceFromDocument(document, file);
	composeContract(document, [], { mockOrigin: mockOrigin(0), file });
	return { file, document, reference };
}

/** The last reading of each contract file, by the text it was read from. */
const readings = new Map<string, { text: string; contract: Promise<Contract> }>();

/**
 * Reads, parses and checks a contract file. The file is read at each call, but parsed and
 * dereferenced only when its text changed since the last call: every caller in a process gets
 * the same `Contract` for the same text, to read and not to change. With a cache
 * (`contract-cache.ts`), a text read and checked by an earlier process is taken from it.
 */
export async function readContract(file: string, cache?: ContractCache): Promise<Contract> {
	let text: string;
	try {
		text = await readFile(file, 'utf8');
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new ContractError(`${file}: cannot be read (${reason})`);
	}
	const known = readings.get(file);
	if (known?.text === text) return known.contract;
	const cached = cache?.get(text);
	const contract = cached
		? Promise.resolve({ file, ...cached })
		: loadContract(text, file).then((read) => {
				cache?.keep(text, read);
				return read;
			});
	readings.set(file, { text, contract });
	// A contract that fails is read again next time rather than remembered.
	contract.catch(() => {
		if (readings.get(file)?.contract === contract) readings.delete(file);
	});
	return contract;
}

/** The mapping at a path of the document, naming the first step that is missing. */
function mappingAt(
	document: Record<string, unknown>,
	steps: readonly string[],
	file: string,
): Record<string, unknown> {
	let current: Record<string, unknown> = document;
	for (const [index, step] of steps.entries()) {
		// The mapping itself, not a parsed copy: the examples are set on it in place.
		const next = current[step];
		if (!isMapping(next)) {
			const where = steps.slice(0, index + 1).join('.');
			throw new ContractError(
				`${file}: ${where}: expected a mapping; the contract must describe the 200 application/json answer of GET ${USERS_PATH}, where each view's example goes`,
			);
		}
		current = next;
	}
	return current;
}

/**
 * The media type object of a composed document that holds the views' examples (under
 * `examples`), or of the contract before composing; names the first step missing.
 */
export function examplesHolderOf(
	document: Record<string, unknown>,
	file: string,
): Record<string, unknown> {
	return mappingAt(document, EXAMPLES_PATH.slice(0, -1), file);
}

/** What a contract is composed with, beside the views. */
export interface ComposeOptions {
	/** The mock's address as readers reach it: the first server. */
	mockOrigin: string;
	/**
	 * A reader's own local mock, listed second (with the first server's description as written)
	 * when the first is a shared mock elsewhere; left out when it is the same address.
	 */
	localMock?: string | undefined;
	file: string;
}

/** The hand-written contract with every view's example and the mock's address: a new document. */
export function composeContract(
	contract: Record<string, unknown>,
	views: readonly ViewEntry[],
	options: ComposeOptions,
): Record<string, unknown> {
	const document = structuredClone(contract);
	examplesHolderOf(document, options.file)['examples'] = viewExamples(views);
	const servers = z.array(mappingSchema).safeParse(document['servers']);
	const [first, ...rest] = servers.success ? servers.data : [];
	const { mockOrigin: shared, localMock } = options;
	document['servers'] =
		localMock === undefined || localMock === shared
			? [{ ...first, url: shared }, ...rest]
			: [
					{ url: shared, description: SHARED_MOCK_DESCRIPTION },
					{ ...first, url: localMock },
					...rest,
				];
	return document;
}

/**
 * The published document at one of its addresses: a contract that gives its own address
 * (OpenAPI 3.2's `$self`) gives the address it is published at, e.g. `/openapi.json` (a
 * reference relative to the portal, as 3.2 allows); any other is returned as it is.
 */
export function withSelf(document: Record<string, unknown>, href: string): Record<string, unknown> {
	return document['$self'] === undefined ? document : { ...document, $self: href };
}

/** The name of the one example a composed model is read with, standing in for every view's. */
const VIEWS_STAND_IN = '\u0000every view';

/** Replaces, in place, each list of examples holding the stand-in by the views' examples. */
function putViewExamples(node: unknown, examples: readonly NamedExample[]): void {
	if (Array.isArray(node)) {
		const at = node.findIndex((item) => isMapping(item) && item['name'] === VIEWS_STAND_IN);
		if (at >= 0) node.splice(at, 1, ...examples);
		else for (const item of node) putViewExamples(item, examples);
	} else if (isMapping(node)) {
		for (const value of Object.values(node)) putViewExamples(value, examples);
	}
}

/**
 * The model of the composed contract, the same as `referenceFromDocument` reads from
 * `composeContract(contract, views, options)`, without copying, dereferencing and checking every
 * view's example (at 10,000 views, seconds of a build): the contract is composed with one
 * stand-in example and read, and the stand-in is replaced by the views' examples wherever it
 * landed (a `$ref` to the users answer copies it there too).
 */
export async function composedReference(
	contract: Record<string, unknown>,
	views: readonly ViewEntry[],
	options: ComposeOptions,
): Promise<ApiReference> {
	const document = composeContract(contract, [], options);
	// An example with nothing in it: it is replaced wherever it lands, so nothing of it is read.
	examplesHolderOf(document, options.file)['examples'] = { [VIEWS_STAND_IN]: {} };
	const { referenceFromDocument } = await import('./openapi.ts');
	const reference = await referenceFromDocument(document, options.file);
	const examples = Object.entries(viewExamples(views)).map(([name, { summary, value }]) => ({
		name,
		summary,
		value,
	}));
	putViewExamples(reference, examples);
	return reference;
}

/** A contract path as a person reads it, relative to the working folder when inside it. */
export function shownPath(file: string): string {
	const relative = path.relative(process.cwd(), file);
	return relative && !relative.startsWith('..') ? relative : file;
}
