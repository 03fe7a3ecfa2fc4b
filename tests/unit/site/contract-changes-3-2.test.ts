/**
 * The changelog of a move from OpenAPI 3.1 to 3.2 that keeps the operations: non-breaking, and
 * 3.2's additions named in the changelog's own words.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { compareContracts } from '../../../src/site/contract-changes.ts';
import { ROOT } from '../../../support/processes.ts';

/** A fixture contract, parsed. */
async function fixture(version: '3-1' | '3-2'): Promise<Record<string, unknown>> {
	const file = path.join(ROOT, 'tests', 'fixtures', `openapi-${version}`, 'openapi.yaml');
	return parse(await readFile(file, 'utf8')) as Record<string, unknown>;
}

/** The change the move from 3.1 to 3.2 is, itself. */
const UPGRADE = {
	class: 'non-breaking',
	action: 'replace',
	where: 'openapi',
	description:
		"[Upgraded] OpenAPI 3.1.0 → 3.2.0: the same operations, read as before; 3.2 adds nested tags, a response's summary, dataValue and serializedValue examples and the contract's own address ($self)",
} as const;

/** The users' path of a fixture contract, as the tests change it. */
function users(document: Record<string, unknown>): Record<string, unknown> {
	const paths = document['paths'] as Record<string, Record<string, unknown>>;
	const item = paths['/api/v2/users'];
	if (!item) throw new Error('The fixture has no /api/v2/users');
	return item;
}

/** The QUERY operation of a 3.2 fixture contract. */
function usersQuery(document: Record<string, unknown>) {
	return users(document)['query'] as { summary: string; responses: Record<string, unknown> };
}

/** A fixture contract without one of its operations on /api/v2/users. */
function withoutOperation(document: Record<string, unknown>, method: string) {
	delete users(document)[method];
	return document;
}

/** A 3.2 fixture contract without its QUERY operation: the 3.1 copy's operations, in 3.2. */
function withoutQuery(document: Record<string, unknown>) {
	return withoutOperation(document, 'query');
}

