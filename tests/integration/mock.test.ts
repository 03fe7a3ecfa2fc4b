/**
 * The mock as a reader meets it: a real `mock/cli.ts` process on a free port, asked over HTTP.
 * Every body is checked against openapi.yaml's own schemas with Ajv (JSON Schema 2020-12, the
 * dialect of OpenAPI 3.1); the expected users come from the fixtures, not from the contract.
 */
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { z } from 'zod';
import { CONTRACT_FILE } from '../../mock/sync-openapi.ts';
import { loadViews, type ViewEntry } from '../../src/schemas/fixtures.ts';
import { readSettings } from '../../src/schemas/settings.ts';
import { bin, freePort, start, waitForUrl, type Started } from '../support/processes.ts';

const USERS = '/api/v2/users';

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
	it('prints the address it listens on', () => {
		expect(mock.output()).toContain(base);
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
		expect(validate('UserList', { users: [user] })).toBeUndefined();
		expect(validate('UserList', { users: [{ ...user, role: 'owner' }] })).toMatch(/role/);
		expect(validate('UserList', { users: [{ ...user, email: 'nope' }] })).toMatch(/email/);
		expect(validate('UserList', { users: [{ ...user, apiKey: 'ick-00000000-AAAA' }] })).toMatch(
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
		['another scheme', () => `Basic ${Buffer.from('admin:secret').toString('base64')}`],
		['a key in no directory', () => 'Bearer ick-00000000-AAAA'],
		["the console's own key (config api_key)", () => `Bearer ${configKey()}`],
		['a malformed key', () => 'Bearer not-a-key'],
		['a key of another prefix', () => `Bearer ${directoryKey().replace(/^ick-/, 'abc-')}`],
		['a directory key with more after it', () => `Bearer ${directoryKey()}x`],
		['an over-long token', () => `Bearer ${'A'.repeat(5000)}`],
		['two words after Bearer', () => `Bearer ${directoryKey()} ${directoryKey()}`],
		['Bearer and no key', () => 'Bearer'],
		['the key with no scheme', () => directoryKey()],
	])('with %s gets 401 invalid_token and a problem body', async (_case, header) => {
		const { response, body } = await askUsers(header());
		expect(response.status).toBe(401);
		const challenge = response.headers.get('www-authenticate') ?? '';
		expect(challenge).toMatch(/^Bearer realm="[^"]+", error="invalid_token"/);
		expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
		expect(validate('Problem', body)).toBeUndefined();
		expect(body).toMatchObject({ status: 401 });
	});

	it('gets the same problem type for every invalid key, and another one for a missing key', async () => {
		const missing = await askUsers(undefined);
		const unknown = await askUsers('Bearer ick-00000000-AAAA');
		const basic = await askUsers('Basic abc');
		const type = z.object({ type: z.string() });
		expect(type.parse(unknown.body).type).toBe(type.parse(basic.body).type);
		expect(type.parse(missing.body).type).not.toBe(type.parse(unknown.body).type);
	});
});

describe('other methods and paths', () => {
	it.each(['POST', 'PUT', 'PATCH', 'DELETE'])(
		'%s on the users path gets 405, Allow: GET and a problem body',
		async (method) => {
			const key = views[0]?.view.users[0]?.apiKey ?? '';
			const { response, body } = await ask(USERS, {
				method,
				headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
				body: method === 'DELETE' ? null : '{"name":"x"}',
			});
			expect(response.status).toBe(405);
			expect(response.headers.get('allow')).toBe('GET');
			expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json\b/);
			expect(validate('Problem', body)).toBeUndefined();
			expect(body).toMatchObject({ status: 405 });
		},
	);

	it('HEAD on the users path gets 405 too', async () => {
		const response = await fetch(`${base}${USERS}`, { method: 'HEAD' });
		expect(response.status).toBe(405);
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
				expect(body).toMatchObject({ status: 404 });
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

describe('plain prism mock on the same file', () => {
	it('still serves the contract without our layer', async () => {
		const port = await freePort();
		const plain = start(bin('prism'), [
			'mock',
			'-h',
			'127.0.0.1',
			'-p',
			String(port),
			'openapi.yaml',
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
		} finally {
			await plain.stop();
		}
	});
});

describe('odd input', () => {
	it('answers a header with bytes outside ASCII as an invalid key, and keeps serving', async () => {
		const status = await rawRequest(
			Buffer.from(
				`GET ${USERS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \xe9\xff\r\nConnection: close\r\n\r\n`,
				'latin1',
			),
		);
		expect(status).toBe('HTTP/1.1 401 Unauthorized');
		const key = views[0]?.view.users[0]?.apiKey ?? '';
		expect((await askUsers(`Bearer ${key}`)).response.status).toBe(200);
	});

	it('answers a request Node cannot parse with 400, and keeps serving', async () => {
		const status = await rawRequest(Buffer.from('NOT HTTP AT ALL\r\n\r\n'));
		expect(status).toMatch(/^HTTP\/1\.1 400/);
		const huge = await rawRequest(
			Buffer.from(
				`GET ${USERS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(40_000)}\r\n\r\n`,
			),
		);
		expect(huge).toMatch(/^HTTP\/1\.1 431/);
		const key = views[0]?.view.users[0]?.apiKey ?? '';
		expect((await askUsers(`Bearer ${key}`)).response.status).toBe(200);
	});

	it('answers a request with two Authorization headers as an invalid key, even the same key twice', async () => {
		const key = views[0]?.view.users[0]?.apiKey ?? '';
		const status = await rawRequest(
			Buffer.from(
				`GET ${USERS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
			),
		);
		expect(status).toBe('HTTP/1.1 401 Unauthorized');
	});
});
