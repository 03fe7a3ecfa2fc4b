import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadViews } from '../../src/sources/fixtures.ts';
import { copyFixtures } from '../../support/fixtures.ts';
import { newView } from '../support/fixture-edits.ts';
import {
	bin,
	childEnv,
	freePort,
	ROOT,
	start,
	waitForUrl,
	type Started,
} from '../../support/processes.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));
const started: Started[] = [];
const folders: string[] = [];

afterAll(async () => {
	await Promise.all(started.map((process) => process.stop()));
	await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A running `npm start`, its two addresses, and the view added to its fixtures before it started. */
interface SharedStart {
	app: Started;
	portal: string;
	mock: string;
	added: ReturnType<typeof newView>;
}

/** The start the first two tests share, one build instead of two: made on first use. */
let shared: Promise<SharedStart> | undefined;

/**
 * `npm start` on a copy of the fixtures with a view added before it started, once it serves both
 * the portal and the mock: the test of the added view reads it, then the test of Ctrl-C stops it.
 */
function sharedStart(): Promise<SharedStart> {
	shared ??= (async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-start-'));
		folders.push(folder);
		const viewsDir = path.join(folder, 'views');
		await copyFixtures(viewsDir);
		const [entry] = views;
		if (!entry) throw new Error('no views');
		const added = newView(entry.view, 7);
		await writeFile(path.join(viewsDir, 'qa-eu-west.json'), JSON.stringify(added, null, 2));
		const [portalPort, mockPort] = [await freePort(), await freePort()];
		const app = start(bin('node'), ['scripts/start.ts'], {
			env: {
				PORTAL_PORT: String(portalPort),
				MOCK_PORT: String(mockPort),
				PORTAL_VIEWS_DIR: viewsDir,
			},
		});
		started.push(app);
		const portal = `http://127.0.0.1:${String(portalPort)}`;
		await waitForUrl(`${portal}/`, app, 180_000);
		return { app, portal, mock: `http://127.0.0.1:${String(mockPort)}`, added };
	})();
	return shared;
}

/**
 * The line Astro prints as a build's last, read without its colours: Astro colours its output
 * wherever CI is set (picocolors), as it is in CI, and `[build]` and `Complete!` then have a colour
 * code between them.
 */
const BUILD_COMPLETE = '[build] Complete!';

/** Whether the process group led by `pid` still has a process in it. */
function groupAlive(pid: number): boolean {
	try {
		process.kill(-pid, 0);
		return true;
	} catch {
		// kill(0) throws only for a group with no process left (ESRCH) or none of ours.
		return false;
	}
}

/** A folder of guides whose one guide has no title, which the build refuses and the mock never reads. */
async function brokenDocs(): Promise<string> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-start-docs-'));
	await writeFile(path.join(folder, 'untitled.mdx'), '---\ndescription: No title\n---\n\nText.\n');
	return folder;
}

/** Whether anything answers HTTP at the URL right now. */
async function answers(url: string): Promise<boolean> {
	try {
		await fetch(url, { signal: AbortSignal.timeout(1000) });
		return true;
	} catch {
		// Refused, reset or timed out: nothing answers there now, which is the answer.
		return false;
	}
}

