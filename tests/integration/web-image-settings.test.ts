/**
 * One web image for every team: the pages are built once with stand-ins for PORTAL_URL and
 * PORTAL_MOCK_URL (as `npm run image` builds them), and the image's entry point, given a team's
 * addresses only at start, has nginx serve the bytes a build with that team's settings writes.
 * Run without an image: deploy/web-image/start.sh and Debian's nginx on loopback (support/web-image.ts).
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortalAsync, type BuildResult } from '../../support/build.ts';
import { freePort, waitForUrl, type Started } from '../../support/processes.ts';
import { STAND_IN_ADDRESSES } from '../../scripts/lib/images.ts';
import { nginxInstalled, startEntryPoint, webImageFolder } from '../../support/web-image.ts';

/** Two teams, each with its portal's and its mock's address (one with a port, one with a path). */
const TEAM_A = {
	PORTAL_URL: 'https://docs.team-a.example:8443',
	PORTAL_MOCK_URL: 'https://mock.team-a.example/v1',
};
const TEAM_B = {
	PORTAL_URL: 'https://portal.team-b.example',
	PORTAL_MOCK_URL: 'https://mock.team-b.example',
};

const work = path.join(os.tmpdir(), `console-portal-one-image-${process.pid}`);
const standInDir = path.join(work, 'stand-in');
const teamADir = path.join(work, 'team-a');
const started: Started[] = [];
/** The two `npm run build`s given disagreeing settings, made beside the first tests. */
let refusedBuilds: Promise<[BuildResult, BuildResult]> | undefined;
const folders: string[] = [work];

/** Runs the entry point over the stand-in build with these variables. */
async function startWeb(env: Record<string, string>): Promise<Started> {
	const { folder, script } = await webImageFolder(standInDir);
	folders.push(folder);
	const web = startEntryPoint(folder, script, env);
	started.push(web);
	return web;
}

/** The entry point serving the stand-in build as a team, on a free port; returns the port. */
async function servedAs(team: Record<string, string>): Promise<number> {
	const port = await freePort();
	const web = await startWeb({ PORTAL_PORT: String(port), ...team });
	await waitForUrl(`http://127.0.0.1:${port}/`, web);
	return port;
}

/**
 * How a run of the entry point ended: its exit code, once all it printed is read ('close', not
 * 'exit', after which the refusal's one line may still be unread). Asked for as soon as it starts.
 */
function closed(web: Started): Promise<number | null> {
	return new Promise((resolve) => web.child.once('close', resolve));
}

/** Every file of a build, relative to it. */
async function filesOf(folder: string): Promise<string[]> {
	const entries = await readdir(folder, { recursive: true, withFileTypes: true });
	return entries
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
}

/** A file as the entry point's nginx serves it, asked for under the team's portal name. */
async function served(port: number, file: string, host: string): Promise<Buffer> {
	const response = await fetch(`http://127.0.0.1:${port}/${file}`, { headers: { host } });
	expect(response.status, file).toBe(200);
	return Buffer.from(await response.arrayBuffer());
}

beforeAll(async () => {
	await nginxInstalled();
	const builds = await Promise.all([
		buildPortalAsync(standInDir, undefined, { ...STAND_IN_ADDRESSES }),
		buildPortalAsync(teamADir, undefined, TEAM_A),
	]);
	for (const build of builds) if (build.status !== 0) throw new Error(build.output);
	// The builds a later test expects refused: started now, while the tests of the entry point
	// (waiting on nginx's answers) run.
	refusedBuilds = Promise.all([
		buildPortalAsync(path.join(work, 'refused-hosts'), undefined, {
			...TEAM_A,
			PORTAL_ALLOWED_HOSTS: 'portal.team-b.example',
		}),
		buildPortalAsync(path.join(work, 'refused-mixed'), undefined, {
			PORTAL_URL: TEAM_B.PORTAL_URL,
			PORTAL_MOCK_URL: 'http://mock.team-b.example',
		}),
	]);
	refusedBuilds.catch(() => {
		// Awaited by the test that reads them, which fails with the reason.
	});
}, 600_000);

afterAll(async () => {
	// No build is left writing into a folder removed below.
	await Promise.allSettled([refusedBuilds]);
	await Promise.all(started.map((server) => server.stop()));
	await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
});

