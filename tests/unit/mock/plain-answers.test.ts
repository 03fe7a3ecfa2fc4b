/**
 * A plain request (no control) is answered from the contract without Prism: the same status,
 * the same headers in the same order, the same body bytes and the same log line as Prism's path
 * gives, request by request, and Prism is not loaded until a control asks for it.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMemory, decide, type MockAnswer, type MockRule } from '../../../mock/decide.ts';
import { plainUsers } from '../../../mock/plain-answers.ts';
import { lineParts } from '../../../mock/request-log.ts';
import type { MockRequest } from '../../../mock/sent-answers.ts';
import { loadState, type MockState } from '../../../mock/state.ts';
import { bin, ROOT } from '../../../support/processes.ts';

const USERS = '/api/v2/users';
const HOSTS: MockRule = { port: 4010, names: [] };

/** A request to the mock, GET /api/v2/users unless changed. */
const request = (changes: Partial<MockRequest> = {}): MockRequest => ({
	started: 0,
	rawMethod: 'GET',
	method: 'get',
	target: USERS,
	host: '127.0.0.1:4010',
	origin: undefined,
	authorization: undefined,
	prefer: undefined,
	...changes,
});

/** What a client and the log see of an answer: status, headers in order, body bytes, log line. */
function seen(sent: MockAnswer, asked: MockRequest) {
	return {
		status: sent.status,
		headers: Object.entries(sent.headers),
		body: sent.body.toString('base64'),
		line: lineParts({
			method: asked.rawMethod,
			target: asked.target,
			status: sent.status,
			...sent.logged,
		}),
	};
}

/** The Authorization headers of every kind of request the plain path answers, by what they are. */
function authorizations(state: MockState): [string, string | undefined][] {
	const keys = [...state.directory.holders].map(([key, holder]): [string, string] => [
		`${holder.slug}'s key of ${holder.name}`,
		`Bearer ${key}`,
	]);
	const [consoleKey] = state.directory.consoleKeys.keys();
	return [
		...keys,
		['no key', undefined],
		['an empty header', ''],
		['another scheme', 'Basic dXNlcjpwYXNz'],
		['bearer without a token', 'Bearer'],
		['a token that is no b64token', 'Bearer a b'],
		['a key in no directory', 'Bearer ick-00000000-none'],
		['a token not shaped like a key', 'Bearer not-a-key'],
		['the console key', `Bearer ${consoleKey}`],
		['a token far longer than a key', `Bearer ${'k'.repeat(300)}`],
	];
}

describe.each([
	['openapi.yaml', 'openapi.yaml'],
	['the 3.1 copy', 'tests/fixtures/openapi-3-1/openapi.yaml'],
	['the 3.2 test copy', 'tests/fixtures/openapi-3-2/openapi.yaml'],
])('a plain request on %s', (_name, contract) => {
	let state: MockState;
	/** The same state with no plain answers: every users answer comes from Prism. */
	let prismOnly: MockState;
	/** The same state whose Prism fails if asked: a plain answer that asked it would be a 500. */
	let withoutPrism: MockState;

	beforeAll(async () => {
		state = await loadState({
			viewsDir: path.join(ROOT, 'content', 'views'),
			contractFile: path.join(ROOT, contract),
			mockOrigin: 'http://127.0.0.1:4010',
		});
		prismOnly = { ...state, plain: new Map() };
		withoutPrism = { ...state, prism: () => Promise.reject(new Error('Prism was asked')) };
	});

	it('has the 200, 400 and 401 made without Prism, and a document without the operation none', () => {
		expect([...state.plain.keys()]).toEqual(expect.arrayContaining(['200', '400', '401']));
		expect(plainUsers({})).toEqual(new Map());
		expect(
			plainUsers({ paths: { [USERS]: { get: { deprecated: true, responses: {} } } } }),
		).toEqual(new Map());
	});

	it('gets the bytes, headers and log line Prism’s path gives, for GET and HEAD, with and without an Origin or a query', async () => {
		const plainMemory = createMemory();
		const prismMemory = createMemory();
		const variants: [string, Partial<MockRequest>][] = [
			['GET', {}],
			['HEAD', { rawMethod: 'HEAD', method: 'head' }],
			['GET from a local page', { origin: 'http://localhost:3000' }],
			['GET with a query that is no control', { target: `${USERS}?page=2` }],
		];
		let compared = 0;
		for (const [kind, authorization] of authorizations(state)) {
			for (const [variant, changes] of variants) {
				const asked = request({ authorization, ...changes });
				const plain = await decide(asked, { state: withoutPrism }, plainMemory, HOSTS);
				const prism = await decide(asked, { state: prismOnly }, prismMemory, HOSTS);
				expect(seen(plain, asked), `${kind}, ${variant}`).toEqual(seen(prism, asked));
				expect(plain.status, `${kind}, ${variant}`).not.toBe(500);
				compared += 1;
			}
		}
		expect(compared).toBeGreaterThan(40);
	});

	it('gets the same answer as a control naming its own view, which Prism answers', async () => {
		const [key, holder] = [...state.directory.holders][0] ?? [];
		const plain = await decide(
			request({ authorization: `Bearer ${key}` }),
			{ state },
			createMemory(),
			HOSTS,
		);
		const named = await decide(
			request({ authorization: `Bearer ${key}`, target: `${USERS}?__example=${holder?.slug}` }),
			{ state },
			createMemory(),
			HOSTS,
		);
		expect(named.status).toBe(200);
		expect(Object.entries(named.headers)).toEqual(Object.entries(plain.headers));
		expect(named.body.equals(plain.body)).toBe(true);
	});
});

/**
 * Answers a plain request and then a control in a fresh Node, as the mock does, and says whether
 * Prism was loaded after each.
 */
const LAZY_SCRIPT = `
import { createRequire } from 'node:module';
const { loadState } = await import('./mock/state.ts');
const { createMemory, decide } = await import('./mock/decide.ts');
const prismLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('@stoplight/prism-http/'));
const state = await loadState({ viewsDir: 'content/views', contractFile: 'openapi.yaml', mockOrigin: 'http://127.0.0.1:1' });
const [key] = state.directory.holders.keys();
const memory = createMemory();
const hosts = { port: 1, names: [] };
const ask = (prefer) => decide({ started: 0, rawMethod: 'GET', method: 'get', target: '/api/v2/users', host: '127.0.0.1:1', origin: undefined, authorization: 'Bearer ' + key, prefer }, { state }, memory, hosts);
const plain = await ask(undefined);
const afterPlain = prismLoaded();
const dynamic = await ask('dynamic=true');
console.log(JSON.stringify({ plain: plain.status, afterPlain, dynamic: dynamic.status, afterControl: prismLoaded() }));
`;

describe('Prism in the mock', () => {
	it('is not loaded to answer a plain request, and is loaded by the first control', () => {
		const result = spawnSync(bin('node'), ['--input-type=module', '-e', LAZY_SCRIPT], {
			cwd: ROOT,
			encoding: 'utf8',
		});
		expect(result.stderr).toBe('');
		expect(JSON.parse(result.stdout)).toEqual({
			plain: 200,
			afterPlain: false,
			dynamic: 200,
			afterControl: true,
		});
	});
});
