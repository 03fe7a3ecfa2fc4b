/** The conformance run's decisions: its keys, how it names them, its checks, verdicts and reports. */
import { describe, expect, it } from 'vitest';
import {
	conformChecks,
	judge,
	junit,
	keysFrom,
	markdown,
	masked,
	nameKey,
	table,
} from '../../../scripts/lib/conform.ts';

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

	it('are named by their holder, else by their last four characters, and masked everywhere', () => {
		expect(nameKey(KEY, new Map([[KEY, 'Ada (production)']]))).toEqual({
			key: KEY,
			shown: 'Ada (production)',
		});
		expect(nameKey(KEY, new Map()).shown).toBe('the key ending KApG');
		expect(masked(`a ${KEY} b secret-one`, ['secret-one'])).toBe('a <key> b <key>');
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
			problems: ['The console could not be reached (ECONNREFUSED).'],
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
