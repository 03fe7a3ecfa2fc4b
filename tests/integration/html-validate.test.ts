/**
 * Every built page passes html-validate's recommended rules: among them, each landmark appears
 * once and has a name, so a screen reader's landmark list reads like the page.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { HtmlValidate } from 'html-validate';
import { describe, expect, inject, it } from 'vitest';

const distDir = inject('distDir');

const validator = new HtmlValidate({ extends: ['html-validate:recommended'] });

/** Every HTML page of the build, as a path under dist. */
async function htmlPages(): Promise<string[]> {
	const entries = await readdir(distDir, { withFileTypes: true, recursive: true });
	return entries
		.filter((file) => file.isFile() && file.name.endsWith('.html'))
		.map((file) => path.relative(distDir, path.join(file.parentPath, file.name)))
		.sort();
}

describe('the built HTML', () => {
	it("passes html-validate's recommended preset on every page, landmarks named once", async () => {
		const pages = await htmlPages();
		expect(pages).toContain('index.html');
		expect(pages).toContain('views/production/index.html');
		expect(pages.length).toBeGreaterThan(10);
		const problems: string[] = [];
		for (const page of pages) {
			const report = await validator.validateFile(path.join(distDir, page));
			for (const { messages } of report.results) {
				for (const { line, column, ruleId, message, selector } of messages) {
					problems.push(`${page}:${line}:${column} ${ruleId}: ${message} (${selector ?? ''})`);
				}
			}
		}
		expect(problems).toEqual([]);
	});
});