describe('one build, a team’s addresses given only at start', () => {
	it('serves every page, Markdown twin, llms.txt and contract byte for byte as a build with the team’s settings writes it', async () => {
		const port = await servedAs(TEAM_A);
		const host = new URL(TEAM_A.PORTAL_URL).host;
		// The search index too: it keeps the addresses out, so the stand-in build's is the team's.
		const files = await filesOf(teamADir);
		expect(files.length).toBeGreaterThan(100);
		expect(files.filter((file) => file.startsWith('pagefind/fragment/')).length).toBeGreaterThan(
			10,
		);
		const differing: string[] = [];
		// Eight files asked for at a time, as a browser asks for a page's.
		const queue = [...files];
		const compareNext = async (): Promise<void> => {
			for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
				const [answer, built] = await Promise.all([
					served(port, file, host),
					readFile(path.join(teamADir, file)),
				]);
				if (!answer.equals(built)) differing.push(file);
			}
		};
		await Promise.all(Array.from({ length: 8 }, compareNext));
		expect(differing.sort()).toEqual([]);
	});

	it('search results and their snippets never show the stand-in address, nor the team’s', async () => {
		const port = await servedAs(TEAM_B);
		const host = new URL(TEAM_B.PORTAL_URL).host;
		const index = (await filesOf(standInDir)).filter((file) =>
			/^pagefind\/(bundle-\d+\/)?(fragment|index)\//.test(file),
		);
		expect(index.length).toBeGreaterThan(10);
		const naming: string[] = [];
		for (const file of index) {
			// Pagefind's fragments and index chunks are gzip'd: a snippet is read as search reads it.
			const text = gunzipSync(await served(port, file, host)).toString('utf8');
			if (/console-portal\.invalid|console-portal-mock-base|team-b/.test(text)) naming.push(file);
		}
		expect(naming).toEqual([]);
	});

	it('run as a second team, names that team’s mock in pages, contract, llms.txt and CSP, and never the first team’s', async () => {
		const port = await servedAs(TEAM_B);
		const host = new URL(TEAM_B.PORTAL_URL).host;
		for (const file of [
			'views/production/index.html',
			'reference/index.html',
			'docs/authentication/index.html',
			'openapi.json',
			'llms.txt',
			'views/production.md',
		]) {
			const text = (await served(port, file, host)).toString('utf8');
			expect(text, file).toContain(TEAM_B.PORTAL_MOCK_URL);
			expect(text, file).not.toContain('team-a');
			expect(text, file).not.toContain('console-portal.invalid');
		}
		const page = (await served(port, 'views/production/index.html', host)).toString('utf8');
		expect(page).toContain(`connect-src 'self' ${TEAM_B.PORTAL_MOCK_URL} `);
		expect(page).toContain(`data-default-server="${TEAM_B.PORTAL_MOCK_URL}"`);
		const contract = JSON.parse((await served(port, 'openapi.json', host)).toString('utf8')) as {
			servers: { url: string }[];
		};
		expect(contract.servers.map((server) => server.url)).toContain(TEAM_B.PORTAL_MOCK_URL);
	});
});

describe('settings that disagree stop the start with one line naming both', () => {
	const refused = async (env: Record<string, string>): Promise<string> => {
		const web = await startWeb({ PORTAL_PORT: String(await freePort()), ...env });
		expect(await closed(web)).toBe(64);
		const lines = web.output().trimEnd().split('\n');
		expect(lines).toHaveLength(1);
		return lines[0] ?? '';
	};

	it('PORTAL_URL’s host left out of PORTAL_ALLOWED_HOSTS', async () => {
		expect(await refused({ ...TEAM_A, PORTAL_ALLOWED_HOSTS: 'portal.team-b.example' })).toBe(
			'console-portal-web: PORTAL_URL=https://docs.team-a.example:8443 names the host docs.team-a.example, which PORTAL_ALLOWED_HOSTS=portal.team-b.example leaves out: nginx would give readers of that address no answer',
		);
	});

	it('PORTAL_MOCK_URL=/ without MOCK_UPSTREAM', async () => {
		expect(await refused({ PORTAL_URL: TEAM_B.PORTAL_URL, PORTAL_MOCK_URL: '/' })).toBe(
			"console-portal-web: PORTAL_MOCK_URL=/ puts the mock on the portal's own origin (https://portal.team-b.example), but MOCK_UPSTREAM is not set: nginx would have no mock to send https://portal.team-b.example/api/v2/users to",
		);
	});

	it('an http mock for an https portal, which readers’ browsers block', async () => {
		expect(
			await refused({
				PORTAL_URL: TEAM_B.PORTAL_URL,
				PORTAL_MOCK_URL: 'http://mock.team-b.example',
			}),
		).toBe(
			"console-portal-web: PORTAL_MOCK_URL=http://mock.team-b.example is http, but PORTAL_URL=https://portal.team-b.example is https: readers' browsers block an https page's calls to an http mock",
		);
	});

	it('npm run build given the same disagreeing settings stops with the same kind of line', async () => {
		// The two builds side by side, each into a folder of its own, started once the others ended.
		if (!refusedBuilds) throw new Error('The refused builds were not started');
		const [build, mixed] = await refusedBuilds;
		expect(build.status).toBe(1);
		expect(build.output.trimEnd().split('\n')).toEqual([
			'PORTAL_URL=https://docs.team-a.example:8443 names the host docs.team-a.example, which PORTAL_ALLOWED_HOSTS=portal.team-b.example leaves out: readers of that address would get no answer',
		]);
		expect(mixed.status).toBe(1);
		expect(mixed.output.trimEnd().split('\n')).toEqual([
			"PORTAL_MOCK_URL=http://mock.team-b.example is http, but PORTAL_URL=https://portal.team-b.example is https: readers' browsers block an https page's calls to an http mock",
		]);
	}, 300_000);

	it('by default answers PORTAL_URL’s host, with no PORTAL_ALLOWED_HOSTS given', async () => {
		const port = await servedAs(TEAM_B);
		const response = await fetch(`http://127.0.0.1:${port}/`, {
			headers: { host: 'portal.team-b.example' },
		});
		expect(response.status).toBe(200);
	});
});
