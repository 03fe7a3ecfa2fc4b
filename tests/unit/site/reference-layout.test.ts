/**
 * The reference page says a thing once: shared headers above the responses, each schema table
 * once; and what it decides about an operation: heading ids, examples shown, samples' key and query.
 */
import { describe, expect, it } from 'vitest';
import type {
	NamedExample,
	OperationResponse,
	SchemaRow,
	Parameter,
	ResponseHeader,
	SecurityScheme,
} from '../../../src/sources/openapi.ts';
import {
	exampleValue,
	firstSchemaUse,
	headersBeyond,
	mirroredOperation,
	sameSecurity,
	schemaHomes,
	schemaTree,
	statusLine,
	isErrorStatus,
	operationSlug,
	referenceHeadings,
	ownHeaders,
	sampleAnswer,
	sampleAuth,
	sampleHeaders,
	sampleQuery,
	sharedHeaders,
	shownExamples,
	statusTone,
	pickedExamples,
} from '../../../src/site/reference-layout.ts';

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

describe('operationSlug', () => {
	it('gives each operation heading a stable id that links to it', () => {
		expect(operationSlug({ method: 'GET', path: '/api/v2/users' })).toBe('get-api-v2-users');
		expect(operationSlug({ method: 'get', path: '/api/v2/users/{id}' })).toBe(
			'get-api-v2-users-id',
		);
		expect(operationSlug({ method: 'POST', path: '/Users/{userId}/keys.json' })).toBe(
			'post-users-userid-keys-json',
		);
	});
});

describe('sampleAuth', () => {
	const bearer: SecurityScheme = { type: 'http', scheme: 'Bearer' };
	const basic: SecurityScheme = { type: 'http', scheme: 'basic' };
	const headerKey: SecurityScheme = { type: 'apiKey', in: 'header', name: 'X-Console-Key' };
	const queryKey: SecurityScheme = { type: 'apiKey', in: 'query', name: 'key' };

	it('sends a bearer key in the Authorization header, whatever the case of the scheme word', () => {
		expect(sampleAuth([{ name: 'directoryKey', scheme: bearer }])).toEqual({
			header: 'Authorization',
			prefix: 'Bearer ',
		});
	});

	it('sends the key as the first scheme the samples can send asks, skipping the others', () => {
		expect(
			sampleAuth([
				{ name: 'queryKey', scheme: queryKey },
				{ name: 'basic', scheme: basic },
				{ name: 'headerKey', scheme: headerKey },
			]),
		).toEqual({ header: 'X-Console-Key', prefix: '' });
	});

	it('sends no key when the operation needs none or no scheme can be sent', () => {
		expect(sampleAuth([])).toBeUndefined();
		expect(sampleAuth([{ name: 'basic', scheme: basic }])).toBeUndefined();
	});
});

describe('sampleQuery', () => {
	it('sends each required or exemplified query parameter, with its example as text', () => {
		const parameters: Parameter[] = [
			{ name: 'id', in: 'path', required: true, example: 'u1' },
			{ name: 'role', in: 'query', required: true, example: 'admin' },
			{ name: 'limit', in: 'query', example: 10 },
			{ name: 'q', in: 'query', description: 'Free text, optional.' },
			{ name: 'must', in: 'query', required: true },
			{ name: 'verbose', in: 'query', required: false, example: false },
			{ name: 'X-Trace', in: 'header', required: true, example: 'abc' },
		];
		expect(sampleQuery(parameters)).toEqual([
			{ name: 'role', value: 'admin' },
			{ name: 'limit', value: '10' },
			{ name: 'must', value: '' },
			{ name: 'verbose', value: 'false' },
		]);
	});

	it('sends no query when there are no query parameters', () => {
		expect(sampleQuery([])).toEqual([]);
	});
});

describe('shownExamples', () => {
	/** Examples named one, two, ... */
	const examples = (count: number): NamedExample[] =>
		['one', 'two', 'three', 'four', 'five'].slice(0, count).map((name) => ({ name, value: name }));

	it('shows every example of a body with up to three', () => {
		expect(shownExamples(examples(3)).map(({ name }) => name)).toEqual(['one', 'two', 'three']);
		expect(shownExamples(examples(1)).map(({ name }) => name)).toEqual(['one']);
		expect(shownExamples([])).toEqual([]);
	});

	it('shows only the first of a body with one example per view, past three', () => {
		expect(shownExamples(examples(4)).map(({ name }) => name)).toEqual(['one']);
		expect(shownExamples(examples(5), '200').map(({ name }) => name)).toEqual(['one']);
	});

	it('shows every example of an error, however many: they are the contract’s own kinds', () => {
		expect(shownExamples(examples(4), '401').map(({ name }) => name)).toEqual([
			'one',
			'two',
			'three',
			'four',
		]);
		expect(shownExamples(examples(5), '4XX')).toHaveLength(5);
	});
});

