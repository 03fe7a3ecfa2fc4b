/**
 * Every sample the portal shows runs as copied: each `pre[data-sample]` of every built page is
 * run with the real client (sh with curl or HTTPie, python3 with requests, Node, `go run`, ruby,
 * php with its curl extension, `java Main.java`) from a script, with stdin not a terminal, against
 * the mock on the port the pages were built for, which is not the default one. A client that is
 * missing fails the run with the Debian package to install, never skips it. The expected users come from the fixtures. A Markdown twin shows no
 * command against the mock but its page's samples, word for word, so this run covers the twins.
 * The 3.2 copy's QUERY samples, which the portal's own contract lacks, are run too, with a
 * `querystring` example (the mock's controls as a form) and against a mock on that copy: the
 * built 3.2 portal's samples (tests/integration/openapi-3-2.test.ts) send none, as the copy's
 * parameter has no example.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { codeSamples } from '../../src/site/code-samples.ts';
import { operationSample } from '../../src/site/reference-layout.ts';
import { readContract } from '../../src/sources/contract.ts';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { markdownHref } from '../../src/shared/urls.ts';
import { codeBlocksOf } from '../support/markdown.ts';
import {
	bin,
	childEnv,
	freePort,
	ROOT,
	start,
	waitForUrl,
	type Started,
} from '../../support/processes.ts';
import { holdMockPort } from '../support/mock-port-lock.ts';

/** One sample as a page shows it. */
interface Sample {
	page: string;
	runner: string;
	code: string;
	/** The view whose users it gets; $API_KEY's view when absent. */
	view: string | undefined;
	/** The status it gets, when not 200. */
	status: number | undefined;
}

const distDir = inject('distDir');
const mockPort = inject('mockPort');
const origin = `http://127.0.0.1:${mockPort}`;
let mock: Started;
let letGoOfPort: (() => Promise<void>) | undefined;
let views: ViewEntry[];
let samples: Sample[];
let scratch: string;

/** Every file under a folder, relative to it. */
async function files(folder: string): Promise<string[]> {
	const entries = await readdir(folder, { recursive: true, withFileTypes: true });
	return entries
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
}