describe('the changelog of the move from 3.1 to 3.2', () => {
	it('has nothing breaking, the version change and the QUERY operation non-breaking, and the rest documentation', async () => {
		const { changes } = compareContracts(await fixture('3-1'), await fixture('3-2'));
		expect(changes.filter((change) => change.class === 'breaking')).toEqual([]);
		expect(changes.filter((change) => change.class === 'unclassified')).toEqual([]);
		expect(changes.filter((change) => change.class === 'non-breaking')).toEqual([
			{ ...UPGRADE },
			{
				class: 'non-breaking',
				action: 'add',
				where: 'paths › /api/v2/users › query',
				description: '[Added] operation QUERY /api/v2/users',
			},
		]);
	});

	it('keeps an upgrade that keeps the operations non-breaking, with no change of its own', async () => {
		const { changes } = compareContracts(await fixture('3-1'), withoutQuery(await fixture('3-2')));
		expect(changes.filter((change) => change.class !== 'annotation')).toEqual([{ ...UPGRADE }]);
	});

	it('tells a QUERY operation removed as an operation removed, breaking, as a GET is', async () => {
		const latest = await fixture('3-2');
		const { changes } = compareContracts(latest, withoutQuery(await fixture('3-2')));
		expect(changes).toEqual([
			{
				class: 'breaking',
				action: 'remove',
				where: 'paths › /api/v2/users › query',
				description: '[Removed] operation QUERY /api/v2/users',
			},
		]);
		const get = compareContracts(latest, withoutOperation(await fixture('3-2'), 'get')).changes;
		expect(get.map(({ class: kind, description }) => ({ class: kind, description }))).toEqual([
			{ class: 'breaking', description: '[Removed] operation GET /api/v2/users' },
		]);
	});

	it('files no change to GET, HEAD or OPTIONS when a QUERY operation is added beside them', async () => {
		const { changes } = compareContracts(await fixture('3-1'), await fixture('3-2'));
		expect(changes.filter((change) => /› (get|head|options) › query/.test(change.where))).toEqual(
			[],
		);
	});

	it('tells a change inside a QUERY operation where it is, classified as inside a GET', async () => {
		const before = await fixture('3-2');
		const after = await fixture('3-2');
		const query = usersQuery(after);
		delete query.responses['422'];
		query.summary = 'Find users';
		expect(compareContracts(before, after).changes).toEqual([
			{
				class: 'annotation',
				action: 'replace',
				where: 'paths › /api/v2/users › query › summary',
				description: '[Replaced] annotation (summary)',
			},
			{
				class: 'breaking',
				action: 'remove',
				where: 'paths › /api/v2/users › query › responses › 422',
				description: '[Removed] Response 422',
			},
		]);
	});

	it('tells an operation of additionalOperations added or removed as an operation, under its own name', () => {
		const copy = { responses: { '204': { description: 'Copied.' } } };
		const item = (extra: object) => ({
			get: { responses: { '200': { description: 'The item.' } } },
			parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
			...extra,
		});
		const before = { openapi: '3.2.0', paths: { '/items/{id}': item({}) } };
		const after = {
			openapi: '3.2.0',
			paths: { '/items/{id}': item({ additionalOperations: { COPY: copy } }) },
		};
		expect(compareContracts(before, after).changes).toEqual([
			{
				class: 'non-breaking',
				action: 'add',
				where: 'paths › /items/{id} › additionalOperations › COPY',
				description: '[Added] operation COPY /items/{id}',
			},
		]);
		expect(compareContracts(after, before).changes).toEqual([
			{
				class: 'breaking',
				action: 'remove',
				where: 'paths › /items/{id} › additionalOperations › COPY',
				description: '[Removed] operation COPY /items/{id}',
			},
		]);
	});

	it('names each of 3.2’s additions in its own words', async () => {
		const { changes } = compareContracts(await fixture('3-1'), await fixture('3-2'));
		const said = (where: string) => changes.find((change) => change.where === where)?.description;
		expect(said('$self')).toBe("[Added] the contract's own address ($self, OpenAPI 3.2)");
		expect(said('tags › 0 › kind')).toBe(
			"[Added] a tag's kind, such as nav for the navigation (kind, OpenAPI 3.2)",
		);
		expect(said('tags › 0 › summary')).toBe(
			"[Added] a tag's summary, shown for it in the navigation (summary, OpenAPI 3.2)",
		);
		expect(said('paths › /api/v2/users › get › responses › 200 › summary')).toBe(
			"[Added] a response's summary, the line its disclosure shows closed (summary, OpenAPI 3.2)",
		);
		expect(
			said(
				'paths › /api/v2/users › get › responses › 401 › content › application/problem+json › examples › missing-key › dataValue',
			),
		).toBe(
			"[Moved] example missing-key's value to dataValue, the example's data before it is serialised (OpenAPI 3.2)",
		);
		expect(
			said(
				'paths › /api/v2/users › options › responses › 405 › headers › Allow › examples › get-only › serializedValue',
			),
		).toBe(
			"[Moved] example get-only's value to serializedValue, the example as it is sent, serialised (OpenAPI 3.2)",
		);
	});

	it('names a parent added to a tag, and leaves a property named parent to the library', () => {
		const before = {
			openapi: '3.2.0',
			tags: [{ name: 'A' }, { name: 'B' }],
			components: { schemas: { Node: { type: 'object', properties: {} } } },
		};
		const after = {
			openapi: '3.2.0',
			tags: [{ name: 'A' }, { name: 'B', parent: 'A' }],
			components: {
				schemas: { Node: { type: 'object', properties: { parent: { type: 'string' } } } },
			},
		};
		const { changes } = compareContracts(before, after);
		expect(changes.find((change) => change.where === 'tags › 1 › parent')?.description).toBe(
			"[Added] a tag's parent, which nests it under another in the navigation (parent, OpenAPI 3.2)",
		);
		expect(
			changes.some(
				(change) =>
					change.description.includes('parent, OpenAPI 3.2') &&
					change.where.startsWith('components'),
			),
		).toBe(false);
	});

	it('leaves a move within 3.1, and back from 3.2, to the library', () => {
		const within = compareContracts({ openapi: '3.1.0' }, { openapi: '3.1.1' }).changes;
		expect(within[0]?.description).not.toContain('[Upgraded]');
		const back = compareContracts({ openapi: '3.2.0' }, { openapi: '3.1.0' }).changes;
		expect(back[0]?.description).not.toContain('[Upgraded]');
	});

	it('names a tag added, removed or renamed by its name, not by its place in the list', () => {
		const before = { openapi: '3.2.0', tags: [{ name: 'Directory', description: 'Who.' }] };
		const after = {
			openapi: '3.2.0',
			tags: [
				{ name: "The console's API", description: 'All of it.' },
				{ name: 'Users', parent: "The console's API" },
			],
		};
		const said = compareContracts(before, after).changes.map((change) => change.description);
		expect(said).toContain("[Renamed] tag Directory to The console's API");
		expect(said).toContain("[Replaced] the description of tag The console's API");
		expect(said).toContain('[Added] tag Users');
		const gone = compareContracts(after, before).changes.map((change) => change.description);
		expect(gone).toContain('[Removed] tag Users');
		expect(said.some((words) => /\] \d+$/.test(words))).toBe(false);
	});

	it('tells an example moved from value to dataValue or serializedValue as one change', async () => {
		const { changes } = compareContracts(await fixture('3-1'), await fixture('3-2'));
		const example =
			'paths › /api/v2/users › get › responses › 401 › content › application/problem+json › examples › missing-key';
		expect(changes.filter((change) => change.where.startsWith(`${example} ›`))).toEqual([
			{
				class: 'annotation',
				action: 'rename',
				where: `${example} › dataValue`,
				description:
					"[Moved] example missing-key's value to dataValue, the example's data before it is serialised (OpenAPI 3.2)",
			},
		]);
		const header =
			'paths › /api/v2/users › options › responses › 405 › headers › Allow › examples › get-only';
		expect(
			changes.filter((change) => change.where.startsWith(`${header} ›`)).map((c) => c.description),
		).toEqual([
			"[Moved] example get-only's value to serializedValue, the example as it is sent, serialised (OpenAPI 3.2)",
		]);
	});
});

