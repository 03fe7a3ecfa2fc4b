/**
 * The mock-server guide's table of how the mock answers (content/docs/mock-server.mdx, once the
 * README's), row by row: each row is one test against a real
 * mock on loopback, and a row without a test (or a test without a row) fails, so the table and
 * the mock cannot drift apart. The paragraph on what Node refuses first is checked too.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';
import { raw } from '../support/raw-http.ts';

const USERS = '/api/v2/users';
const PROBLEMS = 'https://portal.example/problems/';

let views: ViewEntry[];
let port: number;
let base: string;
const started: Started[] = [];
let scratch: string;

/** The mock-server guide, where the table of how the mock answers is written. */
const GUIDE = 'content/docs/mock-server.mdx';

/** The first cell of each row of the guide's table under "How it answers". */
async function guideRows(): Promise<string[]> {
	const guide = await readFile(path.join(ROOT, GUIDE), 'utf8');
	const section = guide.split(/^#{2,3} /m).find((part) => part.startsWith('How it answers'));
	if (!section) throw new Error(`${GUIDE}: no "How it answers" section`);
	// The first table of the section.
	const lines = section.split('\n');
	const start = lines.findIndex((line) => line.startsWith('| '));
	const end = lines.findIndex((line, index) => index > start && !line.startsWith('| '));
	const rows = lines.slice(start, end);
	return rows
		.slice(2)
		.map((row) => row.split(' | ')[0]?.slice(2).trim() ?? '')
		.filter(Boolean);
}

/** A directory key of the first view, and that view. */
const first = () => {
	const view = views[0];
	if (!view) throw new Error('expected a view');
	return { view, key: view.view.users[0]?.apiKey ?? '' };
};

/** A request to the mock with the given headers. */
async function ask(
	target: string,
	headers: Record<string, string> = {},
	method = 'GET',
): Promise<{ response: Response; text: string }> {
	const response = await fetch(`${base}${target}`, { method, headers });
	return { response, text: await response.text() };
}

/** The problem type an answer names. */
const problemType = (text: string): unknown => (JSON.parse(text) as { type?: unknown }).type;

/** Checks that an answer is a problem of the given status and type. */
function expectProblem(answer: { response: Response; text: string }, status: number, type: string) {
	expect(answer.response.status).toBe(status);
	expect(answer.response.headers.get('content-type')).toBe('application/problem+json');
	expect(problemType(answer.text)).toBe(`${PROBLEMS}${type}`);
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** A raw GET of the users path with the first view's key and a Prefer header. */
const rawFault = (prefer: string, method = 'GET') =>
	raw(
		port,
		`${method} ${USERS} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${first().key}\r\nPrefer: ${prefer}\r\nConnection: close\r\n\r\n`,
	);

/** curl's exit code and error for the users path with the first view's key and a Prefer header. */
function curlExit(prefer: string): Promise<{ code: number; stderr: string }> {
	const args = ['-sS', '-o', '/dev/null', '-H', `Authorization: Bearer ${first().key}`];
	return new Promise((resolve) => {
		execFile(
			'curl',
			[...args, '-H', `Prefer: ${prefer}`, `${base}${USERS}`],
			(error, _, stderr) => {
				resolve({ code: typeof error?.code === 'number' ? error.code : error ? -1 : 0, stderr });
			},
		);
	});
}

/** A timer in Node may fire up to a millisecond before the clock reads its time. */
const TIMER_SLACK_MS = 2;

/** The test of each row, by the row's first cell exactly as the guide writes it. */
const ROWS: Record<string, () => Promise<void>> = {
	"`Bearer <key>` with a key from any view's directory (scheme word in any case)": async () => {
		for (const { view, slug } of views.slice(0, 3)) {
			const key = view.users[0]?.apiKey ?? '';
			const { response, text } = await ask(USERS, { Authorization: `bEaReR ${key}` });
			expect(response.status, slug).toBe(200);
			const { users } = JSON.parse(text) as { users: { email: string }[] };
			expect(users.map(({ email }) => email)).toEqual(view.users.map(({ email }) => email));
		}
	},
	'`HEAD` with such a key': async () => {
		const { key } = first();
		const got = await ask(USERS, bearer(key));
		const head = await ask(USERS, bearer(key), 'HEAD');
		expect(head.response.status).toBe(200);
		expect(head.text).toBe('');
		expect(head.response.headers.get('content-length')).toBe(
			got.response.headers.get('content-length'),
		);
	},
	'No `Authorization` header, an empty one, or another scheme (`Basic …`)': async () => {
		for (const headers of [{}, { Authorization: '' }, { Authorization: 'Basic dXNlcjpwYXNz' }]) {
			const answer = await ask(USERS, headers);
			expectProblem(answer, 401, 'missing-key');
			expect(answer.response.headers.get('www-authenticate')).toBe('Bearer realm="console"');
		}
	},
	'Malformed bearer credentials: `Bearer` alone, a token with spaces or quotes, two `Authorization` headers':
		async () => {
			const { key } = first();
			for (const value of ['Bearer', `Bearer ${key} ${key}`, `Bearer "${key}"`]) {
				const answer = await ask(USERS, { Authorization: value });
				expectProblem(answer, 400, 'invalid-request');
				expect(answer.response.headers.get('www-authenticate')).toMatch(/error="invalid_request"/);
			}
			const twice = await raw(
				port,
				`GET ${USERS} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
			);
			expect(twice.status).toBe(400);
		},
	"A token shaped like a key that is in no view's directory": async () => {
		const answer = await ask(USERS, bearer('ick-00000000-AAAA'));
		expectProblem(answer, 401, 'invalid-key');
		expect(answer.response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
	},
	'A token not shaped like a key (another prefix, a typo), or over 256 characters': async () => {
		const { key } = first();
		for (const token of [key.replace(/^ick-/, 'abc-'), `${key}x`, 'A'.repeat(300)]) {
			const answer = await ask(USERS, bearer(token));
			expectProblem(answer, 401, 'wrong-shape');
			expect(answer.text).toContain('ick-<8 lowercase hex>-<4 letters or digits>');
		}
	},
	"The console's own key: the `api_key` of a view's configuration block": async () => {
		for (const { view } of views.slice(0, 3)) {
			const answer = await ask(USERS, bearer(view.config.api_key));
			expectProblem(answer, 401, 'console-key');
			expect(answer.response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
		}
	},
	'Any control without a usable key (`Prefer: code=abc` and no `Authorization`)': async () => {
		expectProblem(await ask(USERS, { Prefer: 'code=abc' }), 401, 'missing-key');
		expectProblem(await ask(USERS, { Prefer: 'fault=reset, delay=30000' }), 401, 'missing-key');
		expectProblem(await ask(`${USERS}?__code=401&__code=500`), 401, 'missing-key');
		expectProblem(
			await ask(USERS, { Prefer: 'code=200', Authorization: 'Bearer' }),
			400,
			'invalid-request',
		);
	},
	'With a directory key: `Prefer: code=401` or `?__code=401`': async () => {
		const { key } = first();
		expectProblem(await ask(USERS, { ...bearer(key), Prefer: 'code=401' }), 401, 'missing-key');
		expectProblem(await ask(`${USERS}?__code=401`, bearer(key)), 401, 'missing-key');
		expectProblem(
			await ask(USERS, { ...bearer(key), Prefer: 'code=401, example=console-key' }),
			401,
			'console-key',
		);
		expectProblem(await ask(USERS, { ...bearer(key), Prefer: 'code=500' }), 500, 'mock-failure');
	},
	'With a directory key: `Prefer: example=<slug>` or `?__example=<slug>`': async () => {
		const { key } = first();
		const other = views[1];
		if (!other) throw new Error('expected two views');
		for (const answer of [
			await ask(USERS, { ...bearer(key), Prefer: `example=${other.slug}` }),
			await ask(`${USERS}?__example=${other.slug}`, bearer(key)),
		]) {
			expect(answer.response.status).toBe(200);
			expect(answer.text).toContain(other.view.users[0]?.email ?? '?');
		}
		const dynamic = await ask(USERS, { ...bearer(key), Prefer: 'dynamic=true' });
		expect(dynamic.response.status).toBe(200);
		const { users } = JSON.parse(dynamic.text) as {
			users: { name: string; email: string; role: string }[];
		};
		// Shaped like a real directory: eight people with names, synthetic emails, the four roles.
		expect(users).toHaveLength(8);
		for (const { name, email, role } of users) {
			expect(name).toMatch(/^\S+( \S+)+$/);
			expect(email).toMatch(/^[^@\s]+@example\.com$/);
			expect(['admin', 'deployer', 'operator', 'viewer']).toContain(role);
		}
	},
	'An unknown `code` or `example`; an unreadable control (`code=abc`) or one repeated in the query (`?__code=401&__code=500`)':
		async () => {
			const { key } = first();
			expectProblem(await ask(USERS, { ...bearer(key), Prefer: 'code=418' }), 404, 'unknown-code');
			expectProblem(
				await ask(USERS, { ...bearer(key), Prefer: 'example=nope' }),
				404,
				'unknown-example',
			);
			const unreadable = await ask(USERS, { ...bearer(key), Prefer: 'code=abc' });
			expectProblem(unreadable, 422, 'invalid-control');
			expect(unreadable.text).toContain('code=abc');
			const repeated = await ask(`${USERS}?__code=401&__code=500`, bearer(key));
			expectProblem(repeated, 422, 'invalid-control');
			expect(repeated.text).toContain('__code');
		},
	'With a directory key: `Prefer: delay=<ms>` or `?__delay=<ms>` (0 to 30,000), or `delay=<min>-<max>` and `seed=<n>`':
		async () => {
			const { key } = first();
			for (const [target, headers] of [
				[USERS, { ...bearer(key), Prefer: 'delay=600' }],
				[`${USERS}?__delay=600`, bearer(key)],
			] as const) {
				const before = performance.now();
				const answer = await ask(target, headers);
				expect(performance.now() - before).toBeGreaterThanOrEqual(600 - TIMER_SLACK_MS);
				expect(answer.response.status).toBe(200);
				expect(answer.text).toContain(first().view.view.users[0]?.email ?? '?');
			}
			const picks: string[] = [];
			for (let round = 1; round <= 2; round += 1) {
				await ask(USERS, { ...bearer(key), Prefer: 'delay=50-500, seed=73731' });
				const seeded = () =>
					(started[0]?.output() ?? '').split('\n').filter((line) => line.includes('seed=73731'));
				await expect.poll(() => seeded().length).toBe(round);
				picks.push(/ delay=(\d+)ms/.exec(seeded().at(-1) ?? '')?.[1] ?? '?');
			}
			expect(Number(picks[0])).toBeGreaterThanOrEqual(50);
			expect(Number(picks[0])).toBeLessThanOrEqual(500);
			expect(picks[1]).toBe(picks[0]);
		},
	'With a directory key: `Prefer: fault=reset` or `?__fault=reset`': async () => {
		await expect(rawFault('fault=reset')).rejects.toMatchObject({ code: 'ECONNRESET' });
		const query = await fetch(`${base}${USERS}?__fault=reset`, {
			headers: bearer(first().key),
		}).then(
			() => 'answered',
			(error: unknown) => (error instanceof Error ? error.cause : error),
		);
		expect(query).toMatchObject({ code: 'ECONNRESET' });
		expect((await curlExit('fault=reset')).code).toBe(56);
		await expect.poll(() => started[0]?.output()).toMatch(/ fault=reset\n/);
		expect(started[0]?.output()).toMatch(
			/ GET \/api\/v2\/users\S* reset [\d.]+ms .* fault=reset\n/,
		);
	},
	'With a directory key: `fault=empty`': async () => {
		const answer = await rawFault('fault=empty');
		expect(answer.head).toBe('');
		const { code, stderr } = await curlExit('fault=empty');
		expect(code).toBe(52);
		expect(stderr).toContain('Empty reply from server');
	},
	'With a directory key: `fault=garbage`': async () => {
		const answer = await rawFault('fault=garbage');
		expect(answer.status).toBe(0);
		expect(answer.head.length).toBeGreaterThan(0);
		expect(answer.head.startsWith('HTTP/')).toBe(false);
		const { code, stderr } = await curlExit('fault=garbage');
		expect(code).not.toBe(0);
		expect(stderr).toContain('Received HTTP/0.9 when not allowed');
	},
	'With a directory key: `fault=truncated`': async () => {
		const answer = await rawFault('fault=truncated');
		expect(answer.status).toBe(200);
		const length = Number(/\r\ncontent-length: (\d+)/i.exec(answer.head)?.[1]);
		expect(length).toBeGreaterThan(10);
		expect(Buffer.byteLength(answer.body, 'latin1')).toBe(Math.floor(length / 2));
		expect((await curlExit('fault=truncated')).code).toBe(18);
		const head = await rawFault('fault=truncated', 'HEAD');
		expect(head.status).toBe(200);
		expect(head.body).toBe('');
	},
	'With a directory key: `fault=slow-body`': async () => {
		for (const [prefer, span] of [
			['fault=slow-body, delay=500', 500],
			['fault=slow-body', 1000],
		] as const) {
			const before = performance.now();
			const answer = await ask(USERS, { ...bearer(first().key), Prefer: prefer });
			expect(performance.now() - before, prefer).toBeGreaterThanOrEqual(span - TIMER_SLACK_MS);
			expect(answer.response.status).toBe(200);
			expect(answer.text).toContain(first().view.view.users[0]?.email ?? '?');
		}
	},
	'An unknown `fault` (`fault=boom`), a `delay` out of range (`delay=500-100`), a `seed` not a whole number (`seed=1.5`)':
		async () => {
			const { key } = first();
			for (const prefer of ['fault=boom', 'delay=30001', 'delay=500-100', 'seed=1.5']) {
				const answer = await ask(USERS, { ...bearer(key), Prefer: prefer });
				expectProblem(answer, 422, 'invalid-control');
				expect(answer.text).toContain(`Prefer: ${prefer}`);
			}
			expectProblem(await ask(`${USERS}?__fault=reset`), 401, 'missing-key');
		},
	'Any other method on `/api/v2/users`, or an `OPTIONS` that is not a preflight': async () => {
		const { key } = first();
		for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
			const answer = await ask(USERS, bearer(key), method);
			expectProblem(answer, 405, 'method-not-allowed');
			expect(answer.response.headers.get('allow')).toBe('GET, HEAD');
		}
	},
	'Any other path, and a target that is not a path (`//evil.example/api/v2/users`)': async () => {
		const { key } = first();
		expectProblem(await ask('/api/v2/user', bearer(key)), 404, 'not-found');
		const target = await raw(
			port,
			`GET //evil.example${USERS} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
		);
		expect(target.status).toBe(404);
		expect(problemType(target.body)).toBe(`${PROBLEMS}not-found`);
	},
	'A request Prism cannot answer (e.g. `dynamic=true` on a pattern its generator cannot produce)':
		async () => {
			const contract = path.join(scratch, 'openapi.yaml');
			const text = await readFile(path.join(ROOT, 'openapi.yaml'), 'utf8');
			const changed = text.replace(
				'          x-faker: name.findName\n',
				"          pattern: '(?<=a)b'\n",
			);
			expect(changed).not.toBe(text);
			await writeFile(contract, changed);
			const failingPort = await freePort();
			const failing = start(bin('node'), ['mock/cli.ts'], {
				env: { MOCK_PORT: String(failingPort), PORTAL_OPENAPI: contract },
			});
			started.push(failing);
			await waitForUrl(`http://127.0.0.1:${failingPort}${USERS}`, failing);
			const response = await fetch(`http://127.0.0.1:${failingPort}${USERS}`, {
				headers: { ...bearer(first().key), Prefer: 'dynamic=true' },
			});
			const body = await response.text();
			expectProblem({ response, text: body }, 500, 'mock-failure');
			expect(body).toContain('Invalid regular expression');
			expect(body).not.toMatch(/\n\s+at /);
		},
	'Preflight from `http://127.0.0.1:*`, `http://localhost:*`': async () => {
		for (const origin of ['http://127.0.0.1:4321', 'http://localhost:8080']) {
			const answer = await ask(
				USERS,
				{ Origin: origin, 'Access-Control-Request-Method': 'GET' },
				'OPTIONS',
			);
			expect(answer.response.status).toBe(204);
			expect(answer.response.headers.get('access-control-allow-origin')).toBe(origin);
			expect(answer.response.headers.get('access-control-allow-headers')).toMatch(
				/Authorization.*Prefer/,
			);
		}
		const foreign = await ask(
			USERS,
			{ Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'GET' },
			'OPTIONS',
		);
		expect(foreign.response.status).toBe(204);
		expect(foreign.response.headers.get('access-control-allow-origin')).toBeNull();
	},
	"Any `Host` but `127.0.0.1`, `localhost` or `[::1]` with the mock's port, or a name in `MOCK_ALLOWED_HOSTS`":
		async () => {
			const { key } = first();
			const request = (host: string) =>
				raw(
					port,
					`GET ${USERS} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
				);
			const refused = await request('attacker.example');
			expect(refused.status).toBe(403);
			expect(problemType(refused.body)).toBe(`${PROBLEMS}host-not-allowed`);
			expect(refused.body).toContain('MOCK_ALLOWED_HOSTS');
			expect(refused.body).not.toContain(key);
			expect((await request(`localhost:${port}`)).status).toBe(200);
			expect((await request('mock.intranet.example')).status).toBe(200);
		},
	'`GET /healthz` (or `HEAD`), no key, under any `Host`': async () => {
		for (const host of [`127.0.0.1:${port}`, '10.0.0.7:4010']) {
			const answer = await raw(
				port,
				`GET /healthz HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
			);
			expect(answer.status, host).toBe(200);
			expect(JSON.parse(answer.body)).toEqual({ status: 'serving' });
		}
		const head = await ask('/healthz', {}, 'HEAD');
		expect(head.response.status).toBe(200);
		expect(head.text).toBe('');
		expect(started[0]?.output() ?? '').not.toMatch(/ \/healthz /);
	},
	'`GET /readyz` (or `HEAD`), no key, under any `Host`': async () => {
		const answer = await raw(
			port,
			`GET /readyz HTTP/1.1\r\nHost: 10.0.0.7:4010\r\nConnection: close\r\n\r\n`,
		);
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.body)).toEqual({ status: 'ready' });
		// Not ready while the sources do not load: a contract that is no OpenAPI document.
		const contract = path.join(scratch, 'broken.yaml');
		await writeFile(contract, 'openapi: nope\n');
		const brokenPort = await freePort();
		const broken = start(bin('node'), ['mock/cli.ts'], {
			env: { MOCK_PORT: String(brokenPort), PORTAL_OPENAPI: contract },
		});
		started.push(broken);
		await waitForUrl(`http://127.0.0.1:${brokenPort}/healthz`, broken);
		const notReady = await fetch(`http://127.0.0.1:${brokenPort}/readyz`);
		expect(notReady.status).toBe(503);
		expect(notReady.headers.get('content-type')).toBe('application/problem+json');
		const text = await notReady.text();
		expect(problemType(text)).toBe(`${PROBLEMS}sources-not-loaded`);
		expect(text).not.toContain('broken.yaml');
	},
};

beforeAll(async () => {
	views = await loadViews(path.join(ROOT, 'content/views'));
	scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-readme-'));
	port = await freePort();
	base = `http://127.0.0.1:${port}`;
	const mock = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(port), MOCK_ALLOWED_HOSTS: 'mock.intranet.example' },
	});
	started.push(mock);
	await waitForUrl(`${base}${USERS}`, mock);
}, 60_000);

afterAll(async () => {
	await Promise.all(started.map((process) => process.stop()));
	await rm(scratch, { recursive: true, force: true });
});

describe('the mock-server guide’s table of how the mock answers', () => {
	it('has a test for every row, and a row for every test', async () => {
		expect((await guideRows()).sort()).toEqual(Object.keys(ROWS).sort());
	});

	it.each(Object.keys(ROWS))('%s', async (row) => {
		await ROWS[row]?.();
	});
});

describe('what Node refuses before the mock reads a request, as the mock-server guide says', () => {
	const line = (method: string, extra = '') =>
		`${method} ${USERS} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${extra}Connection: close\r\n\r\n`;

	it('a method Node does not know, and a header it cannot parse: a bare 400', async () => {
		for (const request of [line('FOO'), line('GET', 'Bad Header\r\n')]) {
			const answer = await raw(port, request);
			expect(answer.status).toBe(400);
			expect(answer.body).toBe('');
		}
	});

	it('headers over 16 KiB: a bare 431', async () => {
		const answer = await raw(port, line('GET', `X-Big: ${'a'.repeat(17_000)}\r\n`));
		expect(answer.status).toBe(431);
		expect(answer.body).toBe('');
	});
});
