/**
 * The samples of an operation with an OpenAPI 3.2 `querystring` parameter: with an example (its
 * own or its schema's), every language sends it as the whole query string, serialized by its media
 * type; without one, nothing is appended.
 */
import { describe, expect, it } from 'vitest';
import {
	codeSamples,
	sampleQuerystring,
	sampleUrl,
	serializedQuery,
	type SampleRequest,
} from '../../../src/site/code-samples.ts';
import { operationSample } from '../../../src/site/reference-layout.ts';
import type { Operation } from '../../../src/sources/openapi.ts';

const FORM = 'application/x-www-form-urlencoded';
const URL_SENT = 'http://127.0.0.1:5010/api/v2/users?__code=401&__example=invalid-key';

const query: SampleRequest = {
	method: 'QUERY',
	server: 'http://127.0.0.1:5010',
	path: '/api/v2/users',
	query: [],
	querystring: '__code=401&__example=invalid-key',
	auth: { header: 'Authorization', prefix: 'Bearer ' },
	content: { mediaType: 'application/json', text: '{}' },
};

/** The code of each sample, by its label. */
const byLabel = (request: SampleRequest) =>
	Object.fromEntries(codeSamples(request).map(({ label, code }) => [label, code]));

/** A querystring parameter of the controls, written as content of this media type. */
const controls = (
	changes: { example?: unknown; schema?: unknown; mediaType?: string } = {},
): { in: 'querystring'; example?: unknown; content: Record<string, { schema?: unknown }> } => ({
	in: 'querystring',
	...(changes.example === undefined ? {} : { example: changes.example }),
	content: { [changes.mediaType ?? FORM]: { schema: changes.schema ?? { type: 'object' } } },
});

describe('the samples of an operation with a querystring example', () => {
	it('curl sends the query string, quoted so the shell keeps its &', () => {
		expect(byLabel(query)['curl']).toBe(
			[
				'curl -X QUERY \\',
				'  -H "Content-Type: application/json" \\',
				'  -H "Authorization: Bearer ${API_KEY:?export a key from a view page first}" \\',
				"  --data-raw '{}' \\",
				`  '${URL_SENT}'`,
			].join('\n'),
		);
	});

	it('Node’s fetch sends the query string', () => {
		expect(byLabel(query)['Node (fetch)']).toContain(
			`const response = await fetch('${URL_SENT}', {`,
		);
	});

	it('Python’s requests sends the query string', () => {
		expect(byLabel(query)['Python (requests)']).toContain(`    "QUERY",\n    "${URL_SENT}",\n`);
	});

	it('HTTPie sends the query string, quoted so the shell keeps its &', () => {
		expect(byLabel(query)['HTTPie']).toContain(`http --ignore-stdin QUERY '${URL_SENT}' `);
	});

	it('Go sends the query string', () => {
		expect(byLabel(query)['Go']).toContain(`http.NewRequest("QUERY", "${URL_SENT}", strings`);
	});

	it('Ruby sends the query string', () => {
		expect(byLabel(query)['Ruby']).toContain(`uri = URI('${URL_SENT}')`);
	});

	it('PHP sends the query string', () => {
		expect(byLabel(query)['PHP']).toContain(`$curl = curl_init('${URL_SENT}');`);
	});

	it('Java sends the query string', () => {
		expect(byLabel(query)['Java']).toContain(`newBuilder(URI.create("${URL_SENT}"))`);
	});

	it('send no query string at all without one, not even a ?', () => {
		for (const { label, code } of codeSamples({ ...query, querystring: undefined })) {
			expect(code, label).toContain('/api/v2/users');
			expect(code, label).not.toContain('/api/v2/users?');
		}
	});
});

describe('sampleUrl with a querystring', () => {
	it('writes it as the whole query, encoding only what a query cannot hold', () => {
		expect(sampleUrl(query)).toBe(URL_SENT);
		expect(sampleUrl({ ...query, querystring: 'q=a b' })).toBe(
			'http://127.0.0.1:5010/api/v2/users?q=a%20b',
		);
		expect(sampleUrl({ ...query, querystring: '' })).toBe('http://127.0.0.1:5010/api/v2/users');
	});

	it('keeps query parameters after it, should a contract give both', () => {
		expect(sampleUrl({ ...query, querystring: 'a=1', query: [{ name: 'b', value: '2' }] })).toBe(
			'http://127.0.0.1:5010/api/v2/users?a=1&b=2',
		);
	});
});