describe('comparing two versions of the contract', () => {
	it('leaves both versions as written, so the next commit is compared with the contract as it was', () => {
		const version = (summary: string) => ({
			openapi: '3.2.0',
			paths: {
				'/items/{id}': {
					parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
					get: { summary, responses: { '200': { description: 'The item.' } } },
					additionalOperations: { COPY: { responses: { '204': { description: 'Copied.' } } } },
				},
			},
		});
		const before = version('An item');
		const after = version('One item');
		compareContracts(before, after);
		expect([before, after]).toEqual([version('An item'), version('One item')]);
	});
});

/** A schema of a fixture contract's components, as a copy to change. */
function componentSchema(document: Record<string, unknown>, name: string) {
	const components = document['components'] as { schemas: Record<string, unknown> };
	return structuredClone(components.schemas[name]) as {
		required: string[];
		properties: Record<string, Record<string, unknown>>;
	};
}

/** A media type of the QUERY's request body or of its 200 response, added if it is not there. */
function queryMediaType(
	document: Record<string, unknown>,
	where: 'request' | 'response',
	type: string,
): Record<string, unknown> {
	const query = users(document)['query'] as {
		requestBody: { content: Record<string, Record<string, unknown>> };
		responses: Record<string, { content: Record<string, Record<string, unknown>> }>;
	};
	const content =
		where === 'request' ? query.requestBody.content : (query.responses['200']?.content ?? {});
	content[type] ??= {};
	return content[type];
}

/** The schema of the QUERY's querystring parameter, the mock's controls as a form. */
function querystringSchema(document: Record<string, unknown>) {
	const { parameters } = users(document)['query'] as {
		parameters: {
			content: Record<
				string,
				{ schema: { required?: string[]; properties: Record<string, object> } }
			>;
		}[];
	};
	const [controls] = parameters;
	const form = controls?.content['application/x-www-form-urlencoded'];
	if (!form) throw new Error('The fixture has no querystring parameter');
	return form.schema;
}

