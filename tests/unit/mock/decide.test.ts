/**
 * The mock's decision without a socket: a request in, an answer out, from the real fixtures and
 * openapi.yaml. Expected users are read from content/views/*.json as written, and expected
 * problems and challenges are copied from openapi.yaml, never asked of the mock.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import {
	createMemory,
	decide,
	handOn,
	type MockAnswer,
	type MockMemory,
	type MockNow,
} from '../../../mock/decide.ts';
import type { Directory, KeyHolder } from '../../../mock/directory.ts';
import { logLine } from '../../../mock/request-log.ts';
import type { MockRequest } from '../../../mock/sent-answers.ts';
import { createSourceReader, loadState, type MockState } from '../../../mock/state.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import { contractValidators } from '../../../src/sources/contract-validators.ts';
import { readContract } from '../../../src/sources/contract.ts';
import { exchangeViolations } from '../../../src/shared/exchange-check.ts';

const settings = readSettings({});
const USERS = '/api/v2/users';
const LOCAL = 'http://127.0.0.1:4321';

/** A fixture's users as written in its file, read without the portal's fixture reader. */
const fixtureSchema = z.object({
	users: z.array(
		z.object({ name: z.string(), email: z.string(), role: z.string(), apiKey: z.string() }),
	),
});

async function fixtureUsers(folder: string, slug: string) {
	const text = await readFile(path.join(folder, `${slug}.json`), 'utf8');
	return fixtureSchema.parse(JSON.parse(text)).users;
}

/** The users a view's 200 lists: each user's name, email and role, in file order. */
function listed(users: { name: string; email: string; role: string }[]) {
	return { users: users.map(({ name, email, role }) => ({ name, email, role })) };
}

/** What the mock answers under: loopback with its port, and one name added through the setting. */
const HOSTS = { port: 4010, names: ['mock.intranet.example'] };

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

/** An answer's body as JSON. */
const json = (answer: MockAnswer): unknown => JSON.parse(answer.body.toString('utf8'));

/** The problem+json headers of an answer to a request without an Origin. */
const problemHeaders = (answer: MockAnswer) => ({
	'Content-Type': 'application/problem+json',
	Vary: 'Origin',
	'Content-Length': String(answer.body.length),
});

let state: MockState;
let now: MockNow;
let production: Awaited<ReturnType<typeof fixtureUsers>>;
let drEuWest: Awaited<ReturnType<typeof fixtureUsers>>;

beforeAll(async () => {
	state = await loadState({
		viewsDir: settings.viewsDir,
		contractFile: settings.openApiFile,
		mockOrigin: 'http://127.0.0.1:1',
	});
	now = { state };
	production = await fixtureUsers(settings.viewsDir, 'production');
	drEuWest = await fixtureUsers(settings.viewsDir, 'dr-eu-west');
});

/** Asks a fresh memory, so nothing kept by another test answers. */
function ask(changes: Partial<MockRequest>, memory: MockMemory = createMemory()) {
	return decide(request(changes), now, memory, HOSTS);
}

