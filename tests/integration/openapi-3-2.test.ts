/**
 * The portal on an OpenAPI 3.2 contract, end to end: one build of two views with the 3.2 copy of
 * the contract (tests/fixtures/openapi-3-2), the mock started on it, the validating proxy in front
 * of that mock, and a conformance run against it. Its QUERY /api/v2/users gets a reference entry
 * whose samples run as copied against the mock, which answers the QUERY itself. A 3.2 contract
 * the mock cannot serve (an additionalOperations method) is refused at start in one line.
 */
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildPortalAsync } from '../../support/build.ts';
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
	// The mock and the proxy start while the portal builds, each a process of its own: one after
	// the other, the hook spent their starts' time after the build's.
	const building = buildPortalAsync(distDir, viewsDir, {
		PORTAL_OPENAPI: CONTRACT,
		MOCK_PORT: String(mockPort),
	});
	try {
		({ started: mock, url: mockUrl } = await startMock({}, mockPort));
		({ started: proxy, url: proxyUrl } = await startMock({ MOCK_UPSTREAM: mockUrl }));
	} finally {
		build = await building;
	}
}, 400_000);

afterAll(async () => {
	await Promise.all([mock?.stop(), proxy?.stop()]);
	await rm(folder, { recursive: true, force: true });
});

