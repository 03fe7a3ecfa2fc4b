/** The conformance run's decisions: its keys, how it names them, its checks, verdicts and reports. */
import { describe, expect, it } from 'vitest';
import {
	concurrently,
	conformChecks,
	consoleAddress,
	judge,
	keysFrom,
	keysIn,
	masked,
	nameKey,
	tlsFailure,
} from '../../../mock/conform/decide.ts';
import { junit, markdown, table } from '../../../mock/conform/reports.ts';

const KEY = 'ick-5f6bf1b8-KApG';

describe('the keys of a run', () => {
	it('come from CONFORM_KEYS, else the file CONFORM_KEYS_FILE names, each once', () => {
		const none = () => {
			throw new Error('not read');
		};
		expect(keysFrom({ CONFORM_KEYS: ` ${KEY}, ,${KEY},ick-00000000-aaaa` }, none)).toEqual({
			ok: true,
			keys: [KEY, 'ick-00000000-aaaa'],
		});
		expect(keysFrom({ CONFORM_KEYS_FILE: 'k.txt' }, () => `# team keys\n${KEY}\n`)).toEqual({
			ok: true,
			keys: [KEY],
		});
		expect(keysFrom({}, none)).toMatchObject({
			ok: false,
			problem: expect.stringMatching(/^no keys: set CONFORM_KEYS/) as unknown,
		});
		const missing = Object.assign(new Error('x'), { code: 'ENOENT' });
		expect(
			keysFrom({ CONFORM_KEYS_FILE: 'k.txt' }, () => {
				throw missing;
			}),
		).toEqual({ ok: false, problem: 'CONFORM_KEYS_FILE: k.txt cannot be read (ENOENT)' });
	});

	it('are read from a file of one or more keys a line, spaces or commas between, # comments anywhere', () => {
		const other = 'ick-0b3d5e71-Lp2w';
		const third = 'ick-9a8c7e6d-Zt4k';
		const file = [
			'\uFEFF# production keys, owned by the platform team',
			'',
			`${KEY}  # Amara`,
			`${other} ${third}\r`,
			` \t `,
			`${KEY},${other} ,  # both again`,
			'#',
		].join('\n');
		expect(keysIn(file, 'CONFORM_KEYS_FILE k.txt')).toEqual({
			ok: true,
			keys: [KEY, other, third],
		});
		expect(keysIn(`${KEY}#no space before the comment`, 'CONFORM_KEYS')).toEqual({
			ok: true,
			keys: [KEY],
		});
	});

	it('refuse a piece not shaped like a key by its line and place, without showing it', () => {
		const refused = keysIn(
			`# team\n${KEY}\n${KEY} owned by the platform team\n`,
			'CONFORM_KEYS_FILE k.txt',
		);
		expect(refused).toEqual({
			ok: false,
			problem:
				'CONFORM_KEYS_FILE k.txt line 3, piece 2: expected a key shaped ick-<8 lowercase hex>-<4 letters or digits>, e.g. ick-4f1c9a07-Qx7m (keys are separated by spaces or commas, a comment starts with #); nothing was sent',
		});
		const prefix = keysIn('sk-0b3d5e71-Lp2w', 'CONFORM_KEYS');
		expect(prefix).toMatchObject({
			ok: false,
			problem: expect.stringMatching(
				/^CONFORM_KEYS line 1, piece 1: expected the portal's key prefix "ick-", found "sk-" /,
			) as unknown,
		});
		expect(JSON.stringify(prefix)).not.toContain('0b3d5e71');
		expect(keysIn(`${KEY}x`, 'CONFORM_KEYS')).toMatchObject({ ok: false });
		expect(keysIn(`${KEY};${KEY}`, 'CONFORM_KEYS')).toMatchObject({ ok: false });
		expect(keysIn('# only a comment\n\n', 'CONFORM_KEYS_FILE k.txt')).toEqual({
			ok: false,
			problem:
				'no keys: CONFORM_KEYS_FILE k.txt names none; set CONFORM_KEYS=<key>,<key> or CONFORM_KEYS_FILE=<file> (keys are never taken from the command line, where shell history and process lists keep them)',
		});
		expect(keysFrom({ CONFORM_KEYS: `${KEY} Amara` }, () => '')).toMatchObject({
			ok: false,
			problem: expect.stringMatching(/^CONFORM_KEYS line 1, piece 2: /) as unknown,
		});
		expect(keysFrom({ CONFORM_KEYS_FILE: 'k.txt' }, () => `${KEY}\nAmara`)).toMatchObject({
			ok: false,
			problem: expect.stringMatching(/^CONFORM_KEYS_FILE k\.txt line 2, piece 1: /) as unknown,
		});
	});

	it('are named by their holder, else by their last four characters, and masked everywhere', () => {
		expect(nameKey(KEY, new Map([[KEY, 'Ada (production)']]))).toEqual({
			key: KEY,
			shown: 'Ada (production)',
		});
		expect(nameKey(KEY, new Map()).shown).toBe('the key ending KApG');
		expect(masked(`a ${KEY} b secret-one`, ['secret-one'])).toBe('a <key> b <key>');
	});
});