describe('a directory key', () => {
	it('gets its view’s users, in file order, and the log names the key’s holder', async () => {
		const [first] = production;
		expect(first?.name).toBe('Amara Okafor');
		const answer = await ask({ authorization: `Bearer ${first?.apiKey}` });
		expect(answer.status).toBe(200);
		expect(json(answer)).toEqual(listed(production));
		expect(answer.headers).toEqual({
			'Content-Type': 'application/json',
			Vary: 'Origin',
			'Content-Length': String(answer.body.length),
		});
		expect(answer.logged).toEqual({
			holder: { slug: 'production', name: 'Amara Okafor', role: 'admin' },
			controls: undefined,
		});
		expect(answer.error).toBeUndefined();
	});

	it('gets the same users for every key of the view, and another view’s key its own', async () => {
		const memory = createMemory();
		for (const { apiKey } of production) {
			expect(json(await ask({ authorization: `Bearer ${apiKey}` }, memory))).toEqual(
				listed(production),
			);
		}
		const other = await ask({ authorization: `bearer ${drEuWest[1]?.apiKey}` }, memory);
		expect(json(other)).toEqual(listed(drEuWest));
		expect(other.logged.holder).toEqual<KeyHolder>({
			slug: 'dr-eu-west',
			name: 'Lena Fischer',
			role: 'deployer',
		});
	});

	it('gets the GET answer for HEAD, whose body the server leaves out', async () => {
		const authorization = `Bearer ${production[0]?.apiKey}`;
		const head = await ask({ authorization, method: 'head', rawMethod: 'HEAD' });
		const get = await ask({ authorization });
		expect(head.status).toBe(200);
		expect(head.headers).toEqual(get.headers);
		expect(head.body.equals(get.body)).toBe(true);
	});

	it('lets a page on this machine read the answer, and no other origin', async () => {
		const authorization = `Bearer ${production[0]?.apiKey}`;
		const local = await ask({ authorization, origin: LOCAL });
		expect(local.headers).toEqual({
			'Content-Type': 'application/json',
			'Access-Control-Allow-Origin': LOCAL,
			'Access-Control-Expose-Headers':
				'WWW-Authenticate, Allow, Content-Type, Content-Length, Date',
			Vary: 'Origin',
			'Content-Length': String(local.body.length),
		});
		const foreign = await ask({ authorization, origin: 'https://elsewhere.example' });
		expect(foreign.headers).toEqual({
			'Content-Type': 'application/json',
			Vary: 'Origin',
			'Content-Length': String(foreign.body.length),
		});
	});

	it('lets a team’s portal named in MOCK_ALLOWED_ORIGINS read the answer and preflight, and still no other origin', async () => {
		const PORTAL = 'https://portal.intranet.example';
		const rule = { ...HOSTS, origins: [PORTAL] };
		const authorization = `Bearer ${production[0]?.apiKey}`;
		const allowed = await decide(
			request({ authorization, origin: PORTAL }),
			now,
			createMemory(),
			rule,
		);
		expect(allowed.status).toBe(200);
		expect(allowed.headers['Access-Control-Allow-Origin']).toBe(PORTAL);
		const preflight = await decide(
			request({ method: 'options', rawMethod: 'OPTIONS', origin: PORTAL, preflight: true }),
			now,
			createMemory(),
			rule,
		);
		expect(preflight.status).toBe(204);
		expect(preflight.headers['Access-Control-Allow-Headers']).toBe(
			'Authorization, Accept, Content-Type, Prefer',
		);
		for (const origin of ['https://other.intranet.example', 'http://portal.intranet.example']) {
			const refused = await decide(request({ authorization, origin }), now, createMemory(), rule);
			expect(refused.headers['Access-Control-Allow-Origin'], origin).toBeUndefined();
		}
		// Without the setting, the team's portal is another origin like any.
		const unnamed = await ask({ authorization, origin: PORTAL });
		expect(unnamed.headers['Access-Control-Allow-Origin']).toBeUndefined();
	});
});

describe('a request without a usable key', () => {
	const missingKey = {
		type: 'https://portal.example/problems/missing-key',
		title: 'A directory key is required',
		status: 401,
		detail: 'Send a key from a view\'s directory as "Authorization: Bearer <key>".',
	};
	const challenge = (description: string) =>
		`Bearer realm="console", error="invalid_token", error_description="${description}"`;
	const invalidKeyChallenge = challenge("The key is not in any view's directory");

	it('gets 401 with the realm-only challenge and a problem when it has no Authorization', async () => {
		const answer = await ask({});
		expect(answer.status).toBe(401);
		expect(answer.headers).toEqual({
			'WWW-Authenticate': 'Bearer realm="console"',
			...problemHeaders(answer),
		});
		expect(json(answer)).toEqual(missingKey);
		expect(answer.logged.refused).toBe('no Authorization header');
	});

	it('gets 400 invalid_request when the bearer credentials are malformed', async () => {
		const answer = await ask({ authorization: 'Bearer "ick-5f6bf1b8-KApG"' });
		expect(answer.status).toBe(400);
		expect(answer.headers).toEqual({
			'WWW-Authenticate':
				'Bearer realm="console", error="invalid_request", error_description="The Authorization header is not Bearer <key>"',
			...problemHeaders(answer),
		});
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/invalid-request',
			title: 'The Authorization header is malformed',
			status: 400,
			detail:
				'Send exactly one header "Authorization: Bearer <key>", with a key from a view\'s directory.',
		});
		expect(answer.logged.refused).toBe('the header is not "Bearer <token>"');
	});

	it('gets 401 wrong-shape for a key of another shape, and the log says which shape', async () => {
		const answer = await ask({ authorization: 'Bearer xyz-5f6bf1b8-KApG' });
		expect(answer.status).toBe(401);
		expect(answer.headers).toEqual({
			'WWW-Authenticate': challenge('The token is not shaped like a directory key'),
			...problemHeaders(answer),
		});
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/wrong-shape',
			title: 'The token is not shaped like a directory key',
			status: 401,
			detail:
				"A directory key is shaped ick-<8 lowercase hex>-<4 letters or digits>, e.g. ick-4f1c9a07-Qx7m. Copy one from a view page's directory.",
		});
		expect(answer.logged.refused).toBe('expected the portal\'s key prefix "ick-", found "xyz-"');
	});

	it('gets 401 invalid-key for a key of the right shape in no directory', async () => {
		const answer = await ask({ authorization: 'Bearer ick-00000000-AAAA' });
		expect(answer.status).toBe(401);
		expect(answer.headers['WWW-Authenticate']).toBe(invalidKeyChallenge);
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/invalid-key',
			title: 'The key is not a directory key',
			status: 401,
			detail:
				"The key has the shape of a directory key but is in no view's directory. Copy a key from a view page's directory.",
		});
		expect(answer.logged.refused).toBe("the key is in no view's directory");
	});

	it('gets 401 console-key for the console’s own key, recognised as such', async () => {
		// production.json: config.api_key.
		const answer = await ask({ authorization: 'Bearer ick-83c4b67b-yYjh' });
		expect(answer.status).toBe(401);
		expect(answer.headers['WWW-Authenticate']).toBe(
			challenge("The console's own key is not a directory key"),
		);
		expect(json(answer)).toMatchObject({
			type: 'https://portal.example/problems/console-key',
			title: "The console's own key is not a directory key",
		});
		expect(answer.logged.refused).toBe(
			"the key is the console's own key of production (config.api_key), not a directory key",
		);
	});

	it.each([
		['no Authorization', { prefer: 'code=abc' }, 401, 'no Authorization header'],
		[
			'no Authorization',
			{ target: `${USERS}?__code=401&__code=500` },
			401,
			'no Authorization header',
		],
		[
			'malformed bearer credentials',
			{ prefer: 'dynamic=yes', authorization: 'Bearer "ick-5f6bf1b8-KApG"' },
			400,
			'the header is not "Bearer <token>"',
		],
	])(
		'gets its challenge with %s, even when a control cannot be read (%j)',
		async (_case, changes, status, refused) => {
			const answer = await ask(changes);
			expect(answer.status).toBe(status);
			expect(json(answer)).toMatchObject({ status });
			expect(answer.logged).toEqual({ refused });
		},
	);

	it('gets its challenge whatever its controls prefer', async () => {
		const answer = await ask({ prefer: 'code=200, example=production' });
		expect(answer.status).toBe(401);
		expect(json(answer)).toEqual(missingKey);
		expect(answer.logged).toEqual({
			controls: 'Prefer: code=200, Prefer: example=production',
			refused: 'no Authorization header',
		});
	});
});