describe('exampleValue', () => {
	it('shows a text example as it is, without JSON quotes', () => {
		expect(exampleValue('Bearer realm="console"')).toBe('Bearer realm="console"');
	});

	it('shows any other example as JSON indented by two spaces', () => {
		expect(exampleValue({ users: [{ name: 'Rosa', role: 'admin' }] })).toBe(
			'{\n  "users": [\n    {\n      "name": "Rosa",\n      "role": "admin"\n    }\n  ]\n}',
		);
		expect(exampleValue(1)).toBe('1');
		expect(exampleValue(null)).toBe('null');
	});
});

describe('isErrorStatus', () => {
	it.each(['400', '401', '404', '422', '500', '503', '4XX', '5xx'])(
		'marks %s as an error, so its badge differs from a 200',
		(status) => {
			expect(isErrorStatus(status)).toBe(true);
		},
	);

	it.each(['200', '204', '304', '2XX', 'default', '40', '4000'])(
		'does not mark %s as an error',
		(status) => {
			expect(isErrorStatus(status)).toBe(false);
		},
	);
});

describe('referenceHeadings', () => {
	it('lists each operation with its five sections in page order, then try-it and the servers', () => {
		expect(
			referenceHeadings([
				{ method: 'GET', path: '/api/v2/users' },
				{ method: 'HEAD', path: '/api/v2/users' },
			]),
		).toEqual([
			{ depth: 2, slug: 'get-api-v2-users', text: 'GET /api/v2/users' },
			{ depth: 3, slug: 'get-api-v2-users-security', text: 'Security' },
			{ depth: 3, slug: 'get-api-v2-users-parameters', text: 'Parameters' },
			{ depth: 3, slug: 'get-api-v2-users-samples', text: 'Code samples' },
			{ depth: 3, slug: 'get-api-v2-users-examples', text: 'Response examples' },
			{ depth: 3, slug: 'get-api-v2-users-responses', text: 'Responses' },
			{ depth: 2, slug: 'head-api-v2-users', text: 'HEAD /api/v2/users' },
			{ depth: 3, slug: 'head-api-v2-users-security', text: 'Security' },
			{ depth: 3, slug: 'head-api-v2-users-parameters', text: 'Parameters' },
			{ depth: 3, slug: 'head-api-v2-users-samples', text: 'Code samples' },
			{ depth: 3, slug: 'head-api-v2-users-examples', text: 'Response examples' },
			{ depth: 3, slug: 'head-api-v2-users-responses', text: 'Responses' },
			{ depth: 2, slug: 'try-it', text: 'Try it' },
			{ depth: 2, slug: 'servers', text: 'Servers' },
		]);
	});
});

describe('statusTone', () => {
	it.each([
		['200', 'success'],
		['204', 'success'],
		['2XX', 'success'],
		['400', 'client-error'],
		['401', 'client-error'],
		['4xx', 'client-error'],
		['500', 'server-error'],
		['503', 'server-error'],
		['5XX', 'server-error'],
		['304', 'other'],
		['default', 'other'],
		['2000', 'other'],
	])('colours %s as %s in the status overview', (status, tone) => {
		expect(statusTone(status)).toBe(tone);
	});
});

describe('pickedExamples', () => {
	const examples = (count: number): NamedExample[] =>
		Array.from({ length: count }, (_, index) => ({ name: `view-${index + 1}`, value: index }));

	it('offers the first three of one example per view, however many views there are', () => {
		expect(pickedExamples(examples(10_000), '200').map(({ name }) => name)).toEqual([
			'view-1',
			'view-2',
			'view-3',
		]);
	});

	it('offers every example of an error, and every one of a success with few', () => {
		expect(pickedExamples(examples(4), '401')).toHaveLength(4);
		expect(pickedExamples(examples(2), '200')).toHaveLength(2);
		expect(pickedExamples([], '200')).toEqual([]);
	});
});

describe('sampleHeaders', () => {
	it('sends each header parameter with a text example, and no other parameter', () => {
		const parameters: Parameter[] = [
			{ name: 'Origin', in: 'header', required: true, example: 'http://127.0.0.1:4321' },
			{ name: 'X-Trace', in: 'header', required: false },
			{ name: 'role', in: 'query', required: false, example: 'admin' },
		];
		expect(sampleHeaders(parameters)).toEqual([{ name: 'Origin', value: 'http://127.0.0.1:4321' }]);
	});
});

describe('sampleAnswer', () => {
	const body = { mediaType: 'application/json', rows: [], examples: [] };
	const response = (status: string, bodies: (typeof body)[]): OperationResponse => ({
		status,
		description: '',
		headers: [],
		bodies,
	});

	it('prints the body of a success that has one', () => {
		expect(
			sampleAnswer({
				method: 'GET',
				responses: [response('200', [body]), response('401', [body])],
			}),
		).toEqual({ body: true, status: undefined });
	});

	it('prints the status and headers for HEAD and for a success without a body', () => {
		expect(sampleAnswer({ method: 'HEAD', responses: [response('200', [body])] })).toEqual({
			body: false,
			status: 200,
		});
		expect(
			sampleAnswer({
				method: 'OPTIONS',
				responses: [response('204', []), response('405', [body])],
			}),
		).toEqual({ body: false, status: 204 });
	});
});

