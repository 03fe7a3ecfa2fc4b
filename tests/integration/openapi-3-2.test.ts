/**
 * The portal on an OpenAPI 3.2 contract, end to end: one build of two views with the 3.2 copy of
 * the contract (tests/fixtures/openapi-3-2), the mock started on it, the validating proxy in front
 * of that mock, and a conformance run against it. A 3.2 contract the mock cannot serve is refused
 * at start in one line.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildPortal } from '../../support/build.ts';
import {
	bin,
	childEnv,
	freePort,
	ROOT,
	start,
	waitForUrl,
	type Started,
} from '../../support/processes.ts';

const CONTRACT = path.join(ROOT, 'tests', 'fixtures', 'openapi-3-2', 'openapi.yaml');
/** The two views the build and the mock read. */
const VIEWS = ['production.json', 'staging-us-east.json'];

let folder: string;
let viewsDir: string;
let distDir: string;
let build: { status: number | null; output: string };
let mockUrl: string;
let mock: Started;
let proxy: Started;
let proxyUrl: string;
/** A directory key of the production view, and its users as the API lists them. */
let key: string;
let users: { name: string; email: string; role: string }[];

/** Starts `node mock/cli.ts` on the 3.2 copy with these settings, and waits until it answers. */
async function startMock(
	env: NodeJS.ProcessEnv,
	port?: number,
): Promise<{ started: Started; url: string }> {
	port ??= await freePort();
	const started = start(bin('node'), ['mock/cli.ts'], {
		env: {
			MOCK_PORT: String(port),
			MOCK_WORKERS: '1',
			PORTAL_OPENAPI: CONTRACT,
			PORTAL_VIEWS_DIR: viewsDir,
			...env,
		},
	});
	const url = `http://127.0.0.1:${port}`;
	await waitForUrl(`${url}/api/v2/users`, started);
	return { started, url };
}

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-openapi-3-2-'));
	viewsDir = path.join(folder, 'views');
	await mkdir(viewsDir);
	for (const view of VIEWS) {
		await copyFile(path.join(ROOT, 'content', 'views', view), path.join(viewsDir, view));
	}
	const production = JSON.parse(await readFile(path.join(viewsDir, 'production.json'), 'utf8')) as {
		users: { name: string; email: string; role: string; apiKey: string }[];
	};
	key = production.users[0]?.apiKey ?? '';
	users = production.users.map(({ name, email, role }) => ({ name, email, role }));
	const mockPort = await freePort();
	distDir = path.join(folder, 'dist');
	build = buildPortal(distDir, viewsDir, {
		PORTAL_OPENAPI: CONTRACT,
		MOCK_PORT: String(mockPort),
	});
	({ started: mock, url: mockUrl } = await startMock({}, mockPort));
	({ started: proxy, url: proxyUrl } = await startMock({ MOCK_UPSTREAM: mockUrl }));
}, 400_000);

afterAll(async () => {
	await Promise.all([mock?.stop(), proxy?.stop()]);
	await rm(folder, { recursive: true, force: true });
});

/** A built page's text, as a reader sees it. */
async function pageOf(page: string): Promise<ReturnType<typeof load>> {
	return load(await readFile(path.join(distDir, page), 'utf8'));
}