describe('a path or method the contract does not answer', () => {
	it('gets the contract’s NotFound for an unknown path', async () => {
		const answer = await ask({ target: '/api/v2/people?x=1', authorization: 'Bearer anything' });
		expect(answer.status).toBe(404);
		expect(answer.headers).toEqual(problemHeaders(answer));
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/not-found',
			title: 'No such path',
			status: 404,
			detail: 'The contract has one path, GET /api/v2/users.',
		});
		expect(answer.logged).toEqual({});
	});

	it.each([
		'//evil.example/api/v2/users',
		'//127.0.0.1:4010/api/v2/users',
		'/\\evil.example/api/v2/users',
		'evil.example/api/v2/users',
		'mailto:/api/v2/users',
		'*',
	])(
		'gets the contract’s NotFound for the target %s, which is not origin-form, and no view',
		async (target) => {
			const answer = await ask({ target, authorization: `Bearer ${production[0]?.apiKey}` });
			expect(answer.status).toBe(404);
			expect(json(answer)).toMatchObject({ type: 'https://portal.example/problems/not-found' });
			expect(answer.logged).toEqual({});
		},
	);

	it('reads an absolute-form target naming the mock by its path (RFC 9112, 3.2.2)', async () => {
		const answer = await ask({
			target: `http://127.0.0.1:4010${USERS}`,
			authorization: `Bearer ${production[0]?.apiKey}`,
		});
		expect(answer.status).toBe(200);
		expect(json(answer)).toEqual(listed(production));
	});

	it('gets the contract’s MethodNotAllowed, with Allow, for another method', async () => {
		for (const method of ['POST', 'DELETE', 'BREW']) {
			const answer = await ask({ method: method.toLowerCase(), rawMethod: method });
			expect(answer.status, method).toBe(405);
			expect(answer.headers).toEqual({ Allow: 'GET, HEAD', ...problemHeaders(answer) });
			expect(json(answer)).toEqual({
				type: 'https://portal.example/problems/method-not-allowed',
				title: 'Method not allowed',
				status: 405,
				detail: '/api/v2/users answers GET and HEAD only.',
			});
		}
	});
});

describe('CORS preflight', () => {
	const preflight = { method: 'options', rawMethod: 'OPTIONS', preflight: true } as const;

	it('gets 204 allowing the Authorization and Prefer headers, for a page on this machine', async () => {
		const answer = await ask({ ...preflight, origin: LOCAL });
		expect(answer.status).toBe(204);
		expect(answer.headers).toEqual({
			'Access-Control-Allow-Methods': 'GET, HEAD',
			'Access-Control-Allow-Headers': 'Authorization, Accept, Content-Type, Prefer',
			'Access-Control-Max-Age': '600',
			'Access-Control-Allow-Origin': LOCAL,
			'Access-Control-Expose-Headers':
				'WWW-Authenticate, Allow, Content-Type, Content-Length, Date',
			Vary: 'Origin',
			'Content-Length': '0',
		});
		expect(answer.body.length).toBe(0);
	});

	it('gets 204 with no CORS headers for another origin', async () => {
		const answer = await ask({ ...preflight, origin: 'https://elsewhere.example' });
		expect(answer.status).toBe(204);
		expect(answer.headers).toEqual({ Vary: 'Origin', 'Content-Length': '0' });
	});

	it('is another method (405) without Access-Control-Request-Method or without Origin', async () => {
		expect((await ask({ ...preflight, origin: LOCAL, preflight: false })).status).toBe(405);
		expect((await ask({ ...preflight })).status).toBe(405);
	});
});

