/**
 * The contract as the build publishes it (/openapi.json, /openapi.yaml, and /openapi-3.1.json for
 * tools that read only OpenAPI 3.1) and the reference page shows it: openapi.yaml composed with the
 * views of the collection and the configured mock address. Composed once per reading of the
 * contract and state of the collection, when a route first asks for it; the dev server composes
 * again when either changes. The mock composes the same document from the same files
 * (`mock/state.ts`).
 *
 * Each form is made when first asked for, not with the others. The pages that link to the 3.1
 * form ask early whether there is one, and are told from the contract alone: the composed document
 * and the 3.1 form (16 MB more at 10,000 views) are made when their own files are written, not at
 * the start of a build, held through the rendering of every page.
 */
import type { ApiReference } from '../sources/openapi.ts';
import type { ViewEntry } from '../sources/fixtures.ts';
import { readSettings } from '../sources/settings.ts';
import {
	composeContract,
	composedReference,
	examplesHolderOf,
	readContract,
	shownPath,
	type Contract,
} from '../sources/contract.ts';
import { localMockUrl, shownMockUrl } from '../shared/urls.ts';
import { contractForPrism, UnservableContractError } from '../sources/contract-3-1.ts';
import { viewEntries } from './view-collection.ts';
import { mockPlace } from './mock-place.ts';

/** The published contract of one contract reading, one state of the views and one mock address. */
interface Published {
	contract: Contract;
	views: readonly ViewEntry[];
	mockOrigin: string;
	/** A reader's own local mock, listed after a shared one. */
	localMock: string;
	/** The composed document, shared by every route: not to be changed. Made when first asked for. */
	document?: Record<string, unknown>;
	/**
	 * Its OpenAPI 3.1 equivalent, made when first asked for; null where 3.1 cannot say it. It holds
	 * the document's own examples, not a copy: neither is to be changed.
	 */
	as31?: Record<string, unknown> | null;
	/** Whether the contract has a 3.1 equivalent, told from it composed with no views. */
	has31?: boolean;
	/** Its model, read when the reference page first asks for it. */
	reference?: Promise<ApiReference>;
}

let current: Published | undefined;

/** The published contract as its inputs are now, composed again only when one of them changed. */
async function published(): Promise<Published> {
	const settings = readSettings();
	const file = shownPath(settings.openApiFile);
	const views = await viewEntries();
	const contract = await readContract(file);
	const place = mockPlace();
	const mockOrigin = shownMockUrl(place);
	const localMock = localMockUrl(place.mockPort);
	if (
		current?.contract !== contract ||
		current.views !== views ||
		current.mockOrigin !== mockOrigin ||
		current.localMock !== localMock
	) {
		current = { contract, views, mockOrigin, localMock };
	}
	return current;
}

/** The contract of an entry composed with `views`. */
function composed(entry: Published, views: readonly ViewEntry[]): Record<string, unknown> {
	const { contract, mockOrigin, localMock } = entry;
	return composeContract(contract.document, views, { mockOrigin, localMock, file: contract.file });
}

/** The composed document of an entry, composed when first asked for. */
function documentOf(entry: Published): Record<string, unknown> {
	entry.document ??= composed(entry, entry.views);
	return entry.document;
}

/** The 3.1 equivalent of a document, or null when the contract uses what 3.1 cannot say. */
function as31Of(document: Record<string, unknown>, file: string): Record<string, unknown> | null {
	try {
		return contractForPrism(document, file);
	} catch (error) {
		// A contract with no 3.1 equivalent is published in its own version only; the mock
		// answers its QUERY on the users path itself and refuses the rest at start, naming each.
		if (!(error instanceof UnservableContractError)) throw error;
		return null;
	}
}

/** The published contract, built from the views collection and the contract file. */
export async function publishedContract(): Promise<Record<string, unknown>> {
	return documentOf(await published());
}

/** The model of the published contract, as the reference page renders it. */
export async function publishedReference(): Promise<ApiReference> {
	const entry = await published();
	entry.reference ??= composedReference(entry.contract.document, entry.views, {
		mockOrigin: entry.mockOrigin,
		localMock: entry.localMock,
		file: entry.contract.file,
	});
	return entry.reference;
}

/**
 * The published contract as OpenAPI 3.1, the document the mock hands Prism (a 3.1 contract as it
 * is), or undefined when the contract uses what 3.1 cannot say, such as a QUERY operation.
 */
export async function publishedContract31(): Promise<Record<string, unknown> | undefined> {
	const entry = await published();
	if (entry.as31 === undefined) {
		const { file } = entry.contract;
		const as31 = as31Of(composed(entry, []), file);
		// The views' examples (a summary and a value each) are the same in 3.1: the 3.2 document's
		// are shared, not copied and walked one by one (at 10,000 views, 100 MB and half a second).
		const { examples } = examplesHolderOf(documentOf(entry), file);
		if (as31) examplesHolderOf(as31, file)['examples'] = examples;
		entry.as31 = as31;
	}
	return entry.as31 ?? undefined;
}

/**
 * Whether the published contract has an OpenAPI 3.1 form (/openapi-3.1.json), without making it:
 * what 3.1 cannot say is in the contract, not in the views' examples, so the contract composed
 * with no views tells it.
 */
export async function publishesContract31(): Promise<boolean> {
	const entry = await published();
	if (entry.as31 !== undefined) return entry.as31 !== null;
	entry.has31 ??= as31Of(composed(entry, []), entry.contract.file) !== null;
	return entry.has31;
}