describe('the portal built on the 3.2 contract', () => {
	it('builds', () => {
		expect(build.status, build.output).toBe(0);
	});

	it('publishes openapi.json and openapi.yaml in 3.2, each with its own address as $self', async () => {
		const json = JSON.parse(await readFile(path.join(distDir, 'openapi.json'), 'utf8')) as Record<
			string,
			unknown
		>;
		expect(json).toMatchObject({ openapi: '3.2.0', $self: '/openapi.json' });
		expect(json['tags']).toContainEqual(
			expect.objectContaining({ name: 'Directory', parent: 'Console', kind: 'nav' }),
		);
		const yaml = parse(await readFile(path.join(distDir, 'openapi.yaml'), 'utf8')) as Record<
			string,
			unknown
		>;
		expect(yaml).toMatchObject({ openapi: '3.2.0', $self: '/openapi.yaml' });
	});

	it('nests the reference’s navigation by tag, names a dataValue example, and closes a response on its summary', async () => {
		const $ = await pageOf('reference/index.html');
		const nav = $('nav[aria-label="Operations by tag"]');
		const console = nav.find('li[data-tag="Console"]');
		expect(console.children('.tag-title').text()).toBe("The console's API");
		const directory = console.find('li[data-tag="Directory"]');
		expect(directory.children('.tag-title').text()).toBe('Users');
		expect(directory.find('.tag-operation a').attr('href')).toBe('#get-api-v2-users');
		expect(console.find('li[data-tag="Browser"] .tag-operation code').text()).toBe(
			'OPTIONS /api/v2/users',
		);
		expect($('#get-api-v2-users-200 > summary .what').text()).toBe("The directory's users");
		expect($('.response-examples .form').first().text()).toBe(
			'dataValue: the data, before it is serialised',
		);
		expect($('.endpoint-card').text()).toContain('OpenAPI 3.2.0');
	});
});

describe('the mock on the 3.2 contract', () => {
	it('answers a view’s key with its users', async () => {
		const response = await fetch(`${mockUrl}/api/v2/users`, {
			headers: { Authorization: `Bearer ${key}` },
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ users });
	});

	it('answers example=<name> with a dataValue example', async () => {
		const response = await fetch(`${mockUrl}/api/v2/users`, {
			headers: { Authorization: `Bearer ${key}`, Prefer: 'code=401, example=wrong-shape' },
		});
		expect(response.status).toBe(401);
		expect(await response.json()).toMatchObject({
			type: 'https://portal.example/problems/wrong-shape',
			status: 401,
		});
	});

	it('sends a serializedValue header example as written (405 Allow)', async () => {
		const response = await fetch(`${mockUrl}/api/v2/users`, { method: 'DELETE' });
		expect(response.status).toBe(405);
		expect(response.headers.get('allow')).toBe('GET, HEAD');
	});

	it('passes the proxy’s check against the 3.2 contract with no violation', async () => {
		const response = await fetch(`${proxyUrl}/api/v2/users`, {
			headers: { Authorization: `Bearer ${key}` },
		});
		expect(response.status).toBe(200);
		expect(response.headers.get('sl-violations')).toBeNull();
		expect(await response.json()).toEqual({ users });
	});

	it('passes a conformance run against the 3.2 contract (exit 0)', async () => {
		const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
			const child = spawn('npm', ['run', '--silent', 'conform', '--', '--base-url', mockUrl], {
				cwd: ROOT,
				env: childEnv({ PORTAL_OPENAPI: CONTRACT, PORTAL_VIEWS_DIR: viewsDir, CONFORM_KEYS: key }),
			});
			let output = '';
			child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
			child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
			child.on('error', reject);
			child.on('close', (code) => resolve({ code, output }));
		});
		expect(run.code, run.output).toBe(0);
	});

	it('refuses at start a 3.2 contract it cannot serve, in one line naming the feature', async () => {
		const text = await readFile(CONTRACT, 'utf8');
		const copy = path.join(folder, 'query.yaml');
		await writeFile(
			copy,
			text.replace(
				'    head:\n',
				"    query:\n      operationId: searchUsers\n      summary: Search the directory\n      responses:\n        '200':\n          description: Found.\n    head:\n",
			),
		);
		const port = await freePort();
		const started = start(bin('node'), ['mock/cli.ts'], {
			env: {
				MOCK_PORT: String(port),
				MOCK_WORKERS: '1',
				PORTAL_OPENAPI: copy,
				PORTAL_VIEWS_DIR: viewsDir,
			},
		});
		try {
			// The mock says why at once, and exits or waits for a mended contract.
			await expect
				.poll(() => started.output(), { timeout: 30_000, interval: 200 })
				.toContain(
					`paths./api/v2/users.query: the mock cannot serve a QUERY operation (OpenAPI 3.2's query method)`,
				);
			const refused = await fetch(`http://127.0.0.1:${port}/api/v2/users`).catch(() => undefined);
			expect(refused?.status ?? 503).not.toBe(200);
		} finally {
			await started.stop();
		}
	});
});
