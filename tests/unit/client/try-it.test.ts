/** The try-it panel's logic: the request it sends, and how it reads an untrusted answer. */
import { describe, expect, it, vi } from 'vitest';
import {
	defaultServer,
	normalServer,
	rememberedServer,
} from '../../../src/client/try-it/server-url.ts';
import {
	blockedByPolicy,
	blocksRequest,
	BODY_CAP_BYTES,
	formatBody,
	formatBytes,
	formatElapsed,
	formatHeaders,
	formatStatus,
	mediaType,
	parseKey,
	parseServer,
	prepareRequest,
	readBody,
	readCapped,
	sendExampleRequest,
	shownResult,
	withPolicyBlock,
	type TryItOutcome,
} from '../../../src/client/try-it/exchange.ts';

const KEY = 'ick-4f1c9a07-Qx7m';
const MOCK = 'http://127.0.0.1:4010';
const encoder = new TextEncoder();

/** A stream of the given chunks, each after `delayMs`; it never closes when `endless`. */
function streamOf(
	chunks: string[],
	{ delayMs = 0, endless = false } = {},
): ReadableStream<Uint8Array> {
	let index = 0;
	return new ReadableStream<Uint8Array>({
		async pull(controller) {
			if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
			const chunk = chunks[index % chunks.length] ?? '';
			index += 1;
			controller.enqueue(encoder.encode(chunk));
			if (!endless && index >= chunks.length) controller.close();
		},
	});
}

/** A fetch that records what it was asked and answers with `respond`. */
function fakeFetch(respond: (url: string) => Response) {
	const calls: { url: string; headers: Headers }[] = [];
	const fetchImpl = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
		const url = input instanceof Request ? input.url : input.toString();
		calls.push({ url, headers: new Headers(init.headers) });
		await Promise.resolve();
		return respond(url);
	}) as typeof fetch;
	return { calls, fetchImpl };
}

/** A fetch that never answers but gives up when its signal aborts, as a browser's does. */
const silentFetch = (async (_input: RequestInfo | URL, init: RequestInit = {}) =>
	new Promise<Response>((_resolve, reject) => {
		init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
	})) as typeof fetch;

/** The outcome as an answer, failing the test when it is not one. */
function asAnswer(outcome: TryItOutcome): Extract<TryItOutcome, { kind: 'answer' }> {
	if (outcome.kind !== 'answer') throw new Error(`expected an answer, got: ${outcome.summary}`);
	return outcome;
}

describe('the request the panel sends', () => {
	it('copy-as-curl gives exactly the URL and Authorization header that were sent', async () => {
		const { calls, fetchImpl } = fakeFetch(() => Response.json({ users: [] }));
		const outcome = await sendExampleRequest(
			{ server: 'http://127.0.0.1:4711', key: KEY },
			{ fetch: fetchImpl, now: () => 0 },
		);
		expect(calls).toHaveLength(1);
		expect(calls[0]?.url).toBe('http://127.0.0.1:4711/api/v2/users');
		expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${KEY}`);
		expect(outcome.curl).toBe(
			`curl \\\n  -H "Authorization: Bearer ${KEY}" \\\n  http://127.0.0.1:4711/api/v2/users`,
		);
		expect(outcome.curl).toBe(
			`curl \\\n  -H "Authorization: Bearer ${KEY}" \\\n  http://127.0.0.1:4711/api/v2/users`,
		);
	});

	it('an empty key sends no Authorization header, and the curl command has none either', async () => {
		const { calls, fetchImpl } = fakeFetch(() => new Response(null, { status: 401 }));
		const outcome = await sendExampleRequest(
			{ server: MOCK, key: '' },
			{ fetch: fetchImpl, now: () => 0 },
		);
		expect(calls[0]?.headers.has('authorization')).toBe(false);
		expect(outcome.curl).toBe('curl http://127.0.0.1:4010/api/v2/users');
	});

	it('a server with a path keeps it, with no doubled slash', () => {
		expect(prepareRequest({ server: 'http://127.0.0.1:4010/mock/', key: KEY }).url).toBe(
			'http://127.0.0.1:4010/mock/api/v2/users',
		);
	});

	it('a key typed in the free field is trimmed, and one that no header can carry is refused', () => {
		expect(parseKey(`  ${KEY}\n`)).toEqual({ ok: true, key: KEY });
		expect(parseKey('')).toEqual({ ok: true, key: '' });
		expect(parseKey('ick-ключ')).toMatchObject({ ok: false, problem: /printable ASCII/ });
		expect(parseKey('a\r\nX-Evil: 1')).toMatchObject({ ok: false });
		expect(parseKey('k'.repeat(2000))).toMatchObject({ ok: false, problem: /longer than/ });
	});

	it('a key of 1,024 characters is the longest sent, and the refusals say why in full', () => {
		expect(parseKey('k'.repeat(1024))).toEqual({ ok: true, key: 'k'.repeat(1024) });
		expect(parseKey('k'.repeat(1025))).toEqual({
			ok: false,
			problem: 'The key is longer than 1024 characters.',
		});
		expect(parseKey('ick-ключ')).toEqual({
			ok: false,
			problem: 'A key can hold only printable ASCII characters: letters, digits and punctuation.',
		});
	});

	it('a server written with several trailing slashes gets one slash before the path, in the URL and the curl command', () => {
		expect(prepareRequest({ server: 'http://127.0.0.1:4010//', key: '' })).toEqual({
			url: 'http://127.0.0.1:4010/api/v2/users',
			method: 'GET',
			headers: [],
			curl: 'curl http://127.0.0.1:4010/api/v2/users',
		});
	});
});

