/**
 * `npm run conform -- --base-url <console>`, run as the README shows it: against our own mock
 * (which must conform fully: a test of the mock too), and against a stand-in console that drifts
 * one way per base URL, where it exits 1 and its JUnit report, read by a JUnit-shaped XML parser,
 * names the one failing check. A run that cannot be made exits 2 with one line. No key of any
 * fixture appears in any output or report.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
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

describe('npm run conform against a console that drifts', () => {
	it('a conforming stand-in exits 0', async () => {
		const run = await conform(['--base-url', standIn.url], { CONFORM_KEYS: first().key });
		expect(run.code).toBe(0);
	});

	it('a role outside the enum: exits 1, and the JUnit report has that one failing case', async () => {
		const junit = path.join(folder, 'role.xml');
		const run = await conform(
			['--base-url', `${standIn.url}/role-outside-enum`, '--junit', junit],
			{
				CONFORM_KEYS: first().key,
			},
		);
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
		const file = path.join(folder, 'role.md');
		const run = await conform(
			['--base-url', `${standIn.url}/role-outside-enum`, '--markdown', file],
			{
				CONFORM_KEYS: first().key,
			},
		);
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

describe('the README’s command', () => {
	it('is the one these tests run, with another base URL and the keys in CONFORM_KEYS', async () => {
		const readme = await readFile(path.join(ROOT, 'README.md'), 'utf8');
		expect(readme).toContain(
			'CONFORM_KEYS=<key>,<key> npm run conform -- --base-url https://console.intranet.example --junit conform.xml --markdown conform.md',
		);
		expect(readme).toContain('`npm run conform -- --base-url http://127.0.0.1:4010`');
	});

	it('is the one the mock-server guide shows too', async () => {
		const guide = await readFile(path.join(ROOT, 'content/docs/mock-server.mdx'), 'utf8');
		expect(guide).toContain(
			'CONFORM_KEYS=<key>,<key> npm run conform -- --base-url https://console.intranet.example --junit conform.xml --markdown conform.md',
		);
		expect(guide).toContain('with its address, <MockAddress local />, as\nthe base URL');
	});
});

describe('a run that cannot be made', () => {
	it('exits 2 with one line: no keys, a key on the command line, a console that cannot be reached', async () => {
		const noKeys = await conform(['--base-url', mockUrl], {});
		expect(noKeys.code).toBe(2);
		expect(noKeys.stderr.trim()).toBe(
			'conform: no keys: set CONFORM_KEYS=<key>,<key> or CONFORM_KEYS_FILE=<file> (keys are never taken from the command line, where shell history and process lists keep them)',
		);
		const onLine = await conform(['--base-url', mockUrl, '--key', 'x'], { CONFORM_KEYS: 'x' });
		expect(onLine.code).toBe(2);
		expect(onLine.stderr.trim().split('\n')).toHaveLength(1);
		const closed = await freePort();
		const gone = await conform(['--base-url', `http://127.0.0.1:${closed}`], {
			CONFORM_KEYS: first().key,
		});
		expect(gone.code).toBe(2);
		expect(gone.stderr).toContain(
			`conform: the console at http://127.0.0.1:${closed} could not be reached (connect ECONNREFUSED`,
		);
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
