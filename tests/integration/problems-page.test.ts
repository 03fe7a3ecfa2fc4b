/**
 * The problems guide the portal serves (/docs/problems/), generated from the one table of
 * problems: a row for every problem, anchored by the name its `type` ends with, in its Markdown
 * twin too, listed in llms.txt, and found by search.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadIndex, type PagefindIndex } from '../../mcp/pagefind.ts';
import { PROBLEM_TYPES } from '../../src/shared/problems.ts';
import { indexFiles } from '../support/pagefind-files.ts';

const distDir = inject('distDir');
let page: string;
let twin: string;
let index: PagefindIndex;

/** Text as the built HTML writes it. */
const html = (text: string): string =>
	text
		.replaceAll('&', '&amp;')
		.replaceAll('<', '&lt;')
		.replaceAll('>', '&gt;')
		.replaceAll("'", '&#39;')
		.replaceAll('"', '&quot;');

beforeAll(async () => {
	page = await readFile(path.join(distDir, 'docs/problems/index.html'), 'utf8');
	twin = await readFile(path.join(distDir, 'docs/problems.md'), 'utf8');
	index = await loadIndex(await indexFiles(path.join(distDir, 'pagefind')));
});

afterAll(async () => {
	await index?.destroy();
});

describe('the problems guide at /docs/problems/', () => {
	it('has a row for every problem, its id the name its type ends with, with status and title', () => {
		for (const problem of PROBLEM_TYPES) {
			const row = new RegExp(`<tr id="${problem.name}"[^>]*>([\\s\\S]*?)</tr>`).exec(page)?.[1];
			expect(row, problem.name).toBeDefined();
			expect(row).toContain(`<code>${problem.name}</code>`);
			expect(row).toContain(`>${problem.status}<`);
			expect(row).toContain(html(problem.title));
		}
	});

	it('links a setting its advice names to the settings reference', () => {
		const row = /<tr id="upstream-timeout"[^>]*>([\s\S]*?)<\/tr>/.exec(page)?.[1];
		expect(row).toContain(
			'<a href="/docs/settings/#MOCK_UPSTREAM_TIMEOUT_MS"><code>MOCK_UPSTREAM_TIMEOUT_MS</code></a>',
		);
	});

	it('has a Markdown twin that names every problem and its title too, and llms.txt lists it', async () => {
		for (const problem of PROBLEM_TYPES) {
			expect(twin, problem.name).toContain(problem.name);
			expect(twin, problem.name).toContain(problem.title);
		}
		const llms = await readFile(path.join(distDir, 'llms.txt'), 'utf8');
		expect(llms).toContain('/docs/problems.md');
	});

	it('is found by search for a problem a reader looks up by its name', async () => {
		const result = await index.search('upstream-timeout', undefined);
		const hits = await result.hits(10);
		expect(hits.map((hit) => hit.url)).toContain('/docs/problems/');
	});
});
