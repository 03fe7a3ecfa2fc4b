/**
 * The web image's entry point with MOCK_UPSTREAM: nginx answers the contract's path,
 * /api/v2/users, by proxying it to the mock, so pages built with PORTAL_MOCK_URL=/ call their own
 * origin. Run without building an image: deploy/web-image/start.sh itself, its image paths
 * pointed into a temporary folder laid out as the image's (the template, nginx.conf, /tmp/nginx),
 * then Debian's nginx on loopback with the test's build, in front of a real mock.
 */
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';
import { TIMEOUT_MS } from '../../src/client/try-it/exchange.ts';
import { raw } from '../support/raw-http.ts';
import { nginxInstalled, startEntryPoint, webImageFolder } from '../../support/web-image.ts';

const USERS = '/api/v2/users';
/** The intranet name readers reach the portal under; the mock is told to answer it. */
const PORTAL_NAME = 'portal.intranet.example';

const distDir = inject('distDir');
const started: Started[] = [];
const folders: string[] = [];

/** A user of a fixture, as the directory lists it. */
interface FixtureUser {
	name: string;
	email: string;
	role: string;
	apiKey: string;
}

/** The production view's users, read from its fixture file. */
let fixtureUsers: FixtureUser[];

/** Runs the image's entry point with these variables; it becomes nginx unless they are refused. */
async function startWeb(env: Record<string, string>): Promise<{ web: Started; run: string }> {
	const { folder, script, run } = await webImageFolder(distDir);
	folders.push(folder);
	const web = startEntryPoint(folder, script, env);
	started.push(web);
	return { web, run };
}

/** How a run of the entry point ended: its exit code. */
function exited(web: Started): Promise<number | null> {
	return new Promise((resolve) => {
		if (web.child.exitCode !== null) resolve(web.child.exitCode);
		else web.child.once('exit', (exitCode) => resolve(exitCode));
	});
}

/** A web server on a free port, answering once nginx has started. */
async function servedWeb(env: Record<string, string>): Promise<number> {
	const port = await freePort();
	const { web } = await startWeb({
		PORTAL_PORT: String(port),
		PORTAL_ALLOWED_HOSTS: PORTAL_NAME,
		...env,
	});
	await waitForUrl(`http://127.0.0.1:${port}/`, web);
	return port;
}

/** An answer's header lines, names in lower case, every value of a repeated name kept. */
function headerValues(head: string, name: string): string[] {
	return head
		.split('\r\n')
		.slice(1)
		.map((line) => /^([^:]+):\s*(.*)$/.exec(line))
		.filter((match) => match?.[1]?.toLowerCase() === name)
		.map((match) => match?.[2] ?? '');
}

/** A request as a browser on the portal's intranet name sends it, through nginx. */
async function ask(
	port: number,
	method: string,
	target: string,
	headers: Record<string, string> = {},
): Promise<{ status: number; head: string; body: string; header: (name: string) => string[] }> {
	const lines = Object.entries({ Host: PORTAL_NAME, ...headers }).map(
		([name, value]) => `${name}: ${value}\r\n`,
	);
	const body = method === 'POST' || method === 'PUT' ? 'Content-Length: 0\r\n' : '';
	const answer = await raw(
		port,
		`${method} ${target} HTTP/1.1\r\n${lines.join('')}${body}Connection: close\r\n\r\n`,
	);
	return { ...answer, header: (name) => headerValues(answer.head, name) };
}

let mockPort: number;
let mock: Started;
/** The portal with MOCK_UPSTREAM naming the mock. */
let portal: number;

beforeAll(async () => {
	await nginxInstalled();
	const production = JSON.parse(
		await readFile(path.join(ROOT, 'content/views/production.json'), 'utf8'),
	) as { users: FixtureUser[] };
	fixtureUsers = production.users;
	mockPort = await freePort();
	mock = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(mockPort), MOCK_ALLOWED_HOSTS: PORTAL_NAME },
	});
	started.push(mock);
	await waitForUrl(`http://127.0.0.1:${mockPort}/healthz`, mock);
	portal = await servedWeb({ MOCK_UPSTREAM: `http://127.0.0.1:${mockPort}` });
});

