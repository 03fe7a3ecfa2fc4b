/**
 * Hostile entries in the views folder, met by the real build and the running mock: the build
 * ends, failing with one line per entry that names its path (printed so that no file name can
 * forge a line or colour the terminal), and the mock keeps its last good state through each
 * entry, then follows a good edit. The cases are those of a hostile-input run
 * (tests/support/hostile-fixtures.ts). A file made unreadable (chmod 000) is no case here: the
 * tests run as root, who reads it all the same.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { buildPortalAsync, type BuildResult } from '../../support/build.ts';
import { copyFixtures } from '../../support/fixtures.ts';
import { bin, freePort, start, waitForUrl, type Started } from '../../support/processes.ts';
import { newView, save } from '../support/fixture-edits.ts';
import {
	BYTE_ORDER_MARK,
	CONTENT_CASES,
	FILE_SYSTEM_CASES,
	HOSTILE_FIXTURES,
	problemLine,
	type HostileCase,
} from '../support/hostile-fixtures.ts';

/** A failing build stops while syncing content, in seconds; one that hangs is killed at this. */
const BUILD_TIMEOUT_MS = 120_000;

let scratch: string;
let views: ViewEntry[];

beforeAll(async () => {
	scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-hostile-'));
	views = await loadViews(readSettings({}).viewsDir);
});

afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

/** Builds the portal from a copy of the fixtures with the cases' entries beside them. */
async function buildWith(name: string, cases: readonly HostileCase[], extra: string[] = []) {
	const viewsDir = path.join(scratch, name, 'views');
	await copyFixtures(viewsDir);
	for (const file of extra)
		await copyFile(path.join(HOSTILE_FIXTURES, file), path.join(viewsDir, file));
	const undo = await Promise.all(cases.map((hostile) => hostile.make(viewsDir)));
	let result: BuildResult;
	try {
		result = await buildPortalAsync(
			path.join(scratch, name, 'dist'),
			viewsDir,
			{},
			BUILD_TIMEOUT_MS,
		);
	} finally {
		for (const done of undo) await done();
	}
	return { viewsDir, ...result };
}

/** The lines a build printed under its "Invalid view fixtures" heading, up to Astro's own. */
function problemLines(output: string): string[] {
	const lines = output.split('\n');
	const start = lines.findIndex((line) => line.startsWith('Invalid view fixtures ('));
	const after = lines.slice(start + 1);
	const end = after.findIndex((line) => !line.startsWith('  ') || line === '  Stack trace:');
	return after.slice(0, end < 0 ? after.length : end);
}

describe('the build, on a views folder with hostile entries', () => {
	/**
	 * One build of a views folder with every case's entry and the byte-order mark beside the
	 * fixtures, awaited by both tests: a refused build ends while syncing content, in one Astro
	 * start, which two builds (one per kind of case) spent twice. When it was started.
	 */
	let started: number;
	let build: ReturnType<typeof buildWith>;
	/** The problem lines the build should print, one per case: every case of both kinds. */
	const expectedLines = (viewsDir: string): string[] =>
		[...FILE_SYSTEM_CASES, ...CONTENT_CASES]
			.map((hostile) => problemLine(viewsDir, hostile))
			.sort();

	beforeAll(() => {
		started = Date.now();
		build = buildWith('hostile', [...FILE_SYSTEM_CASES, ...CONTENT_CASES], [BYTE_ORDER_MARK]);
		// Awaited by each test, and by afterAll before the scratch folder goes.
		build.catch(() => undefined);
	});

	afterAll(async () => {
		await Promise.allSettled([build]);
	});

	it(
		'ends, refusing each entry that is not a regular file inside the folder in one line',
		async () => {
			const { viewsDir, status, output } = await build;
			expect(status, output).not.toBeNull();
			expect(status).not.toBe(0);
			expect(Date.now() - started).toBeLessThan(BUILD_TIMEOUT_MS);
			expect(output).toContain(
				`Invalid view fixtures (${FILE_SYSTEM_CASES.length + CONTENT_CASES.length} problems):`,
			);
			const lines = problemLines(output);
			for (const hostile of FILE_SYSTEM_CASES) {
				expect(lines, hostile.name).toContain(problemLine(viewsDir, hostile));
			}
			expect(lines.sort()).toEqual(expectedLines(viewsDir));
			// No stack trace of a raw EISDIR, ELOOP or RangeError.
			expect(output).not.toMatch(/^\s+at /m);
		},
		BUILD_TIMEOUT_MS,
	);

	it(
		'refuses each fixture whose content or name is at fault in one line, and takes a byte-order mark',
		async () => {
			const { viewsDir, status, output } = await build;
			expect(status, output).not.toBeNull();
			expect(status).not.toBe(0);
			const lines = problemLines(output);
			for (const hostile of CONTENT_CASES) {
				expect(lines, hostile.name).toContain(problemLine(viewsDir, hostile));
			}
			expect(lines.sort()).toEqual(expectedLines(viewsDir));
			expect(output).not.toContain(BYTE_ORDER_MARK);
			// The file name with a line break forged no line, and the escape sequence reached no terminal.
			expect(output).not.toMatch(/^ {2}production\.json: name: forged\.json/m);
			expect(output).not.toContain('\u001b');
			expect(output).not.toMatch(/^\s+at /m);
		},
		BUILD_TIMEOUT_MS,
	);
});

