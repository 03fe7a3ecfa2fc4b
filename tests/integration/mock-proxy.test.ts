/**
 * `MOCK_UPSTREAM=<console> npm run mock`: the mock as a validating proxy, run as a user runs it
 * (mock/cli.ts on the pinned Node), in front of a stand-in console that drifts from the contract
 * one way per request. Each drift is named exactly in sl-violations, in the log line and, with
 * MOCK_PROXY_ERRORS=on, in a 502 problem; a conforming answer gets through byte for byte; a
 * console too slow, cut off or not speaking HTTP gets a 504 or 502 problem, never a hang; the
 * mock's controls get a 422; /readyz says whether the console answers. No key appears in any log.
 */
import { readFile } from 'node:fs/promises';
import { get } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';
import {
	startStandInConsole,
	type Drift,
	type StandInConsole,
} from '../../support/stand-in-console.ts';

const USERS = '/api/v2/users';
let views: ViewEntry[];
let key: string;
let standIn: StandInConsole;
/** The proxy, violations passed on; the proxy with MOCK_PROXY_ERRORS=on; one whose console is gone. */
let proxy: { mock: Started; url: string };
let strict: { mock: Started; url: string };
let orphan: { mock: Started; url: string };

/** Starts the mock in proxy mode with extra settings, and waits for it. */
async function startProxy(env: NodeJS.ProcessEnv): Promise<{ mock: Started; url: string }> {
	const port = await freePort();
	const mock = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(port), MOCK_UPSTREAM_TIMEOUT_MS: '1000', ...env },
	});
	const url = `http://127.0.0.1:${port}`;
	await waitForUrl(`${url}/healthz`, mock);
	return { mock, url };
}

beforeAll(async () => {
	views = await loadViews(readSettings({}).viewsDir);
	key = views[0]?.view.users[0]?.apiKey ?? '';
	standIn = await startStandInConsole(views);
	const closed = await freePort();
	[proxy, strict, orphan] = await Promise.all([
		startProxy({ MOCK_UPSTREAM: standIn.url }),
		startProxy({ MOCK_UPSTREAM: standIn.url, MOCK_PROXY_ERRORS: 'on' }),
		startProxy({ MOCK_UPSTREAM: `http://127.0.0.1:${closed}` }),
	]);
}, 60_000);

afterAll(async () => {
	await Promise.all([proxy?.mock.stop(), strict?.mock.stop(), orphan?.mock.stop()]);
	await standIn?.close();
});

/** Asks a mock for the users with the key, drifting as told. */
function users(url: string, drift?: Drift, init: RequestInit = {}): Promise<Response> {
	return fetch(`${url}${USERS}`, {
		...init,
		headers: {
			Authorization: `Bearer ${key}`,
			...(drift ? { 'X-Drift': drift } : {}),
			...(init.headers as Record<string, string> | undefined),
		},
		signal: AbortSignal.timeout(8000),
	});
}

/** The messages of an answer's sl-violations header; none when it has none. */
function violations(response: Response): string[] {
	const header = response.headers.get('sl-violations');
	if (header === null) return [];
	return (JSON.parse(header) as { message: string }[]).map(({ message }) => message);
}

/** The status of GET /api/v2/users sent to a mock under another Host, which fetch cannot send. */
function statusUnder(url: string, host: string): Promise<number> {
	return new Promise((resolve, reject) => {
		const { port } = new URL(url);
		const sent = get(
			{ host: '127.0.0.1', port, path: USERS, headers: { Host: host } },
			(answer) => {
				answer.resume();
				resolve(answer.statusCode ?? 0);
			},
		);
		sent.on('error', reject);
	});
}

/** The body of a request under another Host, as the mock answers it. */
function bodyUnder(url: string, host: string): Promise<{ type: string; body: string }> {
	return new Promise((resolve, reject) => {
		const { port } = new URL(url);
		const sent = get(
			{ host: '127.0.0.1', port, path: USERS, headers: { Host: host } },
			(answer) => {
				let body = '';
				answer.setEncoding('utf8');
				answer.on('data', (chunk: string) => (body += chunk));
				answer.on('end', () => resolve({ type: answer.headers['content-type'] ?? '', body }));
			},
		);
		sent.on('error', reject);
	});
}