describe("Prism's controls", () => {
	it('answer another view’s users for Prefer: example=<slug>, and the log says so', async () => {
		const answer = await ask({
			authorization: `Bearer ${production[0]?.apiKey}`,
			prefer: 'example=dr-eu-west',
		});
		expect(answer.status).toBe(200);
		expect(json(answer)).toEqual(listed(drEuWest));
		expect(answer.logged).toEqual({
			holder: { slug: 'production', name: 'Amara Okafor', role: 'admin' },
			controls: 'Prefer: example=dr-eu-west',
		});
	});

	it('answer the contract’s 401 for Prefer: code=401, example=invalid-key', async () => {
		const answer = await ask({
			authorization: `Bearer ${production[0]?.apiKey}`,
			prefer: 'code=401, example=invalid-key',
		});
		expect(answer.status).toBe(401);
		expect(answer.headers['WWW-Authenticate']).toBe(
			'Bearer realm="console", error="invalid_token", error_description="The key is not in any view\'s directory"',
		);
		expect(json(answer)).toMatchObject({ type: 'https://portal.example/problems/invalid-key' });
	});

	it('are read from the query when there is no Prefer header, and an unreadable one gets 422', async () => {
		const answer = await ask({
			target: `${USERS}?__code=abc`,
			authorization: `Bearer ${production[0]?.apiKey}`,
		});
		expect(answer.status).toBe(422);
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/invalid-control',
			title: 'The mock cannot read a control',
			status: 422,
			detail: '__code=abc: expected a three-digit status code, e.g. code=401',
		});
		// The log shows what it could not read as its length only: it may be a key in disguise.
		expect(answer.logged.refused).toBe(
			'__code=<unrecognised, 3 chars>: expected a three-digit status code, e.g. code=401',
		);
	});
	it('refuse a control repeated in the query with 422 naming it, as Prism does', async () => {
		const answer = await ask({
			target: `${USERS}?__code=401&__code=500`,
			authorization: `Bearer ${production[0]?.apiKey}`,
		});
		expect(answer.status).toBe(422);
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/invalid-control',
			title: 'The mock cannot read a control',
			status: 422,
			detail: '__code=401, __code=500: expected __code once',
		});
	});

	it.each([
		{ prefer: 'dynamic=true, seed=abc', detail: 'Prefer: seed=abc' },
		{ target: `${USERS}?__dynamic=true&__seed=-1.5`, detail: '__seed=-1.5' },
	])('refuse a seed that is not a whole number with 422 naming it ($detail)', async (sent) => {
		const { detail, ...changes } = sent;
		const answer = await ask({ ...changes, authorization: `Bearer ${production[0]?.apiKey}` });
		expect(answer.status).toBe(422);
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/invalid-control',
			title: 'The mock cannot read a control',
			status: 422,
			detail: `${detail}: expected a whole number from 0 to 9007199254740991, e.g. seed=7`,
		});
	});
});

