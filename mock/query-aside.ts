/**
 * The contract Prism reads leaves out `QUERY /api/v2/users`, which Prism cannot serve: the mock
 * answers it itself (`query.ts`). A QUERY on another path is one neither can answer, refused at
 * start in one line naming it, as what else the mock cannot serve is (`contract-3-1.ts`).
 */
import { USERS_PATH } from '../src/shared/curl.ts';
import { UnservableContractError } from '../src/sources/contract-3-1.ts';
import { isMapping } from '../src/sources/mapping.ts';

/**
 * A copy of a contract without its QUERY operation of the users path, for Prism; the document
 * given is left as it is. Throws an `UnservableContractError` naming each QUERY on another path.
 */
export function withoutQueries(
	document: Record<string, unknown>,
	file: string,
): Record<string, unknown> {
	const paths = document['paths'];
	if (!isMapping(paths)) return document;
	const queried = Object.keys(paths).filter((path) => {
		const item = paths[path];
		return isMapping(item) && item['query'] !== undefined;
	});
	const elsewhere = queried.filter((path) => path !== USERS_PATH);
	if (elsewhere.length > 0) {
		throw new UnservableContractError(
			elsewhere
				.map(
					(path) =>
						`${file}: paths.${path}.query: the mock serves a QUERY operation on ${USERS_PATH} only (OpenAPI 3.2's query method)`,
				)
				.join('\n'),
		);
	}
	const item = paths[USERS_PATH];
	if (!isMapping(item) || item['query'] === undefined) return document;
	const { query: _served, ...rest } = item;
	return { ...document, paths: { ...paths, [USERS_PATH]: rest } };
}
