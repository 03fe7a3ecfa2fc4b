/**
 * The mock's answers to QUERY /api/v2/users on the 3.2 test copy of the contract, without a
 * socket: the key first, as for GET; then the body, checked against the operation's schema; then
 * the key's view's users that the filter matches, as JSON or as JSON lines. Expected users are
 * read from the fixture as written.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { createMemory, decide, type MockAnswer, type MockNow } from '../../../mock/decide.ts';
import { matches } from '../../../mock/query.ts';
import { withoutQueries } from '../../../mock/query-aside.ts';
import type { MockRequest } from '../../../mock/sent-answers.ts';
import { loadState } from '../../../mock/state.ts';
import { checkAnswer, readEvents } from '../../../src/shared/contract-check.ts';
import { contractValidators } from '../../../src/sources/contract-validators.ts';
import { readSettings } from '../../../src/sources/settings.ts';

const settings = readSettings({});
const CONTRACT = path.join(
	import.meta.dirname,
	'..',
	'..',
	'fixtures',
	'openapi-3-2',
	'openapi.yaml',
);
const HOSTS = { port: 4010, names: [] };

let now: MockNow;
let users: { name: string; email: string; role: string; apiKey: string }[];

beforeAll(async () => {
	now = {
		state: await loadState({
			viewsDir: settings.viewsDir,
			contractFile: CONTRACT,
			mockOrigin: 'http://127.0.0.1:1',
		}),
	};
	const text = await readFile(path.join(settings.viewsDir, 'production.json'), 'utf8');
	users = (JSON.parse(text) as { users: typeof users }).users;
}, 60_000);

/** A QUERY of the users path with these changes. */
const query = (changes: Partial<MockRequest> = {}): MockRequest => ({
	started: 0,
	rawMethod: 'QUERY',
	method: 'query',
	target: '/api/v2/users',
	host: '127.0.0.1:4010',
	origin: undefined,
	authorization: `Bearer ${users[0]?.apiKey ?? ''}`,
	prefer: undefined,
	body: '{}',
	...changes,
});

const ask = (request: MockRequest): Promise<MockAnswer> =>
	Promise.resolve(decide(request, now, createMemory(), HOSTS));
const json = (answer: MockAnswer): unknown => JSON.parse(answer.body.toString('utf8'));
const listed = (list: typeof users) => list.map(({ name, email, role }) => ({ name, email, role }));