describe('sampleQuerystring', () => {
	it('serializes a form example as name=value pairs', () => {
		expect(
			sampleQuerystring([controls({ example: { __code: '401', __example: 'invalid-key' } })]),
		).toBe('__code=401&__example=invalid-key');
	});

	it('appends nothing when the parameter and its schema give no example, or there is none', () => {
		expect(sampleQuerystring([controls()])).toBeUndefined();
		expect(sampleQuerystring([controls({ schema: true })])).toBeUndefined();
		expect(sampleQuerystring([controls({ schema: { examples: 'x' } })])).toBeUndefined();
		expect(sampleQuerystring([controls({ schema: { examples: [] } })])).toBeUndefined();
		expect(sampleQuerystring([{ in: 'querystring' }])).toBeUndefined();
		expect(sampleQuerystring([{ in: 'querystring', content: { [FORM]: {} } }])).toBeUndefined();
		expect(sampleQuerystring([])).toBeUndefined();
		expect(sampleQuerystring([{ in: 'query', example: 'a=1' }])).toBeUndefined();
	});

	it('reads the querystring parameter, not one listed before it', () => {
		expect(
			sampleQuerystring([
				{ in: 'header', example: 'x=1' },
				controls({ example: { __code: '200' } }),
			]),
		).toBe('__code=200');
	});

	it('takes the schema’s example, else the first of its examples, when the parameter has none', () => {
		expect(sampleQuerystring([controls({ schema: { example: { __code: '404' } } })])).toBe(
			'__code=404',
		);
		expect(
			sampleQuerystring([
				controls({ schema: { examples: [{ __code: '422' }, { __code: '500' }] } }),
			]),
		).toBe('__code=422');
		expect(
			sampleQuerystring([
				controls({ schema: { example: { __code: '404' }, examples: [{ __code: '422' }] } }),
			]),
		).toBe('__code=404');
	});

	it('prefers the parameter’s own example to its schema’s', () => {
		expect(
			sampleQuerystring([
				controls({ example: { __code: '401' }, schema: { example: { __code: '404' } } }),
			]),
		).toBe('__code=401');
	});

	it('serializes by the first media type, and as JSON without one', () => {
		expect(
			sampleQuerystring([controls({ example: { a: 1 }, mediaType: 'application/json' })]),
		).toBe('%7B%22a%22%3A1%7D');
		expect(sampleQuerystring([{ in: 'querystring', example: { a: 1 } }])).toBe('%7B%22a%22%3A1%7D');
	});
});

describe('serializedQuery', () => {
	it('sends a string as written, without a leading ?', () => {
		expect(serializedQuery(FORM, '?__code=401&__example=invalid-key')).toBe(
			'__code=401&__example=invalid-key',
		);
		expect(serializedQuery(FORM, 'a=?')).toBe('a=?');
		expect(serializedQuery('application/json', '{"a":1}')).toBe('{"a":1}');
	});

	it('writes a form’s lists as the name repeated, and other values as their JSON text', () => {
		expect(
			serializedQuery(FORM, { tag: ['a', 'b'], code: 401, on: true, none: null, at: { x: 1 } }),
		).toBe('tag=a&tag=b&code=401&on=true&none=null&at=%7B%22x%22%3A1%7D');
	});

	it('encodes what a form value cannot hold', () => {
		expect(serializedQuery(FORM, { q: 'a b&c=d' })).toBe('q=a+b%26c%3Dd');
	});

	it('knows a form by its media type in any case and with parameters', () => {
		expect(serializedQuery('Application/X-WWW-Form-Urlencoded; charset=utf-8', { a: '1' })).toBe(
			'a=1',
		);
		expect(serializedQuery(`${FORM};charset=utf-8`, { a: '1' })).toBe('a=1');
		expect(serializedQuery(`${FORM} ; charset=utf-8`, { a: '1' })).toBe('a=1');
		for (const other of [`${FORM}-not`, `x-${FORM}`, 'application/json', '']) {
			expect(serializedQuery(other, { a: '1' }), other).toBe('%7B%22a%22%3A%221%22%7D');
		}
	});

	it('writes a form example that is no object as its JSON text', () => {
		expect(serializedQuery(FORM, ['a'])).toBe('%5B%22a%22%5D');
		expect(serializedQuery(FORM, 401)).toBe('401');
	});
});

describe('the reference’s sample of an operation', () => {
	it('sends its querystring parameter’s example, and the page’s samples with it', () => {
		const operation: Operation = {
			method: 'QUERY',
			path: '/api/v2/users',
			security: [],
			parameters: [
				{
					name: 'controls',
					...controls({ example: { __code: '401', __example: 'invalid-key' } }),
				},
			],
			responses: [],
		};
		const { request } = operationSample(operation, 'http://127.0.0.1:5010');
		expect(request.querystring).toBe('__code=401&__example=invalid-key');
		expect(sampleUrl(request)).toBe(URL_SENT);
		const without = { ...operation, parameters: [{ name: 'controls', ...controls() }] };
		expect(operationSample(without, 'http://127.0.0.1:5010').request.querystring).toBeUndefined();
	});
});