/** Runs a command with stdin a closed pipe, as a script or CI runs it; resolves with its output. */
function run(
	command: string,
	args: string[],
	env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
	return new Promise((resolve) => {
		const child = spawn(command, args, { env: childEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
		child.stdin.end();
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
		// A client that is not installed: its error, as output, for the message that names its package.
		child.on('error', (error) => {
			clearTimeout(timer);
			resolve({ code: null, output: error.message });
		});
		child.on('close', (code) => {
			clearTimeout(timer);
			resolve({ code, output });
		});
	});
}

/** Debian's python3, where `.ci/run` installs python3-requests; the PATH's may be another. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/**
 * How each runner runs a sample saved as the file a reader would save it as, and the Debian
 * package (as `.ci/run` installs it) that gives each client it needs.
 */
const RUNNERS: Record<string, { file: string; command: (file: string) => [string, string[]] }> = {
	sh: { file: 'sample.sh', command: (file) => ['sh', [file]] },
	node: { file: 'sample.mjs', command: (file) => [bin('node'), [file]] },
	python: { file: 'sample.py', command: (file) => [PYTHON, [file]] },
	go: { file: 'main.go', command: (file) => ['go', ['run', file]] },
	ruby: { file: 'sample.rb', command: (file) => ['ruby', [file]] },
	php: { file: 'sample.php', command: (file) => ['php', [file]] },
	java: { file: 'Main.java', command: (file) => ['java', [file]] },
};

/** Each client a runner needs: a command that succeeds when it is there, and its Debian package. */
const CLIENTS: { runner: string; check: [string, string[]]; debian: string }[] = [
	{ runner: 'sh', check: ['curl', ['--version']], debian: 'curl' },
	{ runner: 'sh', check: ['http', ['--version']], debian: 'httpie' },
	{ runner: 'python', check: [PYTHON, ['-c', 'import requests']], debian: 'python3-requests' },
	{ runner: 'go', check: ['go', ['version']], debian: 'golang-go' },
	{ runner: 'ruby', check: ['ruby', ['-rnet/http', '-e', '']], debian: 'ruby' },
	{
		runner: 'php',
		check: ['php', ['-r', 'exit(function_exists("curl_init") ? 0 : 1);']],
		debian: 'php-cli php-curl',
	},
	// `java Main.java` compiles the file in memory: it needs the JDK's compiler, not only a JRE.
	{ runner: 'java', check: ['javac', ['-version']], debian: 'default-jdk-headless' },
];

/** Runs one sample with the runner it names, from the file a reader would save it in. */
async function runSample(sample: Sample, index: number | string, apiKey: string | undefined) {
	const runner = RUNNERS[sample.runner];
	if (!runner) return { code: null, output: `no runner "${sample.runner}" in this test` };
	const file = await saveSample(sample, index);
	return runSaved(sample, runner.command(file), apiKey);
}

/**
 * Saves a sample as the file a reader would save it as, in a folder of its own (`go run` and
 * `java` want their file's name, and Go its own directory); gives the file's path.
 */
async function saveSample(sample: Sample, index: number | string): Promise<string> {
	const folder = path.join(scratch, `sample-${index}`);
	await mkdir(folder, { recursive: true });
	const file = path.join(folder, RUNNERS[sample.runner]?.file ?? 'sample.txt');
	await writeFile(file, sample.code);
	return file;
}

/** Runs a saved sample's command with API_KEY as given, naming the package of a missing client. */
async function runSaved(
	sample: Sample,
	[command, args]: [string, string[]],
	apiKey: string | undefined,
): Promise<{ code: number | null; output: string }> {
	const result = await run(command, args, { API_KEY: apiKey, NO_COLOR: '1' });
	const client = CLIENTS.find((each) => each.runner === sample.runner && each.check[0] === command);
	if (result.code === null && /ENOENT/.test(result.output) && client)
		result.output += ` (apt-get install ${client.debian})`;
	return result;
}

/**
 * The command that runs a saved sample again and again: for Go and Java, the program compiled
 * once (`go build`, `javac`), as `go run` and `java Main.java` compile it anew on every run; the
 * runner's own command for the others. Resolves with the compiler's failure when it fails.
 */
async function compiled(
	sample: Sample,
	file: string,
): Promise<{ command: [string, string[]] } | { failed: { code: number | null; output: string } }> {
	const folder = path.dirname(file);
	const compilers: Record<string, { compile: [string, string[]]; command: [string, string[]] }> = {
		go: {
			compile: ['go', ['build', '-o', path.join(folder, 'sample'), file]],
			command: [path.join(folder, 'sample'), []],
		},
		java: {
			compile: ['javac', ['-d', path.join(folder, 'classes'), file]],
			command: ['java', ['-cp', path.join(folder, 'classes'), 'Main']],
		},
	};
	const compiler = compilers[sample.runner];
	if (!compiler) return { command: RUNNERS[sample.runner]?.command(file) ?? ['false', []] };
	const built = await runSaved(sample, compiler.compile, undefined);
	return built.code === 0 ? { command: compiler.command } : { failed: built };
}

/** How many samples run at once: one per core this process may use (Go and Java compile first). */
const AT_ONCE = Math.max(1, os.availableParallelism());

/** Runs `task` over `items`, at most `limit` at a time, giving the results in the items' order. */
async function pooled<T, R>(
	items: readonly T[],
	limit: number,
	task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results: R[] = [];
	let next = 0;
	const worker = async (): Promise<void> => {
		while (next < items.length) {
			const index = next;
			next += 1;
			results[index] = await task(items[index] as T, index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
	return results;
}

/**
 * The samples that differ in what they run or what they should get: the same text on many pages
 * (a view page's languages, the guides' request) runs once, which keeps the slow starters
 * (`go run`, `java`) from running the same program dozens of times.
 */
function distinct(list: readonly Sample[]): Sample[] {
	const seen = new Map<string, Sample>();
	for (const sample of list) {
		const key = JSON.stringify([sample.runner, sample.code, sample.view, sample.status]);
		if (!seen.has(key)) seen.set(key, sample);
	}
	return [...seen.values()];
}

beforeAll(async () => {
	views = await loadViews(readSettings({}).viewsDir);
	scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-samples-'));
	samples = [];
	for (const file of (await files(distDir)).filter((name) => name.endsWith('.html'))) {
		const $ = load(await readFile(path.join(distDir, file), 'utf8'));
		$('pre[data-sample]').each((_index, element) => {
			const pre = $(element);
			const status = pre.attr('data-sample-status');
			samples.push({
				page: `/${path.dirname(file)}/`.replace(/^\/\.\/$/, '/'),
				runner: pre.attr('data-sample') ?? '',
				code: pre.text(),
				view: pre.attr('data-sample-view'),
				status: status === undefined ? undefined : Number(status),
			});
		});
	}
	letGoOfPort = await holdMockPort(mockPort);
	mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(mockPort) } });
	await waitForUrl(`${origin}/api/v2/users`, mock);
});

afterAll(async () => {
	await mock?.stop();
	await letGoOfPort?.();
	await rm(scratch, { recursive: true, force: true });
});

describe('the samples on the built pages', () => {
	it('have every client they run with installed (or name the Debian package to install)', async () => {
		// In parallel, one a core: the results are read in the clients' order.
		const checked = await pooled(CLIENTS, AT_ONCE, ({ check: [command, args] }) =>
			run(command, args, {}),
		);
		const missing: string[] = [];
		for (const [index, { runner, check, debian }] of CLIENTS.entries()) {
			const { code, output } = checked[index] ?? { code: null, output: 'not run' };
			if (code !== 0)
				missing.push(
					`${runner} samples need ${check[0]}: apt-get install ${debian} (${output.trim()})`,
				);
		}
		expect(missing).toEqual([]);
	});

	it('on a view page, fetch each language they do not hold from a page that shows and runs it', async () => {
		// A view page holds its own curl; its other tabs fetch their panel from a guide, by label.
		const missing: string[] = [];
		let lazy = 0;
		for (const { slug } of views) {
			const $ = load(await readFile(path.join(distDir, 'views', slug, 'index.html'), 'utf8'));
			for (const element of $('[data-sample-from]').toArray()) {
				lazy += 1;
				const from = $(element).attr('data-sample-from') ?? '';
				const label = $(element).attr('data-tab-label') ?? '';
				const page = new URL(from, 'http://portal.example').pathname;
				const source = load(await readFile(path.join(distDir, page, 'index.html'), 'utf8'));
				const shown = source('.sample[data-tab-label]')
					.toArray()
					.find((sample) => source(sample).attr('data-tab-label') === label);
				if (!shown || source(shown).find('pre[data-sample]').length !== 1)
					missing.push(`/views/${slug}/: ${label} from ${from}`);
			}
		}
		expect(missing).toEqual([]);
		expect(lazy).toBe(views.length * 7);
	});

	it('are built for a mock port that is not the default, so a left-over 4010 would show', () => {
		expect(mockPort).not.toBe(4010);
	});

	it('are on every view page, the reference and the guides that send requests', () => {
		const pages = new Set(samples.map(({ page }) => page));
		for (const { slug } of views) expect(pages).toContain(`/views/${slug}/`);
		for (const page of [
			'/reference/',
			'/docs/getting-started/',
			'/docs/mock-server/',
			'/docs/authentication/',
		]) {
			expect(pages).toContain(page);
		}
		const runners = new Set(samples.map(({ runner }) => runner));
		expect([...runners].sort()).toEqual(['go', 'java', 'node', 'php', 'python', 'ruby', 'sh']);
		expect(samples.some(({ code }) => code.startsWith('http '))).toBe(true);
	});

	it('all call the mock the pages were built for, and no page names another mock port', async () => {
		for (const sample of samples) expect(sample.code, sample.page).toContain(origin);
		for (const file of await files(distDir)) {
			if (!/\.(html|json|yaml|js|md|txt)$/.test(file)) continue;
			const text = await readFile(path.join(distDir, file), 'utf8');
			expect(text, file).not.toMatch(/(?:127\.0\.0\.1|localhost):4010\b/);
		}
	});

	it('name the portal at the port it was built for, never the default one', async () => {
		const portal = `http://127.0.0.1:${inject('portalPort')}/`;
		const guide = await readFile(path.join(distDir, 'docs/getting-started/index.html'), 'utf8');
		expect(guide).toContain(`<code>${portal}</code>`);
		for (const file of await files(distDir)) {
			if (!/\.(html|json|yaml|js)$/.test(file)) continue;
			const text = await readFile(path.join(distDir, file), 'utf8');
			expect(text, file).not.toMatch(/(?:127\.0\.0\.1|localhost):4321\b/);
		}
	});

	it('mark every command shown against the mock as a sample, so none escapes this test', async () => {
		for (const file of (await files(distDir)).filter((name) => name.endsWith('.html'))) {
			const $ = load(await readFile(path.join(distDir, file), 'utf8'));
			$('pre').each((_index, element) => {
				const pre = $(element);
				if (pre.text().includes(origin))
					expect(pre.attr('data-sample'), `${file}: ${pre.text()}`).toBeDefined();
			});
		}
	});

	it('are the only commands against the mock a Markdown twin shows, each exactly as its page shows it', async () => {
		// A twin's command is run here as its page's sample: the same text, so the run covers both.
		const byTwin = new Map<string, Set<string>>();
		for (const sample of samples) {
			const twin = markdownHref(sample.page).slice(1);
			byTwin.set(twin, (byTwin.get(twin) ?? new Set()).add(sample.code));
		}
		const unrun: string[] = [];
		let shown = 0;
		for (const file of (await files(distDir)).filter((name) => name.endsWith('.md'))) {
			const twin = file.split(path.sep).join('/');
			const text = await readFile(path.join(distDir, file), 'utf8');
			for (const { value } of codeBlocksOf(text)) {
				if (!value.includes(origin)) continue;
				shown += 1;
				if (!byTwin.get(twin)?.has(value)) unrun.push(`${twin}: ${value}`);
			}
		}
		expect(unrun).toEqual([]);
		// The guides' and the reference's twins show their pages' commands.
		expect(shown).toBeGreaterThanOrEqual(
			samples.filter(({ page }) => page.startsWith('/docs/') || page === '/reference/').length,
		);
	});

	it('each run as copied, from a script with no terminal, and get what they promise', async () => {
		const keyView = views[1];
		const apiKey = keyView?.view.users[2]?.apiKey ?? '';
		const failures: string[] = [];
		const list = distinct(samples);
		// In parallel, one a core: the results are read in the samples' order.
		const results = await pooled(list, AT_ONCE, (sample, index) =>
			runSample(sample, index, apiKey),
		);
		for (const [index, sample] of list.entries()) {
			const { code, output } = results[index] ?? { code: null, output: 'not run' };
			const where = `${sample.page} (${sample.runner}) ${sample.code}`;
			if (code !== 0) {
				failures.push(`${where}\n  exited ${String(code)}: ${output}`);
				continue;
			}
			if (sample.status !== undefined) {
				// curl and HTTPie print the status line; Node and Python print the status first.
				const status = new RegExp(
					`HTTP/1\\.1 ${sample.status}\\b|"status": ?${sample.status}\\b|^${sample.status}\\b`,
				);
				if (!status.test(output))
					failures.push(`${where}\n  expected status ${sample.status}: ${output}`);
				continue;
			}
			const expected = views.find(({ slug }) => slug === (sample.view ?? keyView?.slug));
			const missing = (expected?.view.users ?? []).filter(({ email }) => !output.includes(email));
			if (!expected || missing.length > 0) {
				failures.push(
					`${where}\n  expected the users of ${sample.view ?? keyView?.slug ?? '?'}: ${output}`,
				);
			}
		}
		expect(failures).toEqual([]);
		// Java compiles each file on launch: seconds a run on a quiet machine, many more on a busy one.
	}, 300_000);

	it('that send $API_KEY refuse to run without one, in one line, and send nothing', async () => {
		const keyed = samples.filter(({ code }) => code.includes('API_KEY'));
		expect(new Set(keyed.map(({ runner }) => runner))).toEqual(
			new Set(['sh', 'node', 'python', 'go', 'ruby', 'php', 'java']),
		);
		const failures: string[] = [];
		// Each sample saved once and, for Go and Java, compiled once for its two runs: the test above
		// runs each as copied (`go run`, `java Main.java`); this one checks what the program does.
		const list = distinct(keyed);
		const commands = await pooled(list, AT_ONCE, async (sample, index) =>
			compiled(sample, await saveSample(sample, `keyless-${index}`)),
		);
		const runs = list.flatMap((sample, index) =>
			[undefined, ''].map((apiKey) => ({ sample, apiKey, prepared: commands[index] })),
		);
		// In parallel, one a core.
		const results = await pooled(runs, AT_ONCE, ({ sample, apiKey, prepared }) =>
			prepared === undefined || 'failed' in prepared
				? Promise.resolve(prepared?.failed ?? { code: null, output: 'not compiled' })
				: runSaved(sample, prepared.command, apiKey),
		);
		for (const [index, { sample, apiKey }] of runs.entries()) {
			const { code, output } = results[index] ?? { code: null, output: 'not run' };
			// `go run` adds its own line when the program exits non-zero; the sample printed one.
			const lines = output
				.trim()
				.split('\n')
				.filter((line) => !(sample.runner === 'go' && line === 'exit status 1'));
			const refused =
				code !== 0 &&
				lines.length === 1 &&
				/API_KEY: export a key from a view page first$/.test(lines[0] ?? '') &&
				!/undefined|HTTP\/1\.1|\b40[01]\b/.test(output);
			if (!refused) {
				failures.push(
					`${sample.page} (${sample.runner}, API_KEY ${apiKey === undefined ? 'unset' : 'empty'}) ${sample.code}\n  exited ${String(code)}: ${output}`,
				);
			}
		}
		expect(failures).toEqual([]);
	}, 300_000);
});

describe('the QUERY samples of the 3.2 copy, with a querystring example', () => {
	/** The copy, with an example given to its controls parameter, as a contract may give one. */
	let contractFile: string;
	let queryMock: Started | undefined;
	let queryOrigin: string;

	beforeAll(async () => {
		const copy = path.join(ROOT, 'tests', 'fixtures', 'openapi-3-2', 'openapi.yaml');
		const document = parse(await readFile(copy, 'utf8')) as {
			paths: Record<string, { query: { parameters: Record<string, unknown>[] } }>;
		};
		const parameter = document.paths['/api/v2/users']?.query.parameters[0];
		expect(parameter).toMatchObject({ in: 'querystring' });
		if (parameter) parameter['example'] = { __code: '401', __example: 'invalid-key' };
		contractFile = path.join(scratch, 'openapi-3-2.yaml');
		await writeFile(contractFile, stringify(document));
		const port = await freePort();
		queryOrigin = `http://127.0.0.1:${port}`;
		queryMock = start(bin('node'), ['mock/cli.ts'], {
			env: { MOCK_PORT: String(port), MOCK_WORKERS: '1', PORTAL_OPENAPI: contractFile },
		});
		await waitForUrl(`${queryOrigin}/api/v2/users`, queryMock);
	}, 120_000);

	afterAll(async () => {
		await queryMock?.stop();
	});

	it('each send the querystring as copied, and the mock answers the controls it names', async () => {
		const { reference } = await readContract(contractFile);
		const operation = reference.operations.find(({ method }) => method === 'QUERY');
		expect(operation).toBeDefined();
		if (!operation) return;
		const { request } = operationSample(operation, queryOrigin);
		expect(request.querystring).toBe('__code=401&__example=invalid-key');
		const list: Sample[] = codeSamples(request).map(({ runner, code }) => ({
			page: 'QUERY /api/v2/users of the 3.2 copy',
			runner,
			code,
			view: undefined,
			status: 401,
		}));
		expect(list).toHaveLength(8);
		// A directory key: without the querystring the mock would answer its view's users.
		const apiKey = views[1]?.view.users[2]?.apiKey ?? '';
		const results = await pooled(list, AT_ONCE, (sample, index) =>
			runSample(sample, `query-${index}`, apiKey),
		);
		const failures: string[] = [];
		for (const [index, sample] of list.entries()) {
			const { code, output } = results[index] ?? { code: null, output: 'not run' };
			const answered =
				code === 0 &&
				/HTTP\/1\.1 401\b|"status": ?401\b|^401\b/.test(output) &&
				output.includes('https://portal.example/problems/invalid-key');
			if (!answered)
				failures.push(`(${sample.runner}) ${sample.code}\n  exited ${String(code)}: ${output}`);
		}
		expect(failures).toEqual([]);
	}, 300_000);
});