describe('the server field', () => {
	/** What the panel says about a typed server address, or `accepted`. */
	const problem = (text: string) => {
		const parsed = parseServer(text, MOCK);
		return parsed.ok ? 'accepted' : parsed.problem;
	};

	it('accepts the local mock and other http(s) servers, without a trailing slash', () => {
		expect(parseServer(' http://127.0.0.1:4010/ ', MOCK)).toEqual({ ok: true, server: MOCK });
		expect(parseServer('http://localhost:4010', MOCK)).toEqual({
			ok: true,
			server: 'http://localhost:4010',
		});
		expect(parseServer('https://mock.example/v', MOCK)).toEqual({
			ok: true,
			server: 'https://mock.example/v',
		});
	});

	it('says what is wrong with an address that is not one', () => {
		expect(problem('')).toMatch(/empty; expected an address like http:\/\/127\.0\.0\.1:4010/);
		expect(problem('not a url')).toMatch(/“not a url” is not a server address/);
		expect(problem('127.0.0.1:4010')).toMatch(/“127\.0\.0\.1:4010” has no http:\/\/ in front/);
		expect(problem('localhost:4010')).toMatch(/has no http:\/\/ in front/);
		expect(problem('javascript:alert(1)')).toMatch(/not an http or https address/);
		expect(problem('ftp://127.0.0.1:4010')).toMatch(/not an http or https address;/);
		expect(problem('http://user:pw@127.0.0.1:4010')).toMatch(/user name or password/);
		expect(problem('http://127.0.0.1:4010/?x=1')).toMatch(/query or fragment/);
		expect(problem(`http://${'a'.repeat(3000)}.example`)).toMatch(/too long/);
	});

	it('quotes what was typed without its surrounding spaces, cut at 60 characters', () => {
		expect(problem('  not a url  ')).toBe(
			'“not a url” is not a server address; expected an address like http://127.0.0.1:4010.',
		);
		expect(problem(' \t ')).toBe(
			'The server address is empty; expected an address like http://127.0.0.1:4010.',
		);
		const sixty = `${'a '.repeat(29)}ab`;
		expect(problem(sixty)).toBe(
			`“${sixty}” is not a server address; expected an address like http://127.0.0.1:4010.`,
		);
		expect(problem(`${'a '.repeat(30)}b`)).toBe(
			`“${'a '.repeat(30)}…” is not a server address; expected an address like http://127.0.0.1:4010.`,
		);
	});

	it('tells a missing http:// from another scheme, and from an address that is not one at all', () => {
		expect(problem('mock.example')).toBe(
			'“mock.example” has no http:// in front; expected an address like http://127.0.0.1:4010.',
		);
		expect(problem('localhost/v2')).toMatch(/^“localhost\/v2” has no http:\/\/ in front;/);
		expect(problem('git+https://user@mock.example')).toBe(
			'“git+https://user@mock.example” is not an http or https address; expected an address like http://127.0.0.1:4010.',
		);
		expect(problem('view-source:http://127.0.0.1:4010')).toMatch(
			/is not an http or https address;/,
		);
		expect(problem('//mock.example:4010')).toBe(
			'“//mock.example:4010” is not a server address; expected an address like http://127.0.0.1:4010.',
		);
		expect(problem('http://')).toBe(
			'“http://” is not a server address; expected an address like http://127.0.0.1:4010.',
		);
	});

	it('an address of 2,048 characters is not too long, one of 2,049 is', () => {
		// 'http://mock.example/' is 20 characters, 'mock.example/' is 13.
		const longest = `http://mock.example/${'v'.repeat(2028)}`;
		expect(parseServer(longest, MOCK)).toEqual({ ok: true, server: longest });
		expect(problem(`mock.example/${'v'.repeat(2035)}`)).toMatch(/has no http:\/\/ in front/);
		expect(problem(`mock.example/${'v'.repeat(2036)}`)).toBe(
			'The server address is too long; expected an address like http://127.0.0.1:4010.',
		);
	});

	it('gives the mock the page was built for as the example address', () => {
		const parsed = parseServer('', 'http://127.0.0.1:5010');
		expect(parsed).toEqual({
			ok: false,
			problem: 'The server address is empty; expected an address like http://127.0.0.1:5010.',
		});
	});

	it('a remembered server is used only when it is still a valid address', () => {
		expect(rememberedServer('http://127.0.0.1:4799/', MOCK)).toBe('http://127.0.0.1:4799');
		for (const stored of [null, undefined, 42, '', 'garbage', 'javascript:alert(1)', '{"a":1}']) {
			expect(rememberedServer(stored, MOCK)).toBe(MOCK);
		}
	});

	it('the eager check and the message-giving parser agree on what an address is', () => {
		const samples = [
			'http://127.0.0.1:4010',
			'https://a.example/x/',
			'x',
			'http://u@h',
			'http://h/#a',
			'file:///etc',
		];
		for (const sample of samples) {
			expect(parseServer(sample, MOCK).ok).toBe(normalServer(sample) !== undefined);
		}
	});
});

