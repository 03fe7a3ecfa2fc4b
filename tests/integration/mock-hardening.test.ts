/**
 * The mock where people try things: a corpus of malformed requests, each with its documented
 * answer and none crashing or stalling the mock, then a bounded load with keys from every view.
 */
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../src/sources/settings.ts';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { bin, freePort, start, waitForUrl, type Started } from '../../support/processes.ts';

const USERS = '/api/v2/users';
let views: ViewEntry[];
let mock: Started;
let base: string;
let port: number;
let goodKey: string;

beforeAll(async () => {
	views = await loadViews(readSettings({}).viewsDir);
	goodKey = views[0]?.view.users[0]?.apiKey ?? '';
	port = await freePort();
	base = `http://127.0.0.1:${port}`;
	mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(port) } });
	await waitForUrl(`${base}${USERS}`, mock);
});

afterAll(async () => {
	await mock?.stop();
});

/** Sends raw bytes and returns the status code of the answer (0 when the mock closed silently). */
function raw(request: string | Buffer): Promise<number> {
	return new Promise((resolve, reject) => {
		const socket = connect(port, '127.0.0.1', () => socket.end(request));
		let answer = '';
		socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
		socket.on('end', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0)));
		// The mock may answer 431 and close while a huge request is still being written.
		socket.on('error', (error: NodeJS.ErrnoException) => {
			const status = /^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1];
			if (error.code === 'ECONNRESET' && status) resolve(Number(status));
			else reject(error);
		});
		socket.setTimeout(10_000, () =>
			socket.destroy(new Error('the mock stalled: no answer in 10 s')),
		);
	});
}

/** A request line and headers, CRLF-joined, with the key of a directory user. */
function request(
	line: string,
	headers: readonly string[] = [`Authorization: Bearer ${goodKey}`],
): string {
	return [line, 'Host: 127.0.0.1', 'Connection: close', ...headers, '', ''].join('\r\n');
}

/** The mock's resident memory in KiB, from /proc. */
async function residentKiB(pid: number): Promise<number> {
	const status = await readFile(`/proc/${pid}/status`, 'utf8');
	return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
}

/** The mock still answers a directory key with that view's users. */
async function stillAnswers(): Promise<void> {
	const response = await fetch(`${base}${USERS}`, {
		headers: { Authorization: `Bearer ${goodKey}` },
	});
	expect(response.status).toBe(200);
	const body = (await response.json()) as { users: { name: string }[] };
	expect(body.users.map(({ name }) => name)).toEqual(views[0]?.view.users.map(({ name }) => name));
}