describe('QUERY /api/v2/users on the mock', () => {
	it('answers a view’s key with the users its filter matches, or all of them for {}', async () => {
		const all = await ask(query());
		expect(all.status).toBe(200);
		expect(json(all)).toEqual({ users: listed(users) });
		const admins = await ask(query({ body: '{"role":"admin"}' }));
		expect(json(admins)).toEqual({ users: listed(users.filter(({ role }) => role === 'admin')) });
		const named = users[1]?.name.split(' ')[0]?.toUpperCase() ?? '';
		const byName = await ask(query({ body: JSON.stringify({ name: named }) }));
		expect(json(byName)).toEqual({
			users: listed(users.filter(({ name }) => name.toUpperCase().includes(named))),
		});
	});

	it('refuses a request without a key with GET’s 401 and Bearer challenge, before reading its body', async () => {
		const answer = await ask(query({ authorization: undefined, body: 'not json' }));
		expect(answer.status).toBe(401);
		expect(answer.headers['WWW-Authenticate']).toBe('Bearer realm="console"');
		expect(json(answer)).toMatchObject({ status: 401, title: 'A directory key is required' });
	});

	it('answers a body its schema does not allow with the operation’s 422, naming each violation', async () => {
		const answer = await ask(query({ body: '{"role":"boss","age":3}' }));
		expect(answer.status).toBe(422);
		expect(answer.headers['Content-Type']).toBe('application/problem+json');
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/invalid-filter',
			title: 'The body is not a filter',
			status: 422,
			detail:
				'/age: is not in the contract; /role: must be one of admin, deployer, operator, viewer',
		});
		expect(answer.logged.refused).toMatch(/^the body is not a filter: /);
	});

	it('answers a body that is not JSON, an empty one and one longer than it reads with its 422', async () => {
		const notJson = json(await ask(query({ body: '{role' })));
		expect(notJson).toMatchObject({ status: 422 });
		expect(JSON.stringify(notJson)).toMatch(/"detail":"The body is not JSON \(/);
		expect(json(await ask(query({ body: ' ' })))).toMatchObject({
			detail: 'The body is empty: send a JSON filter, e.g. {} for every user.',
		});
		expect(json(await ask(query({ body: undefined })))).toMatchObject({
			detail: 'The body is longer than 65536 bytes.',
		});
	});

	it('sends the users one JSON object a line when Accept asks for application/jsonl', async () => {
		const answer = await ask(query({ body: '{"role":"viewer"}', accept: 'application/jsonl' }));
		expect(answer.headers['Content-Type']).toBe('application/jsonl');
		const lines = answer.body.toString('utf8');
		expect(lines.endsWith('\n')).toBe(true);
		expect(
			lines
				.trimEnd()
				.split('\n')
				.map((line) => JSON.parse(line) as unknown),
		).toEqual(listed(users.filter(({ role }) => role === 'viewer')));
	});

	it('lets a page send QUERY in a preflight, and answers another method’s preflight alike', async () => {
		const answer = await ask({
			...query({ method: 'options', rawMethod: 'OPTIONS', origin: 'http://127.0.0.1:4321' }),
			preflight: true,
		});
		expect(answer.headers['Access-Control-Allow-Methods']).toBe('GET, HEAD, QUERY');
	});
});

describe('the controls of a QUERY', () => {
	it('answer the QUERY’s own named example, not GET’s: example=no-match is its empty list', async () => {
		const answer = await ask(query({ prefer: 'example=no-match' }));
		expect(answer.status).toBe(200);
		expect(answer.headers['Content-Type']).toBe('application/json');
		expect(json(answer)).toEqual({ users: [] });
		// The log shows an example the QUERY has by its name, as it shows GET's.
		expect(answer.logged.controls).toBe('Prefer: example=no-match');
	});

	it('answer code=422 with the QUERY’s own 422 (not a filter), not GET’s unreadable control', async () => {
		const answer = await ask(query({ target: '/api/v2/users?__code=422' }));
		expect(answer.status).toBe(422);
		expect(answer.headers['Content-Type']).toBe('application/problem+json');
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/invalid-filter',
			title: 'The body is not a filter',
			status: 422,
			detail: 'role: expected one of "admin", "deployer", "operator", "viewer"',
		});
		expect(answer.logged.controls).toBe('__code=422');
	});

	it('answer a 401 example with its own Bearer challenge, as GET’s controls do', async () => {
		const answer = await ask(query({ prefer: 'code=401, example=invalid-key' }));
		expect(answer.status).toBe(401);
		expect(answer.headers['WWW-Authenticate']).toBe(
			'Bearer realm="console", error="invalid_token", error_description="The key is not in any view\'s directory"',
		);
		expect(json(answer)).toMatchObject({ type: 'https://portal.example/problems/invalid-key' });
	});

	it('refuse an example GET has but the QUERY lacks, naming the QUERY’s examples', async () => {
		const answer = await ask(query({ prefer: 'example=production' }));
		expect(answer.status).toBe(404);
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/unknown-example',
			title: 'The contract has no such example',
			status: 404,
			detail:
				'Prefer: example=production: the 200 answer of QUERY /api/v2/users has no example named "production"; its examples are no-match.',
		});
		// Not a name the QUERY has: the log shows its length only.
		expect(answer.logged.controls).toBe('Prefer: example=<unrecognised, 10 chars>');
	});

	it('refuse a status the QUERY lacks, naming the statuses it answers', async () => {
		const answer = await ask(query({ target: '/api/v2/users?__code=418' }));
		expect(answer.status).toBe(404);
		expect(json(answer)).toMatchObject({
			type: 'https://portal.example/problems/unknown-code',
			detail:
				'__code=418: QUERY /api/v2/users has no 418 response; it answers 200, 400, 401, 403, 404, 422, 500, 503.',
		});
	});

	it('answer code=200 alone, or a delay alone, with the key’s view’s users the filter matches', async () => {
		const admins = listed(users.filter(({ role }) => role === 'admin'));
		const chosen = await ask(query({ prefer: 'code=200', body: '{"role":"admin"}' }));
		expect(json(chosen)).toEqual({ users: admins });
		const late = await ask(query({ prefer: 'delay=0', body: '{"role":"admin"}' }));
		expect(json(late)).toEqual({ users: admins });
	});

	it('check a generated body’s example against the QUERY’s names, and generate its users the filter matches', async () => {
		const unknown = await ask(query({ prefer: 'dynamic=true, example=production' }));
		expect(json(unknown)).toMatchObject({
			type: 'https://portal.example/problems/unknown-example',
		});
		const generated = await ask(
			query({ prefer: 'dynamic=true, seed=7, example=no-match', body: '{"role":"viewer"}' }),
		);
		expect(generated.status).toBe(200);
		const { users: made } = json(generated) as { users: { role: string }[] };
		expect(made.every(({ role }) => role === 'viewer')).toBe(true);
	});

	it('still refuse a body the schema does not allow before any control', async () => {
		const answer = await ask(query({ prefer: 'example=no-match', body: '{"role":"boss"}' }));
		expect(answer.status).toBe(422);
		expect(json(answer)).toMatchObject({ type: 'https://portal.example/problems/invalid-filter' });
	});
});