describe('status, headers and sizes as the panel writes them', () => {
	it('shows the status with its usual reason phrase, whatever the server claims', () => {
		expect(formatStatus(200, '')).toBe('200 OK');
		expect(formatStatus(401, 'Totally Fine')).toBe('401 Unauthorized');
		expect(formatStatus(299, 'Odd\r\nSet-Cookie: x')).toBe('299 Odd  Set-Cookie: x');
		expect(formatStatus(299, '')).toBe('299');
	});

	it.each([
		[200, '200 OK'],
		[201, '201 Created'],
		[204, '204 No Content'],
		[301, '301 Moved Permanently'],
		[302, '302 Found'],
		[304, '304 Not Modified'],
		[307, '307 Temporary Redirect'],
		[308, '308 Permanent Redirect'],
		[400, '400 Bad Request'],
		[401, '401 Unauthorized'],
		[403, '403 Forbidden'],
		[404, '404 Not Found'],
		[405, '405 Method Not Allowed'],
		[406, '406 Not Acceptable'],
		[408, '408 Request Timeout'],
		[413, '413 Content Too Large'],
		[415, '415 Unsupported Media Type'],
		[422, '422 Unprocessable Content'],
		[429, '429 Too Many Requests'],
		[500, '500 Internal Server Error'],
		[501, '501 Not Implemented'],
		[502, '502 Bad Gateway'],
		[503, '503 Service Unavailable'],
		[504, '504 Gateway Timeout'],
	])('names a %i answer "%s" though HTTP/2 sends no reason phrase', (status, shown) => {
		expect(formatStatus(status, '')).toBe(shown);
	});

	it('shows a server’s own reason phrase for an unusual status without the spaces around it', () => {
		expect(formatStatus(299, '  Odd  ')).toBe('299 Odd');
		expect(formatStatus(299, ' \t ')).toBe('299');
	});

	it('lists the readable response headers one per line, cleaned and cut', () => {
		const headers = new Headers({
			'Content-Type': 'application/problem+json',
			'WWW-Authenticate': 'Bearer realm="console", error="invalid_token"',
		});
		expect(formatHeaders(headers)).toBe(
			'content-type: application/problem+json\nwww-authenticate: Bearer realm="console", error="invalid_token"',
		);
		const long = formatHeaders([['x-long', 'v'.repeat(2000)]]);
		expect(long.length).toBeLessThan(600);
		expect(long).toMatch(/… \(1488 more characters\)$/);
		expect(formatHeaders([['x-evil', 'a\u0000b\u001bc']])).toBe('x-evil: a b c');
		expect(formatHeaders([])).toBe('(none that this page may read)');
		const many = Array.from({ length: 80 }, (_, index): [string, string] => [`x-${index}`, 'v']);
		expect(formatHeaders(many).split('\n')).toHaveLength(51);
	});

	it('shows 50 headers and a 512-character value whole, and says how many headers it left out', () => {
		const headers = (count: number) =>
			Array.from({ length: count }, (_, index): [string, string] => [`x-${index}`, 'v']);
		const fifty = formatHeaders(headers(50)).split('\n');
		expect(fifty).toHaveLength(50);
		expect(fifty.at(-1)).toBe('x-49: v');
		expect(formatHeaders(headers(80)).split('\n').slice(-2)).toEqual([
			'x-49: v',
			'… and 30 more headers',
		]);
		expect(formatHeaders([['x-long', 'v'.repeat(512)]])).toBe(`x-long: ${'v'.repeat(512)}`);
		expect(formatHeaders([['x-long', 'v'.repeat(513)]])).toBe(
			`x-long: ${'v'.repeat(512)}… (1 more characters)`,
		);
	});

	it('reads the media type of a Content-Type header, and nothing from a malformed one', () => {
		expect(mediaType('Application/JSON; charset=utf-8')).toBe('application/json');
		expect(mediaType('<script>')).toBeUndefined();
		expect(mediaType(null)).toBeUndefined();
	});

	it('reads a media type with spaces before its parameters, and nothing from a list of two', () => {
		expect(mediaType('application/json ; charset=utf-8')).toBe('application/json');
		expect(mediaType('text/html, application/json')).toBeUndefined();
		expect(mediaType('x, application/json')).toBeUndefined();
	});

	it('writes times and sizes the way a reader expects', () => {
		expect(formatElapsed(34.4)).toBe('34 ms');
		expect(formatElapsed(1250)).toBe('1.25 s');
		expect(formatElapsed(10_000)).toBe('10 s');
		expect(formatBytes(1)).toBe('1 byte');
		expect(formatBytes(BODY_CAP_BYTES)).toBe('256 KiB');
		expect(formatBytes(1536)).toBe('1.5 KiB');
		expect(formatBytes(5 * 1024 * 1024)).toBe('5 MiB');
	});

	it('changes unit at 1 s, 1 KiB and 1 MiB exactly', () => {
		expect(formatElapsed(999)).toBe('999 ms');
		expect(formatElapsed(1000)).toBe('1 s');
		expect(formatBytes(1023)).toBe('1023 bytes');
		expect(formatBytes(1024)).toBe('1 KiB');
		expect(formatBytes(1024 * 1024)).toBe('1 MiB');
	});
});

