/** The reference page says a thing once: shared headers above the responses, each schema table once. */
import { describe, expect, it } from 'vitest';
import type { OperationResponse, ResponseHeader } from '../../src/lib/openapi.ts';
import { firstSchemaUse, ownHeaders, sharedHeaders } from '../../src/lib/reference-layout.ts';

const vary: ResponseHeader = {
	name: 'Vary',
	required: false,
	description: 'By origin.',
	examples: [],
};
const allow: ResponseHeader = {
	name: 'Allow',
	required: true,
	description: 'Methods.',
	examples: [],
};
const challenge: ResponseHeader = {
	name: 'WWW-Authenticate',
	required: true,
	description: 'The challenge.',
	examples: [{ name: 'missing-key', value: 'Bearer realm="console"' }],
};

/** A response with headers and one problem+json body of the given schema. */
function response(
	status: string,
	headers: ResponseHeader[],
	schemaName?: string,
): OperationResponse {
	return {
		status,
		description: `The ${status} answer.`,
		headers,
		bodies: [{ mediaType: 'application/problem+json', schemaName, rows: [], examples: [] }],
	};
}

describe('sharedHeaders and ownHeaders', () => {
	it('shows once the headers every response carries alike, and leaves each its own', () => {
		const responses = [
			response('200', [vary]),
			response('401', [challenge, vary]),
			response('405', [vary, allow]),
		];
		expect(sharedHeaders(responses)).toEqual([vary]);
		expect(responses.map((each) => ownHeaders(each, [vary]).map(({ name }) => name))).toEqual([
			[],
			['WWW-Authenticate'],
			['Allow'],
		]);
	});

	it('does not share a header whose description differs in one response', () => {
		const other = { ...vary, description: 'Something else.' };
		expect(sharedHeaders([response('200', [vary]), response('401', [other])])).toEqual([]);
	});

	it('shares nothing when there is a single response', () => {
		expect(sharedHeaders([response('200', [vary])])).toEqual([]);
	});
});

describe('firstSchemaUse', () => {
	it('names the first response of each schema, so later ones point to its table', () => {
		const responses = [
			response('200', [], 'UserList'),
			response('400', [], 'Problem'),
			response('401', [], 'Problem'),
			response('500', []),
		];
		expect([...firstSchemaUse(responses)]).toEqual([
			['UserList', '200 application/problem+json'],
			['Problem', '400 application/problem+json'],
		]);
	});
});
