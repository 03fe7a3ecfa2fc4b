/**
 * The contract Prism reads leaves out `QUERY /api/v2/users`, which Prism cannot serve: the mock
 * answers it itself (`query.ts`). A QUERY on another path is one neither can answer, refused at
 * start in one line naming it, as what else the mock cannot serve is (`contract-3-1.ts`), and so
 * is a QUERY answer of server-sent events whose events the mock cannot fill.
 */
import { EVENT_STREAM_TYPE } from '../src/shared/contract-check.ts';
import { USERS_PATH } from '../src/shared/curl.ts';
import { UnservableContractError } from '../src/sources/contract-3-1.ts';
import { isMapping } from '../src/sources/mapping.ts';
import type { ApiReference } from '../src/sources/openapi.ts';

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

/**
 * Whether the mock can fill an event of this item schema: an object whose `data` is JSON
 * (`contentMediaType: application/json`, the 3.2 spec's shape), and no other field required.
 */
function fillsEvents(item: unknown): boolean {
	if (!isMapping(item) || (item['type'] ?? 'object') !== 'object') return false;
	const data = isMapping(item['properties']) ? item['properties']['data'] : undefined;
	const required: unknown[] = Array.isArray(item['required']) ? item['required'] : [];
	return (
		isMapping(data) &&
		data['contentMediaType'] === 'application/json' &&
		required.every((name) => name === 'data')
	);
}

/**
 * Refuses, in one line naming its place, a QUERY 200 of server-sent events whose item schema the
 * mock cannot fill (`fillsEvents`): an `UnservableContractError`, as what Prism cannot serve is.
 */
export function refuseUnfilledEvents(reference: ApiReference, file: string): void {
	const query = reference.operations.find(
		({ method, path }) => method === 'QUERY' && path === USERS_PATH,
	);
	const ok = query?.responses.find(({ status }) => status === '200');
	const events = ok?.bodies.find(({ mediaType }) => mediaType === EVENT_STREAM_TYPE);
	if (events?.itemSchema === undefined || fillsEvents(events.itemSchema)) return;
	throw new UnservableContractError(
		`${file}: paths.${USERS_PATH}.query.responses.200.content.${EVENT_STREAM_TYPE}.itemSchema: the mock cannot fill an event of this itemSchema; it sends each user as an event whose data is its JSON (properties.data with contentMediaType application/json, no other field required)`,
	);
}