describe('kept answers', () => {
	it('answer the same request again at once, without a promise, with the very same answer', async () => {
		const memory = createMemory();
		const changes = { authorization: `Bearer ${production[0]?.apiKey}` };
		const first = ask(changes, memory);
		expect(first).toBeInstanceOf(Promise);
		const sent = await first;
		const again = ask(changes, memory);
		expect(again).not.toBeInstanceOf(Promise);
		expect(again).toBe(sent);
	});

	it('share one encoded body between requests that differ only in Origin', async () => {
		const memory = createMemory();
		const authorization = `Bearer ${production[0]?.apiKey}`;
		const plain = await ask({ authorization }, memory);
		const local = await ask({ authorization, origin: LOCAL }, memory);
		expect(local).not.toBe(plain);
		expect(local.body).toBe(plain.body);
	});

	it('are not made of generated bodies, preflights or 503s', async () => {
		const memory = createMemory();
		const cases: Partial<MockRequest>[] = [
			{ authorization: `Bearer ${production[0]?.apiKey}`, prefer: 'dynamic=true, seed=7' },
			{ method: 'options', rawMethod: 'OPTIONS', origin: LOCAL, preflight: true },
		];
		for (const changes of cases) {
			await ask(changes, memory);
			expect(ask(changes, memory)).toBeInstanceOf(Promise);
		}
		const waiting: MockNow = { state: undefined, waiting: 'x' };
		await decide(request(), waiting, memory, HOSTS);
		expect(decide(request(), waiting, memory, HOSTS)).toBeInstanceOf(Promise);
	});

	describe('across a reload', () => {
		let folder: string;

		beforeAll(async () => {
			folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-decide-'));
			await cp(settings.viewsDir, folder, { recursive: true });
		});

		afterAll(async () => {
			await rm(folder, { recursive: true, force: true });
		});

		it('keep an unchanged view’s answer, and answer a changed view from its new file', async () => {
			const reader = createSourceReader({
				viewsDir: folder,
				contractFile: settings.openApiFile,
				mockOrigin: 'http://127.0.0.1:1',
			});
			const memory = createMemory();
			const before = await reader.load();
			const productionKey = { authorization: `Bearer ${production[0]?.apiKey}` };
			const drKey = { authorization: `Bearer ${drEuWest[0]?.apiKey}` };
			const productionBefore = await decide(
				request(productionKey),
				{ state: before },
				memory,
				HOSTS,
			);
			const drBefore = await decide(request(drKey), { state: before }, memory, HOSTS);

			const file = path.join(folder, 'dr-eu-west.json');
			const text = await readFile(file, 'utf8');
			const edited = text.replace('"Rosa Jiménez"', '"Rosa Jiménez Ortega"');
			expect(edited).not.toBe(text);
			await writeFile(file, edited);
			const after = await reader.load();
			handOn(memory, before, after);

			// A new state keeps no sent answer, but Prism's answer for production is handed on.
			const productionAfter = decide(request(productionKey), { state: after }, memory, HOSTS);
			expect(productionAfter).toBeInstanceOf(Promise);
			expect((await productionAfter).body).toBe(productionBefore.body);

			const drAfter = await decide(request(drKey), { state: after }, memory, HOSTS);
			expect(drAfter.body).not.toBe(drBefore.body);
			expect(json(drAfter)).toEqual(listed(await fixtureUsers(folder, 'dr-eu-west')));
			expect(json(drAfter)).toHaveProperty(['users', 0, 'name'], 'Rosa Jiménez Ortega');
		});
	});
});

describe('without a good state', () => {
	it('answers 503 with Retry-After and why the sources do not load', async () => {
		const why =
			'Invalid view fixtures (1 problem):\n  content/views/production.json: users[3].apiKey: expected a key';
		const answer = await decide(
			request({ origin: LOCAL }),
			{ state: undefined, waiting: why },
			createMemory(),
			HOSTS,
		);
		expect(answer.status).toBe(503);
		expect(answer.headers).toEqual({
			'Content-Type': 'application/problem+json',
			'Retry-After': '1',
			'Access-Control-Allow-Origin': LOCAL,
			'Access-Control-Expose-Headers':
				'WWW-Authenticate, Allow, Content-Type, Content-Length, Date',
			Vary: 'Origin',
			'Content-Length': String(answer.body.length),
		});
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/sources-not-loaded',
			title: 'The mock cannot load its sources yet',
			status: 503,
			detail: why,
		});
		expect(answer.logged).toEqual({ refused: 'the mock has no good state yet' });
	});
});