afterAll(async () => {
	await Promise.all(started.map((server) => server.stop()));
	await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('the web image with MOCK_UPSTREAM: the mock on the portal’s own origin', () => {
	it('gives try-it on the portal’s own origin the view’s users from the mock, with its query', async () => {
		const key = fixtureUsers[0]?.apiKey ?? '';
		expect(key).toMatch(/^ick-/);
		const answer = await ask(portal, 'GET', `${USERS}?page=1`, {
			Authorization: `Bearer ${key}`,
		});
		expect(answer.status).toBe(200);
		expect(answer.header('content-type')).toEqual(['application/json']);
		expect(JSON.parse(answer.body)).toEqual({
			users: fixtureUsers.map(({ name, email, role }) => ({ name, email, role })),
		});
		// The mock's bytes as it sent them: neither compressed nor cached on the way.
		expect(answer.header('content-length')).toEqual([String(Buffer.byteLength(answer.body))]);
		expect(answer.header('content-encoding')).toEqual([]);
		const head = await ask(portal, 'HEAD', USERS, { Authorization: `Bearer ${key}` });
		expect(head.status).toBe(200);
		expect(head.body).toBe('');
	});

	it('passes on the mock’s 401 without a key: problem+json and WWW-Authenticate, once each', async () => {
		const answer = await ask(portal, 'GET', USERS, { 'Accept-Encoding': 'gzip' });
		expect(answer.status).toBe(401);
		expect(answer.header('content-type')).toEqual(['application/problem+json']);
		expect(answer.header('www-authenticate')).toEqual(['Bearer realm="console"']);
		expect(JSON.parse(answer.body)).toMatchObject({
			status: 401,
			title: 'A directory key is required',
		});
		// Security headers the portal sends with every answer, but not its Allow.
		expect(answer.header('x-content-type-options')).toEqual(['nosniff']);
		expect(answer.header('x-robots-tag')).toEqual(['noindex, nofollow']);
		expect(answer.header('allow')).toEqual([]);
	});

	it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])(
		'lets %s reach the mock, which answers its own 405 naming GET and HEAD once',
		async (method) => {
			const answer = await ask(portal, method, USERS);
			expect(answer.status).toBe(405);
			expect(answer.header('allow')).toEqual(['GET, HEAD']);
			expect(answer.header('content-type')).toEqual(['application/problem+json']);
			expect(JSON.parse(answer.body)).toEqual({
				type: 'https://portal.example/problems/method-not-allowed',
				title: 'Method not allowed',
				status: 405,
				detail: '/api/v2/users answers GET and HEAD only.',
			});
		},
	);

	it('answers a CORS preflight from the mock, as the mock answers it', async () => {
		const origin = `http://127.0.0.1:${portal}`;
		const answer = await ask(portal, 'OPTIONS', USERS, {
			Origin: origin,
			'Access-Control-Request-Method': 'GET',
			'Access-Control-Request-Headers': 'authorization',
		});
		expect(answer.status).toBe(204);
		expect(answer.header('access-control-allow-origin')).toEqual([origin]);
		expect(answer.header('access-control-allow-methods')).toEqual(['GET, HEAD']);
	});

	it('still serves the pages, and still refuses writing to them with the portal’s 405', async () => {
		const page = await ask(portal, 'GET', '/views/production/');
		expect(page.status).toBe(200);
		expect(page.body).toContain('Internal use only');
		const post = await ask(portal, 'POST', '/views/production/');
		expect(post.status).toBe(405);
		expect(post.header('allow')).toEqual(['GET, HEAD']);
		// Only the exact path goes to the mock: the pages' own 404 for any other under /api/.
		for (const target of ['/api/v2/users/1', '/api/v2/users/', '/api/v2/user']) {
			const other = await ask(portal, 'GET', target);
			expect(other.status, target).toBe(404);
			expect(other.body, target).toContain('<meta name="robots" content="noindex">');
		}
	});

	it('gives try-it reached as localhost:<port> (a port-forward to the web Service) the view’s users: nginx sends the mock its own name', async () => {
		// The mock answers PORTAL_NAME and loopback on its own port only; the reader's name here
		// is neither, and nginx no longer passes it on as Host.
		const answer = await ask(portal, 'GET', USERS, {
			Host: `localhost:${portal}`,
			Authorization: `Bearer ${fixtureUsers[0]?.apiKey ?? ''}`,
		});
		expect(answer.status).toBe(200);
		const body = JSON.parse(answer.body) as { users: { email: string }[] };
		expect(body.users.map((user) => user.email)).toEqual(fixtureUsers.map((user) => user.email));
	});
});

/** An answer as `ask` gives it. */
type Asked = Awaited<ReturnType<typeof ask>>;

/**
 * The answer nginx makes itself on the mock's path: application/problem+json of that status,
 * never kept, with the security headers the mock's own answers get on the way, and a Proxy-Status
 * (RFC 9209) naming the portal as the one that answered and why.
 */