describe('reading an untrusted body', () => {
	it('stops at the cap and says the body was truncated', async () => {
		const body = await readCapped(
			streamOf(['x'.repeat(700), 'y'.repeat(700)]),
			1000,
			new AbortController().signal,
		);
		expect(body.ending).toBe('capped');
		expect(body.bytes.byteLength).toBe(1000);
		const shown = formatBody(readBody(body), 'application/json', { capBytes: 1000 });
		expect(shown.text).toBe(`${'x'.repeat(700)}${'y'.repeat(300)}`);
		expect(shown.notes.join(' ')).toMatch(
			/larger than 1000 bytes: only its first 1000 bytes were read/,
		);
	});

	it('a body exactly at the cap is read whole', async () => {
		const body = await readCapped(
			streamOf(['x'.repeat(500), 'y'.repeat(500)]),
			1000,
			new AbortController().signal,
		);
		expect(body).toMatchObject({ ending: 'complete' });
		expect(body.bytes.byteLength).toBe(1000);
	});

	it('a slow drip is cut off by the time-out, keeping what arrived', async () => {
		const controller = new AbortController();
		setTimeout(() => controller.abort(), 120);
		const body = await readCapped(
			streamOf(['a'], { delayMs: 30, endless: true }),
			1000,
			controller.signal,
		);
		expect(body.ending).toBe('timed-out');
		expect(body.bytes.byteLength).toBeGreaterThan(0);
		expect(body.bytes.byteLength).toBeLessThan(10);
	});

	it('a connection that breaks mid-body keeps what arrived and says so', async () => {
		let sent = false;
		const stream = new ReadableStream<Uint8Array>({
			pull(controller) {
				if (sent) controller.error(new TypeError('network error'));
				else controller.enqueue(encoder.encode('{"users":['));
				sent = true;
			},
		});
		const body = await readCapped(stream, 1000, new AbortController().signal);
		expect(body.ending).toBe('broken');
		expect(formatBody(readBody(body), 'application/json').notes.join(' ')).toMatch(
			/connection broke/,
		);
	});

	it('formats a JSON body with two-space indents', () => {
		const shown = formatBody(
			readBody({ bytes: encoder.encode('{"users":[{"name":"Ada"}]}'), ending: 'complete' }),
			'application/json',
		);
		expect(shown).toEqual({
			text: '{\n  "users": [\n    {\n      "name": "Ada"\n    }\n  ]\n}',
			notes: [],
		});
	});

	it('shows an HTML body as its source text, with a note that it is not JSON', () => {
		const html = '<script>alert(1)</script><h1>Hi</h1>';
		const shown = formatBody(
			readBody({ bytes: encoder.encode(html), ending: 'complete' }),
			'text/html; charset=utf-8',
		);
		expect(shown.text).toBe(html);
		expect(shown.notes).toEqual([
			'The body is not JSON (Content-Type: text/html); it is shown as text.',
		]);
	});

	it('does not pretty-print a huge JSON body beyond the cap', () => {
		const huge = JSON.stringify(Array.from({ length: 5000 }, (_, index) => index));
		const shown = formatBody(
			readBody({ bytes: encoder.encode(huge), ending: 'complete' }),
			'application/json',
			{ capBytes: 8000 },
		);
		expect(shown.text.length).toBe(8000);
		expect(shown.notes.join(' ')).toMatch(
			/formatted body is longer than 7.8 KiB; only its start is shown/,
		);
	});

	it('shows valid JSON nested too deep to format as it came, and does not call it "not JSON"', () => {
		const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
		const shown = formatBody(
			readBody({ bytes: encoder.encode(deep), ending: 'complete' }),
			'application/json',
		);
		expect(shown.text).toBe(deep);
		expect(shown.notes).toEqual([
			'The body is JSON nested too deep to format; it is shown as it came.',
		]);
	});

	it('a body too deep for the parser itself is said to be so, with no JSON for the check', () => {
		// V8 parses any depth and only formatting gives up; another browser's parser may throw first.
		const parse = vi.spyOn(JSON, 'parse').mockImplementationOnce(() => {
			throw new RangeError('Maximum call stack size exceeded');
		});
		try {
			const read = readBody({ bytes: encoder.encode('[[[]]]'), ending: 'complete' });
			expect(read).toEqual({
				text: '[[[]]]',
				size: 6,
				ending: 'complete',
				json: undefined,
				tooDeep: true,
			});
			expect(formatBody(read, 'application/json')).toEqual({
				text: '[[[]]]',
				notes: ['The body is JSON nested too deep to format; it is shown as it came.'],
			});
		} finally {
			parse.mockRestore();
		}
	});

	it('reads a body once: its text decoded, and JSON parsed when it came whole', () => {
		const decode = vi.spyOn(TextDecoder.prototype, 'decode');
		const parse = vi.spyOn(JSON, 'parse');
		try {
			expect(readBody({ bytes: encoder.encode('{"n":1}'), ending: 'complete' })).toEqual({
				text: '{"n":1}',
				size: 7,
				ending: 'complete',
				json: { value: { n: 1 } },
				tooDeep: false,
			});
			expect([decode.mock.calls.length, parse.mock.calls.length]).toEqual([1, 1]);
		} finally {
			decode.mockRestore();
			parse.mockRestore();
		}
	});

	it('JSON null is JSON; an empty body, a broken one and a syntax error are not, and none is too deep', () => {
		const jsonOf = (text: string) => readBody({ bytes: encoder.encode(text), ending: 'complete' });
		expect(jsonOf('null')).toMatchObject({ json: { value: null }, tooDeep: false });
		for (const text of ['', '{"users":', 'hello']) {
			expect(jsonOf(text)).toMatchObject({ json: undefined, tooDeep: false });
		}
	});

	it('does not parse a body that did not arrive whole, even when the part read is JSON', () => {
		const parse = vi.spyOn(JSON, 'parse');
		try {
			for (const ending of ['capped', 'timed-out', 'broken'] as const) {
				expect(readBody({ bytes: encoder.encode('[1]'), ending })).toEqual({
					text: '[1]',
					size: 3,
					ending,
					json: undefined,
					tooDeep: false,
				});
			}
			expect(parse).not.toHaveBeenCalled();
		} finally {
			parse.mockRestore();
		}
	});

	it('counts the bytes that arrived, not the characters, in what it says of a cut body', () => {
		const bytes = encoder.encode('{"name":"Zoë');
		expect(readBody({ bytes, ending: 'broken' }).size).toBe(13);
		expect(formatBody(readBody({ bytes, ending: 'broken' }), null).notes).toEqual([
			'The connection broke before the body finished: showing the 13 bytes that arrived.',
		]);
	});

	it('says so when the body is empty', () => {
		expect(formatBody(readBody({ bytes: new Uint8Array(), ending: 'complete' }), null).text).toBe(
			'(empty body)',
		);
	});

	it('shows a body that did not arrive whole as it came, with one note saying why', () => {
		const bytes = encoder.encode('{"users":[');
		expect(formatBody(readBody({ bytes, ending: 'broken' }), 'application/json')).toEqual({
			text: '{"users":[',
			notes: ['The connection broke before the body finished: showing the 10 bytes that arrived.'],
		});
		expect(formatBody(readBody({ bytes, ending: 'timed-out' }), 'application/json')).toEqual({
			text: '{"users":[',
			notes: [
				'The body did not finish within 10 s (time-out): showing the 10 bytes that arrived, unformatted.',
			],
		});
	});

	it('does not format a capped body, even when the part read happens to be JSON', () => {
		expect(
			formatBody(readBody({ bytes: encoder.encode('[1]'), ending: 'capped' }), 'application/json', {
				capBytes: 3,
			}),
		).toEqual({
			text: '[1]',
			notes: [
				'The body is larger than 3 bytes: only its first 3 bytes were read, and they are shown unformatted.',
			],
		});
	});

	it('says a body is not JSON without naming a Content-Type the answer did not send', () => {
		expect(
			formatBody(readBody({ bytes: encoder.encode('hello'), ending: 'complete' }), null),
		).toEqual({
			text: 'hello',
			notes: ['The body is not JSON; it is shown as text.'],
		});
	});

	it('shows formatted JSON exactly as long as the cap whole, and one character longer cut', () => {
		const bytes = encoder.encode('[1]');
		expect(
			formatBody(readBody({ bytes, ending: 'complete' }), 'application/json', { capBytes: 7 }),
		).toEqual({
			text: '[\n  1\n]',
			notes: [],
		});
		expect(
			formatBody(readBody({ bytes, ending: 'complete' }), 'application/json', { capBytes: 6 }),
		).toEqual({
			text: '[\n  1\n',
			notes: ['The formatted body is longer than 6 bytes; only its start is shown.'],
		});
	});
});

