/**
 * The document Prism reads for an OpenAPI 3.2 contract: its 3.1 equivalent, whose examples are
 * the 3.2 contract's data, or a refusal naming each 3.2 feature the mock cannot serve.
 */
import '../../../mock/prism-imports.ts';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createConfig, lint } from '@redocly/openapi-core';
import { getHttpOperationsFromSpec } from '@stoplight/prism-http';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { contractForPrism } from '../../../src/sources/contract-3-1.ts';
import { withoutQueries } from '../../../mock/query-aside.ts';
import { loadState } from '../../../mock/state.ts';
import { ROOT } from '../../../support/processes.ts';

/** A contract of the fixtures, parsed. */
async function fixture(version: '3-1' | '3-2'): Promise<Record<string, unknown>> {
	const text = await readFile(
		path.join(ROOT, 'tests/fixtures', `openapi-${version}`, 'openapi.yaml'),
	);
	return parse(text.toString()) as Record<string, unknown>;
}

/** The document Prism reads for the 3.2 copy: without its QUERY, which the mock answers itself. */
async function prismsCopy(): Promise<Record<string, unknown>> {
	return contractForPrism(withoutQueries(await fixture('3-2'), 'x.yaml'), 'x.yaml');
}

/** What Redocly's recommended-strict rules find in a document: each rule and where. */
async function strictProblems(
	document: Record<string, unknown>,
): Promise<(string | undefined)[][]> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-prism-'));
	try {
		const file = path.join(folder, 'openapi.json');
		await writeFile(file, JSON.stringify(document));
		const config = await createConfig({ extends: ['recommended-strict'] });
		const problems = await lint({ ref: file, config });
		return problems.map(({ ruleId, location }) => [ruleId, location[0]?.pointer]);
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
}

/** A small 3.2 contract with the given lines under its one path. */
function small(lines: readonly string[]): Record<string, unknown> {
	return parse(
		[
			'openapi: 3.2.0',
			"info: { title: Small, version: '1' }",
			'paths:',
			'  /x:',
			...lines.map((line) => `    ${line}`),
		].join('\n'),
	) as Record<string, unknown>;
}