function expectProxyProblem(answer: Asked, status: number, error: string): { detail: string } {
	expect(answer.status).toBe(status);
	expect(answer.header('content-type')).toEqual(['application/problem+json']);
	expect(answer.header('cache-control')).toEqual(['no-store']);
	expect(answer.header('x-content-type-options')).toEqual(['nosniff']);
	expect(answer.header('x-frame-options')).toEqual(['DENY']);
	expect(answer.header('content-security-policy')).toEqual(["frame-ancestors 'none'"]);
	expect(answer.header('referrer-policy')).toEqual(['no-referrer']);
	expect(answer.header('x-robots-tag')).toEqual(['noindex, nofollow']);
	expect(answer.header('proxy-status')).toEqual([`console-portal; error=${error}`]);
	expect(answer.body).not.toContain('<html>');
	const problem = JSON.parse(answer.body) as { type: string; status: number; detail: string };
	expect(problem).toMatchObject({ type: 'about:blank', status });
	return problem;
}

describe('when the mock breaks the connection or freezes: nginx’s own answers, problem+json', () => {
	/** A request for the production view's users, as try-it sends it, with more headers. */
	const askUsers = (headers: Record<string, string> = {}, target = USERS): Promise<Asked> =>
		ask(portal, 'GET', target, {
			Authorization: `Bearer ${fixtureUsers[0]?.apiKey ?? ''}`,
			...headers,
		});

	it.each(['reset', 'empty'])(
		'replaces fault=%s (the mock closes the connection unanswered) with a 502 saying so, with the portal’s headers',
		async (fault) => {
			const problem = expectProxyProblem(
				await askUsers({ Prefer: `fault=${fault}` }),
				502,
				'connection_terminated',
			);
			expect(problem).toEqual({
				type: 'about:blank',
				title: 'The mock closed the connection without an answer',
				status: 502,
				detail:
					"The mock (MOCK_UPSTREAM) reset or closed the connection before answering, as it does when a request asks for fault=reset or fault=empty; the portal's proxy answers this 502 in its place.",
			});
		},
	);

	it('answers fault=garbage itself with a 502, never passing the mock’s random bytes on as HTTP/0.9', async () => {
		for (const [headers, target] of [
			[{ Prefer: 'fault=garbage' }, USERS],
			[{ Prefer: 'code=200, fault="garbage"' }, USERS],
			[{}, `${USERS}?page=1&__fault=garbage`],
		] as const) {
			const answer = await askUsers(headers, target);
			const problem = expectProxyProblem(answer, 502, 'proxy_internal_response');
			expect(problem).toEqual({
				type: 'about:blank',
				title: "The portal's proxy does not pass on fault=garbage",
				status: 502,
				detail:
					"fault=garbage asks the mock for random bytes instead of an answer, which the portal's proxy would hand on as an HTTP/0.9 answer no browser reads; it answers this 502 without asking the mock. A client of the mock itself meets the bytes.",
			});
		}
		// A fault that is not garbage, or garbage only as part of another word, still reaches the mock.
		expect((await askUsers({ Prefer: 'fault=garbagey' })).status).toBe(422);
		expect((await askUsers({ Prefer: 'fault=truncated' })).status).toBe(200);
	});

	it('answers for a frozen mock with a 504 problem+json within try-it’s time-out, with the portal’s headers', async () => {
		const pid = mock.child.pid;
		if (pid === undefined) throw new Error('the mock has no process id');
		process.kill(pid, 'SIGSTOP');
		const started = performance.now();
		let answer: Asked;
		try {
			answer = await askUsers();
		} finally {
			process.kill(pid, 'SIGCONT');
		}
		const waited = performance.now() - started;
		expect(waited).toBeLessThan(TIMEOUT_MS - 1000);
		expect(waited).toBeGreaterThan(1000);
		const problem = expectProxyProblem(answer, 504, 'http_response_timeout');
		expect(problem).toEqual({
			type: 'about:blank',
			title: 'The mock did not answer in time',
			status: 504,
			detail:
				"The portal's proxy gave up on its mock (MOCK_UPSTREAM): no connection within 2 s, or no answer within 7 s of asking, before try-it's own time-out of 10 s. Try again in a moment.",
		});
		// The mock, thawed, answers again.
		expect((await askUsers()).status).toBe(200);
	});
});