describe('a failure', () => {
	it('is a 500 naming the error’s first line, with the whole error for the terminal', async () => {
		const broken: Directory = {
			holders: new (class extends Map<string, KeyHolder> {
				override get(): KeyHolder | undefined {
					throw new Error('The directory broke.\n    at somewhere');
				}
			})(),
			consoleKeys: new Map(),
		};
		const memory = createMemory();
		const changes = { authorization: `Bearer ${production[0]?.apiKey}`, prefer: 'seed=1' };
		const failing: MockNow = { state: { ...state, directory: broken } };
		const answer = await decide(request(changes), failing, memory, HOSTS);
		expect(answer.status).toBe(500);
		expect(answer.headers).toEqual(problemHeaders(answer));
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/mock-failure',
			title: 'The mock failed',
			status: 500,
			detail:
				'The mock could not answer this request: The directory broke. Its terminal shows the whole error.',
		});
		expect(answer.error).toBe('The directory broke.\n    at somewhere');
		expect(answer.logged).toEqual({ controls: 'Prefer: seed=1', failed: 'The directory broke' });
		// Not kept: the same request is decided again.
		expect(decide(request(changes), failing, memory, HOSTS)).toBeInstanceOf(Promise);
	});

	it('of Prism keeps what the log learnt before it: the key’s holder and the control', async () => {
		// A control asks Prism (a plain request is answered without it); here Prism has no route.
		const { users } = await state.prism();
		const failing: MockNow = {
			state: { ...state, prism: () => Promise.resolve({ operations: [], users }) },
		};
		const answer = await decide(
			request({ authorization: `Bearer ${production[0]?.apiKey}`, prefer: 'example=dr-eu-west' }),
			failing,
			createMemory(),
			HOSTS,
		);
		expect(answer.status).toBe(500);
		expect(answer.logged).toEqual({
			holder: { slug: 'production', name: 'Amara Okafor', role: 'admin' },
			controls: 'Prefer: example=dr-eu-west',
			failed: 'Route not resolved, no resource provided',
		});
	});

	describe('of Node to write a header the contract spells with a control character', () => {
		let folder: string;

		beforeAll(async () => {
			folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-header-'));
		});

		afterAll(async () => {
			await rm(folder, { recursive: true, force: true });
		});

		it('is a 500 naming the header, every time: the answer is never kept', async () => {
			const original = await readFile(settings.openApiFile, 'utf8');
			// YAML's "\n" is a line break in the challenge, which no HTTP header may hold.
			const edited = original.replace(
				'              value: Bearer realm="console"\n',
				'              value: "Bearer realm=\\"console\\"\\nX"\n',
			);
			expect(edited).not.toBe(original);
			const contractFile = path.join(folder, 'openapi.yaml');
			await writeFile(contractFile, edited);
			const broken: MockNow = {
				state: await loadState({
					viewsDir: settings.viewsDir,
					contractFile,
					mockOrigin: 'http://127.0.0.1:1',
				}),
			};
			const memory = createMemory();
			for (let round = 0; round < 2; round += 1) {
				const answer = decide(request(), broken, memory, HOSTS);
				expect(answer, `round ${round}`).toBeInstanceOf(Promise);
				const sent = await answer;
				expect(sent.status).toBe(500);
				expect(json(sent)).toMatchObject({
					detail:
						'The mock could not answer this request: Invalid character in header content ["WWW-Authenticate"]. Its terminal shows the whole error.',
				});
				expect(sent.logged).toEqual({
					controls: undefined,
					refused: 'no Authorization header',
					failed: 'Invalid character in header content ["WWW-Authenticate"]',
				});
			}
			// The key's own answer, whose headers Node can write, is unaffected.
			const users = await decide(
				request({ authorization: `Bearer ${production[0]?.apiKey}` }),
				broken,
				memory,
				HOSTS,
			);
			expect(users.status).toBe(200);
		});
	});
});

describe('a request for a name the mock is not served under', () => {
	it('gets 403 naming the host and MOCK_ALLOWED_HOSTS, even when the same request was answered before', async () => {
		const memory = createMemory();
		const authorization = `Bearer ${production[0]?.apiKey}`;
		expect((await ask({ authorization }, memory)).status).toBe(200);
		const answer = await ask({ authorization, host: 'attacker.example:4010' }, memory);
		expect(answer.status).toBe(403);
		expect(answer.headers['Content-Type']).toBe('application/problem+json');
		const { detail } = json(answer) as { detail: string };
		expect(detail).toContain('"attacker.example:4010"');
		expect(detail).toContain('MOCK_ALLOWED_HOSTS');
		expect(answer.body.toString()).not.toMatch(/ick-[0-9a-f]{8}/);
		expect(answer.logged.refused).toContain('attacker.example');
	});

	it('is answered when the name was added through the setting', async () => {
		const authorization = `Bearer ${production[0]?.apiKey}`;
		const answer = await ask({ authorization, host: 'mock.intranet.example' });
		expect(answer.status).toBe(200);
	});
});

describe('a request for a name the mock is not served under', () => {
	it('gets 403 naming the host and the setting, with CORS headers so a local page can read why', async () => {
		const answer = await ask({ host: 'attacker.example', origin: LOCAL });
		expect(answer.status).toBe(403);
		expect(answer.headers).toEqual({
			'Content-Type': 'application/problem+json',
			'Access-Control-Allow-Origin': LOCAL,
			'Access-Control-Expose-Headers':
				'WWW-Authenticate, Allow, Content-Type, Content-Length, Date',
			Vary: 'Origin',
			'Content-Length': String(answer.body.length),
		});
		expect(json(answer)).toMatchObject({
			type: 'https://portal.example/problems/host-not-allowed',
			detail: expect.stringMatching(/"attacker\.example".*MOCK_ALLOWED_HOSTS/) as unknown,
		});
	});
});

