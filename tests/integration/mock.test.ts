/**
 * The mock as a reader meets it: a real `mock/cli.ts` process on a free port, asked over HTTP.
 * Every body is checked against openapi.yaml's own schemas with Ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1); the expected users come from the fixtures, not from the contract.
 * The RFC 6750 answers, HEAD and Prism's controls are checked here too.
 */
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { bin, freePort, start, waitForUrl, type Started } from '../../support/processes.ts';

const USERS = '/api/v2/users';
const CONTRACT_FILE = readSettings({}).openApiFile;

let mock: Started;
let base: string;
let views: ViewEntry[];
let validate: (schema: 'UserList' | 'Problem', body: unknown) => string | undefined;

/** Compiles the contract's component schemas, so a test checks a body against the contract's own words. */
async function contractValidator(): Promise<typeof validate> {
	const contract = z
		.object({ components: z.object({ schemas: z.record(z.string(), z.unknown()) }) })
		.parse(parse(await readFile(CONTRACT_FILE, 'utf8')));
	const ajv = new Ajv2020({ allErrors: true, strict: true });
	addFormats(ajv);
	// Prism's generator hint, an annotation for any other validator.
	ajv.addVocabulary(['x-faker']);
	for (const [name, schema] of Object.entries(contract.components.schemas)) {
		ajv.addSchema(z.record(z.string(), z.unknown()).parse(schema), `#/components/schemas/${name}`);
	}
	return (name, body) => {
		const check = ajv.getSchema(`#/components/schemas/${name}`);
		if (!check) return `openapi.yaml has no schema ${name}`;
		return check(body) ? undefined : ajv.errorsText(check.errors);
	};
}

/** Sends a request to the mock and reads its answer as JSON. */
async function ask(
	path: string,
	init: RequestInit = {},
): Promise<{ response: Response; body: unknown }> {
	const response = await fetch(`${base}${path}`, init);
	const text = await response.text();
	return { response, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Asks for the users with an Authorization header (none when undefined). */
function askUsers(authorization: string | undefined, headers: Record<string, string> = {}) {
	return ask(USERS, {
		headers: authorization === undefined ? headers : { ...headers, Authorization: authorization },
	});
}

/** Sends raw bytes to the mock and returns the status line it answers. */
function rawRequest(bytes: Buffer): Promise<string> {
	const { port, hostname } = new URL(base);
	return new Promise((resolve, reject) => {
		const socket = connect(Number(port), hostname, () => socket.end(bytes));
		let answer = '';
		socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
		socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
		socket.on('error', reject);
		socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
	});
}

beforeAll(async () => {
	views = await loadViews(readSettings({}).viewsDir);
	validate = await contractValidator();
	const port = await freePort();
	base = `http://127.0.0.1:${port}`;
	mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(port) } });
	await waitForUrl(`${base}${USERS}`, mock);
});

afterAll(async () => {
	await mock?.stop();
});

describe('the mock started by npm run mock', () => {
	it('prints the address it listens on', async () => {
		// The line may reach this process a moment after the mock first answers.
		await expect.poll(() => mock.output()).toContain(base);
	});

	it('refuses a port already in use with one clear line, not a stack trace', async () => {
		const second = start(bin('node'), ['mock/cli.ts'], {
			env: { MOCK_PORT: new URL(base).port },
		});
		const code = await new Promise<number | null>((resolve) =>
			second.child.once('exit', (exitCode) => resolve(exitCode)),
		);
		const lines = second.output().trim().split('\n');
		expect(code).toBe(1);
		expect(lines).toHaveLength(1);
		expect(lines[0]).toMatch(/already in use.*MOCK_PORT/);
		expect(second.output()).not.toMatch(/\n\s+at /);
	});
});