describe('what the reader is told when there is no good answer', () => {
	it('a mock that is not running gets the message naming its address and `npm run mock`', async () => {
		const { fetchImpl } = fakeFetch(() => {
			throw new TypeError('Failed to fetch');
		});
		const outcome = await sendExampleRequest(
			{ server: 'http://127.0.0.1:4799', key: KEY },
			{ fetch: fetchImpl, now: () => 0 },
		);
		expect(outcome.kind).toBe('failure');
		expect(outcome.summary).toMatch(
			/^Could not reach the mock at http:\/\/127\.0\.0\.1:4799\. Start it with `npm run mock`/,
		);
		expect(outcome.curl).toBe(
			`curl \\\n  -H "Authorization: Bearer ${KEY}" \\\n  http://127.0.0.1:4799/api/v2/users`,
		);
	});

	it('the not-running message says what to do if the mock is running after all', async () => {
		const { fetchImpl } = fakeFetch(() => {
			throw new TypeError('Failed to fetch');
		});
		const outcome = await sendExampleRequest(
			{ server: 'http://127.0.0.1:4799', key: '' },
			{ fetch: fetchImpl, now: () => 0 },
		);
		expect(outcome).toEqual({
			kind: 'failure',
			curl: 'curl http://127.0.0.1:4799/api/v2/users',
			summary:
				'Could not reach the mock at http://127.0.0.1:4799. Start it with `npm run mock`, then ' +
				'send again. If it is running, check the server address.',
		});
	});

	it('a server that never answers gets the time-out message', async () => {
		const outcome = await sendExampleRequest(
			{ server: MOCK, key: KEY },
			{ fetch: silentFetch, now: () => 0, timeoutMs: 50 },
		);
		expect(outcome.kind).toBe('failure');
		expect(outcome.summary).toMatch(/did not answer within 50 ms \(time-out\)/);
	});

	it('a slow drip after the headers is cut off by the same time-out, status kept', async () => {
		const { fetchImpl } = fakeFetch(
			() =>
				new Response(streamOf(['{"users":'], { delayMs: 20, endless: true }), {
					status: 200,
					headers: { 'content-type': 'application/json' },
				}),
		);
		let clock = 0;
		const started = Date.now();
		const answer = asAnswer(
			await sendExampleRequest(
				{ server: MOCK, key: KEY },
				{ fetch: fetchImpl, now: () => (clock += 60), timeoutMs: 150 },
			),
		);
		expect(Date.now() - started).toBeLessThan(2000);
		expect(answer.summary).toBe('200 OK in 60 ms, body cut off by the time-out');
		expect(answer.notes.join(' ')).toMatch(/did not finish within 150 ms \(time-out\)/);
		expect(answer.body.startsWith('{"users":')).toBe(true);
	});

	it('a 401 is an answer, shown with its headers and formatted problem body', async () => {
		const { fetchImpl } = fakeFetch(
			() =>
				new Response('{"title":"Unauthorized","status":401}', {
					status: 401,
					headers: {
						'content-type': 'application/problem+json',
						'www-authenticate': 'Bearer realm="console"',
					},
				}),
		);
		const answer = asAnswer(
			await sendExampleRequest({ server: MOCK, key: '' }, { fetch: fetchImpl, now: () => 0 }),
		);
		expect(answer.ok).toBe(false);
		expect(answer.summary).toBe('401 Unauthorized in 0 ms');
		expect(answer.badge).toBe('401 Unauthorized · 0 ms · 37 B');
		expect(answer.headers).toContain('www-authenticate: Bearer realm="console"');
		expect(answer.body).toBe('{\n  "title": "Unauthorized",\n  "status": 401\n}');
	});

	it.each([
		'https://localhost:4010',
		'http://localhost',
		'http://127.0.0.1:4799',
		'http://127.1.2.3:4010',
		'http://[::1]:4010',
	])('a mock on this machine that is not running (%s) gets `npm run mock`', async (server) => {
		const { fetchImpl } = fakeFetch(() => {
			throw new TypeError('Failed to fetch');
		});
		const outcome = await sendExampleRequest(
			{ server, key: '' },
			{ fetch: fetchImpl, now: () => 0 },
		);
		expect(outcome.summary).toBe(
			`Could not reach the mock at ${server}. Start it with \`npm run mock\`, then ` +
				'send again. If it is running, check the server address.',
		);
	});

	it.each([
		'https://portal.intranet.example',
		'http://mock.intranet.example:4010',
		'http://127.example:4010',
		'http://localhost.example:4010',
		'http://notlocalhost:4010',
		'http://10.127.0.0.1:4010',
		'http://mock.intranet.example/http://localhost',
		'http://192.0.2.127:4010',
	])(
		'a team’s mock the reader cannot start (%s) gets no `npm run mock`, but what to check',
		async (server) => {
			const { fetchImpl } = fakeFetch(() => {
				throw new TypeError('Failed to fetch');
			});
			const outcome = await sendExampleRequest(
				{ server, key: '' },
				{ fetch: fetchImpl, now: () => 0 },
			);
			expect(outcome).toEqual({
				kind: 'failure',
				curl: `curl ${server}/api/v2/users`,
				summary:
					`Could not reach the mock at ${server}. Check the server address; if it is right, ` +
					'the mock there is down or out of this browser’s reach: send again in a moment, or ' +
					'tell the team that runs it.',
			});
		},
	);

	/** An answer a proxy in front of the mock made itself, as the portal's nginx makes it. */
	const proxyAnswer = (status: number, proxyStatus: string) =>
		fakeFetch(
			() =>
				new Response(`{"type":"about:blank","status":${status}}`, {
					status,
					headers: { 'content-type': 'application/problem+json', 'proxy-status': proxyStatus },
				}),
		).fetchImpl;

	const PORTAL = 'https://portal.intranet.example';

	it('a frozen mock behind the portal’s proxy: the team’s mock did not answer in time, not a contract break', async () => {
		const outcome = await sendExampleRequest(
			{ server: PORTAL, key: KEY },
			{
				fetch: proxyAnswer(504, 'console-portal; error=http_response_timeout'),
				now: () => 0,
			},
		);
		expect(outcome).toEqual({
			kind: 'failure',
			curl: `curl \\\n  -H "Authorization: Bearer ${KEY}" \\\n  ${PORTAL}/api/v2/users`,
			summary:
				`The mock behind ${PORTAL} did not answer in time: the portal’s proxy gave up waiting ` +
				'and answered 504 Gateway Timeout itself. Send again in a moment; if it keeps ' +
				'happening, tell the team that runs this portal.',
		});
	});

	it.each([
		[502, 'console-portal; error=destination_unavailable', '502 Bad Gateway'],
		[502, 'console-portal;error=connection_terminated', '502 Bad Gateway'],
		[503, 'ingress, console-portal; error=proxy_internal_error', '503 Service Unavailable'],
	])(
		'a mock behind the portal’s proxy that gives no answer (%i, %s): the team’s mock did not answer',
		async (status, header, shown) => {
			const outcome = await sendExampleRequest(
				{ server: PORTAL, key: '' },
				{ fetch: proxyAnswer(status, header), now: () => 0 },
			);
			expect(outcome).toEqual({
				kind: 'failure',
				curl: `curl ${PORTAL}/api/v2/users`,
				summary:
					`The mock behind ${PORTAL} did not answer: the portal’s proxy could not get an ` +
					`answer from it and answered ${shown} itself. Send again in a moment; if it keeps ` +
					'happening, tell the team that runs this portal.',
			});
		},
	);

	it.each(['reset', 'empty', 'garbage'])(
		'fault=%s asked through the portal’s proxy: the proxy replaced the fault, nothing is wrong',
		async (fault) => {
			const outcome = await sendExampleRequest(
				{ server: PORTAL, key: '', controls: { fault } },
				{
					fetch: proxyAnswer(502, 'console-portal; error=connection_terminated'),
					now: () => 0,
				},
			);
			expect(outcome.kind).toBe('failure');
			expect(outcome.summary).toBe(
				`No answer to show: the portal’s proxy replaced the fault you asked for (fault=${fault}) ` +
					'with its own 502 Bad Gateway, since it cannot hand a broken connection on to the ' +
					'browser. Nothing is wrong with the mock; a client that reaches it directly meets ' +
					'the fault itself.',
			);
		},
	);

	it('a fault the proxy passes on (fault=truncated) with the proxy answering anyway: the mock did not answer', async () => {
		const outcome = await sendExampleRequest(
			{ server: PORTAL, key: '', controls: { fault: 'truncated' } },
			{
				fetch: proxyAnswer(502, 'console-portal; error=destination_unavailable'),
				now: () => 0,
			},
		);
		expect(outcome.summary).toMatch(/^The mock behind .* did not answer: /);
	});

	it.each([
		['no Proxy-Status', undefined],
		['a Proxy-Status without an error', 'console-portal'],
		['an error only in a parameter’s value', 'console-portal; details="error=none"'],
		['a parameter that ends in error', 'console-portal; lasterror=x'],
	])('a 502 with %s is the mock’s own answer, shown and checked', async (_what, header) => {
		const { fetchImpl } = fakeFetch(
			() =>
				new Response('{"status":502}', {
					status: 502,
					headers: {
						'content-type': 'application/problem+json',
						...(header === undefined ? {} : { 'proxy-status': header }),
					},
				}),
		);
		const answer = asAnswer(
			await sendExampleRequest(
				{ server: PORTAL, key: '', controls: { fault: 'reset' } },
				{ fetch: fetchImpl, now: () => 0 },
			),
		);
		expect(answer.summary).toBe('502 Bad Gateway in 0 ms');
		expect(answer.body).toBe('{\n  "status": 502\n}');
	});

	it('a server the page may not call is named, with the one it may call and how to change that', () => {
		expect(blockedByPolicy('http://127.0.0.1:4799', MOCK)).toBe(
			'This page may not call http://127.0.0.1:4799: its Content-Security-Policy lets it reach ' +
				'only the mock it was built for, http://127.0.0.1:4010, and a mock of your own on 127.0.0.1 ' +
				'or localhost at the port it was built for (`MOCK_PORT`). Send to one of those, or build ' +
				'the portal with `PORTAL_MOCK_URL` set to the mock you use.',
		);
	});
});