describe('the running mock, as hostile entries come and go', () => {
	let folder: string;
	let viewsDir: string;
	let mock: Started;
	let base: string;

	/** The status the mock answers for a key. */
	const statusFor = async (key: string): Promise<number> =>
		(await fetch(`${base}/api/v2/users`, { headers: { Authorization: `Bearer ${key}` } })).status;

	/** Polls until `check` holds; fails with what the mock printed if it never does. */
	async function eventually(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
		const deadline = Date.now() + 15_000;
		while (!(await check())) {
			if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${mock.output()}`);
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	}

	beforeAll(async () => {
		folder = path.join(scratch, 'mock');
		viewsDir = path.join(folder, 'views');
		await copyFixtures(viewsDir);
		const contractFile = path.join(folder, 'openapi.yaml');
		await copyFile(readSettings({}).openApiFile, contractFile);
		const port = await freePort();
		base = `http://127.0.0.1:${port}`;
		mock = start(bin('node'), ['mock/cli.ts'], {
			env: {
				MOCK_PORT: String(port),
				PORTAL_VIEWS_DIR: viewsDir,
				PORTAL_OPENAPI: contractFile,
				MOCK_LOG: 'off',
			},
		});
		await waitForUrl(`${base}/api/v2/users`, mock);
	});

	afterAll(async () => {
		await mock?.stop();
	});

	let seed = 300;
	it.each([...FILE_SYSTEM_CASES, ...CONTENT_CASES])(
		'keeps its last good state through $name, and follows a good edit after it',
		async (hostile) => {
			const stable = views[0]?.view.users[0]?.apiKey ?? '';
			const mark = mock.output().length;
			const since = (): string => mock.output().slice(mark);
			const undo = await hostile.make(viewsDir);
			try {
				const line = problemLine(viewsDir, hostile);
				await eventually('the problem being reported', () => since().includes(`\n${line}`));
				expect(since()).toContain('Mock kept its last good state (8 views)');
				expect(since()).not.toContain('\u001b');
				expect(since()).not.toMatch(/^ {2}production\.json: name: forged\.json/m);
				expect(await statusFor(stable)).toBe(200);
			} finally {
				await undo();
				await rm(path.join(viewsDir, hostile.file), { recursive: true, force: true });
			}
			// A good edit afterwards is followed: the mock was neither stuck nor left behind.
			const template = views[0]?.view;
			if (!template) throw new Error('expected a fixture');
			seed += 1;
			const added = newView(template, seed);
			const key = added.users[0]?.apiKey ?? '';
			await save(path.join(viewsDir, 'qa-eu-west.json'), JSON.stringify(added));
			await eventually('the added view answering', async () => (await statusFor(key)) === 200);
			await rm(path.join(viewsDir, 'qa-eu-west.json'));
			await eventually('the removed view refusing', async () => (await statusFor(key)) === 401);
		},
	);

	it('answers the keys of a fixture that starts with a byte-order mark', async () => {
		const text = await readFile(path.join(HOSTILE_FIXTURES, BYTE_ORDER_MARK), 'utf8');
		const key = /"apiKey": "([^"]+)"/.exec(text)?.[1] ?? '';
		expect(await statusFor(key)).toBe(401);
		await copyFile(
			path.join(HOSTILE_FIXTURES, BYTE_ORDER_MARK),
			path.join(viewsDir, BYTE_ORDER_MARK),
		);
		await eventually('the view answering', async () => (await statusFor(key)) === 200);
		await rm(path.join(viewsDir, BYTE_ORDER_MARK));
		await eventually('the view refusing', async () => (await statusFor(key)) === 401);
	});
});
