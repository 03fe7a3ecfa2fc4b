/**
 * `npm run conform -- --base-url <console>`, run as the checking-a-console guide shows it: against our own mock
 * (which must conform fully: a test of the mock too), and against a stand-in console that drifts
 * one way per base URL, where it exits 1 and its JUnit report, read by a JUnit-shaped XML parser,
 * names the one failing check. A run that cannot be made exits 2 with one line, before any request
 * when it is the keys, the address or a report path. A console of our own, in this process, records
 * every Authorization header it gets, or never answers. No key of any fixture appears in any output
 * or report.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import {
	bin,
	childEnv,
	freePort,
	ROOT,
	start,
	waitForUrl,
	type Started,
} from '../../support/processes.ts';
import { startStandInConsole, type StandInConsole } from '../../support/stand-in-console.ts';
import { allNodes, parseMarkdown, textOf } from '../support/markdown.ts';

let views: ViewEntry[];
let mock: Started;
let mockUrl: string;
let standIn: StandInConsole;
let folder: string;
/** Everything every run printed or wrote, searched for keys at the end. */
const produced: string[] = [];

beforeAll(async () => {
	views = await loadViews(readSettings({}).viewsDir);
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-conform-'));
	const port = await freePort();
	mockUrl = `http://127.0.0.1:${port}`;
	mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(port) } });
	standIn = await startStandInConsole(views);
	await waitForUrl(`${mockUrl}/healthz`, mock);
}, 60_000);

afterAll(async () => {
	await mock?.stop();
	await standIn?.close();
	if (folder) await rm(folder, { recursive: true, force: true });
});

/** Runs `npm run conform -- <args>` with the given environment; resolves with its exit and output. */
function conform(
	args: readonly string[],
	env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
	return new Promise((resolve, reject) => {
		const child = spawn('npm', ['run', '--silent', 'conform', '--', ...args], {
			cwd: ROOT,
			env: childEnv({ CONFORM_KEYS: undefined, CONFORM_KEYS_FILE: undefined, ...env }),
		});
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		child.on('error', reject);
		child.on('close', (code) => {
			produced.push(stdout, stderr);
			resolve({ code, stdout, stderr });
		});
	});
}

/** A console of the test's own that records each request's Authorization header and when it came. */
interface RecordingConsole {
	url: string;
	/** The Authorization header of each request, in order; undefined when there was none. */
	authorizations: (string | undefined)[];
	/** When each request came, by performance.now(). */
	times: number[];
	close: () => Promise<void>;
}