describe('the request log of the controls a request carried', () => {
	/** Both log lines of an answer: logfmt and JSON. */
	const lines = (sent: MockAnswer, target = USERS): string[] =>
		(['logfmt', 'json'] as const).map((format) =>
			logLine(
				{
					time: new Date(0),
					method: 'GET',
					target,
					status: sent.status,
					durationMs: 1,
					...sent.logged,
				},
				format,
			),
		);

	/** A directory key spelled as a client might hide it, by how it is spelled. */
	const spellings = (key: string): Record<string, string> => ({
		'percent-encoded dashes': key.replaceAll('-', '%2D'),
		'percent-encoded whole': [...key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
		base64: Buffer.from(key).toString('base64'),
		base64url: Buffer.from(key).toString('base64url'),
		hex: Buffer.from(key).toString('hex'),
		reversed: [...key].reverse().join(''),
		'upper case': key.toUpperCase(),
		'the key itself, quoted': `"${key}"`,
	});

	it('never holds a key of the directory in any spelling, whatever control carries it', async () => {
		const key = production[1]?.apiKey ?? '';
		const [prefix, hex, tail] = key.split('-');
		for (const [how, spelled] of Object.entries(spellings(key))) {
			for (const name of ['code', 'example', 'dynamic', 'seed', 'delay', 'fault']) {
				for (const authorization of [`Bearer ${production[0]?.apiKey}`, undefined]) {
					const sent = await ask({ authorization, prefer: `${name}=${spelled}` });
					for (const line of lines(sent)) {
						const where = `${how} in Prefer: ${name}=…, ${authorization ? 'a good key' : 'no key'}: ${line}`;
						expect(line, where).not.toContain(spelled.replaceAll('"', ''));
						expect(line.toLowerCase(), where).not.toContain(hex);
						expect(line, where).not.toContain(tail);
						expect(line, where).not.toContain(`${prefix}-`);
					}
				}
			}
		}
	});

	it('shows the controls it understood and accepted, and anything else as its length only', async () => {
		const authorization = `Bearer ${production[0]?.apiKey}`;
		const shown = async (prefer: string): Promise<string | undefined> =>
			(await ask({ authorization, prefer })).logged.controls;
		expect(await shown('code=401, example=invalid-key')).toBe(
			'Prefer: code=401, Prefer: example=invalid-key',
		);
		expect(await shown('dynamic=true, seed=7, delay=10-20, fault=reset')).toBe(
			'Prefer: dynamic=true, Prefer: seed=7, Prefer: delay=10-20, Prefer: fault=reset',
		);
		expect(await shown('example=no-such-view')).toBe('Prefer: example=<unrecognised, 12 chars>');
		const seeded = await ask({ authorization, prefer: 'seed=aWNrLTVmNmJmMWI4LUtBcEc' });
		expect(seeded.status).toBe(422);
		expect(seeded.logged.refused).toBe(
			'Prefer: seed=<not shown, 23 chars>: expected a whole number from 0 to 9007199254740991, e.g. seed=7',
		);
		const refused = await ask({ authorization, prefer: 'code=ick%2D5f6bf1b8%2DKApG' });
		expect(refused.status).toBe(422);
		expect(refused.logged.refused).toBe(
			'Prefer: code=<unrecognised, 21 chars>: expected a three-digit status code, e.g. code=401',
		);
	});
});

describe('a Prefer header with a quote left open', () => {
	it('gets a 422 naming the control, where the control was ignored', async () => {
		const answer = await ask({
			authorization: `Bearer ${production[0]?.apiKey}`,
			prefer: 'code="401',
		});
		expect(answer.status).toBe(422);
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/invalid-control',
			title: 'The mock cannot read a control',
			status: 422,
			detail:
				'Prefer: code="401: expected a closing double quote after the value, e.g. code="401" or code=401',
		});
		expect(answer.logged.refused).toBe(
			'Prefer: code=<unrecognised, 4 chars>: expected a closing double quote after the value, e.g. code="401" or code=401',
		);
	});
});

describe('the 403 of a name the mock is not served under, in the contract', () => {
	it('is declared for GET, HEAD and the preflight, so a client generated from the contract knows it, and the mock’s answer conforms', async () => {
		const text = await readFile(settings.openApiFile, 'utf8');
		const document = z
			.object({
				paths: z.record(
					z.string(),
					z.record(z.string(), z.looseObject({ responses: z.record(z.string(), z.unknown()) })),
				),
				components: z.object({ responses: z.record(z.string(), z.unknown()) }),
			})
			.parse(parse(text));
		const users = document.paths[USERS] ?? {};
		for (const method of ['get', 'head', 'options']) {
			expect(Object.keys(users[method]?.responses ?? {}), method).toContain('403');
		}
		const { reference } = await readContract(settings.openApiFile);
		const operations = contractValidators(reference);
		for (const [method, operation] of [
			['get', 'GET /api/v2/users'],
			['head', 'HEAD /api/v2/users'],
		] as const) {
			const answer = await ask({
				host: 'attacker.example',
				method,
				rawMethod: method.toUpperCase(),
			});
			expect(answer.status).toBe(403);
			const body = answer.body.toString('utf8');
			const checked = {
				status: answer.status,
				mediaType: String(answer.headers['Content-Type']),
				text: method === 'head' ? '' : body,
				ending: 'complete' as const,
				json: method === 'head' ? undefined : { value: JSON.parse(body) as unknown },
			};
			const contract = operations.get(operation);
			if (!contract) throw new Error(`expected ${operation} in the contract`);
			expect(exchangeViolations(checked, {}, contract), operation).toEqual([]);
		}
		// The contract's example is the mock's problem, type and title as the mock sends them.
		const declared = z
			.object({
				content: z.object({
					'application/problem+json': z.object({
						schema: z.object({ $ref: z.literal('#/components/schemas/Problem') }),
						examples: z.record(
							z.string(),
							z.object({
								value: z.looseObject({ type: z.string(), title: z.string(), status: z.number() }),
							}),
						),
					}),
				}),
			})
			.parse(document.components.responses['HostNotAllowed']);
		const sent = json(await ask({ host: 'attacker.example' })) as { type: string; title: string };
		expect(Object.values(declared.content['application/problem+json'].examples)).toContainEqual({
			value: expect.objectContaining({
				type: sent.type,
				title: sent.title,
				status: 403,
			}) as unknown,
		});
	});
});

