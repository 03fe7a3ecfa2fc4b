/**
 * The two images, built as `npm run image -- --local-base` builds them (buildah, on the Debian
 * base made here with mmdebstrap), then run as this machine can run them: `buildah run --isolation
 * chroot`, which shares the host's network, so each server listens on a free loopback port. Needs
 * root and Debian's buildah and mmdebstrap, as CI has (.ci/run installs them). The base is made
 * once a day and kept. The file owns what it makes: its images are named under a prefix of its own
 * (process id and random), and those names, the layers only they hold and the containers it made
 * are removed afterwards, whatever happened, so it passes whatever else the store holds (the
 * images of an earlier `npm run image`, another test's) and leaves nothing of its own behind.
 *
 * The web image holds the portal built for a team's same-origin deployment (PORTAL_MOCK_URL=/):
 * the last part runs both images as a team does, the web image proxying the mock's path to the
 * mock image, and reads the portal in Chromium under its intranet name (issue 32).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	buildImage,
	checkTools,
	command,
	ensureLocalBase,
	imageExists,
	listImages,
	LOCAL_BASE,
	measureImage,
	MOCK_BUNDLE,
	prepareContext,
	sourceFacts,
	type BuildRequest,
	type ImageFacts,
	type ImageKind,
	type SourceFacts,
} from '../../scripts/lib/images.ts';
import { TIMEOUT_MS } from '../../src/client/try-it/exchange.ts';
import { exampleUser, viewName } from '../../src/shared/views.ts';
import { loadViews } from '../../src/sources/fixtures.ts';
import { launchChromium } from '../../support/browser.ts';
import { buildPortalAsync } from '../../support/build.ts';
import { freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';
import { BUILT_AT_EPOCH } from '../global-setup.ts';
import { raw } from '../support/raw-http.ts';

/** The source the images are labelled with in these tests. */
const SOURCE = 'https://git.example/console-portal';

/** The name a team's readers reach the portal under; Chromium and curl map it to 127.0.0.1. */
const TEAM_HOST = 'portal.intranet.example';
/** The port the web image serves the team's portal on in the last part, known to its build. */
let teamPort: number;
/** The portal the web image holds: built for the mock on its own origin (PORTAL_MOCK_URL=/). */
let distDir: string;
/** The user both images run as. */
const IMAGE_UID = '10001';
/** A name an operator serves each image under, added through its *_ALLOWED_HOSTS variable. */
const SERVICE_NAME = { web: 'console-portal-web.team.svc', mock: 'console-portal-mock.team.svc' };

let work: string;
/** The files `npm run image` builds both images from; the web image is built from these. */
let context: string;
/** The same files without the portal's pages, which the mock image does not hold. */
let mockContext: string;
let facts: SourceFacts;
/** Image ids in local storage once the base was there, before this file built anything. */
let before = new Set<string>();

/**
 * What another `npm run image` of the same files was labelled with: another source, commit, version
 * and day. It is built once the web image's two builds are in the store, whose steps a layer cache
 * keyed on the instructions alone would hand it, with their labels.
 */
const ANOTHER = (now: SourceFacts): SourceFacts => ({
	source: 'https://git.example/another-source',
	revision: '0'.repeat(40),
	version: '0.0.0-another',
	epoch: now.epoch - 86_400,
	dirty: false,
});
/** The repository part of every name this file gives an image: its own, in any store. */
const PREFIX = `localhost/console-portal-test-${process.pid}-${randomBytes(4).toString('hex')}`;
const tags = {
	web: `${PREFIX}/console-portal-web:test`,
	mock: `${PREFIX}/console-portal-mock:test`,
};
/** The name of the web image built with ANOTHER's labels. */
const anotherTag = `${PREFIX}/another:web`;
/** That build, made while the tests run; the labels test waits for it. */
let anotherBuilt: Promise<string> | undefined;
/** Every name this file gave an image, removed afterwards. */
const named = new Set<string>();
/** The ids of the images (steps included) this file's builds committed, as buildah printed them. */
const committed = new Set<string>();
/** Working containers made by this file, removed afterwards. */
const containers: string[] = [];
/** Seconds each step took, for the closing note. */
const timings: Record<string, number> = {};

/** Every image id in local storage, intermediate ones included. */
async function imageIds(): Promise<Set<string>> {
	const text = await listImages(['--quiet', '--no-trunc']);
	return new Set(text.split('\n').filter((line) => line !== ''));
}