describe('the schema check used below', () => {
	it('refuses bodies the contract does not allow, so a wrong answer cannot pass', () => {
		const user = { name: 'A', email: 'a@example.com', role: 'admin' };
		/** A directory of eight: the user given, then seven valid ones. */
		const eight = (first: object) => ({ users: [first, ...Array<object>(7).fill(user)] });
		expect(validate('UserList', eight(user))).toBeUndefined();
		expect(validate('UserList', { users: [user] })).toMatch(/fewer than 8 items/);
		expect(validate('UserList', { users: Array<object>(9).fill(user) })).toMatch(
			/more than 8 items/,
		);
		expect(validate('UserList', eight({ ...user, role: 'owner' }))).toMatch(/role/);
		expect(validate('UserList', eight({ ...user, email: 'nope' }))).toMatch(/email/);
		expect(validate('UserList', eight({ ...user, apiKey: 'ick-00000000-AAAA' }))).toMatch(
			/additional/,
		);
		expect(validate('Problem', { title: 'x', status: 401 })).toMatch(/required property 'type'/);
	});
});

describe('a key from a view directory', () => {
	it('returns exactly that view’s users, in directory order, for every key of every view', async () => {
		for (const { slug, view } of views) {
			const expected = view.users.map(({ name, email, role }) => ({ name, email, role }));
			for (const user of view.users) {
				const { response, body } = await askUsers(`Bearer ${user.apiKey}`);
				expect(response.status, `${slug}: ${user.name}`).toBe(200);
				expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
				expect(validate('UserList', body)).toBeUndefined();
				expect(body, `${slug}: ${user.name}`).toEqual({ users: expected });
			}
		}
	});

	it('never returns a key', async () => {
		const [first] = views;
		const { body } = await askUsers(`Bearer ${first?.view.users[0]?.apiKey ?? ''}`);
		const text = JSON.stringify(body);
		for (const { view } of views) {
			for (const user of view.users) expect(text).not.toContain(user.apiKey);
		}
	});

	it.each(['bearer', 'BEARER', 'bEaReR'])(
		'is accepted with the scheme word as %s',
		async (scheme) => {
			const [first] = views;
			const { response, body } = await askUsers(`${scheme} ${first?.view.users[2]?.apiKey ?? ''}`);
			expect(response.status).toBe(200);
			expect(body).toEqual({
				users: first?.view.users.map(({ name, email, role }) => ({ name, email, role })),
			});
		},
	);
});