/** Waits until the mock's output holds a text. */
async function logged(mock: Started, text: string): Promise<string> {
	for (let tries = 0; tries < 50 && !mock.output().includes(text); tries += 1) {
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	const line = mock
		.output()
		.split('\n')
		.find((candidate) => candidate.includes(text));
	expect(line, `the log holds ${text}:\n${mock.output()}`).toBeDefined();
	return line ?? '';
}

describe('a conforming console', () => {
	it('gets through byte for byte, with no sl-violations, and the log line names the console', async () => {
		const direct = await fetch(`${standIn.url}${USERS}`, {
			headers: { Authorization: `Bearer ${key}` },
		});
		const through = await users(proxy.url);
		expect(through.status).toBe(200);
		expect(Buffer.from(await through.arrayBuffer())).toEqual(
			Buffer.from(await direct.arrayBuffer()),
		);
		expect(through.headers.get('content-type')).toBe('application/json');
		expect(through.headers.get('sl-violations')).toBeNull();
		const line = await logged(proxy.mock, `upstream="${standIn.url}"`);
		expect(line).toMatch(/GET \/api\/v2\/users 200 [\d.]+ms upstream=/);
		expect(line).not.toContain('violations=');
	});

	it('sends one request after another on one kept-alive connection to the console', async () => {
		const before = standIn.ports.length;
		for (const path of [USERS, USERS, `${USERS}?page=2`]) {
			const answer = await fetch(`${proxy.url}${path}`, {
				headers: { Authorization: `Bearer ${key}` },
			});
			await answer.arrayBuffer();
		}
		const ports = standIn.ports.slice(before);
		expect(ports).toHaveLength(3);
		expect(new Set(ports).size).toBe(1);
	});

	it('forwards Authorization and the query, and a 401 with its challenge conforms', async () => {
		const answer = await fetch(`${proxy.url}${USERS}?page=2`);
		expect(answer.status).toBe(401);
		expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="console"');
		expect(violations(answer)).toEqual([]);
		expect(standIn.received.at(-1)).toEqual({
			method: 'GET',
			target: `${USERS}?page=2`,
			drift: undefined,
		});
	});
});

describe('a console that drifts from the contract', () => {
	const cases: [Drift, string[]][] = [
		['extra-field', ['/users/0/nickname: is not in the contract']],
		['missing-field', ['/users/1/email: is required but missing']],
		['role-outside-enum', ['/users/3/role: must be one of admin, deployer, operator, viewer']],
		['ninth-user', ['/users: must hold at most 8 items']],
		[
			'wrong-media-type',
			["The answer is text/plain; the contract's 200 answer is application/json."],
		],
		[
			'not-json',
			["The body is not JSON, so it cannot match the contract's 200 application/json schema."],
		],
		[
			'server-error',
			["The answer is text/html; the contract's 500 answer is application/problem+json."],
		],
		[
			'redirect',
			[
				'The contract has no 302 answer for GET /api/v2/users; it lists 200, 400, 401, 403, 404, 422, 500, 503.',
			],
		],
	];

	it.each(cases)(
		'%s: named in sl-violations and the log line, the answer passed on',
		async (drift, expected) => {
			const answer = await users(proxy.url, drift, { redirect: 'manual' });
			expect(violations(answer)).toEqual(expected);
			const line = await logged(proxy.mock, `violations=${JSON.stringify(expected.join('; '))}`);
			expect(line).toContain(`upstream="${standIn.url}"`);
		},
	);

	it.each(cases)(
		'%s: with MOCK_PROXY_ERRORS=on, a 502 problem naming it',
		async (drift, expected) => {
			const answer = await users(strict.url, drift, { redirect: 'manual' });
			expect(answer.status).toBe(502);
			expect(answer.headers.get('content-type')).toBe('application/problem+json');
			const body = (await answer.json()) as { type: string; violations: string[]; detail: string };
			expect(body.type).toBe('https://portal.example/problems/contract-violation');
			expect(body.violations).toEqual(expected);
			expect(body.detail).toContain(`The console at ${standIn.url} (MOCK_UPSTREAM) answered`);
		},
	);

	it('a 401 without WWW-Authenticate breaks RFC 6750, named as such', async () => {
		const answer = await fetch(`${proxy.url}${USERS}`, { headers: { 'X-Drift': 'no-challenge' } });
		expect(answer.status).toBe(401);
		expect(violations(answer)).toEqual([
			"WWW-Authenticate: is required on the contract's 401 answer but missing",
		]);
		const strictAnswer = await fetch(`${strict.url}${USERS}`, {
			headers: { 'X-Drift': 'no-challenge' },
		});
		expect(strictAnswer.status).toBe(502);
	});
});

describe('a console that gives no answer to check', () => {
	it.each([
		['too-slow', 504, 'did not answer within 1000 ms (MOCK_UPSTREAM_TIMEOUT_MS)'],
		['connection-reset', 502, 'closed the connection before its whole answer'],
		['not-http', 502, 'answered something that is not HTTP'],
	] as const)(
		'%s: a %i problem naming the console and the cause, in time',
		async (drift, status, why) => {
			const started = Date.now();
			const answer = await users(proxy.url, drift);
			expect(Date.now() - started).toBeLessThan(2500);
			expect(answer.status).toBe(status);
			expect(answer.headers.get('content-type')).toBe('application/problem+json');
			const body = (await answer.json()) as { detail: string };
			expect(body.detail).toContain(
				`The mock forwards to the console at ${standIn.url} (MOCK_UPSTREAM), which ${why}`,
			);
			expect(body.detail).not.toMatch(/\n| {4}at /);
			await logged(proxy.mock, `failed="the console at ${standIn.url} ${why}`);
		},
	);

	it('a kept-alive connection the console resets: sent once more on a new connection, then a 502', async () => {
		await (await users(proxy.url)).arrayBuffer();
		const before = standIn.received.length;
		const answer = await users(proxy.url, 'connection-reset');
		expect(answer.status).toBe(502);
		const resets = standIn.received.slice(before);
		expect(resets.map(({ drift }) => drift)).toEqual(['connection-reset', 'connection-reset']);
		const pooled = standIn.ports[before - 1];
		const [first, again] = standIn.ports.slice(before);
		expect(first).toBe(pooled);
		expect(again).not.toBe(pooled);
	});

	it('a console that cannot be reached: a 502 naming it, and /readyz 503 while /healthz serves', async () => {
		const answer = await users(orphan.url);
		expect(answer.status).toBe(502);
		const body = (await answer.json()) as { detail: string };
		expect(body.detail).toMatch(/which could not be reached \(.*ECONNREFUSED/);
		expect((await fetch(`${orphan.url}/readyz`)).status).toBe(503);
		expect((await fetch(`${orphan.url}/healthz`)).status).toBe(200);
		expect((await fetch(`${proxy.url}/readyz`)).status).toBe(200);
	});
});

describe('the mock’s own rules in proxy mode', () => {
	it('refuses the mock’s controls with a 422, forwarding nothing', async () => {
		const before = standIn.received.length;
		for (const init of [{ headers: { Prefer: 'code=401' } }, {}]) {
			const target = init.headers ? USERS : `${USERS}?__code=500`;
			const answer = await fetch(`${proxy.url}${target}`, init);
			expect(answer.status).toBe(422);
			const body = (await answer.json()) as { type: string };
			expect(body.type).toBe('https://portal.example/problems/control-in-proxy-mode');
		}
		expect(standIn.received.length).toBe(before);
	});

	it('keeps the host allow-list, the preflight and the contract’s 404 its own', async () => {
		const before = standIn.received.length;
		expect(await statusUnder(proxy.url, 'evil.example')).toBe(403);
		const preflight = await fetch(`${proxy.url}${USERS}`, {
			method: 'OPTIONS',
			headers: { Origin: 'http://localhost:3000', 'Access-Control-Request-Method': 'GET' },
		});
		expect(preflight.status).toBe(204);
		expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
		expect((await fetch(`${proxy.url}/api/v2/people`)).status).toBe(404);
		expect(standIn.received.length).toBe(before);
	});

	it('lets a page on this machine read the answer and its sl-violations', async () => {
		const answer = await users(proxy.url, 'role-outside-enum', {
			headers: { Origin: 'http://localhost:3000' },
		});
		expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
		expect(answer.headers.get('access-control-expose-headers')).toContain('sl-violations');
	});

	it('is started as the checking-a-console guide shows, npm run mock (node mock/cli.ts) with MOCK_UPSTREAM', async () => {
		const guide = await readFile(path.join(ROOT, 'content/docs/checking-a-console.mdx'), 'utf8');
		expect(guide).toContain('MOCK_UPSTREAM=https://console.intranet.example npm run mock');
		const scripts = (
			JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
				scripts: Record<string, string>;
			}
		).scripts;
		expect(scripts['mock']).toBe(
			'NODE_COMPILE_CACHE=${NODE_COMPILE_CACHE:-node_modules/.cache/node-compile-cache} node mock/cli.ts',
		);
	});

	it('puts no byte on a connection to the console that the console cannot frame, in the whole run', () => {
		expect(standIn.received.length).toBeGreaterThan(10);
		expect(standIn.unframed).toEqual([]);
	});

	it('prints no key of any fixture in any log line', () => {
		const output = [proxy, strict, orphan].map(({ mock }) => mock.output()).join('\n');
		expect(output).toContain('upstream=');
		for (const { view } of views) {
			expect(output).not.toContain(view.config.api_key);
			for (const user of view.users) expect(output).not.toContain(user.apiKey);
		}
	});
});

describe('a problem, in the words of the one table of problems', () => {
	/** The built problems guide, where each problem's `type` leads. */
	let guide: string;

	beforeAll(async () => {
		guide = await readFile(path.join(inject('distDir'), 'docs/problems/index.html'), 'utf8');
	});

	/** Checks a problem body's type and title, and that its type's anchor is a row of the guide. */
	function expectProblem(text: string, name: string, title: string): void {
		const body = JSON.parse(text) as { type: string; title: string };
		expect(body).toMatchObject({ type: `https://portal.example/problems/${name}`, title });
		// The type's last segment is the row's id on /docs/problems/, with the same title.
		const row = new RegExp(`<tr id="${name}"[^>]*>([\\s\\S]*?)</tr>`).exec(guide)?.[1];
		expect(row, name).toContain(title.replaceAll("'", '&#39;'));
	}

	it('from the proxy: the mock’s controls, and a console that cannot be reached', async () => {
		const control = await fetch(`${proxy.url}${USERS}`, { headers: { Prefer: 'code=401' } });
		expect(control.headers.get('content-type')).toBe('application/problem+json');
		expectProblem(
			await control.text(),
			'control-in-proxy-mode',
			'The mock forwards to the console, which takes no mock controls',
		);
		const gone = await users(orphan.url);
		expect(gone.status).toBe(502);
		const text = await gone.text();
		expectProblem(text, 'upstream-unreachable', 'The console cannot be reached');
		expect((JSON.parse(text) as { detail: string }).detail).toContain(
			"Check the console's address in MOCK_UPSTREAM (--upstream), its scheme (http: or https:) among it, and that the console is up.",
		);
	});

	it('from the mock itself: a host it is not served under', async () => {
		const { type, body } = await bodyUnder(proxy.url, 'evil.example');
		expect(type).toBe('application/problem+json');
		expectProblem(body, 'host-not-allowed', 'The mock is not served under this host');
	});

	it('from the contract, as the mock answers it: a path the contract lacks', async () => {
		const answer = await fetch(`${proxy.url}/not-a-path`);
		expect(answer.status).toBe(404);
		expectProblem(await answer.text(), 'not-found', 'No such path');
	});
});