/** Every working container's id in local storage. */
async function containerIds(): Promise<Set<string>> {
	const text = await command('buildah', ['containers', '--all', '--quiet', '--notruncate']);
	return new Set(text.split('\n').filter((line) => line !== ''));
}

/** Builds one image under this file's names, keeping the ids of the steps it commits. */
async function buildOwn(request: Omit<BuildRequest, 'base'>): Promise<string> {
	for (const tag of request.tags) named.add(tag);
	let output = '';
	try {
		return await buildImage({ ...request, base: LOCAL_BASE }, (text) => (output += text));
	} finally {
		for (const [, step] of output.matchAll(/^--> (?:Using cache )?([0-9a-f]{11,64})\b/gm)) {
			if (step) committed.add(step);
		}
	}
}

/** The images this file's builds committed that are still in the store and were not before. */
async function ownImages(): Promise<string[]> {
	const ids = await imageIds();
	return [...ids].filter(
		(id) =>
			!before.has(id) && [...committed].some((step) => id.replace('sha256:', '').startsWith(step)),
	);
}

/**
 * Removes this file's containers, its names (buildah removes with a name the steps only that image
 * held) and the steps of its builds no name holds (the mock's first stage). Returns what of its own
 * is still there: names, images and containers.
 */
async function removeOwn(): Promise<string[]> {
	for (const container of containers) {
		await command('buildah', ['rm', container]).catch(() => '');
	}
	for (const tag of named) {
		if (await imageExists(tag)) await command('buildah', ['rmi', tag]).catch(() => '');
	}
	// A step whose child is a step of this file too goes once the child has gone.
	for (let pass = 0; pass < 5; pass += 1) {
		const left = await ownImages();
		if (left.length === 0) break;
		for (const id of left) await command('buildah', ['rmi', id]).catch(() => '');
	}
	const left: string[] = [];
	for (const tag of named) if (await imageExists(tag)) left.push(tag);
	left.push(...(await ownImages()));
	const running = await containerIds();
	for (const container of containers) if (running.has(container)) left.push(container);
	return left;
}

/**
 * Each image as a registry would hold it (measureImage), twice: the first build, measured as soon
 * as it is there, and its second build from the same files and labels (the reproducibility test),
 * started then too and measured once it is there. Both go on while the tests run; the
 * reproducibility test compares them.
 */
const measured: Partial<Record<ImageKind, Promise<[ImageFacts, ImageFacts]>>> = {};

/**
 * Measures `kind`'s first build now and starts building it again from the files in `from`, under a
 * name of its own, then measures that too. Returns the second build.
 */
function measureAndRebuild(kind: ImageKind, from: string): Promise<string> {
	const again = `${tags[kind]}-again`;
	const rebuilt = timed(`rebuild ${kind}`, () =>
		buildOwn({ kind, context: from, facts, tags: [again] }),
	);
	const both = Promise.all([
		timed(`measure ${kind}`, () => measureImage(tags[kind])),
		rebuilt.then(() => timed(`measure ${kind} again`, () => measureImage(again))),
	]);
	both.catch(() => {
		// Awaited by the reproducibility test, which fails with the reason.
	});
	measured[kind] = both;
	return rebuilt;
}

/** Runs a step and keeps how long it took. */
async function timed<T>(name: string, step: () => Promise<T>): Promise<T> {
	const started = performance.now();
	const result = await step();
	timings[name] = Math.round((performance.now() - started) / 100) / 10;
	return result;
}

