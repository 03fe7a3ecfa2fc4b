/**
 * The changelog's classification rules: what only readers see (a header's or a parameter's
 * example, the inside of an example, an `x-` extension, a response's summary) is documentation,
 * where api-smart-diff's own rules leave it unclassified; what clients meet keeps the library's
 * class, even under a name that looks like documentation (a header named `x-request-id`, a
 * property named `example`).
 */
import { apiDiff } from 'api-smart-diff';
import { describe, expect, it } from 'vitest';
import { contractDiffRules, isExtension } from '../../../src/site/contract-diff-rules.ts';

/** A small OpenAPI 3.1 document: GET /items with a parameter, a 200 with a header and a body. */
function contract() {
	return {
		openapi: '3.1.0',
		info: { title: 'Items', version: '1.0.0' },
		paths: {
			'/items': {
				get: {
					summary: 'List the items',
					parameters: [
						{
							name: 'Origin',
							in: 'header',
							description: 'Where the page was served from.',
							schema: { type: 'string' },
							example: 'https://portal.example',
						},
					],
					responses: {
						'200': {
							description: 'The items.',
							headers: {
								'Access-Control-Allow-Origin': {
									description: 'The origin allowed to read the answer.',
									schema: { type: 'string' },
									example: 'https://portal.example',
									examples: { portal: { summary: 'The portal', value: 'https://portal.example' } },
								},
							},
							content: {
								'application/json': {
									schema: {
										type: 'object',
										required: ['name'],
										properties: {
											name: { type: 'string', description: 'A name.', 'x-faker': 'name.findName' },
										},
									},
									examples: {
										one: { summary: 'One item', value: { name: 'Ada' } },
									},
								},
							},
						},
					},
				},
			},
		},
	};
}

type Contract = ReturnType<typeof contract>;

/** The class of each change `edit` makes to the contract, as `class: path`. */
function classes(edit: (after: Contract) => void): string[] {
	const before = contract();
	const after = contract();
	edit(after);
	return apiDiff(before, after, { rules: contractDiffRules() }).map(
		(diff) => `${diff.type}: ${diff.path.join('.')}`,
	);
}

/** The 200 answer of GET /items in a contract. */
const ok = (document: Contract) => document.paths['/items'].get.responses['200'];

/** The response header of the 200 answer. */
const header = (document: Contract) => ok(document).headers['Access-Control-Allow-Origin'];

/** The JSON body of the 200 answer. */
const body = (document: Contract) => ok(document).content['application/json'];

const GET = 'paths./items.get';
const OK = `${GET}.responses.200`;

describe('the changelog classifies as documentation', () => {
	it('a header’s example and its named examples', () => {
		expect(
			classes((after) => {
				header(after).example = 'https://other.example';
				const portal = header(after).examples.portal;
				portal.summary = 'Another portal';
				portal.value = 'https://other.example';
			}),
		).toEqual([
			`annotation: ${OK}.headers.Access-Control-Allow-Origin.example`,
			`annotation: ${OK}.headers.Access-Control-Allow-Origin.examples.portal.summary`,
			`annotation: ${OK}.headers.Access-Control-Allow-Origin.examples.portal.value`,
		]);
	});

	it('a parameter’s example, and one added to it', () => {
		expect(
			classes((after) => {
				const [origin] = after.paths['/items'].get.parameters;
				if (!origin) throw new Error('No parameter');
				origin.example = 'https://other.example';
				Object.assign(origin, { examples: { other: { value: 'https://other.example' } } });
			}),
		).toEqual([
			`annotation: ${GET}.parameters.0.example`,
			`annotation: ${GET}.parameters.0.examples`,
		]);
	});

	it('what is inside a body’s named example, and an example added', () => {
		expect(
			classes((after) => {
				const examples: Record<string, object> = body(after).examples;
				examples['one'] = { summary: 'One item', value: { name: 'Grace' } };
				examples['two'] = { value: { name: 'Alan' } };
			}),
		).toEqual([
			`annotation: ${OK}.content.application/json.examples.one.value.name`,
			`annotation: ${OK}.content.application/json.examples.two`,
		]);
	});

	it('an x- extension on a schema, a response and an operation', () => {
		expect(
			classes((after) => {
				body(after).schema.properties.name['x-faker'] = 'name.firstName';
				Object.assign(ok(after), { 'x-cache': { seconds: 60 } });
				Object.assign(after.paths['/items'].get, { 'x-owner': 'Directory team' });
			}),
		).toEqual([
			`annotation: ${OK}.content.application/json.schema.properties.name.x-faker`,
			`annotation: ${OK}.x-cache`,
			`annotation: ${GET}.x-owner`,
		]);
	});

	it('a summary and external documentation added to a response', () => {
		expect(
			classes((after) => {
				Object.assign(ok(after), {
					summary: 'Items',
					externalDocs: { url: 'https://portal.example/docs' },
				});
			}),
		).toEqual([`annotation: ${OK}.summary`, `annotation: ${OK}.externalDocs`]);
	});
});

describe('the changelog keeps the library’s class for what clients meet', () => {
	it('a response header named like an extension', () => {
		const changes = classes((after) => {
			Object.assign(ok(after).headers, {
				'x-request-id': { description: 'The request’s id.', schema: { type: 'string' } },
			});
		});
		expect(changes).toEqual([`non-breaking: ${OK}.headers.x-request-id`]);
	});

	it('a property named like documentation, added to and removed from a response body', () => {
		expect(
			classes((after) => {
				Object.assign(body(after).schema.properties, { example: { type: 'string' } });
			}),
		).toEqual([`non-breaking: ${OK}.content.application/json.schema.properties.example`]);
		expect(
			classes((after) => {
				body(after).schema.required = [];
			}),
		).toEqual([`breaking: ${OK}.content.application/json.schema.required.0`]);
	});

	it('an operation deprecated', () => {
		expect(
			classes((after) => {
				Object.assign(after.paths['/items'].get, { deprecated: true });
			}),
		).toEqual([`deprecated: ${GET}.deprecated`]);
	});
});

describe('an extension', () => {
	it('is a key that starts with a lower-case x-, as the specification requires', () => {
		expect(['x-faker', 'x-', 'X-Request-Id', 'example', 3].map(isExtension)).toEqual([
			true,
			true,
			false,
			false,
			false,
		]);
	});
});
