/**
 * The live mock, as a developer meets it while editing fixtures: a real `mock/cli.ts` process
 * on a temporary copy of the fixtures and the contract, which the test edits as an editor would.
 * Added, changed, broken, mended and removed views are answered as such with no restart, and a
 * broken edit never takes the last good state away.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import type { View } from '../../src/schemas/view.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { copyFixtures } from '../../support/fixtures.ts';
import { newView, save } from '../support/fixture-edits.ts';
import {
	bin,
	childEnv,
	freePort,
	ROOT,
	start,
	waitForUrl,
	type Started,
} from '../../support/processes.ts';

const USERS = '/api/v2/users';

let folder: string;
let viewsDir: string;
let contractFile: string;
let mock: Started;
let base: string;
let views: ViewEntry[];

/** The status and body the mock answers for a key. */
async function usersFor(key: string): Promise<{ status: number; body: unknown }> {
	const response = await fetch(`${base}${USERS}`, { headers: { Authorization: `Bearer ${key}` } });
	const text = await response.text();
	return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Polls until `check` holds; fails with what the mock printed if it never does. */
async function eventually(what: string, check: () => Promise<boolean> | boolean): Promise<void> {
	const deadline = Date.now() + 15_000;
	while (!(await check())) {
		if (Date.now() > deadline) throw new Error(`${what} did not happen:\n${mock.output()}`);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** The users a view's directory lists, as the API returns them. */
const listed = (view: View) => ({
	users: view.users.map(({ name, email, role }) => ({ name, email, role })),
});

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-live-'));
	viewsDir = path.join(folder, 'views');
	contractFile = path.join(folder, 'openapi.yaml');
	await copyFixtures(viewsDir);
	await copyFile(readSettings({}).openApiFile, contractFile);
	views = await loadViews(viewsDir);
	const port = await freePort();
	base = `http://127.0.0.1:${port}`;
	mock = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(port), PORTAL_VIEWS_DIR: viewsDir, PORTAL_OPENAPI: contractFile },
	});
	await waitForUrl(`${base}${USERS}`, mock);
});

afterAll(async () => {
	await mock?.stop();
	await rm(folder, { recursive: true, force: true });
});

describe('the mock follows edits to the fixtures, with no restart', () => {
	const file = (): string => path.join(viewsDir, 'qa-eu-west.json');
	const stable = (): string => views[0]?.view.users[0]?.apiKey ?? '';
	const template = (): View => {
		const view = views[0]?.view;
		if (!view) throw new Error('expected a fixture');
		return view;
	};

	it('answers the keys of a view added while it runs', async () => {
		const added = newView(template(), 1);
		const key = added.users[2]?.apiKey ?? '';
		expect((await usersFor(key)).status).toBe(401);
		await save(file(), JSON.stringify(added, null, 2));
		await eventually('the added view answering', async () => (await usersFor(key)).status === 200);
		expect((await usersFor(key)).body).toEqual(listed(added));
		// The answer can come before the message that the mock reloaded reaches this process's pipe.
		await eventually('the reload being reported', () =>
			/Mock reloaded: 9 views \(added qa-eu-west\)\./.test(mock.output()),
		);
	});

	it('reports a broken fixture with its file and field, and keeps answering every view', async () => {
		const good = newView(template(), 1);
		const broken = {
			...good,
			users: good.users.map((user, index) => (index === 3 ? { ...user, apiKey: 'nope' } : user)),
		};
		await save(file(), JSON.stringify(broken, null, 2));
		// The folder is outside the working folder, so the message names it in full.
		const message = `${file()}: users[3].apiKey: expected a key shaped ick-<8 lowercase hex>-<4 letters or digits>, e.g. ick-4f1c9a07-Qx7m`;
		await eventually('the problem being reported', () => mock.output().includes(message));
		expect(mock.output()).toContain('Mock kept its last good state (9 views)');
		// The last good state: the view as it was before the broken edit, every other view too.
		expect(await usersFor(good.users[3]?.apiKey ?? '')).toEqual({
			status: 200,
			body: listed(good),
		});
		expect((await usersFor(stable())).status).toBe(200);
	});

	it('picks the fixture up once it is mended', async () => {
		const mended = newView(template(), 1, 'Quinn Mended');
		await save(file(), JSON.stringify(mended, null, 2));
		const key = mended.users[0]?.apiKey ?? '';
		await eventually('the mended view answering', async () => {
			const { body } = await usersFor(key);
			return JSON.stringify(body).includes('Quinn Mended');
		});
		expect(await usersFor(key)).toEqual({ status: 200, body: listed(mended) });
	});

	it('answers a removed view’s keys with 401', async () => {
		const key = newView(template(), 1).users[0]?.apiKey ?? '';
		await rm(file());
		await eventually('the removed view refusing', async () => (await usersFor(key)).status === 401);
		// The answer can come before the message that the mock reloaded reaches this process's pipe.
		await eventually('the reload being reported', () =>
			/Mock reloaded: 8 views \(removed qa-eu-west\)\./.test(mock.output()),
		);
		expect((await usersFor(stable())).status).toBe(200);
	});

	it('drops no request while fixtures are rewritten, broken and mended', async () => {
		const key = stable();
		const expected = listed(template());
		let running = true;
		const answers: number[] = [];
		const load = (async () => {
			while (running) {
				const { status, body } = await usersFor(key);
				answers.push(
					status === 200 && JSON.stringify(body) === JSON.stringify(expected) ? 200 : status,
				);
			}
		})();
		for (let round = 0; round < 6; round += 1) {
			const text =
				round % 2 === 0
					? '{ "environment": '
					: JSON.stringify(newView(template(), 2 + round), null, 2);
			await save(file(), text);
			await new Promise((resolve) => setTimeout(resolve, 300));
		}
		running = false;
		await load;
		await rm(file(), { force: true });
		expect(answers.length).toBeGreaterThan(20);
		expect(answers.filter((status) => status !== 200)).toEqual([]);
	});
});