describe('a request without a usable key', () => {
	it('without an Authorization header gets 401 with a realm challenge and a problem body', async () => {
		const { response, body } = await askUsers(undefined);
		expect(response.status).toBe(401);
		const challenge = response.headers.get('www-authenticate') ?? '';
		expect(challenge).toMatch(/^Bearer realm="[^"]+"$/);
		expect(challenge).not.toContain('error=');
		expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
		expect(validate('Problem', body)).toBeUndefined();
		expect(body).toMatchObject({ status: 401 });
	});

	const configKey = (): string => views[0]?.view.config.api_key ?? '';
	const directoryKey = (): string => views[0]?.view.users[0]?.apiKey ?? '';

	it.each<[string, () => string]>([
		['an empty header', () => ''],
		['another scheme', () => `Basic ${Buffer.from('admin:secret').toString('base64')}`],
		['the key with no scheme word', () => directoryKey()],
	])(
		'with %s gets 401 and the challenge without an error code (no bearer credentials)',
		async (_case, header) => {
			const { response, body } = await askUsers(header());
			expect(response.status).toBe(401);
			expect(response.headers.get('www-authenticate')).toBe('Bearer realm="console"');
			expect(validate('Problem', body)).toBeUndefined();
			expect(body).toMatchObject({
				status: 401,
				type: 'https://portal.example/problems/missing-key',
			});
		},
	);

	it.each<[string, () => string]>([
		['Bearer and no token', () => 'Bearer'],
		['two words after Bearer', () => `Bearer ${directoryKey()} ${directoryKey()}`],
		['a quoted token', () => `Bearer "${directoryKey()}"`],
		['a first word that is no scheme', () => `(Bearer ${directoryKey()}`],
	])('with %s gets 400 invalid_request (malformed bearer credentials)', async (_case, header) => {
		const { response, body } = await askUsers(header());
		expect(response.status).toBe(400);
		expect(response.headers.get('www-authenticate')).toMatch(
			/^Bearer realm="console", error="invalid_request", error_description="[^"]+"$/,
		);
		expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
		expect(validate('Problem', body)).toBeUndefined();
		expect(body).toMatchObject({
			status: 400,
			type: 'https://portal.example/problems/invalid-request',
		});
	});

	it.each<[string, () => string, string]>([
		['a key in no directory', () => 'Bearer ick-00000000-AAAA', 'invalid-key'],
		["the console's own key (config api_key)", () => `Bearer ${configKey()}`, 'console-key'],
		['a token not shaped like a key', () => 'Bearer not-a-key', 'wrong-shape'],
		[
			'a key of another prefix',
			() => `Bearer ${directoryKey().replace(/^ick-/, 'abc-')}`,
			'wrong-shape',
		],
		['a directory key with more after it', () => `Bearer ${directoryKey()}x`, 'wrong-shape'],
		['an over-long token', () => `Bearer ${'A'.repeat(5000)}`, 'wrong-shape'],
	])('with %s gets 401 invalid_token and a problem body', async (_case, header, kind) => {
		const { response, body } = await askUsers(header());
		expect(response.status).toBe(401);
		const challenge = response.headers.get('www-authenticate') ?? '';
		expect(challenge).toMatch(
			/^Bearer realm="console", error="invalid_token", error_description="[^"]+"$/,
		);
		expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
		expect(validate('Problem', body)).toBeUndefined();
		expect(body).toMatchObject({
			status: 401,
			type: `https://portal.example/problems/${kind}`,
		});
	});

	it('gives a missing key and an invalid one different problem types', async () => {
		const missing = await askUsers(undefined);
		const unknown = await askUsers('Bearer ick-00000000-AAAA');
		const type = z.object({ type: z.string() });
		expect(type.parse(missing.body).type).not.toBe(type.parse(unknown.body).type);
	});
});

describe('other methods and paths', () => {
	it.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
		'%s on the users path gets 405, Allow: GET, HEAD and a problem body',
		async (method) => {
			const key = views[0]?.view.users[0]?.apiKey ?? '';
			const { response, body } = await ask(USERS, {
				method,
				headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
				body: method === 'DELETE' ? null : '{"name":"x"}',
			});
			expect(response.status).toBe(405);
			expect(response.headers.get('allow')).toBe('GET, HEAD');
			expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
			expect(validate('Problem', body)).toBeUndefined();
			// The contract's own MethodNotAllowed example, word for word.
			expect(body).toEqual({
				type: 'https://portal.example/problems/method-not-allowed',
				title: 'Method not allowed',
				status: 405,
				detail: '/api/v2/users answers GET and HEAD only.',
			});
		},
	);

	it('HEAD gets the headers GET gets, with no body (RFC 9110, section 9.3.2)', async () => {
		const key = views[1]?.view.users[0]?.apiKey ?? '';
		const headers = { Authorization: `Bearer ${key}` };
		const get = await fetch(`${base}${USERS}`, { headers });
		const getBody = await get.text();
		const head = await fetch(`${base}${USERS}`, { method: 'HEAD', headers });
		expect(head.status).toBe(200);
		expect(await head.text()).toBe('');
		expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
		expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(getBody)));
		const refused = await fetch(`${base}${USERS}`, { method: 'HEAD' });
		expect(refused.status).toBe(401);
		expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="console"');
	});

	it.each(['/', '/api/v2/user', '/api/v1/users', '/api/v2/users/extra', '/%E0%A4%A'])(
		'the unknown path %s gets 404 and a problem body, key or no key',
		async (path) => {
			const key = views[0]?.view.users[0]?.apiKey ?? '';
			for (const headers of [{}, { Authorization: `Bearer ${key}` }]) {
				const { response, body } = await ask(path, { headers });
				expect(response.status).toBe(404);
				expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
				expect(validate('Problem', body)).toBeUndefined();
				// The contract's own NotFound example, word for word.
				expect(body).toEqual({
					type: 'https://portal.example/problems/not-found',
					title: 'No such path',
					status: 404,
					detail: 'The contract has one path, GET /api/v2/users.',
				});
			}
		},
	);
});

