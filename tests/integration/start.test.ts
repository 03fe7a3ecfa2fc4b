import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
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

afterAll(async () => {
	await Promise.all(started.map((process) => process.stop()));
});

/** Whether anything answers HTTP at the URL right now. */
async function answers(url: string): Promise<boolean> {
	try {
		await fetch(url, { signal: AbortSignal.timeout(1000) });
		return true;
	} catch {
		return false;
	}
}

describe('npm start', () => {
	it('serves the portal and the mock together, prints both addresses and stops both on Ctrl-C', async () => {
		const portalPort = await freePort();
		const mockPort = await freePort();
		const app = start(bin('node'), ['scripts/start.ts'], {
			env: { PORTAL_PORT: String(portalPort), MOCK_PORT: String(mockPort) },
		});
		started.push(app);
		const portal = `http://127.0.0.1:${portalPort}`;
		const mock = `http://127.0.0.1:${mockPort}`;
		await waitForUrl(`${portal}/`, app, 180_000);
		const deadline = Date.now() + 10_000;
		while (!app.output().includes('Press Ctrl-C') && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		expect(app.output()).toContain(`Portal  ${portal}/`);
		expect(app.output()).toContain(`Mock    ${mock}`);

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
		await new Promise<void>((resolve) => app.child.once('exit', () => resolve()));
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
	});

	it('serves a fixture added before it started, page and keys, with no other command', async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-start-'));
		try {
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
			const portal = `http://127.0.0.1:${portalPort}`;
			await waitForUrl(`${portal}/`, app, 180_000);
			const page = await fetch(`${portal}/views/qa-eu-west/`);
			expect(page.status).toBe(200);
			expect(await page.text()).toContain('Quinn Example');
			const users = await fetch(`http://127.0.0.1:${mockPort}/api/v2/users`, {
				headers: { Authorization: `Bearer ${added.users[4]?.apiKey ?? ''}` },
			});
			expect(users.status).toBe(200);
			expect(await users.json()).toEqual({
				users: added.users.map(({ name, email, role }) => ({ name, email, role })),
			});
			await app.stop();
		} finally {
			await rm(folder, { recursive: true, force: true });
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
			expect(result.stderr).toContain('MOCK_PORT=<port> npm start');
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
