/**
 * How the reference page lays an operation out without repeating itself: headers that every
 * response carries alike are shown once, and a body schema's field table is shown at its first
 * use and pointed to after that.
 */
import type { OperationResponse, ResponseHeader } from './openapi.ts';

/** What makes two headers the same for a reader: name, requirement, description and examples. */
function headerKey(header: ResponseHeader): string {
	return JSON.stringify([
		header.name.toLowerCase(),
		header.required,
		header.description ?? '',
		header.examples,
	]);
}

/** The headers every response carries alike, in the first response's order; none for one response. */
export function sharedHeaders(responses: readonly OperationResponse[]): ResponseHeader[] {
	const [first, ...rest] = responses;
	if (!first || rest.length === 0) return [];
	return first.headers.filter((header) =>
		rest.every((response) =>
			response.headers.some((other) => headerKey(other) === headerKey(header)),
		),
	);
}

/** A response's own headers: those not shared by every response. */
export function ownHeaders(
	response: OperationResponse,
	shared: readonly ResponseHeader[],
): ResponseHeader[] {
	const sharedKeys = new Set(shared.map(headerKey));
	return response.headers.filter((header) => !sharedKeys.has(headerKey(header)));
}

/** Where a body's field table stands: `status mediaType` of the first body with its schema name. */
export function firstSchemaUse(responses: readonly OperationResponse[]): Map<string, string> {
	const first = new Map<string, string>();
	for (const response of responses) {
		for (const body of response.bodies) {
			if (body.schemaName && !first.has(body.schemaName)) {
				first.set(body.schemaName, `${response.status} ${body.mediaType}`);
			}
		}
	}
	return first;
}
