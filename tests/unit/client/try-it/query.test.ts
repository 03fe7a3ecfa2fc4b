/**
 * Try-it sending QUERY /api/v2/users (OpenAPI 3.2), when the contract has one: the method and the
 * body the reader typed go out with a JSON Content-Type, and the curl command shown sends the same.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { tryItChoices } from '../../../../src/integrations/try-it-validators.ts';
import { referenceFromDocument } from '../../../../src/sources/openapi.ts';
import { sendExampleRequest } from '../../../../src/client/try-it/exchange.ts';
import { buildRequest, MAX_BODY_TEXT } from '../../../../src/client/try-it/request.ts';
import { buildCurl } from '../../../../src/shared/curl.ts';

const KEY = 'ick-4f1c9a07-Qx7m';
const MOCK = 'http://127.0.0.1:4010';

describe('a QUERY built by the panel', () => {
	it('sends its body as JSON, after the key, and curl sends the same with -X QUERY', () => {
		const built = buildRequest({
			server: MOCK,
			key: KEY,
			method: 'QUERY',
			body: '{"role":"admin"}',
		});
		expect(built).toEqual({
			ok: true,
			request: {
				url: `${MOCK}/api/v2/users`,
				method: 'QUERY',
				headers: [
					['Authorization', `Bearer ${KEY}`],
					['Content-Type', 'application/json'],
				],
				body: '{"role":"admin"}',
				curl: [
					'curl -X QUERY \\',
					`  -H "Authorization: Bearer ${KEY}" \\`,
					'  -H "Content-Type: application/json" \\',
					`  --data-raw '{"role":"admin"}' \\`,
					`  ${MOCK}/api/v2/users`,
				].join('\n'),
			},
		});
	});

	it('asks for the answer type the reader chose with Accept, and curl asks the same', () => {
		const built = buildRequest({
			server: MOCK,
			key: KEY,
			method: 'QUERY',
			body: '{}',
			accept: 'application/jsonl',
		});
		expect(built.ok && built.request.headers).toEqual([
			['Authorization', `Bearer ${KEY}`],
			['Content-Type', 'application/json'],
			['Accept', 'application/jsonl'],
		]);
		expect(built.ok && built.request.curl).toContain('-H "Accept: application/jsonl"');
	});

	it('keeps an Accept the reader typed as a header in place of the chosen answer type', () => {
		const built = buildRequest({
			server: MOCK,
			key: '',
			method: 'QUERY',
			body: '{}',
			headers: [{ name: 'accept', value: 'application/json' }],
			accept: 'application/jsonl',
		});
		expect(built.ok && built.request.headers).toEqual([
			['accept', 'application/json'],
			['Content-Type', 'application/json'],
		]);
	});

	it('keeps a Content-Type the reader typed, and sends an empty body as empty', () => {
		const built = buildRequest({
			server: MOCK,
			key: '',
			method: 'QUERY',
			headers: [{ name: 'content-type', value: 'application/json; charset=utf-8' }],
		});
		expect(built.ok && built.request.headers).toEqual([
			['content-type', 'application/json; charset=utf-8'],
		]);
		expect(built.ok && built.request.body).toBe('');
		expect(built.ok && built.request.curl).toContain(`--data-raw ''`);
	});

	it('is a GET without a body or Content-Type by default, whatever body is typed', () => {
		const built = buildRequest({ server: MOCK, key: KEY, body: '{"role":"admin"}' });
		expect(built.ok && built.request.method).toBe('GET');
		expect(built.ok && built.request).not.toHaveProperty('body');
		expect(built.ok && built.request.headers).toEqual([['Authorization', `Bearer ${KEY}`]]);
		expect(built.ok && built.request.curl).not.toContain('-X');
	});

	it('refuses a body longer than the mock reads, naming the limit', () => {
		const body = 'x'.repeat(MAX_BODY_TEXT + 1);
		expect(buildRequest({ server: MOCK, key: KEY, method: 'QUERY', body })).toEqual({
			ok: false,
			problems: [`The body is longer than ${MAX_BODY_TEXT} characters.`],
		});
		const longest = 'x'.repeat(MAX_BODY_TEXT);
		expect(buildRequest({ server: MOCK, key: KEY, method: 'QUERY', body: longest }).ok).toBe(true);
		// A GET sends no body, so a long one typed before is no reason to refuse it.
		expect(buildRequest({ server: MOCK, key: KEY, body }).ok).toBe(true);
	});

	it('goes out through fetch with its method and body', async () => {
		const calls: RequestInit[] = [];
		const fetchImpl = (async (_input: RequestInfo | URL, init: RequestInit = {}) => {
			calls.push(init);
			await Promise.resolve();
			return Response.json({ users: [] });
		}) as typeof fetch;
		await sendExampleRequest(
			{ server: MOCK, key: KEY, method: 'QUERY', body: '{}' },
			{ fetch: fetchImpl, now: () => 0 },
		);
		expect(calls[0]).toMatchObject({ method: 'QUERY', body: '{}' });
		await sendExampleRequest({ server: MOCK, key: KEY }, { fetch: fetchImpl, now: () => 0 });
		expect(calls[1]?.method).toBe('GET');
		expect(calls[1]).not.toHaveProperty('body');
	});
});

describe('buildCurl with a method and a body', () => {
	it('writes -X for a method other than GET, and the body as written, quoted', () => {
		expect(buildCurl({ baseUrl: MOCK, key: '', method: 'QUERY', body: `{"name":"O'Brien"}` })).toBe(
			`curl -X QUERY \\\n  --data-raw '{"name":"O'\\''Brien"}' \\\n  ${MOCK}/api/v2/users`,
		);
		expect(buildCurl({ baseUrl: MOCK, key: '', method: 'GET' })).toBe(`curl ${MOCK}/api/v2/users`);
		expect(buildCurl({ baseUrl: MOCK, key: '', method: 'HEAD' })).toBe(
			`curl -X HEAD ${MOCK}/api/v2/users`,
		);
	});
});

describe('the choices try-it offers', () => {
	it('start a QUERY with the contract’s example body when it has one, and offer none without', async () => {
		const read = async (file: string) =>
			tryItChoices(
				await referenceFromDocument(parse(await readFile(file, 'utf8')) as Record<string, unknown>),
			);
		const root = path.join(import.meta.dirname, '..', '..', '..', '..');
		const withQuery = await read(path.join(root, 'tests/fixtures/openapi-3-2/openapi.yaml'));
		expect(withQuery.queryBody).toBe('{"role":"admin"}');
		// QUERY's 200 comes as JSON or as JSON lines: the reader may ask for either.
		expect(withQuery.queryAnswerTypes).toEqual(['application/json', 'application/jsonl']);
		const without = await read(path.join(root, 'tests/fixtures/openapi-3-1/openapi.yaml'));
		expect(without).not.toHaveProperty('queryBody');
		expect(without).not.toHaveProperty('queryAnswerTypes');
	});
});