/**
 * The 3.2 fixture with its QUERY's stream of users written out, not by `$ref`: the library reads
 * a `$ref` replaced by what it points to as several changes, under `schema` as under `itemSchema`.
 */
async function withStreamWritten(): Promise<Record<string, unknown>> {
	const document = await fixture('3-2');
	queryMediaType(document, 'response', 'application/jsonl')['itemSchema'] = componentSchema(
		document,
		'User',
	);
	return document;
}

/** Where a change to the QUERY's 200 stream of users is. */
const STREAM = 'paths › /api/v2/users › query › responses › 200 › content › application/jsonl';

/** Where a change to a stream of filters sent to the QUERY is. */
const SENT_STREAM = 'paths › /api/v2/users › query › requestBody › content › application/jsonl';

/** Where a change to the QUERY's querystring parameter's schema is. */
const QUERYSTRING =
	'paths › /api/v2/users › query › parameters › 0 › content › application/x-www-form-urlencoded › schema';

/** A filter of users by role, as a request's item schema or schema, with the roles it allows. */
function roleFilter(roles: string[]) {
	return {
		type: 'object',
		properties: { role: { type: 'string', enum: roles }, name: { type: 'string' } },
	} as { type: string; properties: object; required?: string[] };
}

describe('the changelog of a stream of items (itemSchema, OpenAPI 3.2)', () => {
	it('files a property of each answered item changing type as a response schema change, not unclassified', async () => {
		const before = await withStreamWritten();
		const after = await fixture('3-2');
		const user = componentSchema(after, 'User');
		user.properties['name'] = { ...user.properties['name'], type: 'integer' };
		queryMediaType(after, 'response', 'application/jsonl')['itemSchema'] = user;
		expect(compareContracts(before, after).changes).toEqual([
			{
				class: 'non-breaking',
				action: 'replace',
				where: `${STREAM} › itemSchema › properties › name › type`,
				description:
					'[Replaced] type definition of `name` in each item of Response 200 content (application/jsonl)',
			},
		]);
	});

	it('files a property each answered item now promises as non-breaking, as in a response schema', async () => {
		const before = await withStreamWritten();
		const after = await fixture('3-2');
		const user = componentSchema(after, 'User');
		user.properties['team'] = { type: 'string' };
		user.required.push('team');
		queryMediaType(after, 'response', 'application/jsonl')['itemSchema'] = user;
		expect(compareContracts(before, after).changes).toEqual([
			{
				class: 'non-breaking',
				action: 'add',
				where: `${STREAM} › itemSchema › required › 3`,
				description:
					'[Added] required status to `team` in each item of Response 200 content (application/jsonl)',
			},
			{
				class: 'non-breaking',
				action: 'add',
				where: `${STREAM} › itemSchema › properties › team`,
				description:
					'[Added] property `team` in each item of Response 200 content (application/jsonl)',
			},
		]);
	});

	it('files a sent item made stricter as breaking, as in a request body schema', async () => {
		const before = await fixture('3-2');
		const after = await fixture('3-2');
		queryMediaType(before, 'request', 'application/jsonl')['itemSchema'] = roleFilter([
			'admin',
			'viewer',
		]);
		const stricter = roleFilter(['admin']);
		stricter.required = ['name'];
		queryMediaType(after, 'request', 'application/jsonl')['itemSchema'] = stricter;
		expect(compareContracts(before, after).changes).toEqual([
			{
				class: 'breaking',
				action: 'remove',
				where: `${SENT_STREAM} › itemSchema › properties › role › enum › 1`,
				description:
					'[Replaced] possible values of `role` in each item of Request Body content (application/jsonl)',
			},
			{
				class: 'breaking',
				action: 'add',
				where: `${SENT_STREAM} › itemSchema › required › 0`,
				description:
					'[Added] required status to `name` in each item of Request Body content (application/jsonl)',
			},
		]);
	});

	it('files a description of an item’s property as documentation', async () => {
		const before = await withStreamWritten();
		const after = await fixture('3-2');
		const user = componentSchema(after, 'User');
		user.properties['name'] = { ...user.properties['name'], description: 'Their full name.' };
		queryMediaType(after, 'response', 'application/jsonl')['itemSchema'] = user;
		expect(compareContracts(before, after).changes.map((change) => change.class)).toEqual([
			'annotation',
		]);
	});

	it('classifies each item change as the same change in a schema is', async () => {
		for (const field of ['schema', 'itemSchema']) {
			const before = await fixture('3-2');
			const after = await fixture('3-2');
			const response = (document: Record<string, unknown>) =>
				queryMediaType(document, 'response', 'application/jsonl');
			delete response(before)['itemSchema'];
			response(before)[field] = componentSchema(before, 'User');
			const user = componentSchema(after, 'User');
			user.properties['name'] = { ...user.properties['name'], type: 'integer' };
			user.required.push('team');
			user.properties['team'] = { type: 'string' };
			delete response(after)['itemSchema'];
			response(after)[field] = user;
			queryMediaType(before, 'request', 'application/jsonl')[field] = roleFilter(['a', 'b']);
			const sent = roleFilter(['a']);
			sent.required = ['name'];
			queryMediaType(after, 'request', 'application/jsonl')[field] = sent;
			const classes = compareContracts(before, after).changes.map((change) => change.class);
			expect(classes, field).toEqual([
				'breaking',
				'breaking',
				'non-breaking',
				'non-breaking',
				'non-breaking',
			]);
		}
	});

	it('says a stream added to or removed from a response is the response’s content', async () => {
		const before = await fixture('3-2');
		const after = await fixture('3-2');
		queryMediaType(after, 'response', 'application/x-ndjson')['itemSchema'] = {
			$ref: '#/components/schemas/User',
		};
		const added = {
			class: 'non-breaking',
			action: 'add',
			where: 'paths › /api/v2/users › query › responses › 200 › content › application/x-ndjson',
			description: '[Added] Content type to Response 200 content (application/x-ndjson)',
		};
		expect(compareContracts(before, after).changes).toEqual([added]);
		expect(compareContracts(after, before).changes).toEqual([
			{
				...added,
				class: 'breaking',
				action: 'remove',
				description: '[Removed] Content type from Response 200 content (application/x-ndjson)',
			},
		]);
	});

	it('still says a stream added to a request body is the request body’s content', async () => {
		const before = await fixture('3-2');
		const after = await fixture('3-2');
		queryMediaType(after, 'request', 'application/jsonl')['itemSchema'] = roleFilter(['admin']);
		expect(compareContracts(before, after).changes).toEqual([
			{
				class: 'non-breaking',
				action: 'add',
				where: SENT_STREAM,
				description: '[Added] Content type to Request Body content (application/jsonl)',
			},
		]);
	});
});