describe('the filter of a QUERY', () => {
	it('matches a text field by part, in any case, and any other field by equality', () => {
		const user = { name: 'Amara Okafor', role: 'admin', active: true };
		expect(matches(user, {})).toBe(true);
		expect(matches(user, { name: 'OKAF' })).toBe(true);
		expect(matches(user, { name: 'okaf', role: 'viewer' })).toBe(false);
		expect(matches(user, { active: true })).toBe(true);
		expect(matches(user, { active: 'true' })).toBe(false);
		expect(matches(user, { missing: 'x' })).toBe(false);
	});
});

describe('the contract Prism reads', () => {
	it('leaves out QUERY /api/v2/users and keeps the rest of the path as it is', async () => {
		const document = parse(await readFile(CONTRACT, 'utf8')) as Record<string, unknown>;
		const forPrism = withoutQueries(document, 'x.yaml');
		const item = (forPrism['paths'] as Record<string, Record<string, unknown>>)['/api/v2/users'];
		expect(Object.keys(item ?? {})).toEqual(['get', 'head', 'options']);
		expect(
			(document['paths'] as Record<string, Record<string, unknown>>)['/api/v2/users'],
		).toHaveProperty('query');
		const plain = { openapi: '3.1.0', paths: { '/api/v2/users': { get: {} } } };
		expect(withoutQueries(plain, 'x.yaml')).toBe(plain);
	});

	it('refuses a QUERY on another path in one line naming it', () => {
		const document = { paths: { '/x': { query: {} }, '/y': { get: {} }, '/z': { query: {} } } };
		expect(() => withoutQueries(document, 'x.yaml')).toThrow(
			[
				"x.yaml: paths./x.query: the mock serves a QUERY operation on /api/v2/users only (OpenAPI 3.2's query method)",
				"x.yaml: paths./z.query: the mock serves a QUERY operation on /api/v2/users only (OpenAPI 3.2's query method)",
			].join('\n'),
		);
	});
});

/** The 3.2 spec's event of a user: its data is the user's JSON, as the contract's User. */
const USER_EVENT = {
	type: 'object',
	required: ['data'],
	properties: {
		data: {
			type: 'string',
			contentMediaType: 'application/json',
			contentSchema: { $ref: '#/components/schemas/User' },
		},
		event: { type: 'string' },
		id: { type: 'string' },
		retry: { type: 'integer' },
	},
};

