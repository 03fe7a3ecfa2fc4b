/**
 * The reference's parts for what OpenAPI 3.2 adds to an operation: the samples of a QUERY send
 * its method with its body in every language, a querystring parameter shows its media type and
 * fields, and a stream's body is named by its kind.
 */
import { describe, expect, it } from 'vitest';
import { codeSamples, type SampleRequest } from '../../../src/site/code-samples.ts';
import {
	operationSample,
	parameterContent,
	referenceHeadings,
	sampleContent,
	streamName,
} from '../../../src/site/reference-layout.ts';
import type { Operation, ResponseBody } from '../../../src/sources/openapi.ts';

const query: SampleRequest = {
	method: 'QUERY',
	server: 'http://127.0.0.1:5010',
	path: '/api/v2/users',
	query: [],
	auth: { header: 'Authorization', prefix: 'Bearer ' },
	content: { mediaType: 'application/json', text: '{"role":"admin"}' },
};

/** The code of each sample, by its label. */
const byLabel = (request: SampleRequest) =>
	Object.fromEntries(codeSamples(request).map(({ label, code }) => [label, code]));

describe('the samples of a QUERY with a body', () => {
	it('send QUERY with the body and its Content-Type in curl, fetch, Python and HTTPie, exactly', () => {
		const code = byLabel(query);
		expect(code['curl']).toBe(
			[
				'curl -X QUERY \\',
				'  -H "Content-Type: application/json" \\',
				'  -H "Authorization: Bearer ${API_KEY:?export a key from a view page first}" \\',
				`  --data-raw '{"role":"admin"}' \\`,
				'  http://127.0.0.1:5010/api/v2/users',
			].join('\n'),
		);
		expect(code['Node (fetch)']).toContain(
			[
				"  method: 'QUERY',",
				"  headers: { 'Content-Type': 'application/json', 'Authorization': `Bearer ${process.env.API_KEY}` },",
				`  body: '{"role":"admin"}',`,
				'});',
			].join('\n'),
		);
		expect(code['Python (requests)']).toContain(
			[
				'    headers={"Content-Type": "application/json", "Authorization": "Bearer " + os.environ["API_KEY"]},',
				'    data="{\\"role\\":\\"admin\\"}",',
				'    timeout=10,',
			].join('\n'),
		);
		expect(code['HTTPie']).toBe(
			`http --ignore-stdin QUERY http://127.0.0.1:5010/api/v2/users Content-Type:application/json "Authorization:Bearer \${API_KEY:?export a key from a view page first}" --raw '{"role":"admin"}'`,
		);
	});

	it('send QUERY with the body in Go, Ruby, PHP and Java, exactly', () => {
		const code = byLabel(query);
		expect(code['Go']).toContain('    "os"\n    "strings"\n)');
		expect(code['Go']).toContain(
			'    request, err := http.NewRequest("QUERY", "http://127.0.0.1:5010/api/v2/users", strings.NewReader("{\\"role\\":\\"admin\\"}"))',
		);
		expect(code['Ruby']).toContain(
			[
				"request = Net::HTTPGenericRequest.new('QUERY', true, true, uri)",
				"request['Content-Type'] = 'application/json'",
				"request['Authorization'] = 'Bearer ' + ENV['API_KEY']",
				`request.body = '{"role":"admin"}'`,
				'response = ',
			].join('\n'),
		);
		expect(code['PHP']).toContain(
			[
				"    CURLOPT_CUSTOMREQUEST => 'QUERY',",
				"    CURLOPT_HTTPHEADER => ['Content-Type: application/json', 'Authorization: Bearer ' . $key],",
				`    CURLOPT_POSTFIELDS => '{"role":"admin"}',`,
				'    CURLOPT_RETURNTRANSFER => true,',
			].join('\n'),
		);
		expect(code['Java']).toContain(
			'            .method("QUERY", HttpRequest.BodyPublishers.ofString("{\\"role\\":\\"admin\\"}"))\n            .header("Content-Type", "application/json")',
		);
	});

	it('ask Ruby for a method net/http has no class for without a body to send or read', () => {
		const code = byLabel({ ...query, content: undefined, body: false });
		expect(code['Ruby']).toContain(
			"request = Net::HTTPGenericRequest.new('QUERY', false, false, uri)",
		);
		expect(code['Go']).not.toContain('strings');
		expect(code['Go']).toContain('/api/v2/users", nil)');
		expect(code['Java']).toContain('BodyPublishers.noBody()');
		expect(code['PHP']).not.toContain('POSTFIELDS');
		for (const sample of codeSamples({ ...query, content: undefined })) {
			expect(sample.code).not.toContain('Content-Type');
		}
	});

	it('keep a GET without a body as it was: a Ruby class per method, no Content-Type, no body', () => {
		const code = byLabel({ ...query, method: 'GET', content: undefined });
		expect(code['Ruby']).toContain('request = Net::HTTP::Get.new(uri)');
		expect(code['curl']).not.toContain('--data-raw');
		expect(code['Node (fetch)']).not.toContain('body:');
		expect(code['Python (requests)']).not.toContain('data=');
		expect(code['HTTPie']).not.toContain('--raw');
	});

	it.each([
		['HEAD', 'Head'],
		['POST', 'Post'],
		['PUT', 'Put'],
		['PATCH', 'Patch'],
		['DELETE', 'Delete'],
		['OPTIONS', 'Options'],
		['TRACE', 'Trace'],
	])('ask Ruby for %s with the class net/http has for it', (method, rubyClass) => {
		const code = byLabel({ ...query, method, content: undefined });
		expect(code['Ruby']).toContain(`request = Net::HTTP::${rubyClass}.new(uri)`);
		expect(code['Ruby']).not.toContain('HTTPGenericRequest');
	});

	it('keep a body with quotes and shell syntax inert in curl and HTTPie', () => {
		const code = byLabel({
			...query,
			content: { mediaType: 'application/json', text: `{"name":"O'Brien $(id)"}` },
		});
		expect(code['curl']).toContain(`--data-raw '{"name":"O'\\''Brien $(id)"}'`);
		expect(code['HTTPie']).toContain(`--raw '{"name":"O'\\''Brien $(id)"}'`);
	});
});