describe('what the result block shows, so nothing of an earlier request stays', () => {
	const failure: TryItOutcome = {
		kind: 'failure',
		curl: `curl ${MOCK}/api/v2/users`,
		summary: 'Could not reach the mock at http://127.0.0.1:4010.',
	};
	const answer: TryItOutcome = {
		kind: 'answer',
		curl: `curl ${MOCK}/api/v2/users`,
		summary: '200 OK in 3 ms',
		ok: true,
		badge: '200 OK · 3 ms · 2 B',
		headers: 'content-type: application/json',
		body: '{}',
		notes: ['a note'],
		proxyFindings: [],
		checked: {
			status: 200,
			mediaType: 'application/json',
			text: '{}',
			ending: 'complete',
			json: { value: {} },
			headers: { 'content-type': 'application/json' },
		},
	};

	it('a refused server address hides the earlier "Request sent" and its answer, every part emptied', () => {
		expect(shownResult(undefined)).toEqual({
			hidden: true,
			heading: '',
			curl: '',
			answerHidden: true,
			headers: '',
			body: '',
			notes: [],
		});
	});

	it('a request that got no answer is "tried", not "sent", and shows no earlier answer', () => {
		expect(shownResult(failure)).toEqual({
			hidden: false,
			heading: 'Request tried, no answer',
			curl: `curl ${MOCK}/api/v2/users`,
			answerHidden: true,
			headers: '',
			body: '',
			notes: [],
		});
		expect(shownResult(answer).heading).toBe('Request sent');
		expect(shownResult(answer).answerHidden).toBe(false);
	});

	it('a call the CSP blocked says so, as "not sent", and only a failure can become one', () => {
		const server = 'http://127.0.0.1:4799';
		const blocked = withPolicyBlock(failure, true, { server, defaultServer: MOCK });
		expect(blocked).toEqual({
			kind: 'blocked',
			curl: `curl ${MOCK}/api/v2/users`,
			summary: blockedByPolicy(server, MOCK),
		});
		expect(shownResult(blocked).heading).toBe('Request not sent: blocked by this page');
		expect(withPolicyBlock(failure, false, { server, defaultServer: MOCK })).toBe(failure);
		expect(withPolicyBlock(answer, true, { server, defaultServer: MOCK })).toBe(answer);
	});

	it('only a connect-src violation for the request’s own origin counts as blocking it', () => {
		const url = 'http://127.0.0.1:4799/api/v2/users';
		expect(blocksRequest({ effectiveDirective: 'connect-src', blockedURI: url }, url)).toBe(true);
		expect(
			blocksRequest(
				{ effectiveDirective: 'connect-src', blockedURI: 'http://127.0.0.1:4799' },
				url,
			),
		).toBe(true);
		expect(
			blocksRequest(
				{ effectiveDirective: 'connect-src', blockedURI: 'http://127.0.0.1:5000/x' },
				url,
			),
		).toBe(false);
		expect(blocksRequest({ effectiveDirective: 'img-src', blockedURI: url }, url)).toBe(false);
		expect(blocksRequest({ effectiveDirective: 'connect-src', blockedURI: 'inline' }, url)).toBe(
			false,
		);
	});
});