/** Starts a recording console on 127.0.0.1 that answers every request with a 401, or never. */
async function recordingConsole(answers: 'unauthorized' | 'never'): Promise<RecordingConsole> {
	const authorizations: (string | undefined)[] = [];
	const times: number[] = [];
	const sockets = new Set<Socket>();
	const server = createServer((request, response: ServerResponse) => {
		authorizations.push(request.headers.authorization);
		times.push(performance.now());
		if (answers === 'never') return;
		response.writeHead(401, {
			'Content-Type': 'application/problem+json',
			'WWW-Authenticate': 'Bearer realm="console", error="invalid_token"',
		});
		response.end('{"type":"about:blank","title":"Unauthorized","status":401}');
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		authorizations,
		times,
		close: () =>
			new Promise((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			}),
	};
}

/** Synthetic keys no fixture holds, shaped as the portal's keys are. */
const SYNTHETIC = ['ick-7d2e4b90-Hs5n', 'ick-0b3d5e71-Lp2w', 'ick-9a8c7e6d-Zt4k'] as const;

/** A JUnit report as a CI reads it: well-formed XML, its suites, cases and failures. */
async function junitCases(file: string) {
	const text = await readFile(file, 'utf8');
	produced.push(text);
	expect(XMLValidator.validate(text)).toBe(true);
	const parsed = new XMLParser({
		ignoreAttributes: false,
		attributeNamePrefix: '',
		isArray: (name) => name === 'testcase',
	}).parse(text) as {
		testsuites: {
			tests: string;
			failures: string;
			testsuite: {
				testcase: {
					name: string;
					classname: string;
					failure?: { message: string; '#text': string };
				}[];
			};
		};
	};
	return parsed.testsuites;
}

/** The first user of the first view, named as the run names a key's holder. */
const first = () => {
	const entry = views[0]!;
	const user = entry.view.users[0]!;
	return { key: user.apiKey, holder: `${user.name} (${entry.slug})` };
};

describe('npm run conform against our own mock', () => {
	it('finds every check conforming and exits 0, with a JUnit report of no failure and a Markdown one', async () => {
		const keys = views.slice(0, 2).map(({ view }) => view.users[0]!.apiKey);
		const junit = path.join(folder, 'mock.xml');
		const markdown = path.join(folder, 'mock.md');
		const run = await conform(['--base-url', mockUrl, '--junit', junit, '--markdown', markdown], {
			CONFORM_KEYS: keys.join(','),
		});
		expect(run.stderr).toMatch(/^conform: 8 checks of http:\/\/127\.0\.0\.1:\d+ against /);
		expect(run.stdout).toContain(
			`The console at ${mockUrl} conforms to the contract: 8 of 8 checks pass.`,
		);
		expect(run.stdout).toMatch(/^Check +Expected +Got +Verdict$/m);
		expect(run.code).toBe(0);
		const suites = await junitCases(junit);
		expect(suites.tests).toBe('8');
		expect(suites.failures).toBe('0');
		expect(suites.testsuite.testcase.filter((test) => test.failure)).toEqual([]);
		const report = await readFile(markdown, 'utf8');
		produced.push(report);
		expect(report).toContain('| Check | Expected | Got | Verdict |');
		expect(report).toContain(`| GET /api/v2/users as ${first().holder} |`);
	});
});

describe('npm run conform against a mock on the 3.2 contract, which has QUERY', () => {
	const contract = path.join(ROOT, 'tests', 'fixtures', 'openapi-3-2', 'openapi.yaml');
	let on32: Started;
	let on32Url: string;

	beforeAll(async () => {
		const port = await freePort();
		on32Url = `http://127.0.0.1:${port}`;
		on32 = start(bin('node'), ['mock/cli.ts'], {
			env: { MOCK_PORT: String(port), MOCK_WORKERS: '1', PORTAL_OPENAPI: contract },
		});
		await waitForUrl(`${on32Url}/healthz`, on32);
	}, 60_000);

	afterAll(async () => {
		await on32?.stop();
	});

	it('sends a QUERY per key with the example filter, one asking for its JSON lines, and one without a key, each conforming, and exits 0', async () => {
		const keys = views.slice(0, 2).map(({ view }) => view.users[0]!.apiKey);
		const markdown = path.join(folder, 'query.md');
		const run = await conform(['--base-url', on32Url, '--markdown', markdown], {
			CONFORM_KEYS: keys.join(','),
			PORTAL_OPENAPI: contract,
		});
		expect(run.code, run.stdout + run.stderr).toBe(0);
		expect(run.stdout).toContain(
			`The console at ${on32Url} conforms to the contract: 13 of 13 checks pass.`,
		);
		const report = await readFile(markdown, 'utf8');
		produced.push(report);
		const holder = (index: number) => {
			const entry = views[index]!;
			return `${entry.view.users[0]!.name} (${entry.slug})`;
		};
		for (const index of [0, 1]) {
			expect(report).toContain(
				`| QUERY /api/v2/users with {"role":"admin"} as ${holder(index)} | 200, as the contract says | 200 application/json | conforms |`,
			);
			expect(report).toContain(
				`| QUERY /api/v2/users with {"role":"admin"} as ${holder(index)}, asking for application/jsonl | 200, as the contract says | 200 application/jsonl | conforms |`,
			);
			const streamRow = run.stdout
				.split('\n')
				.find((line) =>
					line.startsWith(
						`QUERY /api/v2/users with {"role":"admin"} as ${holder(index)}, asking for application/jsonl `,
					),
				);
			expect(streamRow?.split(/ {2,}/).slice(1)).toEqual([
				'200, as the contract says',
				'200 application/jsonl',
				'conforms',
			]);
		}
		expect(report).toContain(
			'| QUERY /api/v2/users with {"role":"admin"} without a key | 401, as the contract says | 401 application/problem+json | conforms |',
		);
	});

	it('sends no QUERY against the project’s own contract, which has none: the same six checks', async () => {
		const run = await conform(['--base-url', mockUrl], { CONFORM_KEYS: first().key });
		expect(run.code).toBe(0);
		expect(run.stdout).toContain('6 of 6 checks pass');
		expect(run.stdout).not.toContain('QUERY');
		expect(run.stdout).not.toContain('asking for');
	});
});

describe('npm run conform against a console that drifts', () => {
	/**
	 * One run against the stand-in whose roles leave the enum, writing both reports, which the two
	 * tests of it read (each report alone is written by the runs of other tests): started by the
	 * first test that asks.
	 */
	let roleRun:
		| Promise<{ run: Awaited<ReturnType<typeof conform>>; junit: string; markdown: string }>
		| undefined;
	const roleOutsideEnum = () =>
		(roleRun ??= (async () => {
			const junit = path.join(folder, 'role.xml');
			const markdown = path.join(folder, 'role.md');
			const run = await conform(
				[
					'--base-url',
					`${standIn.url}/role-outside-enum`,
					'--junit',
					junit,
					'--markdown',
					markdown,
				],
				{ CONFORM_KEYS: first().key },
			);
			return { run, junit, markdown };
		})());

	it('a conforming stand-in exits 0', async () => {
		const run = await conform(['--base-url', standIn.url], { CONFORM_KEYS: first().key });
		expect(run.code).toBe(0);
	});

	it('a role outside the enum: exits 1, and the JUnit report has that one failing case', async () => {
		const { run, junit } = await roleOutsideEnum();
		expect(run.code).toBe(1);
		expect(run.stdout).toContain('/users/3/role: must be one of admin, deployer, operator, viewer');
		const suites = await junitCases(junit);
		expect(suites.failures).toBe('1');
		const failing = suites.testsuite.testcase.filter((test) => test.failure);
		expect(failing.map(({ name }) => name)).toEqual([`GET /api/v2/users as ${first().holder}`]);
		expect(failing[0]?.failure?.['#text']).toBe(
			'/users/3/role: must be one of admin, deployer, operator, viewer',
		);
	});

	it('a role outside the enum: the Markdown report for a review names that check, the others conform', async () => {
		const { run, markdown: file } = await roleOutsideEnum();
		expect(run.code).toBe(1);
		const report = await readFile(file, 'utf8');
		produced.push(report);
		const { holder } = first();
		expect(report.replace(/Run \S+ against/, 'Run <date> against')).toBe(
			[
				`# Conformance of the console at ${standIn.url}`,
				'',
				`The console at ${standIn.url} does not conform to the contract: 1 of 6 checks fail. Run <date> against openapi.yaml.`,
				'',
				'| Check | Expected | Got | Verdict |',
				'| --- | --- | --- | --- |',
				`| GET /api/v2/users as ${holder} | 200, as the contract says | 200 application/json | **breaks**: /users/3/role: must be one of admin, deployer, operator, viewer |`,
				`| HEAD /api/v2/users as ${holder} | 200, no body, as the contract says | 200 application/json | conforms |`,
				'| OPTIONS /api/v2/users: a preflight from http://localhost:3000 | 204, as the contract says | 204 | conforms |',
				'| GET /api/v2/users without a key | 401, as the contract says | 401 application/problem+json | conforms |',
				'| GET /api/v2/users with a key of the wrong shape | 401, as the contract says | 401 application/problem+json | conforms |',
				'| GET /api/v2/users with a well-shaped key no directory holds | 401, as the contract says | 401 application/problem+json | conforms |',
				'',
			].join('\n'),
		);
		expect(Date.parse(/Run (\S+) against/.exec(report)?.[1] ?? '')).toBeGreaterThan(
			Date.now() - 60_000,
		);
		// As a reviewer's Markdown reader shows it: one table of six checks, four cells each.
		const tables = allNodes(parseMarkdown(report)).filter((node) => node.type === 'table');
		expect(tables).toHaveLength(1);
		const rows = (tables[0]?.children ?? []).map((row) => (row.children ?? []).map(textOf));
		expect(rows).toHaveLength(7);
		expect(rows.every((cells) => cells.length === 4)).toBe(true);
		expect(rows.slice(1).map((cells) => cells[3])).toEqual([
			'breaks: /users/3/role: must be one of admin, deployer, operator, viewer',
			...Array<string>(5).fill('conforms'),
		]);
	});

	it('401s without WWW-Authenticate: exits 1 naming each of the three 401 checks', async () => {
		const junit = path.join(folder, 'challenge.xml');
		const run = await conform(['--base-url', `${standIn.url}/no-challenge`, '--junit', junit], {
			CONFORM_KEYS: first().key,
		});
		expect(run.code).toBe(1);
		const failing = (await junitCases(junit)).testsuite.testcase.filter((test) => test.failure);
		expect(failing.map(({ name }) => name)).toEqual([
			'GET /api/v2/users without a key',
			'GET /api/v2/users with a key of the wrong shape',
			'GET /api/v2/users with a well-shaped key no directory holds',
		]);
		for (const test of failing) {
			expect(test.failure?.['#text']).toBe(
				"WWW-Authenticate: is required on the contract's 401 answer but missing",
			);
		}
	});

	it('a wrong media type: exits 1, naming it in the table', async () => {
		const run = await conform(['--base-url', `${standIn.url}/wrong-media-type`], {
			CONFORM_KEYS: first().key,
		});
		expect(run.code).toBe(1);
		expect(run.stdout).toContain(
			"The answer is text/plain; the contract's 200 answer is application/json.",
		);
	});
});

describe('npm run conform with keys from a file', () => {
	it('sends each key of a file of comments, blank lines and two keys a line as itself, and nothing else', async () => {
		const recorder = await recordingConsole('unauthorized');
		try {
			const file = path.join(folder, 'team.keys');
			await writeFile(
				file,
				[
					'# production keys, owned by the platform team',
					'',
					`${SYNTHETIC[0]}  # Amara`,
					`${SYNTHETIC[1]} ${SYNTHETIC[2]}`,
					'   ',
					`${SYNTHETIC[0]},# the same key again`,
					'',
				].join('\r\n'),
			);
			const run = await conform(['--base-url', recorder.url], { CONFORM_KEYS_FILE: file });
			expect(run.stderr).toMatch(/^conform: 10 checks of /);
			expect(run.code).toBe(1);
			const sent = [...new Set(recorder.authorizations)].sort();
			expect(sent).toEqual(
				[
					...SYNTHETIC.map((key) => `Bearer ${key}`),
					'Bearer ick-00000000-Zz00',
					'Bearer not-a-directory-key',
					undefined,
				].sort(),
			);
			for (const key of SYNTHETIC) {
				expect(recorder.authorizations.filter((header) => header === `Bearer ${key}`)).toHaveLength(
					2,
				);
			}
		} finally {
			await recorder.close();
		}
	});
});

describe('npm run conform against a console that never answers', () => {
	it('waits about one timeout in all, not one per check', async () => {
		const recorder = await recordingConsole('never');
		try {
			const timeoutMs = 2000;
			const run = await conform(['--base-url', recorder.url, '--timeout-ms', String(timeoutMs)], {
				CONFORM_KEYS: `${SYNTHETIC[0]},${SYNTHETIC[1]}`,
			});
			const ended = performance.now();
			expect(run.code).toBe(1);
			expect(run.stdout).toContain(
				`The console did not answer in time (within ${timeoutMs} ms). Raise --timeout-ms (CONFORM_TIMEOUT_MS), or find out why the console is slow.`,
			);
			expect(recorder.authorizations).toHaveLength(8);
			// From the first request the console got to the run's end: one timeout and the run's
			// own work, where checks in turn would take eight.
			expect(ended - recorder.times[0]!).toBeLessThan(1.8 * timeoutMs);
		} finally {
			await recorder.close();
		}
	}, 60_000);
});

describe('the command the checking-a-console guide shows', () => {
	it('is the one these tests run, with another base URL and the keys in CONFORM_KEYS', async () => {
		const guide = await readFile(path.join(ROOT, 'content/docs/checking-a-console.mdx'), 'utf8');
		expect(guide).toContain(
			'CONFORM_KEYS=<key>,<key> npm run conform -- --base-url https://console.intranet.example --junit conform.xml --markdown conform.md',
		);
		expect(guide).toContain('with its address, <MockAddress local />, as\nthe base URL');
	});
});

describe('a run that cannot be made', () => {
	it('exits 2 with one line: no keys, a key on the command line, a console that cannot be reached', async () => {
		const closed = await freePort();
		// The three runs side by side: each ends on its own, before any answer it could share.
		const [noKeys, onLine, gone] = await Promise.all([
			conform(['--base-url', mockUrl], {}),
			conform(['--base-url', mockUrl, '--key', 'x'], { CONFORM_KEYS: 'x' }),
			conform(['--base-url', `http://127.0.0.1:${closed}`], { CONFORM_KEYS: first().key }),
		]);
		expect(noKeys.code).toBe(2);
		expect(noKeys.stderr.trim()).toBe(
			'conform: no keys: set CONFORM_KEYS=<key>,<key> or CONFORM_KEYS_FILE=<file> (keys are never taken from the command line, where shell history and process lists keep them)',
		);
		expect(onLine.code).toBe(2);
		// The flag named, then the usage line; never the key.
		expect(onLine.stderr.trim().split('\n')).toEqual([
			'npm run conform: unknown flag --key',
			'Usage: npm run conform -- [flags]   (npm run conform -- --help lists them)',
		]);
		expect(gone.code).toBe(2);
		expect(gone.stderr).toContain(
			`conform: the console at http://127.0.0.1:${closed} cannot be reached (connect ECONNREFUSED`,
		);
		expect(gone.stderr).toContain(
			"Check the console's address given to --base-url (CONFORM_BASE_URL), its scheme (http: or https:) among it, and that the console is up.",
		);
	});

	it('a piece of the keys file that is not a key: exits 2 naming its line, sends nothing and shows no part of it', async () => {
		const recorder = await recordingConsole('unauthorized');
		try {
			const file = path.join(folder, 'bad-piece.keys');
			await writeFile(
				file,
				`# production keys\n${SYNTHETIC[0]}\n\n${SYNTHETIC[1]} owned-by-platform\n`,
			);
			const run = await conform(['--base-url', recorder.url], { CONFORM_KEYS_FILE: file });
			expect(run.code).toBe(2);
			expect(run.stderr.trim().split('\n')).toHaveLength(1);
			expect(run.stderr).toMatch(/^conform: CONFORM_KEYS_FILE .*line 4, piece 2: expected a key/);
			expect(run.stderr).not.toContain('owned');
			expect(run.stderr + run.stdout).not.toContain(SYNTHETIC[0]);
			const inline = await conform(['--base-url', recorder.url], {
				CONFORM_KEYS: `${SYNTHETIC[0]}, Amara-s-key`,
			});
			expect(inline.code).toBe(2);
			expect(inline.stderr).toMatch(/^conform: CONFORM_KEYS line 1, piece 2: expected a key/);
			expect(inline.stderr).not.toContain('Amara');
			expect(recorder.authorizations).toEqual([]);
		} finally {
			await recorder.close();
		}
	});

	it('a key written into the base URL as user-info: exits 2 with one line that does not show it', async () => {
		const recorder = await recordingConsole('unauthorized');
		try {
			const port = new URL(recorder.url).port;
			const run = await conform(
				['--base-url', `http://conform:${SYNTHETIC[2]}@127.0.0.1:${port}`],
				{
					CONFORM_KEYS: SYNTHETIC[0],
				},
			);
			expect(run.code).toBe(2);
			expect(run.stderr.trim().split('\n')).toHaveLength(1);
			expect(run.stderr).toContain('--base-url');
			expect(run.stderr + run.stdout).not.toContain(SYNTHETIC[2]);
			expect(run.stderr + run.stdout).not.toContain(SYNTHETIC[2].slice(4, 12));
			expect(recorder.authorizations).toEqual([]);
		} finally {
			await recorder.close();
		}
	});

	it('https: to a port that speaks plain HTTP: exits 2 with one line saying so', async () => {
		const recorder = await recordingConsole('unauthorized');
		try {
			const port = new URL(recorder.url).port;
			const run = await conform(['--base-url', `https://127.0.0.1:${port}`], {
				CONFORM_KEYS: SYNTHETIC[0],
			});
			expect(run.code).toBe(2);
			expect(run.stdout).toBe('');
			const lines = run.stderr.trim().split('\n');
			expect(lines).toHaveLength(2);
			expect(lines[1]).toBe(
				`conform: the console at https://127.0.0.1:${port} cannot be reached over TLS (wrong version number): does it speak plain http: there? Check the console's address given to --base-url (CONFORM_BASE_URL), its scheme (http: or https:) among it, and that the console is up.`,
			);
		} finally {
			await recorder.close();
		}
	});

	it('a report path that cannot be written: exits 2 naming it, before any request', async () => {
		const recorder = await recordingConsole('unauthorized');
		try {
			const junit = path.join(folder, 'no-such-folder', 'conform.xml');
			const run = await conform(['--base-url', recorder.url, '--junit', junit], {
				CONFORM_KEYS: SYNTHETIC[0],
			});
			expect(run.code).toBe(2);
			expect(run.stderr.trim()).toBe(`conform: --junit: ${junit} cannot be written (ENOENT)`);
			const markdown = await conform(['--base-url', recorder.url, '--markdown', folder], {
				CONFORM_KEYS: SYNTHETIC[0],
			});
			expect(markdown.code).toBe(2);
			expect(markdown.stderr.trim()).toBe(
				`conform: --markdown: ${folder} cannot be written (EISDIR)`,
			);
			expect(recorder.authorizations).toEqual([]);
		} finally {
			await recorder.close();
		}
	});

	it('prints and writes no key of any fixture in any output or report', () => {
		const all = produced.join('\n');
		expect(all).toContain('conform');
		for (const { view } of views) {
			expect(all).not.toContain(view.config.api_key);
			for (const user of view.users) expect(all).not.toContain(user.apiKey);
		}
	});
});