describe('CORS for the portal pages on this machine', () => {
	it.each(['http://127.0.0.1:4321', 'http://localhost:4321', 'http://localhost:5173'])(
		'answers the preflight from %s, allowing the Authorization header by name',
		async (origin) => {
			const response = await fetch(`${base}${USERS}`, {
				method: 'OPTIONS',
				headers: {
					Origin: origin,
					'Access-Control-Request-Method': 'GET',
					'Access-Control-Request-Headers': 'authorization',
				},
			});
			expect(response.status).toBe(204);
			expect(response.headers.get('access-control-allow-origin')).toBe(origin);
			const allowed = (response.headers.get('access-control-allow-headers') ?? '')
				.split(',')
				.map((name) => name.trim().toLowerCase());
			expect(allowed).toContain('authorization');
			expect(response.headers.get('access-control-allow-methods')).toMatch(/\bGET\b/);
		},
	);

	it('lets a page read the status, the challenge and the body of a 401', async () => {
		const origin = 'http://127.0.0.1:4321';
		const { response } = await askUsers('Bearer nope', { Origin: origin });
		expect(response.headers.get('access-control-allow-origin')).toBe(origin);
		const exposed = (response.headers.get('access-control-expose-headers') ?? '')
			.split(',')
			.map((name) => name.trim().toLowerCase());
		expect(exposed).toEqual(expect.arrayContaining(['www-authenticate', 'content-type']));
		expect(response.headers.get('vary')).toMatch(/\bOrigin\b/i);
	});

	it('gives pages from other sites no access to the directory', async () => {
		const origin = 'https://elsewhere.example';
		const preflight = await fetch(`${base}${USERS}`, {
			method: 'OPTIONS',
			headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' },
		});
		expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
		const key = views[0]?.view.users[0]?.apiKey ?? '';
		const { response } = await askUsers(`Bearer ${key}`, { Origin: origin });
		expect(response.headers.get('access-control-allow-origin')).toBeNull();
	});
});