describe('the console’s address', () => {
	it('is an http(s) base, its origin and host, without a trailing slash', () => {
		expect(consoleAddress('https://console.intranet.example/base/')).toEqual({
			ok: true,
			address: {
				base: 'https://console.intranet.example/base',
				origin: 'https://console.intranet.example',
				host: 'console.intranet.example',
			},
		});
		expect(consoleAddress('http://127.0.0.1:4010')).toMatchObject({
			ok: true,
			address: { base: 'http://127.0.0.1:4010', host: '127.0.0.1:4010' },
		});
	});

	it('is refused, never shown, when it holds user-info, a query or a fragment, or is not http(s)', () => {
		const refusals = [
			`https://conform:${KEY}@console.intranet.example`,
			`https://${KEY}@console.intranet.example`,
			`https://console.intranet.example/?key=${KEY}`,
			`https://console.intranet.example/#${KEY}`,
			`conform:${KEY}@console.intranet.example`,
			`ftp://${KEY}@console.intranet.example`,
			`${KEY}:console.intranet.example`,
			KEY,
		].map((given) => consoleAddress(given));
		for (const refusal of refusals) {
			expect(refusal.ok).toBe(false);
			expect(JSON.stringify(refusal)).not.toContain(KEY.slice(4));
		}
		expect(refusals.map((refusal) => (refusal.ok ? '' : refusal.problem))).toEqual([
			"--base-url: expected the console's address alone, e.g. https://console.intranet.example; it holds user-info before an @, not shown here (keys go in CONFORM_KEYS or CONFORM_KEYS_FILE)",
			"--base-url: expected the console's address alone, e.g. https://console.intranet.example; it holds user-info before an @, not shown here (keys go in CONFORM_KEYS or CONFORM_KEYS_FILE)",
			"--base-url: expected the console's address alone, e.g. https://console.intranet.example; it has a query or fragment, not shown here",
			"--base-url: expected the console's address alone, e.g. https://console.intranet.example; it has a query or fragment, not shown here",
			'--base-url: expected an http(s) address, e.g. https://console.intranet.example; its scheme "conform:" is neither',
			'--base-url: expected an http(s) address, e.g. https://console.intranet.example; its scheme "ftp:" is neither',
			'--base-url: expected an http(s) address, e.g. https://console.intranet.example; its scheme, not shown here, is neither',
			'--base-url: expected an http(s) address, e.g. https://console.intranet.example',
		]);
	});
});

describe('the checks in flight', () => {
	it('are at most the limit at once, and their results keep the checks’ order', async () => {
		let inFlight = 0;
		let most = 0;
		const results = await concurrently([30, 5, 20, 1, 10, 2, 0], 3, async (ms) => {
			inFlight += 1;
			most = Math.max(most, inFlight);
			await new Promise((resolve) => setTimeout(resolve, ms));
			inFlight -= 1;
			return ms * 2;
		});
		expect(results).toEqual([60, 10, 40, 2, 20, 4, 0]);
		expect(most).toBe(3);
		expect(await concurrently([], 3, () => Promise.resolve(1))).toEqual([]);
		let all = 0;
		await concurrently([1, 2, 3, 4], 8, async () => {
			all += 1;
			await new Promise((resolve) => setTimeout(resolve, 1));
		});
		expect(all).toBe(4);
	});
});