describe('the probes, /healthz and /readyz', () => {
	const broken: MockNow = {
		state: undefined,
		waiting: 'Invalid view fixtures (1 problem):\n  /srv/views/production.json: users[3].apiKey',
	};
	const loading: MockNow = { state: undefined, waiting: 'loading', loading: true };

	it('/healthz answers 200 while the mock serves, whatever its sources, with no key', async () => {
		for (const serving of [now, broken, loading]) {
			const answer = await decide(request({ target: '/healthz' }), serving, createMemory(), HOSTS);
			expect(answer.status).toBe(200);
			expect(answer.headers).toEqual({
				'Content-Type': 'application/json',
				'Cache-Control': 'no-store',
				'Content-Length': String(answer.body.length),
			});
			expect(json(answer)).toEqual({ status: 'serving' });
			expect(answer.probe).toBe(true);
		}
	});

	it('/readyz answers 200 once the sources are loaded', async () => {
		const answer = await decide(request({ target: '/readyz' }), now, createMemory(), HOSTS);
		expect(answer.status).toBe(200);
		expect(json(answer)).toEqual({ status: 'ready' });
		expect(answer.probe).toBe(true);
	});

	it('/readyz answers 503 problem+json while the sources cannot be loaded, without saying what is wrong', async () => {
		const answer = await decide(request({ target: '/readyz' }), broken, createMemory(), HOSTS);
		expect(answer.status).toBe(503);
		expect(answer.headers).toEqual({
			'Content-Type': 'application/problem+json',
			'Cache-Control': 'no-store',
			'Retry-After': '1',
			'Content-Length': String(answer.body.length),
		});
		expect(json(answer)).toEqual({
			type: 'https://portal.example/problems/sources-not-loaded',
			title: 'The mock cannot load its sources yet',
			status: 503,
			detail:
				'The mock is not ready: its sources do not load. Its log says which file and field to mend; it answers once they load.',
		});
		expect(answer.body.toString()).not.toContain('production.json');
		expect(answer.logged.refused).toBe('the mock has no good state yet');
	});

	it('/readyz answers 503 while the first load runs', async () => {
		const answer = await decide(request({ target: '/readyz' }), loading, createMemory(), HOSTS);
		expect(answer.status).toBe(503);
		expect(json(answer)).toMatchObject({
			type: 'https://portal.example/problems/sources-not-loaded',
			detail: 'The mock is not ready: it is still loading its sources.',
		});
	});

	it('answer under any Host, as a kubelet asks by the pod’s address: they hold no view, key or user', async () => {
		for (const host of ['192.0.2.10:4010', 'attacker.example', undefined]) {
			const live = await decide(request({ target: '/healthz', host }), now, createMemory(), HOSTS);
			expect(live.status).toBe(200);
			const ready = await decide(request({ target: '/readyz', host }), now, createMemory(), HOSTS);
			expect(ready.status).toBe(200);
		}
	});

	it('answer HEAD as GET, and a query is no matter', async () => {
		const head = await decide(
			request({ target: '/readyz?verbose', method: 'head', rawMethod: 'HEAD' }),
			now,
			createMemory(),
			HOSTS,
		);
		expect(head.status).toBe(200);
	});

	it('are only those two paths and GET or HEAD: anything else is routed as before, the Host checked first', async () => {
		const other = { host: 'attacker.example' };
		expect(
			(await ask({ target: '/healthz', method: 'post', rawMethod: 'POST', ...other })).status,
		).toBe(403);
		expect((await ask({ target: '/healthz/', ...other })).status).toBe(403);
		expect((await ask({ target: '/healthz/' })).status).toBe(404);
		expect((await ask({ target: '/HEALTHZ' })).status).toBe(404);
		expect((await ask({ target: '/healthz', method: 'post', rawMethod: 'POST' })).status).toBe(404);
	});
});