describe('what nginx sends the mock, and when it does not answer', () => {
	let recorder: Server;
	let recorderPort: number;
	let through: number;
	const seen: { method: string; url: string; headers: IncomingHttpHeaders }[] = [];

	beforeAll(async () => {
		recorderPort = await freePort();
		// A stand-in for the mock that records each request and answers with headers of its own.
		recorder = createServer((request, response) => {
			seen.push({
				method: request.method ?? '',
				url: request.url ?? '',
				headers: request.headers,
			});
			response.writeHead(401, {
				'Content-Type': 'application/problem+json',
				'WWW-Authenticate': 'Bearer realm="recorder"',
				Allow: 'GET',
				'Content-Length': '14',
			});
			response.end('{"status":401}');
		});
		await new Promise<void>((resolve) => recorder.listen(recorderPort, '127.0.0.1', resolve));
		// Any case, and a trailing slash, which must not become the path of what is forwarded.
		through = await servedWeb({ MOCK_UPSTREAM: `HTTP://127.0.0.1:${recorderPort}/` });
	});

	afterAll(async () => {
		if (recorder.listening) await new Promise((resolve) => recorder.close(resolve));
	});

	it('forwards the path and query as sent, the mock’s own name as Host, and the reader’s name and who asked in X-Forwarded-*', async () => {
		const answer = await ask(through, 'GET', `${USERS}?page=2&q=a%20b`, {
			Host: `${PORTAL_NAME}:${through}`,
			'X-Forwarded-For': '192.0.2.7',
		});
		expect(answer.status).toBe(401);
		expect(answer.header('www-authenticate')).toEqual(['Bearer realm="recorder"']);
		expect(answer.header('allow')).toEqual(['GET']);
		expect(answer.body).toBe('{"status":401}');
		expect(seen).toHaveLength(1);
		const [request] = seen;
		expect(request?.method).toBe('GET');
		expect(request?.url).toBe('/api/v2/users?page=2&q=a%20b');
		expect(request?.headers).toMatchObject({
			host: `127.0.0.1:${recorderPort}`,
			'x-forwarded-host': `${PORTAL_NAME}:${through}`,
			'x-forwarded-proto': 'http',
			'x-forwarded-for': '192.0.2.7, 127.0.0.1',
		});
	});

	it('answers 502 with a short problem+json, not nginx’s page, when the mock does not answer', async () => {
		await new Promise((resolve) => recorder.close(resolve));
		const answer = await ask(through, 'GET', USERS);
		expect(answer.status).toBe(502);
		expect(answer.header('content-type')).toEqual(['application/problem+json']);
		expect(JSON.parse(answer.body)).toEqual({
			type: 'about:blank',
			title: 'The mock does not answer',
			status: 502,
			detail: 'The portal could not reach its mock (MOCK_UPSTREAM). Try again in a moment.',
		});
		expect(answer.body).not.toContain('<html>');
		// The pages are nginx's own and still served.
		expect((await ask(through, 'GET', '/')).status).toBe(200);
	});

	it('gives that 502 the portal’s security headers and a Proxy-Status saying the mock was not reached', async () => {
		expectProxyProblem(await ask(through, 'GET', USERS), 502, 'destination_unavailable');
	});
});

describe('the web image without MOCK_UPSTREAM', () => {
	it('answers the contract’s path as any missing page: 404, and 405 to writing', async () => {
		const port = await servedWeb({});
		const answer = await ask(port, 'GET', USERS, {
			Authorization: `Bearer ${fixtureUsers[0]?.apiKey ?? ''}`,
		});
		expect(answer.status).toBe(404);
		expect(answer.body).toContain('<meta name="robots" content="noindex">');
		const post = await ask(port, 'POST', USERS);
		expect(post.status).toBe(405);
		expect(post.header('allow')).toEqual(['GET, HEAD']);
	});
});

describe('MOCK_UPSTREAM that is not an origin nginx can proxy to', () => {
	it.each([
		['https://mock.intranet.example:4010', 'not served over TLS by the mock'],
		['http://mock.intranet.example', 'no port'],
		['http://mock.intranet.example:4010/api', 'a path'],
		['http://reader:secret@mock.intranet.example:4010', 'credentials'],
		['http://mock.intranet.example:4010?debug=1', 'a query'],
		['mock.intranet.example:4010', 'no scheme'],
		['http://mock.intranet.example:4010 http://other.example:1', 'trailing junk'],
		['http://mock.intranet.example:4010\nhttp://other.example:1', 'a second line'],
	])('refuses %j (%s) with one line naming the variable, before nginx starts', async (value) => {
		const { web, run } = await startWeb({
			PORTAL_PORT: String(await freePort()),
			MOCK_UPSTREAM: value,
		});
		expect(await exited(web)).toBe(64);
		const lines = web.output().trimEnd().split('\n');
		expect(lines).toHaveLength(1);
		expect(lines[0]).toBe(
			`console-portal-web: MOCK_UPSTREAM: expected the mock's origin as http://host:port (http://console-portal-mock:4010), without path, query or credentials; "${value.replace('\n', ' ')}" is not one`,
		);
		expect(existsSync(path.join(run, 'console-portal.conf'))).toBe(false);
	});

	it('refuses a port beyond 65535, saying so', async () => {
		const { web } = await startWeb({
			PORTAL_PORT: String(await freePort()),
			MOCK_UPSTREAM: 'http://mock.intranet.example:65536',
		});
		expect(await exited(web)).toBe(64);
		expect(web.output().trimEnd()).toBe(
			`console-portal-web: MOCK_UPSTREAM: expected the mock's origin as http://host:port (http://console-portal-mock:4010), without path, query or credentials; "http://mock.intranet.example:65536" has no port from 1 to 65535`,
		);
	});
});
