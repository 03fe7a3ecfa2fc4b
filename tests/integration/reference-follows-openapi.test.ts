/**
 * The reference page is rendered from openapi.yaml, never copied: a build pointed at a changed
 * copy (PORTAL_OPENAPI) shows the change, and a broken copy fails with the file and field.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, childEnv, ROOT } from '../../support/processes.ts';

let folder: string;

/** Builds the portal with another OpenAPI document; returns the exit status and output. */
function buildWith(openApiFile: string, outDir: string): { status: number | null; output: string } {
	const result = spawnSync(bin('astro'), ['build', '--outDir', outDir], {
		cwd: ROOT,
		env: childEnv({
			PORTAL_OPENAPI: openApiFile,
			MOCK_PORT: '4599',
			FORCE_COLOR: '0',
			NO_COLOR: '1',
		}),
		encoding: 'utf8',
		timeout: 300_000,
	});
	return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-openapi-'));
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe('the reference page follows openapi.yaml', () => {
	it('shows a changed summary, a new query parameter, a new response and the mock it was built for', async () => {
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
		const outDir = path.join(folder, 'dist');
		const build = buildWith(copy, outDir);
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
	});

	it('fails the build naming the file and the field when the copy breaks the contract', async () => {
		const document = parseDocument(await readFile(path.join(ROOT, 'openapi.yaml'), 'utf8'));
		// OpenAPI 3.2 lets a response leave its description out, but not write it as other than text.
		document.setIn(['paths', '/api/v2/users', 'get', 'responses', '200', 'description'], 42);
		const copy = path.join(folder, 'broken.yaml');
		await writeFile(copy, document.toString());
		const build = buildWith(copy, path.join(folder, 'broken-dist'));
		expect(build.status).not.toBe(0);
		expect(build.output).toContain(`${copy}: paths./api/v2/users.get.responses.200.description`);
	});
});