beforeAll(async () => {
	if (process.getuid?.() !== 0) {
		throw new Error(
			'The image tests build and run images with buildah as root, as CI does: run them as root',
		);
	}
	await checkTools();
	work = await mkdtemp(path.join(os.tmpdir(), 'console-portal-images-'));
	context = path.join(work, 'context');
	mockContext = path.join(work, 'mock-context');
	// The source label comes from IMAGE_SOURCE, else package.json or git's origin, which a clone
	// may lack (a repository made with git init has no origin): name it, and check it is used.
	const source = process.env['IMAGE_SOURCE'];
	process.env['IMAGE_SOURCE'] = SOURCE;
	try {
		facts = await sourceFacts();
	} finally {
		if (source === undefined) delete process.env['IMAGE_SOURCE'];
		else process.env['IMAGE_SOURCE'] = source;
	}
	await timed('local base', () => ensureLocalBase(() => undefined));
	before = await imageIds();
	teamPort = await freePort();
	distDir = path.join(work, 'dist');
	// The mock image holds no page: its context (the same files, with no build in dist/) is made
	// and built at once, beside the portal's build, and built again for the reproducibility test
	// while the tests below run. The web image's builds follow the portal's build: the tests start
	// once the first build of each image is there.
	const mockContextReady = (async () => {
		const emptyDist = path.join(work, 'no-pages');
		await mkdir(emptyDist);
		await timed('mock context', () => prepareContext(mockContext, emptyDist));
	})();
	const mockChain = (async () => {
		await mockContextReady;
		await timed('build mock', () =>
			buildOwn({ kind: 'mock', context: mockContext, facts, tags: [tags.mock] }),
		);
		// The second build is awaited through its measure, by the reproducibility test.
		void measureAndRebuild('mock', mockContext);
	})();
	const webChain = (async () => {
		const built = await timed('portal (PORTAL_MOCK_URL=/)', () =>
			buildPortalAsync(distDir, undefined, {
				PORTAL_MOCK_URL: '/',
				PORTAL_URL: `http://${TEAM_HOST}:${teamPort}`,
				SOURCE_DATE_EPOCH: String(BUILT_AT_EPOCH),
			}),
		);
		if (built.status !== 0) throw new Error(`The portal build failed:\n${built.output}`);
		// The mock's bundle is the one its context holds: bundled once, from the same source.
		await mockContextReady;
		await timed('context', () =>
			prepareContext(context, distDir, undefined, path.join(mockContext, MOCK_BUNDLE)),
		);
		await timed('build web', () => buildOwn({ kind: 'web', context, facts, tags: [tags.web] }));
		// Then, while the tests run: the web image built again (the reproducibility test), and
		// after it the same files built with another source's labels, as another `npm run image`
		// on this machine would build them (the labels test).
		anotherBuilt = measureAndRebuild('web', context).then(() =>
			timed('build web (another npm run image)', () =>
				buildOwn({ kind: 'web', context, facts: ANOTHER(facts), tags: [anotherTag] }),
			),
		);
		anotherBuilt.catch(() => {
			// Awaited by the labels test, which fails with the reason.
		});
	})();
	// The tests start once both first builds are there; the reproducibility test waits for the
	// second ones. Both chains end before a failure is thrown, so that none builds on afterwards.
	for (const chain of await Promise.allSettled([mockChain, webChain])) {
		if (chain.status === 'rejected') throw chain.reason;
	}
}, 1_200_000);

afterAll(async () => {
	// No build or measure of this file is left running when its images are removed.
	await Promise.allSettled([...Object.values(measured), anotherBuilt]);
	// Everything this file made goes, whatever happened; the base stays, made once a day.
	const left = await removeOwn();
	if (left.length > 0) console.error(`The image test could not remove: ${left.join(', ')}`);
	if (work) await rm(work, { recursive: true, force: true });
	console.log(`Image steps (s): ${JSON.stringify(timings)}`);
}, 300_000);

/** A container of an image, running its entry point under `buildah run`. */
interface Running {
	container: string;
	run: Started;
	/** The process the entry point became: PID 1 in a real container. */
	main: () => Promise<number>;
	/** `buildah run`'s exit code, once it has ended and all it printed has been read. */
	closed: Promise<number | null>;
}

/** A process's parent, and the first word of its command line. */
async function processInfo(pid: number): Promise<{ parent: number; program: string } | undefined> {
	try {
		const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
		const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
		const program = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0')[0] ?? '';
		return { parent, program };
	} catch {
		// The process ended since it was listed: it has no parent or program any more.
		return undefined;
	}
}