/** A JSON request body of a media type, with these examples. */
const body = (mediaType: string, examples: ResponseBody['examples'] = []): ResponseBody => ({
	mediaType,
	rows: [],
	examples,
});

describe('the body a QUERY’s samples send', () => {
	it('is its first example as compact JSON, or {} for a JSON body without one', () => {
		const filter = body('application/json', [{ name: 'admins', value: { role: 'admin' } }]);
		expect(sampleContent({ requestBody: { required: true, bodies: [filter] } })).toEqual({
			mediaType: 'application/json',
			text: '{"role":"admin"}',
		});
		expect(
			sampleContent({
				requestBody: { required: true, bodies: [body('application/merge-patch+json')] },
			}),
		).toEqual({ mediaType: 'application/merge-patch+json', text: '{}' });
	});

	it('is a text example as written for another media type, and none without an example', () => {
		const text = body('text/plain', [{ name: 'a', value: 'role=admin' }]);
		expect(sampleContent({ requestBody: { required: false, bodies: [text] } })).toEqual({
			mediaType: 'text/plain',
			text: 'role=admin',
		});
		expect(
			sampleContent({ requestBody: { required: false, bodies: [body('text/plain')] } }),
		).toBeUndefined();
		expect(sampleContent({ requestBody: { required: false, bodies: [] } })).toBeUndefined();
		expect(sampleContent({})).toBeUndefined();
	});

	it('is a serializedValue as written, not encoded again, for a JSON body too', () => {
		const sent = body('application/json', [
			{
				name: 'admins',
				value: '{"role": "admin"}',
				field: 'serializedValue',
				serializedValue: '{"role": "admin"}',
			},
		]);
		expect(sampleContent({ requestBody: { required: true, bodies: [sent] } })).toEqual({
			mediaType: 'application/json',
			text: '{"role": "admin"}',
		});
	});

	it('goes into the operation’s sample request', () => {
		const operation: Operation = {
			method: 'QUERY',
			path: '/api/v2/users',
			security: [],
			parameters: [],
			requestBody: { required: true, bodies: [body('application/json')] },
			responses: [],
		};
		expect(operationSample(operation, 'http://127.0.0.1:5010').request.content).toEqual({
			mediaType: 'application/json',
			text: '{}',
		});
	});
});

describe('the reference’s words for 3.2 parameters and streams', () => {
	it('names a stream by its media type', () => {
		expect(streamName('application/jsonl')).toBe('JSON lines');
		expect(streamName('application/x-ndjson')).toBe('JSON lines');
		expect(streamName('application/x-jsonlines')).toBe('JSON lines');
		expect(streamName('Text/Event-Stream; charset=utf-8')).toBe('server-sent events');
		expect(streamName('application/json-seq')).toBe('JSON text sequences');
		expect(streamName('application/octet-stream')).toBe('a stream of items');
	});

	it('shows a querystring parameter’s media type and the fields of its schema', () => {
		expect(
			parameterContent({
				content: {
					'application/x-www-form-urlencoded': {
						schema: {
							type: 'object',
							required: ['role'],
							properties: {
								role: { type: 'string', description: 'A role.' },
								page: {},
							},
						},
					},
				},
			}),
		).toEqual({
			mediaType: 'application/x-www-form-urlencoded',
			fields: [
				{ name: 'role', type: 'string', required: true, description: 'A role.' },
				{ name: 'page', type: undefined, required: false, description: undefined },
			],
		});
		expect(parameterContent({ content: { 'application/json': {} } })).toEqual({
			mediaType: 'application/json',
			fields: [],
		});
		expect(parameterContent({})).toBeUndefined();
	});

	it('lists a Request body heading after the parameters, only for an operation that takes one', () => {
		const headings = referenceHeadings([
			{ method: 'GET', path: '/x' },
			{ method: 'QUERY', path: '/x', requestBody: { required: true, bodies: [] } },
		]).map(({ slug }) => slug);
		expect(headings.filter((slug) => slug.endsWith('-body'))).toEqual(['query-x-body']);
		expect(headings.slice(headings.indexOf('query-x'), headings.indexOf('query-x') + 4)).toEqual([
			'query-x',
			'query-x-security',
			'query-x-parameters',
			'query-x-body',
		]);
	});
});
