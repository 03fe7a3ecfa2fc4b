/**
 * What the mock answers from: the view fixtures and the contract, read, checked and composed
 * into the published contract, then read by Prism. A state is built whole or not at all, so a
 * broken edit never replaces the last good one.
 */
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { composeContract, readContract, shownPath } from '../src/lib/contract.ts';
import { USERS_PATH } from '../src/lib/curl.ts';
import { buildDirectory, type Directory } from '../src/lib/directory.ts';
import { formatProblems, readFixtureFolder, type ViewEntry } from '../src/schemas/fixtures.ts';

/** Where the mock reads its sources, and the address it publishes as the contract's server. */
export interface MockSources {
	/** The view fixture folder. */
	viewsDir: string;
	/** The hand-written contract. */
	contractFile: string;
	/** The mock's own address, e.g. `http://127.0.0.1:4010`. */
	mockOrigin: string;
}

/** One operation as Prism reads it from the contract. */
export type Operation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

/** The problem answers outside the contract's operations, and their example names. */
export const FALLBACKS = {
	404: { path: '/__fallback/not-found', response: 'NotFound', example: 'not-found' },
	405: {
		path: '/__fallback/method-not-allowed',
		response: 'MethodNotAllowed',
		example: 'method-not-allowed',
	},
} as const;

/** A loaded state: the views, the directory, and Prism's reading of the composed contract. */
export interface MockState {
	views: readonly ViewEntry[];
	directory: Directory;
	/** The contract's operations, GET /api/v2/users among them. */
	operations: Operation[];
	/** GET /api/v2/users. */
	users: Operation;
	/** Two internal operations that serve the contract's NotFound and MethodNotAllowed. */
	fallbacks: Operation[];
}

/** Fixtures or a contract the mock cannot load; the message says what to mend, as the build does. */
export class SourceError extends Error {
	override name = 'SourceError';
}

/** The contract with two internal operations that serve its NotFound and MethodNotAllowed responses. */
function withFallbackOperations(contract: Record<string, unknown>): Record<string, unknown> {
	const paths = Object.fromEntries(
		Object.entries(FALLBACKS).map(([status, { path, response }]) => [
			path,
			{
				get: {
					security: [],
					responses: { [status]: { $ref: `#/components/responses/${response}` } },
				},
			},
		]),
	);
	return { ...contract, paths };
}

/** Reads the fixtures and the contract into a new state, or throws a `SourceError`. */
export async function loadState(sources: MockSources): Promise<MockState> {
	const contractFile = shownPath(sources.contractFile);
	const fixtures = await readFixtureFolder(shownPath(sources.viewsDir));
	if (!fixtures.ok) throw new SourceError(formatProblems(fixtures.problems));
	let operations: Operation[];
	let fallbacks: Operation[];
	try {
		const contract = composeContract(await readContract(contractFile), fixtures.views, {
			mockOrigin: sources.mockOrigin,
			file: contractFile,
		});
		// Prism's reader resolves references in place: each call gets its own copy.
		operations = await getHttpOperationsFromSpec(structuredClone(contract));
		fallbacks = await getHttpOperationsFromSpec(withFallbackOperations(contract));
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new SourceError(reason.startsWith(contractFile) ? reason : `${contractFile}: ${reason}`);
	}
	const users = operations.find((op) => op.method === 'get' && op.path === USERS_PATH);
	if (!users)
		throw new SourceError(`${contractFile}: paths: expected a GET ${USERS_PATH} operation`);
	return {
		views: fixtures.views,
		directory: buildDirectory(fixtures.views),
		operations,
		users,
		fallbacks,
	};
}

/** What changed between two states, by view slug, for the reload message. */
export function viewChanges(
	before: readonly ViewEntry[],
	after: readonly ViewEntry[],
): { added: string[]; changed: string[]; removed: string[] } {
	const old = new Map(before.map(({ slug, view }) => [slug, JSON.stringify(view)]));
	const added: string[] = [];
	const changed: string[] = [];
	for (const { slug, view } of after) {
		const was = old.get(slug);
		if (was === undefined) added.push(slug);
		else if (was !== JSON.stringify(view)) changed.push(slug);
		old.delete(slug);
	}
	return { added, changed, removed: [...old.keys()] };
}
