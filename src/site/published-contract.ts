/**
 * The contract as the build publishes it (/openapi.json, /openapi.yaml, and /openapi-3.1.json for
 * tools that read only OpenAPI 3.1) and the reference page shows it: openapi.yaml composed with the
 * views of the collection and the configured mock address. Composed once per reading of the
 * contract and state of the collection, whichever route asks first; the dev server composes again
 * when either changes. The mock composes the same document from the same files (`mock/state.ts`).
 */
import type { ApiReference } from '../sources/openapi.ts';
import type { ViewEntry } from '../sources/fixtures.ts';
import { readSettings } from '../sources/settings.ts';
import {
	composeContract,
	composedReference,
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
	/** The composed document, shared by every route: not to be changed. */
	document: Record<string, unknown>;
	/** Its OpenAPI 3.1 equivalent, made when first asked for; null where 3.1 cannot say it. */
	as31?: Record<string, unknown> | null;
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
		const document = composeContract(contract.document, views, { mockOrigin, localMock, file });
		current = { contract, views, mockOrigin, localMock, document };
	}
	return current;
}

/** The published contract, built from the views collection and the contract file. */
export async function publishedContract(): Promise<Record<string, unknown>> {
	return (await published()).document;
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
		try {
			entry.as31 = contractForPrism(entry.document, entry.contract.file);
		} catch (error) {
			// A contract with no 3.1 equivalent is published in its own version only; the mock
			// answers its QUERY on the users path itself and refuses the rest at start, naming each.
			if (!(error instanceof UnservableContractError)) throw error;
			entry.as31 = null;
		}
	}
	return entry.as31 ?? undefined;
}
