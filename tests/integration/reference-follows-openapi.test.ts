/**
 * The reference page is rendered from openapi.yaml, never copied: a build pointed at a changed
 * copy (PORTAL_OPENAPI) shows the change, and a broken copy fails with the file and field. Both
 * build two of the views: the reference page is the same whatever the views, and two make fewer
 * pages than all eight.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortalAsync, type BuildResult } from '../../support/build.ts';
import { ROOT } from '../../support/processes.ts';

let folder: string;
/** The two views both builds read. */
const VIEWS = ['production.json', 'staging-us-east.json'];
let viewsDir: string;

/**
 * Builds the portal with another OpenAPI document, beside any other build of this file (each in a
 * folder of its own, support/build.ts); returns the exit status and output.
 */
function buildWith(openApiFile: string, outDir: string): Promise<BuildResult> {
	return buildPortalAsync(outDir, viewsDir, { PORTAL_OPENAPI: openApiFile, MOCK_PORT: '4599' });
}

/** The contract with a changed summary, a new query parameter and a new response, as a file. */
async function changedCopy(): Promise<string> {
	const document = parseDocument(await readFile(path.join(ROOT, 'openapi.yaml'), 'utf8'));
	document.setIn(['paths', '/api/v2/users', 'get', 'summary'], 'List the directory, changed');
	// The first server is the mock, whatever the file says: MOCK_PORT of the build names it.
	document.setIn(['servers', 0, 'url'], 'http://127.0.0.1:4010');
	document.setIn(
		['paths', '/api/v2/users', 'get', 'parameters'],
		[
			{
				name: 'role',
				in: 'query',
				required: true,
				description: 'Only users with this role.',
				schema: { type: 'string' },
				example: 'admin',
			},
		],
	);
	document.setIn(['paths', '/api/v2/users', 'get', 'responses', '429'], {
		description: 'Too many requests; wait before trying again.',
		headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
	});
	const copy = path.join(folder, 'changed.yaml');
	await writeFile(copy, document.toString());
	return copy;
}

/** The contract with a response's description written as a number, as a file. */
async function brokenCopy(): Promise<string> {
	const document = parseDocument(await readFile(path.join(ROOT, 'openapi.yaml'), 'utf8'));
	// OpenAPI 3.2 lets a response leave its description out, but not write it as other than text.
	document.setIn(['paths', '/api/v2/users', 'get', 'responses', '200', 'description'], 42);
	const copy = path.join(folder, 'broken.yaml');
	await writeFile(copy, document.toString());
	return copy;
}

/** How long a test waits for its build, which runs beside the other (support/build.ts's limit). */
const BUILD_WAIT_MS = 300_000;

/** The two builds, made side by side: with the changed copy and with the broken one. */
let changed: Promise<BuildResult & { outDir: string }>;
let broken: Promise<BuildResult & { copy: string }>;

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-openapi-'));
	viewsDir = path.join(folder, 'views');
	await mkdir(viewsDir);
	for (const view of VIEWS) {
		await copyFile(path.join(ROOT, 'content', 'views', view), path.join(viewsDir, view));
	}
	const [changedFile, brokenFile] = await Promise.all([changedCopy(), brokenCopy()]);
	const outDir = path.join(folder, 'dist');
	changed = buildWith(changedFile, outDir).then((result) => ({ ...result, outDir }));
	broken = buildWith(brokenFile, path.join(folder, 'broken-dist')).then((result) => ({
		...result,
		copy: brokenFile,
	}));
	// Each is awaited by its test; afterAll waits for both before the folder goes.
	changed.catch(() => undefined);
	broken.catch(() => undefined);
});

afterAll(async () => {
	await Promise.allSettled([changed, broken]);
	await rm(folder, { recursive: true, force: true });
});

describe('the reference page follows openapi.yaml', () => {
	it(
		'shows a changed summary, a new query parameter, a new response and the mock it was built for',
		async () => {
			const build = await changed;
			const outDir = build.outDir;
			expect(build.status, build.output).toBe(0);
			const html = await readFile(path.join(outDir, 'reference/index.html'), 'utf8');
			const text = html
				.replace(/<(style|script)[^>]*>[\s\S]*?<\/\1>/g, ' ')
				.replace(/<[^>]+>/g, ' ')
				.replace(/\s+/g, ' ')
				.replaceAll('&quot;', '"')
				.replaceAll('&#39;', "'")
				.replaceAll('&lt;', '<')
				.replaceAll('&gt;', '>')
				.replaceAll('&amp;', '&');
			expect(text).toContain('List the directory, changed');
			expect(text).toContain('role required query · string Only users with this role.');
			expect(text).toContain('429');
			expect(text).toContain('Too many requests; wait before trying again.');
			expect(text).toContain('Retry-After');
			// A sample as the page shows it: the text of its code block, highlighted tokens and all.
			const $ = load(html);
			const samples = $('pre[data-sample]')
				.map((_index, pre) => $(pre).text())
				.get();
			expect(samples).toContain(
				`curl \\\n  -H "Authorization: Bearer \${API_KEY:?export a key from a view page first}" \\\n  'http://127.0.0.1:4599/api/v2/users?role=admin'`,
			);
			expect(text).not.toContain("List the directory's users");
		},
		BUILD_WAIT_MS,
	);

	it(
		'fails the build naming the file and the field when the copy breaks the contract',
		async () => {
			const build = await broken;
			expect(build.status).not.toBe(0);
			expect(build.output).toContain(
				`${build.copy}: paths./api/v2/users.get.responses.200.description`,
			);
		},
		BUILD_WAIT_MS,
	);
});