describe('the mock follows its fixture folder when the folder itself is replaced', () => {
	it('answers from the new folder once it is back, as after a branch switch', async () => {
		const key = views[0]?.view.users[1]?.apiKey ?? '';
		const aside = `${viewsDir}-aside`;
		await rename(viewsDir, aside);
		await eventually('the missing folder being reported', () =>
			mock.output().includes('this edit could not be loaded'),
		);
		expect((await usersFor(key)).status).toBe(200);
		await rename(aside, viewsDir);
		// An edit in the folder that came back is seen: its watcher was set up again.
		const template = views[0]?.view;
		if (!template) throw new Error('expected a fixture');
		const added = newView(template, 40);
		await save(path.join(viewsDir, 'qa-eu-west.json'), JSON.stringify(added, null, 2));
		const addedKey = added.users[0]?.apiKey ?? '';
		await eventually(
			'the view added in the returned folder answering',
			async () => (await usersFor(addedKey)).status === 200,
		);
		await rm(path.join(viewsDir, 'qa-eu-west.json'));
		await eventually(
			'the removed view refusing',
			async () => (await usersFor(addedKey)).status === 401,
		);
	});
});

describe('the mock follows edits to the contract', () => {
	it('reports a contract that does not parse, keeps the last good one, and takes the mended one', async () => {
		const original = await readFile(contractFile, 'utf8');
		const key = views[1]?.view.users[0]?.apiKey ?? '';
		await save(contractFile, `${original}\npaths: [\n`);
		await eventually('the contract problem being reported', () =>
			/openapi\.yaml: expected valid YAML \(/.test(mock.output()),
		);
		expect((await usersFor(key)).status).toBe(200);

		// Asked before the edit, so a kept answer that outlived the contract would show.
		await expect((await fetch(`${base}/nowhere`)).text()).resolves.toContain(
			'The contract has one path, GET /api/v2/users.',
		);
		const changed = original.replace(
			'detail: The contract has one path, GET /api/v2/users.',
			'detail: This path is not in the edited contract.',
		);
		expect(changed).not.toBe(original);
		await save(contractFile, changed);
		await eventually('the edited contract answering', async () => {
			const response = await fetch(`${base}/nowhere`);
			return (await response.text()).includes('This path is not in the edited contract.');
		});
		expect((await usersFor(key)).status).toBe(200);
	});

	it('names the missing operation when the contract loses it, and keeps answering', async () => {
		const original = await readFile(contractFile, 'utf8');
		const key = views[1]?.view.users[0]?.apiKey ?? '';
		await save(contractFile, original.replace('  /api/v2/users:\n', '  /api/v2/people:\n'));
		await eventually('the missing operation being reported', () =>
			/openapi\.yaml: paths\.\/api\/v2\/users: expected a mapping/.test(mock.output()),
		);
		expect((await usersFor(key)).status).toBe(200);
		await save(contractFile, original);
	});

	it('answers 500 with a one-line problem when Prism cannot make an answer, and goes on', async () => {
		const original = await readFile(contractFile, 'utf8');
		const key = views[1]?.view.users[0]?.apiKey ?? '';
		// A valid pattern (a lookbehind) that Prism's data generator cannot produce, in place of the
		// name's faker hint, so the generator must use it.
		const changed = original.replace(
			'          x-faker: name.findName\n',
			"          pattern: '(?<=a)b'\n",
		);
		expect(changed).not.toBe(original);
		await save(contractFile, changed);
		const dynamic = () =>
			fetch(`${base}${USERS}`, {
				headers: { Authorization: `Bearer ${key}`, Prefer: 'dynamic=true' },
			});
		// A generated body may hold no users, and so no name to generate: the test asks until one fails.
		const seen: { response?: Response } = {};
		await eventually('the edited contract failing a dynamic answer', async () => {
			seen.response = await dynamic();
			return seen.response.status === 500;
		});
		const { response } = seen;
		if (!response) throw new Error('expected an answer');
		expect(response.headers.get('content-type')).toBe('application/problem+json');
		expect(await response.json()).toEqual({
			type: 'https://portal.example/problems/mock-failure',
			title: 'The mock failed',
			status: 500,
			detail:
				"The mock could not answer this request: SyntaxError: Invalid regular expression: /(?<=a)b/: Invalid group, character '<' after '?' at column 2. Its terminal shows the whole error.",
		});
		// The log line reaches the test's pipe a moment after the answer.
		await eventually('the failure being logged with its whole error', () =>
			/ GET \/api\/v2\/users 500 [\d.]+ms view=\S+ user="[^"]+" role=\w+ controls="Prefer: dynamic=true" failed="SyntaxError: Invalid regular expression: [^\n]+"\n {2}SyntaxError: .*\n +at /.test(
				mock.output(),
			),
		);
		// The failure is not kept: the same key without the control still gets its users.
		expect(await usersFor(key)).toEqual({ status: 200, body: listed(views[1]!.view) });
		await save(contractFile, original);
	});

	it('keeps running when the contract spells a header Node cannot send: a 500 each time', async () => {
		const original = await readFile(contractFile, 'utf8');
		const key = views[1]?.view.users[0]?.apiKey ?? '';
		// YAML's "\n" is a line break in the challenge, which no HTTP header may hold.
		const changed = original.replace(
			'              value: Bearer realm="console"\n',
			'              value: "Bearer realm=\\"console\\"\\nX"\n',
		);
		expect(changed).not.toBe(original);
		await save(contractFile, changed);
		const detail =
			'The mock could not answer this request: Invalid character in header content ["WWW-Authenticate"]. Its terminal shows the whole error.';
		await eventually('the edited contract failing the challenge', async () => {
			const response = await fetch(`${base}${USERS}`);
			return response.status === 500 && JSON.stringify(await response.json()).includes('WWW-Auth');
		});
		// Asked again, the same request gets the same 500 rather than a kept answer Node cannot write.
		for (let round = 0; round < 3; round += 1) {
			const response = await fetch(`${base}${USERS}`);
			expect(response.status).toBe(500);
			expect(await response.json()).toMatchObject({ status: 500, detail });
		}
		expect(await usersFor(key)).toEqual({ status: 200, body: listed(views[1]!.view) });
		await save(contractFile, original);
	});
});