describe("Prism's controls, on top of the key", () => {
	const key = (): string => views[0]?.view.users[3]?.apiKey ?? '';
	const other = (): ViewEntry => {
		const view = views[2];
		if (!view) throw new Error('expected at least three views');
		return view;
	};
	const usersOf = ({ view }: ViewEntry) => ({
		users: view.users.map(({ name, email, role }) => ({ name, email, role })),
	});

	it.each([
		['Prefer: code=401', { Prefer: 'code=401' }, ''],
		['__code=401', {}, '?__code=401'],
	])(
		'%s with a valid key gets the 401 problem and its challenge',
		async (_case, headers, query) => {
			const { response, body } = await ask(`${USERS}${query}`, {
				headers: { Authorization: `Bearer ${key()}`, ...headers },
			});
			expect(response.status).toBe(401);
			expect(response.headers.get('www-authenticate')).toBe('Bearer realm="console"');
			expect(body).toMatchObject({
				status: 401,
				type: 'https://portal.example/problems/missing-key',
			});
		},
	);

	it('code=401 with example=invalid-key gets that example and its invalid_token challenge', async () => {
		const { response, body } = await ask(USERS, {
			headers: { Authorization: `Bearer ${key()}`, Prefer: 'code=401, example=invalid-key' },
		});
		expect(response.status).toBe(401);
		expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
		expect(body).toMatchObject({ type: 'https://portal.example/problems/invalid-key' });
	});

	it('code=400 and code=500 get the problems the contract declares', async () => {
		for (const code of [400, 500]) {
			const { response, body } = await ask(USERS, {
				headers: { Authorization: `Bearer ${key()}`, Prefer: `code=${code}` },
			});
			expect(response.status).toBe(code);
			expect(validate('Problem', body)).toBeUndefined();
			expect(body).toMatchObject({ status: code });
		}
	});

	it.each([
		[
			'Prefer: example=<slug>',
			(slug: string) => ({ headers: { Prefer: `example=${slug}` }, query: '' }),
		],
		['__example=<slug>', (slug: string) => ({ headers: {}, query: `?__example=${slug}` })],
	])('%s with any valid key gets that view’s users', async (_case, control) => {
		const { headers, query } = control(other().slug);
		const { response, body } = await ask(`${USERS}${query}`, {
			headers: { Authorization: `Bearer ${key()}`, ...headers },
		});
		expect(response.status).toBe(200);
		expect(body).toEqual(usersOf(other()));
	});

	it('a Prefer header wins over the query parameters, as in Prism', async () => {
		const { response, body } = await ask(`${USERS}?__code=401`, {
			headers: { Authorization: `Bearer ${key()}`, Prefer: `example=${other().slug}` },
		});
		expect(response.status).toBe(200);
		expect(body).toEqual(usersOf(other()));
	});

	it('dynamic=true gets a body generated from the schema, still a valid user list', async () => {
		const { response, body } = await ask(USERS, {
			headers: { Authorization: `Bearer ${key()}`, Prefer: 'dynamic=true' },
		});
		expect(response.status).toBe(200);
		expect(validate('UserList', body)).toBeUndefined();
		expect(body).not.toEqual(usersOf(views[0] ?? other()));
	});

	it('an unknown example gets a 404 problem naming it and how examples are named', async () => {
		const { response, body } = await ask(USERS, {
			headers: { Authorization: `Bearer ${key()}`, Prefer: 'example=no-such-view' },
		});
		expect(response.status).toBe(404);
		expect(body).toMatchObject({
			type: 'https://portal.example/problems/unknown-example',
			detail: expect.stringMatching(
				/^Prefer: example=no-such-view: the 200 answer of GET \/api\/v2\/users has no example named "no-such-view"; the 200 examples are named by view slug, e\.g\. /,
			) as unknown,
		});
	});

	it('an unknown code gets a 404 problem listing the codes the contract answers', async () => {
		const { response, body } = await ask(`${USERS}?__code=418`, {
			headers: { Authorization: `Bearer ${key()}` },
		});
		expect(response.status).toBe(404);
		expect(body).toMatchObject({
			type: 'https://portal.example/problems/unknown-code',
			detail:
				'__code=418: GET /api/v2/users has no 418 response; it answers 200, 400, 401, 403, 404, 422, 500, 503.',
		});
	});

	it('a control that cannot be read gets 422, naming it', async () => {
		const { response, body } = await ask(USERS, {
			headers: { Authorization: `Bearer ${key()}`, Prefer: 'code=teapot' },
		});
		expect(response.status).toBe(422);
		expect(body).toMatchObject({
			detail: 'Prefer: code=teapot: expected a three-digit status code, e.g. code=401',
		});
	});

	it('without a usable key, the key comes first: code=200 still gets 401', async () => {
		const { response } = await ask(USERS, { headers: { Prefer: 'code=200' } });
		expect(response.status).toBe(401);
	});
});