describe('malformed requests get their documented status and never crash or stall the mock', () => {
	/** Each malformed request, and the one status it is documented to get. */
	const corpus: [string, () => string | Buffer, [number]][] = [
		[
			'a query string on the users path is ignored',
			() => request(`GET ${USERS}?page=2&role=admin HTTP/1.1`),
			[200],
		],
		[
			'a query string does not smuggle a key',
			() => request(`GET ${USERS}?access_token=${goodKey} HTTP/1.1`, []),
			[401],
		],
		[
			'".." is resolved as URLs resolve it (RFC 3986): /api/v2/x/../users is the users path',
			() => request(`GET /api/v2/x/../users HTTP/1.1`),
			[200],
		],
		[
			'".." that climbs out of the root is an unknown path',
			() => request('GET /../../etc/passwd HTTP/1.1'),
			[404],
		],
		[
			'encoded ".." segments are an unknown path',
			() => request('GET /api/v2/%2e%2e/%2e%2e/etc/passwd HTTP/1.1'),
			[404],
		],
		['a method Node does not know gets Node’s 400', () => request(`BREW ${USERS} HTTP/1.1`), [400]],
		['a WebDAV method', () => request(`PROPFIND ${USERS} HTTP/1.1`), [405]],
		[
			'CONNECT (a tunnel, which Node hands over as a raw socket) names no path the contract lists: its 404, as any method there',
			() => request(`CONNECT 127.0.0.1:${port} HTTP/1.1`),
			[404],
		],
		[
			'CONNECT for a host the mock is not served under: its 403',
			() => request('CONNECT attacker.example:443 HTTP/1.1', ['Host: attacker.example:443']),
			[403],
		],
		[
			'HEAD on the users path, with a key: GET without the body',
			() => request(`HEAD ${USERS} HTTP/1.1`),
			[200],
		],
		[
			'OPTIONS that is no preflight (no Origin) is another method: 405',
			() => request(`OPTIONS ${USERS} HTTP/1.1`, []),
			[405],
		],
		[
			'a preflight from a foreign origin gets 204 (the CORS tests check it carries no CORS headers)',
			() =>
				request(`OPTIONS ${USERS} HTTP/1.1`, [
					'Origin: https://evil.example',
					'Access-Control-Request-Method: GET',
				]),
			[204],
		],
		[
			'bearer credentials in Latin-1 bytes are malformed: 400 invalid_request',
			() =>
				Buffer.concat([
					Buffer.from(
						`GET ${USERS} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer ick-`,
					),
					Buffer.from([0xe9, 0xff, 0xfe]),
					Buffer.from('\r\n\r\n'),
				]),
			[400],
		],
		[
			'a NUL byte in a header gets Node’s 400',
			() => request(`GET ${USERS} HTTP/1.1`, ['Authorization: Bearer ick-\u0000']),
			[400],
		],
		[
			'a header of 64 KiB gets Node’s 431 (past its 16 KiB of headers)',
			() => request(`GET ${USERS} HTTP/1.1`, [`Authorization: Bearer ${'a'.repeat(65_536)}`]),
			[431],
		],
		[
			'a thousand headers get Node’s 431',
			() =>
				request(
					`GET ${USERS} HTTP/1.1`,
					Array.from({ length: 1000 }, (_, i) => `X-Filler-${i}: ${i}`),
				),
			[431],
		],
		['a request line that is not HTTP gets Node’s 400', () => 'HELLO THERE\r\n\r\n', [400]],
		[
			'an absolute URL naming the mock in the request line is read by its path (RFC 9112, section 3.2.2)',
			() => request(`GET http://127.0.0.1${USERS} HTTP/1.1`),
			[200],
		],
		[
			'Prefer: code=abc without Authorization gets the key’s 401, not 422: the key first',
			() => request(`GET ${USERS} HTTP/1.1`, ['Prefer: code=abc']),
			[401],
		],
		[
			'//evil.example/api/v2/users is a path the contract does not list (404), not a host',
			() => request(`GET //evil.example${USERS} HTTP/1.1`),
			[404],
		],
		[
			'a control repeated in the query (__code=401&__code=500) gets 422, as in Prism',
			() => request(`GET ${USERS}?__code=401&__code=500 HTTP/1.1`),
			[422],
		],
		[
			'a body on a GET is read and ignored',
			() =>
				request(`GET ${USERS} HTTP/1.1`, [
					`Authorization: Bearer ${goodKey}`,
					'Content-Length: 5',
				]).replace(/\r\n\r\n$/, '\r\n\r\nhello'),
			[200],
		],
	];

	it.each(corpus)('%s', async (_name, build, [expected]) => {
		expect(await raw(build())).toBe(expected);
	});

	it('answers correctly after the whole corpus, in order and at once', async () => {
		const statuses = await Promise.all(corpus.map(([, build]) => raw(build())));
		expect(statuses).toEqual(corpus.map(([, , [expected]]) => expected));
		await stillAnswers();
		expect(mock.child.exitCode).toBeNull();
	});
});

describe('the mock under a bounded load', () => {
	// A short smoke load in every run; LOAD_SECONDS=30 makes it the soak it once was. Throughput is
	// measured by `npm run bench:mock`, side by side with a bare node:http server and plain Prism.
	it('serves 50 connections for a few seconds with keys from every view: no errors, no wrong bodies, bounded memory', async () => {
		const expected = new Map(
			views.flatMap(({ view }) => {
				const body = JSON.stringify({
					users: view.users.map(({ name, email, role }) => ({ name, email, role })),
				});
				return view.users.map((user) => [user.apiKey, body] as const);
			}),
		);
		const keys = [...expected.keys()];
		const before = await residentKiB(mock.child.pid ?? 0);
		let wrong = 0;
		let checked = 0;
		const result = await autocannon({
			url: `${base}${USERS}`,
			connections: 50,
			duration: Number(process.env['LOAD_SECONDS'] ?? 3),
			requests: keys.map((key) => ({
				method: 'GET' as const,
				path: USERS,
				headers: { authorization: `Bearer ${key}` },
				onResponse: (status: number, body: string) => {
					checked += 1;
					if (status !== 200 || JSON.stringify(JSON.parse(body)) !== expected.get(key)) wrong += 1;
				},
			})),
		});
		const after = await residentKiB(mock.child.pid ?? 0);
		console.log(
			`load: ${result.requests.total} requests, ${Math.round(result.requests.average)} req/s, ` +
				`p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, errors ${result.errors}, ` +
				`timeouts ${result.timeouts}, non-2xx ${result.non2xx}, wrong bodies ${wrong} of ${checked}, ` +
				`RSS ${Math.round(before / 1024)} MiB -> ${Math.round(after / 1024)} MiB`,
		);
		expect(result.errors).toBe(0);
		expect(result.timeouts).toBe(0);
		expect(result.non2xx).toBe(0);
		expect(checked).toBeGreaterThan(1000);
		expect(wrong).toBe(0);
		expect(after).toBeLessThan(before + 150 * 1024);
		await stillAnswers();
	}, 120_000);
});
