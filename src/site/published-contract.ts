/**
 * The contract as the build publishes it (/openapi.json, /openapi.yaml) and the reference page
 * shows it: openapi.yaml composed with the views of the collection and the configured mock
 * address. The mock composes the same document from the same files (`mock/state.ts`).
 */
import { readSettings } from '../sources/settings.ts';
import { composeContract, mockOrigin, readContract, shownPath } from '../sources/contract.ts';
import { viewEntries } from './view-collection.ts';

/** The published contract, built from the views collection and the contract file. */
export async function publishedContract(): Promise<Record<string, unknown>> {
	const { openApiFile, mockPort } = readSettings();
	const views = await viewEntries();
	const file = shownPath(openApiFile);
	const { document } = await readContract(file);
	return composeContract(document, views, {
		mockOrigin: mockOrigin(mockPort),
		file,
	});
}