describe('the request log', () => {
	it('prints a line per request with the view and user of the key, and never the key', async () => {
		const view = views[1];
		const user = view?.view.users[5];
		await askUsers(`Bearer ${user?.apiKey ?? ''}`);
		await askUsers('Bearer ick-00000000-AAAA');
		// Keys where a client should not put them: in the query, plain and percent-encoded.
		const key = views[2]?.view.users[1]?.apiKey ?? '';
		await ask(`${USERS}?access_token=${key}`);
		await ask(`${USERS}?access_token=${encodeURIComponent(key).replaceAll('-', '%2D')}`);
		const expected = new RegExp(
			`^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z GET /api/v2/users 200 \\d+\\.\\dms view=${view?.slug ?? ''} user="${user?.name ?? ''}" role=${user?.role ?? ''}$`,
		);
		const refused =
			/ GET \/api\/v2\/users 401 [\d.]+ms refused="the key is in no view's directory"$/;
		const lines = (): string[] => mock.output().split('\n');
		// The mock writes its log as it answers; give the pipe a moment.
		for (let tries = 0; tries < 50 && !lines().some((line) => refused.test(line)); tries += 1) {
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		expect(lines().some((line) => expected.test(line))).toBe(true);
		expect(lines().some((line) => refused.test(line))).toBe(true);
		for (const { view: each } of views) {
			for (const { apiKey } of each.users) expect(mock.output()).not.toContain(apiKey);
		}
	});
});

describe('plain prism mock', () => {
	// The guides' command for plain Prism, which reads OpenAPI 3.1 only: the published 3.1
	// equivalent of the 3.2 contract, after downloading it.
	const published31 = () => path.join(inject('distDir'), 'openapi-3.1.json');

	it('still serves the published openapi-3.1.json without our layer, 401 problems and all', async () => {
		const port = await freePort();
		const plain = start(bin('prism'), [
			'mock',
			'-h',
			'127.0.0.1',
			'-p',
			String(port),
			published31(),
		]);
		try {
			const url = `http://127.0.0.1:${port}${USERS}`;
			await waitForUrl(url, plain);
			const key = views[0]?.view.users[0]?.apiKey ?? '';
			const ok = await fetch(url, { headers: { Authorization: `Bearer ${key}` } });
			expect(ok.status).toBe(200);
			expect(validate('UserList', await ok.json())).toBeUndefined();
			const refused = await fetch(url);
			expect(refused.status).toBe(401);
			expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
			expect(validate('Problem', await refused.json())).toBeUndefined();
			const named = await fetch(url, { headers: { Prefer: 'code=401, example=invalid-key' } });
			expect(await named.json()).toMatchObject({
				type: 'https://portal.example/problems/invalid-key',
				status: 401,
			});
		} finally {
			await plain.stop();
		}
	});

	it('serves every view’s users by its slug from the published openapi-3.1.json', async () => {
		const port = await freePort();
		const plain = start(bin('prism'), [
			'mock',
			'-h',
			'127.0.0.1',
			'-p',
			String(port),
			published31(),
		]);
		try {
			const url = `http://127.0.0.1:${port}${USERS}`;
			await waitForUrl(url, plain);
			for (const { slug, view } of views) {
				const response = await fetch(url, {
					headers: { Authorization: 'Bearer anything', Prefer: `example=${slug}` },
				});
				expect(response.status, slug).toBe(200);
				expect(await response.json(), slug).toEqual({
					users: view.users.map(({ name, email, role }) => ({ name, email, role })),
				});
			}
		} finally {
			await plain.stop();
		}
	});
});

describe('odd input', () => {
	it('answers a header with bytes outside ASCII as malformed (400), and keeps serving', async () => {
		const status = await rawRequest(
			Buffer.from(
				`GET ${USERS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \xe9\xff\r\nConnection: close\r\n\r\n`,
				'latin1',
			),
		);
		expect(status).toBe('HTTP/1.1 400 Bad Request');
		const key = views[0]?.view.users[0]?.apiKey ?? '';
		expect((await askUsers(`Bearer ${key}`)).response.status).toBe(200);
	});

	it('answers a request Node cannot parse with 400, and keeps serving', async () => {
		const status = await rawRequest(Buffer.from('NOT HTTP AT ALL\r\n\r\n'));
		expect(status).toMatch(/^HTTP\/1\.1 400/);
		const huge = await rawRequest(
			Buffer.from(
				`GET ${USERS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${'a'.repeat(40_000)}\r\n\r\n`,
			),
		);
		expect(huge).toMatch(/^HTTP\/1\.1 431/);
		const key = views[0]?.view.users[0]?.apiKey ?? '';
		expect((await askUsers(`Bearer ${key}`)).response.status).toBe(200);
	});

	it('answers a request with two Authorization headers as malformed (400), even the same key twice', async () => {
		const key = views[0]?.view.users[0]?.apiKey ?? '';
		const status = await rawRequest(
			Buffer.from(
				`GET ${USERS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
			),
		);
		expect(status).toBe('HTTP/1.1 400 Bad Request');
	});
});
