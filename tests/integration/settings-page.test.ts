/**
 * The settings reference the portal serves (/docs/settings/), generated from the one table of
 * settings: every setting on it, with its flag and default, in its Markdown twin too, and found
 * by search.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadIndex, type PagefindIndex } from '../../mcp/pagefind.ts';
import { indexFiles } from '../support/pagefind-files.ts';
import { defaultText, flagsOf } from '../../src/sources/command-line.ts';
import { SETTING_LIST } from '../../src/sources/settings.ts';

const distDir = inject('distDir');
let page: string;
let twin: string;
let index: PagefindIndex;

beforeAll(async () => {
	page = await readFile(path.join(distDir, 'docs/settings/index.html'), 'utf8');
	twin = await readFile(path.join(distDir, 'docs/settings.md'), 'utf8');
	index = await loadIndex(await indexFiles(path.join(distDir, 'pagefind')));
});

afterAll(async () => {
	await index?.destroy();
});

describe('the settings reference at /docs/settings/', () => {
	it('shows every setting the table holds, each in a row of its own with its default', () => {
		for (const setting of SETTING_LIST) {
			const row = new RegExp(`<tr id="${setting.name}"[^>]*>([\\s\\S]*?)</tr>`).exec(page)?.[1];
			expect(row, setting.name).toBeDefined();
			expect(row).toContain(`<code>${setting.name}</code>`);
			const shown = defaultText(setting)
				.replaceAll('&', '&amp;')
				.replaceAll('<', '&lt;')
				.replaceAll('>', '&gt;')
				.replaceAll("'", '&#39;')
				.replaceAll('"', '&quot;');
			expect(row, setting.name).toContain(shown);
		}
	});

	it("shows each command's flags beside their variables", () => {
		for (const { flag, setting } of [...flagsOf('mock'), ...flagsOf('conform')]) {
			const row = new RegExp(`<tr id="${setting.name}"[^>]*>([\\s\\S]*?)</tr>`).exec(page)?.[1];
			expect(row, setting.name).toContain(`--${flag}`);
		}
	});

	it('has a Markdown twin that names every setting too', () => {
		for (const setting of SETTING_LIST) expect(twin, setting.name).toContain(setting.name);
		expect(twin).toContain('| Variable');
	});

	it('is found by search for a variable a reader looks up', async () => {
		const result = await index.search('MOCK_UPSTREAM_TIMEOUT_MS', undefined);
		const hits = await result.hits(10);
		expect(hits.map((hit) => hit.url)).toContain('/docs/settings/');
	});
});