describe('the changelog of a querystring parameter (OpenAPI 3.2)', () => {
	it('files the query string made stricter as breaking, as a query parameter’s schema', async () => {
		const before = await fixture('3-2');
		const after = await fixture('3-2');
		querystringSchema(before).properties['__code'] = { type: 'string', enum: ['401', '404'] };
		const schema = querystringSchema(after);
		schema.properties['__code'] = { type: 'integer', enum: ['401'] };
		schema.required = ['__example'];
		expect(compareContracts(before, after).changes).toEqual([
			{
				class: 'breaking',
				action: 'replace',
				where: `${QUERYSTRING} › properties › __code › type`,
				description: '[Replaced] type definition of `__code` in querystring parameter `controls`',
			},
			{
				class: 'breaking',
				action: 'remove',
				where: `${QUERYSTRING} › properties › __code › enum › 1`,
				description: '[Replaced] possible values of `__code` in querystring parameter `controls`',
			},
			{
				class: 'breaking',
				action: 'add',
				where: `${QUERYSTRING} › required › 0`,
				description: '[Added] required status to `__example` in querystring parameter `controls`',
			},
		]);
	});

	it('files a description in the query string’s schema as documentation', async () => {
		const before = await fixture('3-2');
		const after = await fixture('3-2');
		querystringSchema(after).properties['__code'] = {
			...querystringSchema(after).properties['__code'],
			description: 'The status to answer with.',
		};
		expect(compareContracts(before, after).changes.map((change) => change.class)).toEqual([
			'annotation',
		]);
	});
});