describe('npm start', () => {
	it('serves a fixture added before it started, page and keys, with no other command', async () => {
		const { portal, mock, added } = await sharedStart();
		const page = await fetch(`${portal}/views/qa-eu-west/`);
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('Quinn Example');
		const users = await fetch(`${mock}/api/v2/users`, {
			headers: { Authorization: `Bearer ${added.users[4]?.apiKey ?? ''}` },
		});
		expect(users.status).toBe(200);
		expect(await users.json()).toEqual({
			users: added.users.map(({ name, email, role }) => ({ name, email, role })),
		});
	}, 240_000);

	it('serves the portal and the mock together, prints both addresses and stops both on Ctrl-C', async () => {
		const { app, portal, mock } = await sharedStart();
		const deadline = Date.now() + 10_000;
		while (!app.output().includes('Press Ctrl-C') && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		expect(app.output()).toContain(`Portal  ${portal}/`);
		expect(app.output()).toContain(`Mock    ${mock}`);
		// The line the test below reads as the build's end.
		expect(stripVTControlCharacters(app.output())).toContain(BUILD_COMPLETE);

		const [entry] = views;
		if (!entry) throw new Error('no views');
		const page = await fetch(`${portal}/views/${entry.slug}/`);
		expect(page.status).toBe(200);
		const key = entry.view.users[0]?.apiKey ?? '';
		const users = await fetch(`${mock}/api/v2/users`, {
			headers: { Authorization: `Bearer ${key}` },
		});
		expect(users.status).toBe(200);
		expect(((await users.json()) as { users: unknown[] }).users).toHaveLength(8);

		app.child.kill('SIGINT');
		await new Promise<void>((resolve) => {
			if (app.child.exitCode !== null) resolve();
			else app.child.once('exit', () => resolve());
		});
		expect(app.child.exitCode).toBe(0);
		// The mock's request log, marked as the mock's among the portal's lines.
		expect(app.output()).toMatch(
			new RegExp(
				`^\\[mock\\] 20\\d\\d-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z GET /api/v2/users 200 \\d+\\.\\dms view=${entry.slug} user=`,
				'm',
			),
		);
		expect(await answers(`${portal}/`)).toBe(false);
		expect(await answers(`${mock}/`)).toBe(false);
	}, 240_000);

	it('answers a directory key while the portal still builds, and one Ctrl-C then stops the build and the mock', async () => {
		const [portalPort, mockPort] = [await freePort(), await freePort()];
		const app = start(bin('node'), ['scripts/start.ts'], {
			env: { PORTAL_PORT: String(portalPort), MOCK_PORT: String(mockPort) },
		});
		started.push(app);
		const [entry] = views;
		const key = entry?.view.users[0]?.apiKey;
		if (!entry || !key) throw new Error('no views');
		const mock = `http://127.0.0.1:${mockPort}`;
		let status = 0;
		const deadline = Date.now() + 180_000;
		while (status !== 200 && app.child.exitCode === null && Date.now() < deadline) {
			status = await fetch(`${mock}/api/v2/users`, {
				headers: { Authorization: `Bearer ${key}` },
				signal: AbortSignal.timeout(2000),
			}).then(
				(answer) => answer.status,
				() => 0,
			);
			if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 50));
		}
		expect(status).toBe(200);
		// The mock answered before the build ended: the portal is not served yet.
		expect(app.output()).toContain('Building the portal…');
		expect(stripVTControlCharacters(app.output())).not.toContain(BUILD_COMPLETE);
		expect(await answers(`http://127.0.0.1:${portalPort}/`)).toBe(false);

		app.child.kill('SIGINT');
		await new Promise<void>((resolve) => app.child.once('exit', () => resolve()));
		expect(app.child.exitCode).toBe(0);
		// Astro's build, in the same process group, stopped with it.
		expect(groupAlive(app.child.pid ?? 0)).toBe(false);
		expect(await answers(`${mock}/`)).toBe(false);
		expect(stripVTControlCharacters(app.output())).not.toContain(BUILD_COMPLETE);
		expect(app.output()).not.toContain('Console Portal is running');
	});

	it('stops the mock and exits 1, naming the build, when the build fails', async () => {
		const docs = await brokenDocs();
		try {
			const [portalPort, mockPort] = [await freePort(), await freePort()];
			const app = start(bin('node'), ['scripts/start.ts'], {
				env: {
					PORTAL_PORT: String(portalPort),
					MOCK_PORT: String(mockPort),
					PORTAL_DOCS_DIR: docs,
				},
			});
			started.push(app);
			await new Promise<void>((resolve) => {
				if (app.child.exitCode !== null) resolve();
				else app.child.once('exit', () => resolve());
			});
			expect(app.child.exitCode).toBe(1);
			expect(app.output()).toContain('untitled');
			expect(app.output()).toContain(
				'✖ The build failed; the messages above say which fixture or page.',
			);
			expect(groupAlive(app.child.pid ?? 0)).toBe(false);
			expect(await answers(`http://127.0.0.1:${mockPort}/`)).toBe(false);
			expect(await answers(`http://127.0.0.1:${portalPort}/`)).toBe(false);
		} finally {
			await rm(docs, { recursive: true, force: true });
		}
	});

	it('says which port is taken and how to choose another, without a stack trace', async () => {
		const blocker: Server = createServer();
		const port = await freePort();
		await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
		try {
			const result = spawnSync(bin('node'), ['scripts/start.ts'], {
				cwd: ROOT,
				env: childEnv({ PORTAL_PORT: String(await freePort()), MOCK_PORT: String(port) }),
				encoding: 'utf8',
				timeout: 60_000,
			});
			expect(result.status).toBe(1);
			expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
			expect(result.stderr).toContain('npm start -- --mock-port <port> (or MOCK_PORT=<port>)');
			expect(result.stderr).not.toMatch(/\n\s+at /);
		} finally {
			blocker.close();
		}
	});

	it('refuses a port that is not a number, naming the variable', () => {
		const result = spawnSync(bin('node'), ['scripts/start.ts'], {
			cwd: ROOT,
			env: childEnv({ PORTAL_PORT: 'eighty' }),
			encoding: 'utf8',
			timeout: 60_000,
		});
		expect(result.status).toBe(1);
		expect(result.stderr).toContain('PORTAL_PORT: expected a TCP port number from 1 to 65535');
	});
});
