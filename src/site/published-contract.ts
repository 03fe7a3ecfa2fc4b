/**
 * The contract as the build publishes it (/openapi.json, /openapi.yaml) and the reference page
 * shows it: openapi.yaml composed with the views of the collection and the configured mock
 * address. Composed once per reading of the contract and state of the collection, whichever
 * route asks first; the dev server composes again when either changes. The mock composes the
 * same document from the same files (`mock/state.ts`).
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
