/**
 * What the mock answers from: the view fixtures, read by the build's own fixture reader, and the
 * contract, read and checked by the contract module (`readContract`, the same reading the build
 * makes). A state is built whole or not at all, so a broken edit never replaces the last good
 * one. Reading is incremental: the fixture reader parses a fixture again only when its file
 * changed, and the contract is read again only when it changed; the per-view 200 examples (the
 * same ones the build publishes, from `viewExamples`) are set on the users operation, so a reload
 * costs what changed, not what there is.
 *
 * Prism is loaded on first need (`prism.ts`): a plain request (no control) is answered from the
 * contract's own model, so a start reads the contract without Prism, and a state's `prism()`
 * gives Prism's reading once a control asks for it. A reload of a changed contract has Prism read
 * it at once, so an edit Prism cannot read keeps the last good state, as before.
 */
import { stat } from 'node:fs/promises';
import type { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { readContract, shownPath, viewExamples } from '../src/sources/contract.ts';
import { USERS_PATH } from '../src/shared/curl.ts';
import { buildDirectory, type Directory } from './directory.ts';
import { plainUsers, type PlainUsers } from './plain-answers.ts';
import { contractForPrism } from '../src/sources/contract-3-1.ts';
import { refuseUnfilledEvents, withoutQueries } from './query-aside.ts';
import type { ApiReference, ResponseModel } from '../src/sources/openapi.ts';
import {
	checkoutContractCache,
	openContractCache,
	type ContractCache,
	type ContractCacheOptions,
} from '../src/sources/contract-cache.ts';
import { checkoutFixtureCache } from '../src/sources/fixture-cache.ts';
import { createFixtureReader, formatProblems, type ViewEntry } from '../src/sources/fixtures.ts';

/** Where the mock reads its sources, and the address it publishes as the contract's server. */
export interface MockSources {
	/** The view fixture folder. */
	viewsDir: string;
	/** The hand-written contract. */
	contractFile: string;
	/** The mock's own address, e.g. `http://127.0.0.1:4010`. */
	mockOrigin: string;
	/** Where the contract's reading is kept between starts: the checkout's cache unless given. */
	contractCache?: ContractCacheOptions;
}

/** One operation as Prism reads it from the contract. */
export type Operation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

/**
 * The contract's named responses the mock answers outside its operations: a path the contract
 * does not list, and a listed path with another method.
 */
export const ROUTE_PROBLEMS = {
	404: { response: 'NotFound', example: 'not-found', why: 'a path the contract does not list' },
	405: {
		response: 'MethodNotAllowed',
		example: 'method-not-allowed',
		why: 'a listed path asked with another method',
	},
} as const;

/** A named example of a users response, as Prism names them: by `key`. */
export interface UsersExample {
	key: string;
	value: unknown;
}

/** One response of GET /api/v2/users: its status code and, per media type, its named examples. */
export interface UsersResponse {
	code: string;
	contents?: { mediaType: string; examples: UsersExample[] }[];
}

/** Prism's reading of the composed contract: its operations, and GET /api/v2/users among them. */
export interface PrismReading {
	/** The contract's operations, GET /api/v2/users among them, with every view's example. */
	operations: Operation[];
	/** GET /api/v2/users. */
	users: Operation;
}

/** A loaded state: the views, the directory, and the composed contract. */
export interface MockState {
	views: readonly ViewEntry[];
	directory: Directory;
	/** GET /api/v2/users: its statuses and named examples, every view's 200 among them. */
	users: { responses: UsersResponse[] };
	/** Prism's reading of the composed contract, made (and Prism loaded) on the first call. */
	prism: () => Promise<PrismReading>;
	/** The users responses a plain request's answer is made of without Prism (`plain-answers.ts`). */
	plain: PlainUsers;
	/** The contract's model: its operations (for routing) and its named responses. */
	reference: ApiReference;
	/** The contract's answers to a path it does not list (404) and to another method (405). */
	routeProblems: Record<keyof typeof ROUTE_PROBLEMS, ResponseModel>;
	/** The contract file's stamp: answers that do not name a view depend on it alone. */
	contractStamp: string;
	/** Each view's file stamp, by slug: its answers stay good while its stamp does. */
	viewStamps: ReadonlyMap<string, string>;
}

/** Fixtures or a contract the mock cannot load; the message says what to mend, as the build does. */
export class SourceError extends Error {
	override name = 'SourceError';
}

/** The contract file's identity and version: inode, size and modification time in nanoseconds. */
async function stampOf(file: string): Promise<string> {
	const info = await stat(file, { bigint: true });
	return `${info.ino}:${info.size}:${info.mtimeNs}`;
}

/** The users operation with every view's 200 example, as a new object (the old one is in use). */
function withViewExamples(users: Operation, views: readonly ViewEntry[]): Operation {
	const examples = Object.entries(viewExamples(views)).map(([key, example]) => ({
		id: `view-${key}`,
		key,
		summary: example.summary,
		value: example.value,
	}));
	return {
		...users,
		responses: users.responses.map((response) => {
			if (response.code !== '200' || !response.contents) return response;
			const contents = response.contents.map((content) =>
				content.mediaType === 'application/json' ? { ...content, examples } : content,
			);
			return { ...response, contents };
		}),
	};
}

/** The users operation of the contract's model, with every view's 200 example, as Prism names them. */
function usersModel(reference: ApiReference, views: readonly ViewEntry[]): MockState['users'] {
	const operation = reference.operations.find(
		({ method, path }) => method.toLowerCase() === 'get' && path === USERS_PATH,
	);
	const examples = Object.entries(viewExamples(views)).map(([key, example]) => ({
		key,
		value: example.value,
	}));
	return {
		responses: (operation?.responses ?? []).map(({ status, bodies }) => ({
			code: status,
			contents: bodies.map(({ mediaType, examples: named }) => ({
				mediaType,
				examples:
					status === '200' && mediaType === 'application/json'
						? examples
						: named.map(({ name, value }) => ({ key: name, value })),
			})),
		})),
	};
}

/** The contract as read, checked to carry the users operation, and Prism's reading on first need. */
interface ContractReading {
	stamp: string;
	reference: ApiReference;
	/** Prism's operations, read once on the first call. */
	operations: () => Promise<{ operations: Operation[]; users: Operation }>;
	plain: PlainUsers;
	routeProblems: MockState['routeProblems'];
}

/** The contract's named response for a route problem, or an error naming what is missing. */
function routeProblem(reference: ApiReference, file: string, status: 404 | 405): ResponseModel {
	const { response, example, why } = ROUTE_PROBLEMS[status];
	const model = reference.responses[response];
	const examples = model?.bodies[0]?.examples.map(({ name }) => name) ?? [];
	if (!model || !examples.includes(example)) {
		throw new Error(
			`${file}: components.responses.${response}: expected a response with a body example named "${example}", which the mock sends for ${why}`,
		);
	}
	return model;
}

/** Prism's reading of the contract (Prism loaded on the first call), or a `SourceError`. */
async function readByPrism(
	forPrism: Parameters<typeof getHttpOperationsFromSpec>[0],
	file: string,
): Promise<{ operations: Operation[]; users: Operation }> {
	try {
		const { prismOperations } = await import('./prism.ts');
		const operations = await prismOperations(forPrism);
		const users = operations.find((op) => op.method === 'get' && op.path === USERS_PATH);
		if (!users) throw new Error(`${file}: paths: expected a GET ${USERS_PATH} operation`);
		return { operations, users };
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new SourceError(reason.includes(file) ? reason : `${file}: ${reason}`);
	}
}

/** Reads the contract, or throws a `SourceError` naming the file and field. */
async function readContractFile(file: string, cache?: ContractCache): Promise<ContractReading> {
	const stamp = await stampOf(file).catch(() => 'missing');
	try {
		// The reading the build makes: YAML, the OpenAPI model, the place of each view's example;
		// taken from the last start's when the text is the same (contract-cache.ts).
		const { document, reference } = await readContract(file, cache);
		// Its own copy, as 3.1 for a 3.2 contract; what the mock cannot serve is refused here.
		// A QUERY operation is the mock's own to answer (query.ts): Prism never sees it.
		const forPrism = contractForPrism(withoutQueries(document, file), file);
		refuseUnfilledEvents(reference, file);
		const listed = reference.operations.some(
			({ method, path }) => method.toLowerCase() === 'get' && path === USERS_PATH,
		);
		if (!listed) throw new Error(`${file}: paths: expected a GET ${USERS_PATH} operation`);
		const routeProblems = {
			404: routeProblem(reference, file, 404),
			405: routeProblem(reference, file, 405),
		};
		let read: Promise<{ operations: Operation[]; users: Operation }> | undefined;
		const operations = () => {
			read ??= readByPrism(forPrism, file);
			return read;
		};
		return { stamp, reference, operations, plain: plainUsers(forPrism), routeProblems };
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new SourceError(reason.includes(file) ? reason : `${file}: ${reason}`);
	}
}

/**
 * A reader of the sources that remembers what it read: `load()` returns a new state, parsing
 * only the fixtures whose files changed since the last call and reading the contract again only
 * when its file changed.
 */
export function createSourceReader(sources: MockSources): { load: () => Promise<MockState> } {
	// Validated fixtures kept from one start to the next: an unchanged file skips the view schema.
	const fixtures = createFixtureReader(shownPath(sources.viewsDir), checkoutFixtureCache());
	// Opened once, for the code this process runs: contract-cache.ts says why.
	const contractCache = openContractCache(
		shownPath(sources.contractFile),
		sources.contractCache ?? checkoutContractCache(),
	);
	let contract: ContractReading | undefined;
	/** Whether a state was loaded before: a contract read after that is read by Prism at once. */
	let reread = false;

	const load = async (): Promise<MockState> => {
		const contractFile = shownPath(sources.contractFile);
		const { result, stamps } = await fixtures.read();
		if (!result.ok) throw new SourceError(formatProblems(result.problems));

		const contractStamp = await stampOf(contractFile).catch(() => 'missing');
		if (contract?.stamp !== contractStamp) {
			const first = contract === undefined && !reread;
			contract = undefined;
			const read = await readContractFile(contractFile, contractCache);
			// An edit Prism cannot read keeps the last good state; the first reading waits for a need.
			if (!first) await read.operations();
			contract = read;
		}
		reread = true;
		const reading = contract.operations;
		const views = result.views;
		let prism: Promise<PrismReading> | undefined;
		/** Prism's operations with every view's example on the users operation, made once. */
		const prismNow = (): Promise<PrismReading> => {
			prism ??= reading().then(({ operations, users: read }) => {
				const users = withViewExamples(read, views);
				return {
					operations: operations.map((operation) => (operation === read ? users : operation)),
					users,
				};
			});
			return prism;
		};
		return {
			views,
			directory: buildDirectory(views),
			users: usersModel(contract.reference, views),
			prism: prismNow,
			plain: contract.plain,
			reference: contract.reference,
			routeProblems: contract.routeProblems,
			contractStamp: contract.stamp,
			viewStamps: new Map(result.views.map(({ slug, file }) => [slug, stamps.get(file) ?? ''])),
		};
	};
	return { load };
}

/** Reads the sources once into a state, or throws a `SourceError`. */
export function loadState(sources: MockSources): Promise<MockState> {
	return createSourceReader(sources).load();
}

/** A state's views by slug, and those asked for as JSON text, made as asked, once per state. */
const viewIndex = new WeakMap<
	MockState,
	{ bySlug: Map<string, ViewEntry>; texts: Map<string, string> }
>();

/** A view of a state as JSON text, to tell views whose files were written anew apart. */
function viewText(state: MockState, slug: string): string | undefined {
	let index = viewIndex.get(state);
	if (!index) {
		index = { bySlug: new Map(state.views.map((entry) => [entry.slug, entry])), texts: new Map() };
		viewIndex.set(state, index);
	}
	let text = index.texts.get(slug);
	if (text === undefined) {
		text = JSON.stringify(index.bySlug.get(slug)?.view);
		index.texts.set(slug, text);
	}
	return text;
}

/**
 * What changed between two states, by view slug: from the files' stamps, and, for a file whose
 * stamp changed, from its view, since a file may be written anew with the same view (a
 * ConfigMap update writes every file anew, and an editor may save without a change).
 */
export function viewChanges(
	before: MockState,
	after: MockState,
): { added: string[]; changed: string[]; removed: string[] } {
	const added: string[] = [];
	const changed: string[] = [];
	for (const [slug, stamp] of after.viewStamps) {
		const was = before.viewStamps.get(slug);
		if (was === undefined) added.push(slug);
		else if (was !== stamp && viewText(before, slug) !== viewText(after, slug)) changed.push(slug);
	}
	const removed = [...before.viewStamps.keys()].filter((slug) => !after.viewStamps.has(slug));
	return { added, changed, removed };
}