describe('the contract Prism reads', () => {
	it('is a copy of a 3.1 contract, as it is', async () => {
		const document = await fixture('3-1');
		const forPrism = contractForPrism(document, 'x.yaml');
		expect(forPrism).toEqual(document);
		expect(forPrism).not.toBe(document);
	});

	it('is, for the 3.2 copy, a 3.1 document that Redocly’s recommended-strict rules pass', async () => {
		const forPrism = await prismsCopy();
		expect(forPrism['openapi']).toBe('3.1.1');
		expect(forPrism).not.toHaveProperty('$self');
		expect(forPrism['tags']).toEqual([
			{ name: 'Console', description: 'Everything the console answers over HTTP.' },
			{ name: 'Directory', description: "The users of a view's directory." },
			{ name: 'Browser', description: 'What a browser asks before a page calls the API.' },
		]);
		const text = JSON.stringify(forPrism);
		for (const word of ['dataValue', 'serializedValue', '"parent"', '"kind"']) {
			expect(text).not.toContain(word);
		}
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-prism-'));
		try {
			const file = path.join(folder, 'openapi.json');
			await writeFile(file, text);
			const config = await createConfig({ extends: ['recommended-strict'] });
			// The schemas only the QUERY uses stay, unused by what Prism reads.
			const problems = await lint({ ref: file, config });
			expect(problems.map(({ ruleId, location }) => [ruleId, location[0]?.pointer])).toEqual([
				['no-unused-components', '#/components/schemas/UserFilter'],
				['no-unused-components', '#/components/schemas/UserMatches'],
			]);
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});

	it('gives Prism each dataValue and serializedValue example as the value it answers with', async () => {
		const operations = await getHttpOperationsFromSpec(await prismsCopy());
		const users = operations.find(
			({ method, path: at }) => method === 'get' && at === '/api/v2/users',
		);
		const unauthorized = users?.responses.find(({ code }) => code === '401');
		const examples = unauthorized?.contents?.[0]?.examples ?? [];
		expect(examples.map(({ key }) => key)).toEqual([
			'missing-key',
			'invalid-key',
			'wrong-shape',
			'console-key',
		]);
		expect(examples[0]).toMatchObject({
			value: { status: 401, title: 'A directory key is required' },
		});
		const options = operations.find(({ method }) => method === 'options');
		const notAllowed = options?.responses.find(({ code }) => code === '405');
		const allow = notAllowed?.headers?.find(({ name }) => name === 'Allow');
		expect(allow?.examples).toMatchObject([{ key: 'get-only', value: 'GET, HEAD' }]);
	});

	it('parses a serializedValue alone for a JSON body, and keeps it as text for any other', () => {
		const document = small([
			'get:',
			'  responses:',
			"    '200':",
			'      description: ok',
			'      content:',
			'        application/problem+json:',
			"          examples: { a: { serializedValue: '{\"n\":1}' }, b: { dataValue: 2, serializedValue: '2' } }",
			'        text/plain:',
			'          examples: { a: { serializedValue: \'{"n":1}\' } }',
		]);
		const content = (
			contractForPrism(document, 'x.yaml') as {
				paths: { '/x': { get: { responses: { '200': { content: Record<string, unknown> } } } } };
			}
		).paths['/x'].get.responses['200'].content;
		expect(content).toEqual({
			'application/problem+json': { examples: { a: { value: { n: 1 } }, b: { value: 2 } } },
			'text/plain': { examples: { a: { value: '{"n":1}' } } },
		});
	});

	it('leaves out what only readers see: a response’s summary, a server’s name, a scheme’s deprecation', () => {
		const document = parse(
			[
				'openapi: 3.2.0',
				"info: { title: Small, version: '1' }",
				"servers: [{ url: 'http://127.0.0.1:4010', name: local }]",
				'paths: {}',
				'components:',
				'  responses:',
				'    Gone: { summary: Gone, description: It is gone. }',
				'  securitySchemes:',
				'    old: { type: http, scheme: bearer, deprecated: true }',
				'    device:',
				'      type: oauth2',
				'      oauth2MetadataUrl: https://auth.example/.well-known/oauth-authorization-server',
				'      flows:',
				'        deviceAuthorization: { deviceAuthorizationUrl: https://auth.example/d, tokenUrl: https://auth.example/t, scopes: {} }',
				'        clientCredentials: { tokenUrl: https://auth.example/t, scopes: {} }',
			].join('\n'),
		) as Record<string, unknown>;
		expect(contractForPrism(document, 'x.yaml')).toEqual({
			openapi: '3.1.1',
			info: { title: 'Small', version: '1' },
			servers: [{ url: 'http://127.0.0.1:4010' }],
			paths: {},
			components: {
				responses: { Gone: { description: 'It is gone.' } },
				securitySchemes: {
					old: { type: 'http', scheme: 'bearer' },
					device: {
						type: 'oauth2',
						flows: { clientCredentials: { tokenUrl: 'https://auth.example/t', scopes: {} } },
					},
				},
			},
		});
	});

	it('writes the description 3.1 requires of a response 3.2 wrote without one: its summary, else its status’s reason phrase', () => {
		const document = parse(
			[
				'openapi: 3.2.0',
				"info: { title: Small, version: '1' }",
				'paths:',
				'  /x:',
				'    get:',
				'      responses:',
				"        '200': { summary: The users }",
				"        '404': {}",
				"        '410': { $ref: '#/components/responses/Removed' }",
				"        '5XX': {}",
				"        default: { summary: Anything else, description: '' }",
				'components:',
				'  responses:',
				'    Removed: {}',
				'    Unused: {}',
			].join('\n'),
		) as Record<string, unknown>;
		expect(contractForPrism(document, 'x.yaml')).toEqual({
			openapi: '3.1.1',
			info: { title: 'Small', version: '1' },
			paths: {
				'/x': {
					get: {
						responses: {
							'200': { description: 'The users' },
							'404': { description: 'Not Found' },
							'410': { $ref: '#/components/responses/Removed' },
							'5XX': { description: 'Any 5xx status' },
							default: { description: '' },
						},
					},
				},
			},
			components: {
				responses: { Removed: { description: 'Gone' }, Unused: { description: 'Unused' } },
			},
		});
	});

	it('is, for the 3.2 copy with responses written without a description, still a 3.1 document recommended-strict passes', async () => {
		const document = withoutQueries(await fixture('3-2'), 'x.yaml');
		const paths = document['paths'] as Record<string, Record<string, { responses: object }>>;
		const components = document['components'] as { responses: Record<string, object> };
		for (const response of [
			paths['/api/v2/users']?.['get']?.responses['200' as keyof object],
			paths['/api/v2/users']?.['head']?.responses['503' as keyof object],
			components.responses['Unauthorized'],
			components.responses['MockFailure'],
		]) {
			Reflect.deleteProperty(response ?? {}, 'description');
		}
		const forPrism = contractForPrism(document, 'x.yaml');
		const users = (forPrism['paths'] as typeof paths)['/api/v2/users'];
		expect(users?.['get']?.responses).toMatchObject({
			'200': { description: "The directory's users" },
		});
		expect(users?.['head']?.responses).toMatchObject({
			'503': { description: 'Service Unavailable' },
		});
		expect((forPrism['components'] as typeof components).responses).toMatchObject({
			Unauthorized: { description: 'No usable directory key' },
			MockFailure: { description: 'Internal Server Error' },
		});
		expect(await strictProblems(forPrism)).toEqual([
			['no-unused-components', '#/components/schemas/UserFilter'],
			['no-unused-components', '#/components/schemas/UserMatches'],
		]);
	});

	it('refuses, one line each, what it cannot serve: QUERY, additionalOperations, a querystring parameter, items', () => {
		const document = small([
			'query:',
			"  responses: { '200': { description: ok } }",
			'additionalOperations:',
			'  LINK:',
			"    responses: { '200': { description: ok } }",
			'get:',
			'  parameters:',
			'    - { name: filter, in: querystring, content: { application/json: { schema: { type: object } } } }',
			'  responses:',
			"    '200':",
			'      description: ok',
			'      content:',
			'        application/jsonl:',
			'          itemSchema: { type: object }',
			'        application/json:',
			"          examples: { a: { serializedValue: 'not json' } }",
		]);
		expect(() => contractForPrism(document, 'small.yaml')).toThrow(
			[
				"small.yaml: paths./x.query: the mock cannot serve a QUERY operation (OpenAPI 3.2's query method)",
				"small.yaml: paths./x.additionalOperations.LINK: the mock cannot serve a LINK operation (OpenAPI 3.2's additionalOperations)",
				"small.yaml: paths./x.get.parameters.0: the mock cannot serve a querystring parameter (OpenAPI 3.2's whole query string as one parameter)",
				"small.yaml: paths./x.get.responses.200.content.application/jsonl.itemSchema: the mock cannot serve a body described item by item (OpenAPI 3.2's itemSchema)",
				`small.yaml: paths./x.get.responses.200.content.application/json.examples.a.serializedValue: the mock cannot serve an example of a JSON body whose serializedValue is not JSON (${errorOf(() => JSON.parse('not json'))})`,
			].join('\n'),
		);
	});

	it('does not take a schema property named like a 3.2 field for one', () => {
		const document = small([
			'get:',
			'  responses:',
			"    '200':",
			'      description: ok',
			'      content:',
			'        application/json:',
			'          schema:',
			'            type: object',
			'            properties: { query: { type: string }, in: { const: querystring }, itemSchema: { type: string } }',
		]);
		expect(() => contractForPrism(document, 'x.yaml')).not.toThrow();
	});

	it('leaves an example’s data as it is, whatever its keys are named (responses, in, query)', () => {
		const data = {
			responses: { '200': { summary: 'not a response' } },
			servers: [{ name: 'not a server' }],
			in: 'querystring',
			query: 'not an operation',
		};
		const document = small([
			'get:',
			'  responses:',
			"    '200':",
			'      description: ok',
			'      content:',
			'        application/json:',
			'          examples:',
			`            as-value: { value: ${JSON.stringify(data)} }`,
			`            as-data-value: { dataValue: ${JSON.stringify(data)} }`,
		]);
		const examples = (
			contractForPrism(document, 'x.yaml') as {
				paths: Record<string, { get: { responses: Record<string, unknown> } }>;
			}
		).paths['/x']?.get.responses['200'] as {
			content: Record<string, { examples: Record<string, unknown> }>;
		};
		expect(examples.content['application/json']?.examples).toEqual({
			'as-value': { value: data },
			'as-data-value': { value: data },
		});
	});
});

describe('the mock on a 3.2 contract', () => {
	it('loads the 3.2 copy, its route problems read from dataValue and serializedValue examples', async () => {
		const state = await loadState({
			viewsDir: path.join(ROOT, 'content', 'views'),
			contractFile: path.join(ROOT, 'tests/fixtures/openapi-3-2/openapi.yaml'),
			mockOrigin: 'http://127.0.0.1:1',
		});
		expect(state.reference.openapi).toBe('3.2.0');
		expect(
			state.routeProblems[405].headers.find(({ name }) => name === 'Allow')?.examples,
		).toMatchObject([{ name: 'get-only', value: 'GET, HEAD' }]);
		expect(
			state.users.responses.find(({ code }) => code === '401')?.contents?.[0]?.examples?.[1],
		).toMatchObject({
			key: 'invalid-key',
			value: { status: 401, title: 'The key is not a directory key' },
		});
	});

	it('refuses at start a 3.2 contract with an additionalOperations method, in one line naming it', async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-query-'));
		try {
			const text = await readFile(
				path.join(ROOT, 'tests/fixtures/openapi-3-2/openapi.yaml'),
				'utf8',
			);
			const contractFile = path.join(folder, 'openapi.yaml');
			await writeFile(
				contractFile,
				text.replace(
					'    head:\n',
					"    additionalOperations:\n      LINK:\n        operationId: linkUsers\n        responses:\n          '200':\n            description: Linked.\n    head:\n",
				),
			);
			const loading = loadState({
				viewsDir: path.join(ROOT, 'content', 'views'),
				contractFile,
				mockOrigin: 'http://127.0.0.1:1',
			});
			await expect(loading).rejects.toThrow(
				`${contractFile}: paths./api/v2/users.additionalOperations.LINK: the mock cannot serve a LINK operation (OpenAPI 3.2's additionalOperations)`,
			);
			await expect(loading).rejects.toHaveProperty('name', 'SourceError');
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});
});

/** The message of what a function throws. */
function errorOf(run: () => unknown): string {
	try {
		run();
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
	return '';
}