/** Runs a sample saved as a reader would save it, with API_KEY set; resolves with its output. */
async function runSample(runner: string, code: string, index: number): Promise<string> {
	const files: Record<string, [string, (file: string) => [string, string[]]]> = {
		sh: ['sample.sh', (file) => ['sh', [file]]],
		node: ['sample.mjs', (file) => [bin('node'), [file]]],
		python: ['sample.py', (file) => ['/usr/bin/python3', [file]]],
		go: ['main.go', (file) => ['go', ['run', file]]],
		ruby: ['sample.rb', (file) => ['ruby', [file]]],
		php: ['sample.php', (file) => ['php', [file]]],
		java: ['Main.java', (file) => ['java', [file]]],
	};
	const [name, command] = files[runner] ?? ['sample.txt', () => ['false', []]];
	const dir = path.join(folder, `query-sample-${index}`);
	await mkdir(dir, { recursive: true });
	const file = path.join(dir, name);
	await writeFile(file, code);
	const [program, args] = command(file);
	return new Promise((resolve) => {
		const child = spawn(program, args, { env: childEnv({ API_KEY: key, NO_COLOR: '1' }) });
		child.stdin.end();
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('error', (error) => resolve(`${runner}: ${error.message}`));
		child.on('close', () => resolve(output));
	});
}

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

	it('gives QUERY /api/v2/users an entry of its own: method badge, request body, querystring and stream', async () => {
		const $ = await pageOf('reference/index.html');
		const entry = $('section[aria-labelledby="query-api-v2-users"]');
		expect(entry.find('h2 .badge.method').text()).toBe('QUERY');
		expect(entry.find('.lede').text()).toBe("Search the directory's users");
		expect($('nav[aria-label="Operations by tag"] li[data-tag="Directory"]').text()).toContain(
			'QUERY /api/v2/users',
		);
		const body = entry.find('#query-api-v2-users-body').parent().next('.fact');
		expect(body.find('.required').text()).toBe('required');
		expect(body.find('.body-line').text()).toBe('Body: application/json, schema UserFilter');
		expect(
			body
				.find('.field-name')
				.toArray()
				.map((field) => $(field).text()),
		).toEqual(['role', 'name']);
		const parameter = entry.find('ul.parameters > li');
		expect(parameter.find('.where').first().text()).toBe(
			'the whole query string · application/x-www-form-urlencoded',
		);
		expect(
			parameter
				.find('ul.fields code')
				.toArray()
				.map((field) => $(field).text()),
		).toEqual(['__code', '__example']);
		const stream = entry
			.find('#query-api-v2-users-200 .body-line')
			.toArray()
			.map((line) => $(line).text().replace(/\s+/g, ' '));
		expect(stream).toEqual([
			'Body: application/json, schema UserMatches',
			'Body: application/jsonl (JSON lines), a stream: each item is User',
		]);
	});

	it('shows QUERY samples in every language that send the body and get the admins, run as copied', async () => {
		const $ = await pageOf('reference/index.html');
		const samples = $('section[aria-labelledby="query-api-v2-users"] pre[data-sample]')
			.toArray()
			.map((pre) => ({ runner: $(pre).attr('data-sample') ?? '', code: $(pre).text() }));
		expect(samples.map(({ runner }) => runner)).toEqual([
			'sh',
			'node',
			'python',
			'sh',
			'go',
			'ruby',
			'php',
			'java',
		]);
		expect(samples[0]?.code).toContain(`curl -X QUERY \\\n  -H "Content-Type: application/json"`);
		expect(samples[0]?.code).toContain(`--data-raw '{"role":"admin"}'`);
		const admins = users.filter(({ role }) => role === 'admin');
		const outputs = await Promise.all(
			samples.map(({ runner, code }, index) => runSample(runner, code, index)),
		);
		for (const [index, output] of outputs.entries()) {
			for (const admin of admins) expect(output, samples[index]?.code).toContain(admin.email);
			expect(output, samples[index]?.code).not.toContain(
				users.find(({ role }) => role === 'viewer')?.email ?? 'viewer',
			);
		}
	}, 300_000);
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

	it('answers QUERY with a view’s key with that view’s users its filter matches', async () => {
		const response = await fetch(`${mockUrl}/api/v2/users`, {
			method: 'QUERY',
			headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ role: 'operator' }),
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({
			users: users.filter(({ role }) => role === 'operator'),
		});
		const all = await fetch(`${mockUrl}/api/v2/users`, {
			method: 'QUERY',
			headers: { Authorization: `Bearer ${key}` },
			body: '{}',
		});
		expect(await all.json()).toEqual({ users });
	});

	it('answers QUERY without a key with 401 and the Bearer challenge, and a wrong key with its own', async () => {
		const none = await fetch(`${mockUrl}/api/v2/users`, { method: 'QUERY', body: '{}' });
		expect(none.status).toBe(401);
		expect(none.headers.get('www-authenticate')).toBe('Bearer realm="console"');
		expect(await none.json()).toMatchObject({ title: 'A directory key is required' });
		const wrong = await fetch(`${mockUrl}/api/v2/users`, {
			method: 'QUERY',
			headers: { Authorization: 'Bearer ick-00000000-Zz00' },
			body: '{}',
		});
		expect(wrong.status).toBe(401);
		expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
		const malformed = await fetch(`${mockUrl}/api/v2/users`, {
			method: 'QUERY',
			headers: { Authorization: 'Bearer' },
			body: '{}',
		});
		expect(malformed.status).toBe(400);
	});

	it('answers QUERY with a body its schema does not allow with a 422 problem naming the field', async () => {
		const response = await fetch(`${mockUrl}/api/v2/users`, {
			method: 'QUERY',
			headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
			body: JSON.stringify({ role: 'owner' }),
		});
		expect(response.status).toBe(422);
		expect(response.headers.get('content-type')).toBe('application/problem+json');
		expect(await response.json()).toEqual({
			type: 'https://portal.example/problems/invalid-filter',
			title: 'The body is not a filter',
			status: 422,
			detail: '/role: must be one of admin, deployer, operator, viewer',
		});
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
		const copy = path.join(folder, 'link.yaml');
		await writeFile(
			copy,
			text.replace(
				'    head:\n',
				"    additionalOperations:\n      LINK:\n        operationId: linkUsers\n        responses:\n          '200':\n            description: Linked.\n    head:\n",
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
					`paths./api/v2/users.additionalOperations.LINK: the mock cannot serve a LINK operation (OpenAPI 3.2's additionalOperations)`,
				);
			const refused = await fetch(`http://127.0.0.1:${port}/api/v2/users`).catch(() => undefined);
			expect(refused?.status ?? 503).not.toBe(200);
		} finally {
			await started.stop();
		}
	});
});