/** A schema row of the given field, named after it. */
function row(field: string, type = 'string'): SchemaRow {
	return { field, type, required: true, description: `About ${field}.`, constraints: [] };
}

describe('schemaTree', () => {
	it('nests each field under the one it is written in, an array of objects holding its items’ fields', () => {
		const tree = schemaTree([
			row('users', 'array of User'),
			row('users[]', 'object'),
			row('users[].name'),
			row('users[].manager', 'object'),
			row('users[].manager.email'),
			row('total', 'integer'),
		]);
		expect(
			tree.map(({ name, items, fields }) => ({
				name,
				items: items?.field,
				fields: fields.map((field) => [field.name, field.fields.map((inner) => inner.name)]),
			})),
		).toEqual([
			{
				name: 'users',
				items: 'users[]',
				fields: [
					['name', []],
					['manager', ['email']],
				],
			},
			{ name: 'total', items: undefined, fields: [] },
		]);
	});

	it('keeps an array of arrays’ inner items as a field named [] and a root array’s items at the top', () => {
		const nested = schemaTree([
			row('grid', 'array of array'),
			row('grid[]', 'array of integer'),
			row('grid[][]', 'integer'),
		]);
		expect(nested[0]?.items?.field).toBe('grid[]');
		expect(nested[0]?.fields.map((field) => [field.name, field.row.field])).toEqual([
			['[]', 'grid[][]'],
		]);
		expect(schemaTree([row('[]', 'object'), row('[].id')]).map((field) => field.name)).toEqual([
			'[]',
		]);
	});
});

describe('mirroredOperation', () => {
	const get = { method: 'GET', path: '/users' };
	const head = { method: 'HEAD', path: '/users' };
	const options = { method: 'OPTIONS', path: '/users' };
	const otherHead = { method: 'HEAD', path: '/keys' };
	const post = { method: 'POST', path: '/users' };
	const all = [get, head, options, otherHead, post];

	it('finds the GET of the same path for a HEAD or an OPTIONS', () => {
		expect(mirroredOperation(head, all)).toBe(get);
		expect(mirroredOperation(options, all)).toBe(get);
	});

	it('finds none for a GET, another method, or a path without a GET', () => {
		expect(mirroredOperation(get, all)).toBeUndefined();
		expect(mirroredOperation(post, all)).toBeUndefined();
		expect(mirroredOperation(otherHead, all)).toBeUndefined();
	});
});

describe('sameSecurity', () => {
	const scheme = { type: 'http', scheme: 'bearer' } as SecurityScheme;
	it('is the same when the same schemes are asked for in the same order', () => {
		const one = { security: [{ name: 'directoryKey', scheme }] };
		expect(sameSecurity(one, { security: [{ name: 'directoryKey', scheme }] })).toBe(true);
		expect(sameSecurity(one, { security: [] })).toBe(false);
		expect(sameSecurity(one, { security: [{ name: 'consoleKey', scheme }] })).toBe(false);
	});
});

describe('headersBeyond', () => {
	it('keeps the headers the mirrored response lacks or describes otherwise', () => {
		const reworded = { ...vary, description: 'By origin and by key.' };
		expect(headersBeyond({ headers: [vary, allow, challenge] }, { headers: [vary] })).toEqual([
			allow,
			challenge,
		]);
		expect(headersBeyond({ headers: [reworded] }, { headers: [vary] })).toEqual([reworded]);
		expect(headersBeyond({ headers: [vary] }, undefined)).toEqual([vary]);
	});
});

describe('schemaHomes', () => {
	it('explores each named schema once, at its first use in page order', () => {
		const homes = schemaHomes([
			{ method: 'GET', path: '/users', responses: [response('200', [], 'UserList')] },
			{
				method: 'HEAD',
				path: '/users',
				responses: [response('400', [], 'Problem'), response('401', [], 'Problem')],
			},
			{ method: 'OPTIONS', path: '/users', responses: [response('405', [], 'Problem')] },
		]);
		expect([...homes]).toEqual([
			['UserList', { status: '200', operationId: 'get-users', id: 'schema-userlist' }],
			['Problem', { status: '400', operationId: 'head-users', id: 'schema-problem' }],
		]);
	});
});

describe('statusLine', () => {
	it('shows the first sentence closed and the rest open, inline code marked', () => {
		expect(statusLine('The path is not `not-found`. The detail says why.')).toEqual({
			line: [
				{ text: 'The path is not ', code: false },
				{ text: 'not-found', code: true },
				{ text: '.', code: false },
			],
			rest: 'The detail says why.',
		});
	});

	it('ends a sentence that leads into a list with a full stop, and shows the whole text open', () => {
		const text = 'The credentials are malformed (RFC 6750, section 3.1): no token, or two headers.';
		expect(statusLine(text)).toEqual({
			line: [{ text: 'The credentials are malformed (RFC 6750, section 3.1).', code: false }],
			rest: text,
		});
	});

	it('shows a one-sentence description closed, with nothing more open', () => {
		expect(statusLine('Sent by the mock only.')).toEqual({
			line: [{ text: 'Sent by the mock only.', code: false }],
			rest: '',
		});
	});
});