describe('what the panel asks of the browser, and lets go of afterwards', () => {
	it('sends no cookies, takes no cached answer and sends no referrer', async () => {
		const inits: RequestInit[] = [];
		const fetchImpl = (async (_input: RequestInfo | URL, init: RequestInit = {}) => {
			inits.push(init);
			await Promise.resolve();
			return Response.json({ users: [] });
		}) as typeof fetch;
		await sendExampleRequest({ server: MOCK, key: KEY }, { fetch: fetchImpl, now: () => 0 });
		expect(inits).toHaveLength(1);
		expect(inits[0]).toMatchObject({
			credentials: 'same-origin',
			cache: 'no-store',
			referrerPolicy: 'no-referrer',
		});
	});

	it.each([
		[200, true],
		[204, true],
		[299, true],
		[300, false],
		[404, false],
		[500, false],
	])('marks a %i answer as ok: %s', async (status, ok) => {
		const { fetchImpl } = fakeFetch(() => new Response(null, { status }));
		const answer = asAnswer(
			await sendExampleRequest({ server: MOCK, key: KEY }, { fetch: fetchImpl, now: () => 0 }),
		);
		expect(answer.ok).toBe(ok);
	});

	it('does not mark a network-error response (status 0) as ok', async () => {
		const { fetchImpl } = fakeFetch(() => Response.error());
		const answer = asAnswer(
			await sendExampleRequest({ server: MOCK, key: KEY }, { fetch: fetchImpl, now: () => 0 }),
		);
		expect([answer.summary, answer.ok]).toEqual(['0 in 0 ms', false]);
	});

	it('hands the answer to the contract check as read: status, media type, text, ending, JSON and headers', async () => {
		const { fetchImpl } = fakeFetch(
			() =>
				new Response('{"users":[]}', {
					status: 200,
					headers: {
						'content-type': 'Application/JSON; charset=utf-8',
						'WWW-Authenticate': 'Bearer realm="console"',
					},
				}),
		);
		const answer = asAnswer(
			await sendExampleRequest({ server: MOCK, key: KEY }, { fetch: fetchImpl, now: () => 0 }),
		);
		expect(answer.checked).toEqual({
			status: 200,
			mediaType: 'application/json',
			text: '{"users":[]}',
			ending: 'complete',
			json: { value: { users: [] } },
			headers: {
				'content-type': 'Application/JSON; charset=utf-8',
				'www-authenticate': 'Bearer realm="console"',
			},
		});
	});

	it('aborts the request once the answer is read, so a body left unread closes its connection', async () => {
		let signal: AbortSignal | undefined;
		const fetchImpl = (async (_input: RequestInfo | URL, init: RequestInit = {}) => {
			signal = init.signal ?? undefined;
			await Promise.resolve();
			return Response.json({ users: [] });
		}) as typeof fetch;
		await sendExampleRequest({ server: MOCK, key: KEY }, { fetch: fetchImpl, now: () => 0 });
		expect(signal?.aborted).toBe(true);
	});

	it('cancels a body it stops reading at the cap, and not one it read to the end', async () => {
		/** A body of `chunks` chunks of 600 bytes, or one without end; records whether it was cancelled. */
		const body = (chunks: number) => {
			const seen = { cancelled: false };
			let sent = 0;
			const stream = new ReadableStream<Uint8Array>({
				pull(controller) {
					if (sent === chunks) return controller.close();
					sent += 1;
					controller.enqueue(encoder.encode('x'.repeat(600)));
				},
				cancel() {
					seen.cancelled = true;
				},
			});
			return { stream, seen };
		};
		const endless = body(Infinity);
		const whole = body(1);
		expect((await readCapped(endless.stream, 1000, new AbortController().signal)).ending).toBe(
			'capped',
		);
		expect((await readCapped(whole.stream, 1000, new AbortController().signal)).ending).toBe(
			'complete',
		);
		expect([endless.seen.cancelled, whole.seen.cancelled]).toEqual([true, false]);
	});

	it('cancels a body cut off by the time-out', async () => {
		let cancelled = false;
		const controller = new AbortController();
		const stream = new ReadableStream<Uint8Array>({
			pull: () => new Promise<void>(() => {}),
			cancel() {
				cancelled = true;
			},
		});
		setTimeout(() => controller.abort(), 20);
		const body = await readCapped(stream, 1000, controller.signal);
		expect(body.ending).toBe('timed-out');
		expect(cancelled).toBe(true);
	});

	it('reads nothing from a body whose time-out has passed already', async () => {
		const controller = new AbortController();
		controller.abort();
		const body = await readCapped(streamOf(['{"users":[]}']), 1000, controller.signal);
		expect(body).toEqual({ bytes: new Uint8Array(0), ending: 'timed-out' });
	});

	it('a body the time-out errors (as a browser errors a fetch body on abort) is cut off, not broken', async () => {
		const controller = new AbortController();
		let sent = false;
		const stream = new ReadableStream<Uint8Array>({
			start(source) {
				controller.signal.addEventListener('abort', () => source.error(controller.signal.reason));
			},
			pull(source) {
				if (!sent) source.enqueue(encoder.encode('{"users":['));
				sent = true;
				return new Promise<void>(() => {});
			},
		});
		setTimeout(() => controller.abort(), 20);
		const body = await readCapped(stream, 1000, controller.signal);
		expect(body.ending).toBe('timed-out');
		expect(new TextDecoder().decode(body.bytes)).toBe('{"users":[');
	});

	it('leaves no listener on a signal shared by many reads once each read is done', async () => {
		const { signal } = new AbortController();
		const added = vi.spyOn(signal, 'addEventListener');
		const removed = vi.spyOn(signal, 'removeEventListener');
		await readCapped(streamOf(['{"users":[]}']), 1000, signal);
		await readCapped(streamOf(['x'.repeat(2000)]), 1000, signal);
		expect(added).toHaveBeenCalledTimes(2);
		expect(removed.mock.calls).toEqual([
			['abort', added.mock.calls[0]?.[1]],
			['abort', added.mock.calls[1]?.[1]],
		]);
	});
});

describe('the panel’s default server, as the build writes it in data-default-server', () => {
	it('calls a mock on the page’s own origin, under whatever name the page was read', () => {
		expect(defaultServer('/', 'https://portal.intranet.example/views/production/')).toBe(
			'https://portal.intranet.example',
		);
		expect(defaultServer('/', 'http://portal.intranet.example:8080/reference/')).toBe(
			'http://portal.intranet.example:8080',
		);
		expect(
			defaultServer('/console-mock', 'https://portal.intranet.example/views/production/'),
		).toBe('https://portal.intranet.example/console-mock');
	});

	it('takes an address as it is, and nothing that is neither', () => {
		expect(defaultServer('https://mock.intranet.example', 'https://portal.intranet.example')).toBe(
			'https://mock.intranet.example',
		);
		// Never written by a build (PORTAL_MOCK_URL refuses it), read as a browser reads it.
		expect(defaultServer('//elsewhere.example', 'https://portal.intranet.example')).toBe(
			'https://elsewhere.example',
		);
		expect(defaultServer('javascript:alert(1)', 'https://portal.intranet.example')).toBeUndefined();
	});
});