describe('MOCK_LOG=off', () => {
	it('silences the request log, and only it', async () => {
		const port = await freePort();
		const quiet = start(bin('node'), ['mock/cli.ts'], {
			env: { MOCK_PORT: String(port), MOCK_LOG: 'off' },
		});
		try {
			await waitForUrl(`http://127.0.0.1:${port}${USERS}`, quiet);
			await fetch(`http://127.0.0.1:${port}${USERS}`);
			await new Promise((resolve) => setTimeout(resolve, 200));
			expect(quiet.output()).toContain(`Mock listening on http://127.0.0.1:${port}`);
			expect(quiet.output()).not.toMatch(/ GET \/api\/v2\/users \d{3} /);
		} finally {
			await quiet.stop();
		}
	});
});

describe('the request log', () => {
	it('never holds up answers while the terminal is slow, and writes every line before it exits', async () => {
		const port = await freePort();
		const url = `http://127.0.0.1:${port}${USERS}`;
		// Standard output is a pipe nobody reads until the mock is told to stop, as a paused pager
		// would be: its buffer (about 200 KiB) fills with the first 700 or so of the lines.
		const child = spawn(bin('node'), ['mock/cli.ts'], {
			cwd: ROOT,
			env: childEnv({ MOCK_PORT: String(port) }),
			detached: true,
			stdio: ['ignore', 'pipe', 'ignore'],
		});
		const pid = child.pid ?? 0;
		const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
		try {
			await waitForUrl(url);
			const key = views[0]?.view.users[0]?.apiKey ?? '';
			const statuses: number[] = [];
			for (let batch = 0; batch < 20; batch += 1) {
				const answers = await Promise.all(
					Array.from({ length: 50 }, (_, index) =>
						fetch(`${url}?n=${batch * 50 + index}&${'pad'.repeat(50)}`, {
							headers: { Authorization: `Bearer ${key}` },
						}),
					),
				);
				statuses.push(...answers.map(({ status }) => status));
			}
			expect(statuses).toEqual(Array(1000).fill(200));
			process.kill(-pid, 'SIGTERM');
			let output = '';
			child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
			expect(await exited).toBe(0);
			const logged = output.match(/ GET \/api\/v2\/users\?n=\d+&(?:pad){50} 200 /g) ?? [];
			expect(logged).toHaveLength(1000);
		} finally {
			if (child.exitCode === null && child.signalCode === null) process.kill(-pid, 'SIGKILL');
		}
	});
});