describe('the checks and their verdicts', () => {
	const checks = conformChecks([{ key: KEY, shown: 'Ada (production)' }]);

	it('are GET and HEAD per key, a preflight, and the three 401s', () => {
		expect(checks.map(({ name, expected }) => `${name} → ${expected}`)).toEqual([
			'GET /api/v2/users as Ada (production) → 200',
			'HEAD /api/v2/users as Ada (production) → 200',
			'OPTIONS /api/v2/users: a preflight from http://localhost:3000 → 204',
			'GET /api/v2/users without a key → 401',
			'GET /api/v2/users with a key of the wrong shape → 401',
			'GET /api/v2/users with a well-shaped key no directory holds → 401',
		]);
	});

	it('an unexpected status breaks, a missing answer is no answer, an invalid token needs its error', () => {
		const contract = {
			operation: 'GET /api/v2/users',
			answers: { '401': { 'text/plain': null } },
			headers: {},
		};
		const status = judge(
			checks[0]!,
			{ status: 401, rawHeaders: ['Content-Type', 'text/plain'], body: Buffer.from('no') },
			contract,
			1000,
			5,
		);
		expect(status).toMatchObject({
			verdict: 'breaks',
			got: '401 text/plain',
			problems: ['Expected 200, got 401.'],
		});
		const gone = judge(
			checks[0]!,
			{ kind: 'unreachable', cause: 'ECONNREFUSED' },
			contract,
			1000,
			5,
		);
		expect(gone).toMatchObject({
			verdict: 'no answer',
			unreachable: true,
			problems: [
				"The console cannot be reached (ECONNREFUSED). Check the console's address given to --base-url (CONFORM_BASE_URL), its scheme (http: or https:) among it, and that the console is up.",
			],
		});
		const plain = judge(
			checks[0]!,
			{
				kind: 'broken',
				cause:
					'write EPROTO 408DA4ECDD7F0000:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number:../deps/openssl/openssl/ssl/record/methods/tlsany_meth.c:77:',
			},
			contract,
			1000,
			5,
		);
		expect(plain).toMatchObject({
			verdict: 'no answer',
			unreachable: true,
			problems: [
				"The console cannot be reached over TLS (wrong version number): does it speak plain http: there? Check the console's address given to --base-url (CONFORM_BASE_URL), its scheme (http: or https:) among it, and that the console is up.",
			],
		});
		const certificate = judge(
			checks[0]!,
			{ kind: 'broken', cause: 'DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate' },
			contract,
			1000,
			5,
		);
		expect(certificate).toMatchObject({
			unreachable: true,
			problems: [
				"The console cannot be reached over TLS (DEPTH_ZERO_SELF_SIGNED_CERT: self-signed certificate). Check the console's address given to --base-url (CONFORM_BASE_URL), its scheme (http: or https:) among it, and that the console is up.",
			],
		});
		const reset = judge(
			checks[0]!,
			{ kind: 'broken', cause: 'read ECONNRESET' },
			contract,
			1000,
			5,
		);
		expect(reset).toMatchObject({
			unreachable: false,
			problems: [
				"The console broke off its answer: it closed the connection before its whole answer (read ECONNRESET). Check the console's address given to --base-url (CONFORM_BASE_URL), its scheme (http: or https:) among it, and that the console is up.",
			],
		});
		const challenge = judge(
			checks[4]!,
			{
				status: 401,
				rawHeaders: ['Content-Type', 'text/plain', 'WWW-Authenticate', 'Bearer realm="console"'],
				body: Buffer.from('no'),
			},
			contract,
			1000,
			5,
		);
		expect(challenge.problems).toEqual([
			'WWW-Authenticate: a token that opens no directory must get error="invalid_token" (RFC 6750, section 3.1)',
		]);
	});

	it('a TLS failure is named in OpenSSL’s words or by the certificate Node refuses, nothing else is', () => {
		expect(
			tlsFailure(
				'write EPROTO 40:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:x.c:1:',
			),
		).toBe('wrong version number');
		for (const cause of [
			'SELF_SIGNED_CERT_IN_CHAIN: self-signed certificate in certificate chain',
			'UNABLE_TO_VERIFY_LEAF_SIGNATURE: unable to verify the first certificate',
			'CERT_HAS_EXPIRED: certificate has expired',
			"ERR_TLS_CERT_ALTNAME_INVALID: Hostname/IP does not match certificate's altnames",
			'ERR_SSL_WRONG_VERSION_NUMBER: wrong version number',
		])
			expect(tlsFailure(cause)).toBe(cause);
		for (const cause of [
			'read ECONNRESET',
			'socket hang up',
			'x CERT_HAS_EXPIRED: late',
			'ERR_TLS: x',
		])
			expect(tlsFailure(cause)).toBeUndefined();
	});

	it('reports escape what XML and Markdown would read as markup', () => {
		const result = {
			check: { ...checks[0]!, name: 'GET <a> & "b" | c' },
			got: '200',
			verdict: 'breaks' as const,
			problems: ['x | y'],
			durationMs: 1500,
		};
		expect(junit([result], 'http://c')).toContain(
			'name="GET &lt;a&gt; &amp; &quot;b&quot; | c" time="1.500"',
		);
		expect(markdown([result], 'http://c', new Date(0))).toContain('| GET <a> & "b" \\| c |');
		expect(table([result])).toContain('    x | y');
	});
});