/** Every process now running, with its parent and program. */
async function processes(): Promise<Map<number, { parent: number; program: string }>> {
	const table = new Map<number, { parent: number; program: string }>();
	for (const entry of await readdir('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const info = await processInfo(Number(entry));
		if (info) table.set(Number(entry), info);
	}
	return table;
}

/** The processes below `root`, all generations. */
function descendants(
	table: Map<number, { parent: number; program: string }>,
	root: number,
): number[] {
	const found: number[] = [];
	const queue = [root];
	while (queue.length > 0) {
		const pid = queue.shift() as number;
		for (const [child, info] of table) {
			if (info.parent === pid) {
				found.push(child);
				queue.push(child);
			}
		}
	}
	return found;
}

/** The user id a process runs as (its real uid). */
async function uidOf(pid: number): Promise<string | undefined> {
	const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
	return /^Uid:\s+(\d+)/m.exec(status)?.[1];
}

/** Starts an image's entry point in a new working container, with these variables. */
async function runImage(kind: ImageKind, env: Record<string, string>): Promise<Running> {
	const container = (await command('buildah', ['from', '--pull=false', tags[kind]])).trim();
	containers.push(container);
	const { OCIv1 } = JSON.parse(
		await command('buildah', ['inspect', '--type', 'container', container]),
	) as { OCIv1: { config: { Entrypoint: string[] } } };
	const entrypoint = OCIv1.config.Entrypoint;
	const run = start('buildah', [
		'run',
		'--isolation',
		'chroot',
		...Object.entries(env).flatMap(([name, value]) => ['--env', `${name}=${value}`]),
		container,
		'--',
		...entrypoint,
	]);
	// 'close', not 'exit': what the entry point printed just before it ended may still be unread
	// at 'exit' (under load, a refusal's one line was).
	const closed = new Promise<number | null>((resolve) => run.child.once('close', resolve));
	/** The entry point's process: the child of buildah's chroot-exec helper. */
	const main = async (): Promise<number> => {
		const table = await processes();
		const helper = descendants(table, run.child.pid ?? -1).find(
			(pid) => table.get(pid)?.program === 'buildah-chroot-exec',
		);
		const child = [...table].find(([, info]) => info.parent === helper)?.[0];
		if (child === undefined)
			throw new Error(`No entry point runs in ${container}:\n${run.output()}`);
		return child;
	};
	return { container, run, main, closed };
}

/** Sends `signal` to the entry point and waits for `buildah run` to end; its exit code. */
async function stopWith(running: Running, signal: NodeJS.Signals): Promise<number | null> {
	const main = await running.main();
	const exited = running.closed;
	process.kill(main, signal);
	const timeout = new Promise<'timeout'>((resolve) =>
		setTimeout(() => resolve('timeout'), 10_000).unref(),
	);
	const result = await Promise.race([exited, timeout]);
	if (result === 'timeout') throw new Error(`${running.container} still runs 10 s after ${signal}`);
	return result;
}

/**
 * What a container wrote: the paths in its overlay's upper layer (beside the merged view
 * `buildah mount` gives), less /run, the folder buildah run itself mounts into.
 */
async function writtenPaths(container: string): Promise<string[]> {
	const merged = (await command('buildah', ['mount', container])).trim();
	try {
		const upper = path.join(path.dirname(merged), 'diff');
		const entries = await readdir(upper, { recursive: true });
		return entries
			.map((entry) => `/${entry}`)
			.filter((entry) => entry !== '/run')
			.sort();
	} finally {
		await command('buildah', ['umount', container]);
	}
}

/** Sends a GET with the Host given and returns the whole answer ('' when the server says nothing). */
function rawGet(base: string, target: string, host: string): Promise<string> {
	const { port, hostname } = new URL(base);
	return new Promise((resolve, reject) => {
		const socket = connect(Number(port), hostname, () =>
			socket.end(`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
		);
		let answer = '';
		socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
		socket.on('end', () => resolve(answer));
		socket.on('error', reject);
		socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
	});
}

describe('console-portal-web', () => {
	let web: Running;
	let base: string;

	beforeAll(async () => {
		const port = await freePort();
		base = `http://127.0.0.1:${port}`;
		web = await timed('web start', async () => {
			const running = await runImage('web', {
				PORTAL_PORT: String(port),
				PORTAL_ALLOWED_HOSTS: SERVICE_NAME.web,
			});
			await waitForUrl(`${base}/`, running.run);
			return running;
		});
	});

	afterAll(async () => {
		await web?.run.stop();
	});

	it("serves the portal's pages with their headers", async () => {
		const home = await fetch(`${base}/`);
		expect(home.status).toBe(200);
		expect(home.headers.get('content-type')).toMatch(/^text\/html/);
		expect(home.headers.get('cache-control')).toBe('no-cache');
		expect(home.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
		expect(home.headers.get('x-frame-options')).toBe('DENY');
		expect(home.headers.get('x-content-type-options')).toBe('nosniff');
		expect(home.headers.get('x-robots-tag')).toMatch(/noindex/);
		// The view pages' folders; their Markdown twins lie beside them.
		const views = (await readdir(path.join(distDir, 'views'), { withFileTypes: true }))
			.filter((entry) => entry.isDirectory())
			.map(({ name }) => name);
		expect(views.length).toBeGreaterThanOrEqual(7);
		for (const slug of views) {
			const page = await fetch(`${base}/views/${slug}/`);
			expect(page.status, slug).toBe(200);
			expect(await page.text(), slug).toContain('Internal use only');
		}
		const css = (await readdir(path.join(distDir, '_astro'))).find((name) => name.endsWith('.css'));
		const asset = await fetch(`${base}/_astro/${css ?? ''}`);
		expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
		expect((await fetch(`${base}/views/no-such-view/`)).status).toBe(404);
	});

	it('answers the names it is served under, and nothing to any other Host', async () => {
		const port = new URL(base).port;
		for (const host of ['attacker.example', `127.0.0.1.attacker.example:${port}`]) {
			await expect(rawGet(base, '/views/production/', host), host).resolves.toBe('');
		}
		for (const host of [`127.0.0.1:${port}`, 'localhost', SERVICE_NAME.web]) {
			await expect(rawGet(base, '/views/production/', host), host).resolves.toMatch(
				/^HTTP\/1\.1 200 /,
			);
		}
	});

	it('runs nginx, master and worker, as the image’s user', async () => {
		const main = await web.main();
		const table = await processes();
		expect(table.get(main)?.program).toMatch(/^nginx: master process/);
		const workers = descendants(table, main);
		expect(workers.length).toBeGreaterThanOrEqual(1);
		for (const pid of [main, ...workers]) expect(await uidOf(pid), String(pid)).toBe(IMAGE_UID);
	});

	it('stops on its STOPSIGNAL (SIGQUIT, graceful) within 10 s, having written only under /tmp', async () => {
		expect(await stopWith(web, 'SIGQUIT')).toBe(0);
		const written = await writtenPaths(web.container);
		expect(written.length).toBeGreaterThan(0);
		expect(written.filter((entry) => entry !== '/tmp' && !entry.startsWith('/tmp/'))).toEqual([]);
	});

	it('refuses a PORTAL_ALLOWED_HOSTS entry that is no host name, naming it', async () => {
		const refused = [
			['portal.example, http://evil.example/', 'http://evil.example/'],
			// Not a pattern for the shell to expand into the names of files.
			['portal.example,*', '*'],
		] as const;
		// Both starts side by side, each in a container of its own.
		const ended = await Promise.all(
			refused.map(async ([value, named]) => {
				const bad = await runImage('web', {
					PORTAL_PORT: String(await freePort()),
					PORTAL_ALLOWED_HOSTS: value,
				});
				return { value, named, bad, code: await bad.closed };
			}),
		);
		for (const { value, named, bad, code } of ended) {
			expect(code, value).not.toBe(0);
			expect(bad.run.output(), value).toContain(
				`PORTAL_ALLOWED_HOSTS: expected host names separated by commas (portal.intranet.example), without scheme or port; "${named}" is not one`,
			);
		}
	});
});

describe('console-portal-mock', () => {
	let mock: Running;
	let base: string;
	/** A directory key and the users of its view, read from the fixtures the image holds. */
	let view: { key: string; names: string[] };

	beforeAll(async () => {
		const fixture = JSON.parse(
			await readFile(path.join(ROOT, 'content', 'views', 'production.json'), 'utf8'),
		) as { users: { name: string; apiKey: string }[] };
		view = {
			key: fixture.users[0]?.apiKey ?? '',
			names: fixture.users.map((user) => user.name),
		};
		const port = await freePort();
		base = `http://127.0.0.1:${port}`;
		mock = await timed('mock start', async () => {
			const running = await runImage('mock', {
				MOCK_PORT: String(port),
				MOCK_ALLOWED_HOSTS: SERVICE_NAME.mock,
			});
			await waitForUrl(`${base}/api/v2/users`, running.run);
			return running;
		});
	});

	afterAll(async () => {
		await mock?.run.stop();
	});

	it('answers a directory key with its view’s users, from the contract and fixtures in the image', async () => {
		const answer = await fetch(`${base}/api/v2/users`, {
			headers: { authorization: `Bearer ${view.key}` },
		});
		expect(answer.status).toBe(200);
		const body = (await answer.json()) as { users: { name: string }[] };
		expect(body.users.map((user) => user.name)).toEqual(view.names);
		const refused = await fetch(`${base}/api/v2/users`, {
			headers: { authorization: 'Bearer ick-00000000-Zz00' },
		});
		expect(refused.status).toBe(401);
		// The probes Kubernetes sends: no key, and they answer 200 once the mock is ready.
		for (const [probe, status] of [
			['/healthz', 'serving'],
			['/readyz', 'ready'],
		] as const) {
			const answer = await fetch(`${base}${probe}`);
			expect(answer.status, probe).toBe(200);
			await expect(answer.json()).resolves.toEqual({ status });
		}
	});

	it('answers a name it is served under, and refuses any other Host', async () => {
		const allowed = await rawGet(base, '/api/v2/users', SERVICE_NAME.mock);
		expect(allowed).toMatch(/^HTTP\/1\.1 401 /);
		const refused = await rawGet(base, '/api/v2/users', 'attacker.example');
		expect(refused).toMatch(/^HTTP\/1\.1 403 /);
		expect(refused).not.toContain('ick-');
	});

	it('runs tini as the entry point, and the pinned Node under it, as the image’s user', async () => {
		const main = await mock.main();
		const table = await processes();
		expect(table.get(main)?.program).toBe('/usr/bin/tini');
		const [node] = descendants(table, main);
		expect(table.get(node ?? -1)?.program).toBe('/usr/local/bin/node');
		for (const pid of [main, node ?? -1]) expect(await uidOf(pid), String(pid)).toBe(IMAGE_UID);
		const pinned = JSON.parse(
			await readFile(path.join(ROOT, 'node_modules', 'node', 'package.json'), 'utf8'),
		) as { version: string };
		const version = await command('buildah', [
			'run',
			'--isolation',
			'chroot',
			mock.container,
			'--',
			'/usr/local/bin/node',
			'--version',
		]);
		expect(version.trim()).toBe(`v${pinned.version}`);
	});

	it('stops on SIGTERM, passed on by tini, within 10 s, having written nothing', async () => {
		expect(await stopWith(mock, 'SIGTERM')).toBe(0);
		expect(mock.run.output()).not.toMatch(/Error|DeprecationWarning/);
		expect(await writtenPaths(mock.container)).toEqual([]);
	});
});

describe('a team’s portal on one name: the web image serves the mock image on its own origin', () => {
	const views = loadViews(path.join(ROOT, 'content', 'views'));
	let web: Running | undefined;
	let mock: Running | undefined;
	let browser: Browser | undefined;
	/** The portal as its readers reach it. */
	const portal = (): string => `http://${TEAM_HOST}:${teamPort}`;

	beforeAll(async () => {
		const started = performance.now();
		const mockPort = await freePort();
		mock = await runImage('mock', { MOCK_PORT: String(mockPort), MOCK_ALLOWED_HOSTS: TEAM_HOST });
		await waitForUrl(`http://127.0.0.1:${mockPort}/readyz`, mock.run);
		web = await runImage('web', {
			PORTAL_PORT: String(teamPort),
			PORTAL_ALLOWED_HOSTS: TEAM_HOST,
			MOCK_UPSTREAM: `http://127.0.0.1:${mockPort}`,
		});
		await waitForUrl(`http://127.0.0.1:${teamPort}/`, web.run);
		browser = await launchChromium([`--host-resolver-rules=MAP ${TEAM_HOST} 127.0.0.1`]);
		timings['team start'] = Math.round((performance.now() - started) / 100) / 10;
	});

	afterAll(async () => {
		await browser?.close();
		await Promise.allSettled([web?.run.stop(), mock?.run.stop()]);
	});

	/** Chromium's note on a header that needs https, the one console error plain http causes. */
	const HTTP_ONLY_NOTE =
		/^The Cross-Origin-Opener-Policy header has been ignored, because the URL's origin was untrustworthy\./;

	/** What each page logged as an error or reported as a CSP violation, and what it fetched. */
	const seen = new WeakMap<Page, { problems: string[]; calls: string[] }>();

	/** Opens a route under the portal's intranet name in a fresh context, recording what it does. */
	async function open(route: string): Promise<Page> {
		if (!browser) throw new Error('Chromium is not started');
		const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
		const page = await context.newPage();
		const record = { problems: [] as string[], calls: [] as string[] };
		seen.set(page, record);
		page.on('console', (message) => {
			// Over plain http under a name (a team serves https: the overlay's Ingress has TLS),
			// Chromium ignores nginx's Cross-Origin-Opener-Policy and says so; nothing else is let by.
			if (message.type() === 'error' && !HTTP_ONLY_NOTE.test(message.text())) {
				record.problems.push(message.text());
			}
		});
		page.on('pageerror', (error) => record.problems.push(error.message));
		page.on('request', (request) => {
			if (new URL(request.url()).pathname === '/api/v2/users') record.calls.push(request.url());
		});
		await page.goto(`${portal()}${route}`);
		await page.evaluate(() => {
			document.addEventListener('securitypolicyviolation', (event) => {
				console.error(`CSP: ${event.violatedDirective} ${event.blockedURI}`);
			});
		});
		// The panel's script comes when the reader nears it (at the foot of /reference/).
		await page.locator('try-it').scrollIntoViewIfNeeded();
		await page.locator('try-it form').waitFor({ state: 'visible' });
		return page;
	}

	/** Presses Send and waits for a 200 from the mock, through the portal's own origin only. */
	async function sendThroughPortal(page: Page): Promise<void> {
		await page.getByRole('button', { name: 'Send', exact: true }).click();
		await expect
			.poll(() => page.locator('try-it [data-summary]').innerText(), { timeout: 15_000 })
			.toMatch(/^200 OK/);
		expect(seen.get(page)?.calls).toEqual([`${portal()}/api/v2/users`]);
	}

	/** The page logged no error and reported no CSP violation; then it is closed. */
	async function expectClean(page: Page): Promise<void> {
		expect(seen.get(page)?.problems).toEqual([]);
		await page.context().close();
	}

	it('try-it on a view page gets the view’s users through the portal’s own origin, with no console error and no CSP violation', async () => {
		const production = (await views).find(({ slug }) => slug === 'production');
		if (!production) throw new Error('Expected the production fixture');
		const page = await open('/views/production/');
		await sendThroughPortal(page);
		const body = JSON.parse((await page.locator('try-it [data-body]').textContent()) ?? '') as {
			users: { email: string }[];
		};
		expect(body.users.map(({ email }) => email)).toEqual(
			production.view.users.map(({ email }) => email),
		);
		await expect(page.locator('try-it [data-whose]').innerText()).resolves.toBe(
			`These are the users of this view, ${viewName(production.view)}.`,
		);
		await expectClean(page);
	});

	it('try-it on /reference/ gets the picked view’s users through the portal’s own origin', async () => {
		const target = (await views).at(-1);
		if (!target) throw new Error('no view fixture');
		const page = await open('/reference/');
		await page.getByLabel('Environment').selectOption(target.view.environment);
		await page.getByLabel('View', { exact: true }).selectOption(target.slug);
		const key = page.getByLabel('Key', { exact: true });
		await expect.poll(() => key.locator('option').count()).toBe(target.view.users.length + 1);
		await sendThroughPortal(page);
		await expect(page.locator('try-it [data-whose]').innerText()).resolves.toBe(
			`These are the users of this view, ${viewName(target.view)}.`,
		);
		await expectClean(page);
	});

	it('a frozen mock image: the web image answers 504 problem+json with the portal’s headers within try-it’s time-out, and try-it says the mock did not answer', async () => {
		if (!mock) throw new Error('The mock image is not running');
		const page = await open('/views/production/');
		// The mock's processes (tini and Node) stopped: its port still accepts, nothing answers.
		const main = await mock.main();
		const frozen = [main, ...descendants(await processes(), main)];
		for (const pid of frozen) process.kill(pid, 'SIGSTOP');
		const started = performance.now();
		let answer: Awaited<ReturnType<typeof raw>>;
		try {
			// A socket kept open for writing: nginx drops a request whose reader closed its side.
			[answer] = await Promise.all([
				raw(
					teamPort,
					`GET /api/v2/users HTTP/1.1\r\nHost: ${TEAM_HOST}\r\nConnection: close\r\n\r\n`,
				),
				(async () => {
					await page.getByRole('button', { name: 'Send', exact: true }).click();
					await expect
						.poll(() => page.locator('try-it [data-summary]').innerText(), {
							timeout: TIMEOUT_MS,
						})
						.toMatch(/^The mock behind .* did not answer in time: the portal’s proxy gave up/);
				})(),
			]);
		} finally {
			for (const pid of frozen) process.kill(pid, 'SIGCONT');
		}
		expect(performance.now() - started).toBeLessThan(TIMEOUT_MS);
		const { status, head, body } = answer;
		expect(status).toBe(504);
		for (const line of [
			'Content-Type: application/problem+json',
			'X-Content-Type-Options: nosniff',
			'X-Frame-Options: DENY',
			"Content-Security-Policy: frame-ancestors 'none'",
			'Referrer-Policy: no-referrer',
			'X-Robots-Tag: noindex, nofollow',
			'Proxy-Status: console-portal; error=http_response_timeout',
		]) {
			expect(head.split('\r\n')).toContain(line);
		}
		expect(JSON.parse(body)).toMatchObject({
			status: 504,
			title: 'The mock did not answer in time',
		});
		await page.context().close();
		// Thawed, the mock answers through the portal again.
		const again = await open('/views/production/');
		await sendThroughPortal(again);
		await again.context().close();
	});

	it('the view page’s curl command to the mock, run as shown (curl told the name’s address), gets the view’s users', async () => {
		const production = (await views).find(({ slug }) => slug === 'production');
		if (!production) throw new Error('Expected the production fixture');
		const page = await open('/views/production/');
		// The first of the samples under "Run it against the mock": curl, to the readers' mock.
		const shown = await page.locator('#mock-curl-0').innerText();
		await expectClean(page);
		expect(shown).toMatch(/^curl /);
		expect(shown).toContain(`${portal()}/api/v2/users`);
		expect(shown).toContain(exampleUser(production.view).apiKey);
		// The command as the page shows it; curl alone is told where the intranet name points.
		const ran = spawnSync(
			'bash',
			[
				'-c',
				`curl() { command curl --silent --show-error --fail --resolve "${TEAM_HOST}:${teamPort}:127.0.0.1" "$@"; }\n${shown}`,
			],
			{ encoding: 'utf8', timeout: 15_000 },
		);
		expect(ran.stderr).toBe('');
		expect(ran.status).toBe(0);
		const body = JSON.parse(ran.stdout) as { users: { email: string }[] };
		expect(body.users.map(({ email }) => email)).toEqual(
			production.view.users.map(({ email }) => email),
		);
	});
});

describe('the images as built', () => {
	it('carry the OCI labels of their source, revision, version and time, though an earlier build with other ones is in the store, and run as a numbered non-root user', async () => {
		// The commit checked out when the test began (others may commit while it runs).
		expect(facts.revision).toMatch(/^[0-9a-f]{40}$/);
		const { version } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
			version: string;
		};
		if (!anotherBuilt) throw new Error('The web image was not built with other labels');
		await anotherBuilt;
		const other = ANOTHER(facts);
		for (const [kind, name, labelled] of [
			['web', tags.web, { ...facts, source: SOURCE, version }],
			['mock', tags.mock, { ...facts, source: SOURCE, version }],
			// Built last, with the first two web builds' steps in the store.
			['web', anotherTag, other],
		] as const) {
			const created = new Date(labelled.epoch * 1000).toISOString().replace('.000Z', 'Z');
			const { OCIv1: config } = JSON.parse(
				await command('buildah', ['inspect', '--type', 'image', name]),
			) as {
				OCIv1: { created: string; config: { User: string; Labels: Record<string, string> } };
			};
			expect(config.config.User, name).toBe(`${IMAGE_UID}:${IMAGE_UID}`);
			expect(config.config.Labels, name).toMatchObject({
				'org.opencontainers.image.title': `console-portal-${kind}`,
				'org.opencontainers.image.revision': labelled.revision,
				'org.opencontainers.image.version': labelled.version,
				'org.opencontainers.image.created': created,
			});
			expect(config.config.Labels['org.opencontainers.image.source'], name).toBe(labelled.source);
			expect(config.created, name).toBe(created);
		}
	}, 600_000);
});

describe('reproducibility', () => {
	it('gives the same image, digest for digest, when built again from the same commit', async () => {
		// Each image was measured, and built again and measured again, as soon as its first build
		// was there (beforeAll), while the tests above ran.
		const results = await Promise.all(
			(['web', 'mock'] as const).map(async (kind) => {
				const both = measured[kind];
				if (!both) throw new Error(`The ${kind} image was not built again`);
				const [first, second] = await both;
				return { kind, first, second };
			}),
		);
		for (const { kind, first, second } of results) {
			expect(second.localDigest, kind).toBe(first.localDigest);
			expect(second.pushedDigest, kind).toBe(first.pushedDigest);
			console.log(
				`${kind}: ${first.pushedDigest}, ${(first.compressed / 1e6).toFixed(1)} MB compressed, ${(first.uncompressed / 1e6).toFixed(1)} MB uncompressed`,
			);
		}
	}, 600_000);
});

describe('what the file leaves', () => {
	it('leaves none of its images, names or containers in the store', async () => {
		expect(named.size).toBeGreaterThan(0);
		expect(await removeOwn()).toEqual([]);
	}, 300_000);
});