describe('QUERY /api/v2/users as server-sent events', () => {
	let folder: string;

	/** The state of the 3.2 contract whose QUERY 200 also offers text/event-stream of `item`. */
	async function stateWithEvents(item: unknown) {
		const document = parse(await readFile(CONTRACT, 'utf8')) as {
			paths: Record<string, { query: { responses: Record<string, { content: object }> } }>;
		};
		const ok = document.paths['/api/v2/users']?.query.responses['200'];
		if (!ok) throw new Error('the 3.2 contract lost its QUERY 200');
		ok.content = { ...ok.content, 'text/event-stream': { itemSchema: item } };
		const file = path.join(folder, `events-${Math.random().toString(36).slice(2)}.yaml`);
		await writeFile(file, stringify(document));
		return loadState({
			viewsDir: settings.viewsDir,
			contractFile: file,
			mockOrigin: 'http://127.0.0.1:1',
		});
	}

	beforeAll(async () => {
		folder = await mkdtemp(path.join(tmpdir(), 'query-events-'));
	});
	afterAll(async () => {
		await rm(folder, { recursive: true, force: true });
	});

	it('sends each matching user as one event whose data is its JSON, which the contract’s check passes', async () => {
		const state = await stateWithEvents(USER_EVENT);
		const request = query({ body: '{"role":"viewer"}', accept: 'text/event-stream' });
		const answer = await Promise.resolve(decide(request, { state }, createMemory(), HOSTS));
		expect(answer.status).toBe(200);
		expect(answer.headers['Content-Type']).toBe('text/event-stream');
		const text = answer.body.toString('utf8');
		const { events, unended } = readEvents(text);
		expect(unended).toBe(false);
		expect(events.map(({ data }) => JSON.parse(data) as unknown)).toEqual(
			listed(users.filter(({ role }) => role === 'viewer')),
		);
		const operation = contractValidators(state.reference).get('QUERY /api/v2/users');
		const checked = checkAnswer(
			{ status: 200, mediaType: 'text/event-stream', text, ending: 'complete', json: undefined },
			operation?.answers ?? {},
			'QUERY /api/v2/users',
		);
		expect(checked.verdict).toBe('matches');
		// JSON lines are still JSON lines, and JSON still JSON.
		const lines = await Promise.resolve(
			decide(query({ accept: 'application/jsonl' }), { state }, createMemory(), HOSTS),
		);
		expect(lines.headers['Content-Type']).toBe('application/jsonl');
		const plain = await Promise.resolve(decide(query(), { state }, createMemory(), HOSTS));
		expect(json(plain)).toEqual({ users: listed(users) });
	});

	it('answers JSON to Accept: text/event-stream where the contract offers no events', async () => {
		const answer = await ask(query({ accept: 'text/event-stream' }));
		expect(answer.headers['Content-Type']).toBe('application/json');
		expect(json(answer)).toEqual({ users: listed(users) });
	});

	it('refuses at start, in one line naming it, an event the mock cannot fill', async () => {
		const place =
			'paths./api/v2/users.query.responses.200.content.text/event-stream.itemSchema: the mock cannot fill an event of this itemSchema';
		const needsId = { ...USER_EVENT, required: ['data', 'id'] };
		await expect(stateWithEvents(needsId)).rejects.toThrow(place);
		const plainData = { type: 'object', properties: { data: { type: 'string' } } };
		await expect(stateWithEvents(plainData)).rejects.toThrow(place);
		await expect(stateWithEvents({ type: 'string' })).rejects.toThrow(
			/^[^\n]*events-\w+\.yaml: paths\.\/api\/v2\/users\.query\.responses\.200\.content\.text\/event-stream\.itemSchema: the mock cannot fill [^\n]*$/,
		);
	});
});
