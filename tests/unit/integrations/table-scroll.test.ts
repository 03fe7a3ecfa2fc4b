import { markdownToHtml } from 'satteri';
import { describe, expect, it } from 'vitest';
import { tableScroll, tableScrollLabel } from '../../../src/integrations/table-scroll.ts';

const TABLE = ['| You send | Status |', '| -------- | ------ |', '| no key   | 401    |'].join(
	'\n',
);

/** A guide's Markdown rendered with the plugin, as HTML. */
function render(markdown: string): string {
	return markdownToHtml(markdown, { features: { gfm: true }, hastPlugins: [tableScroll] }).html;
}

describe('a guide table on a phone scrolls in its own named box', () => {
	it('wraps the table in a focusable region named after the heading above it', () => {
		const html = render(`## Status codes\n\nSome text.\n\n${TABLE}\n`);
		expect(html).toMatch(
			/^<h2[^>]*>Status codes<\/h2>\n<p>Some text.<\/p>\n<section class="table-scroll" tabindex="0" aria-label="Table: Status codes"><table>/,
		);
		expect(html).toMatch(/<\/table><\/section>\s*$/);
	});

	it('names each of two tables after its own nearest heading', () => {
		const html = render(`## First\n\n${TABLE}\n\n### Second one\n\n${TABLE}\n`);
		expect(html.match(/aria-label="[^"]*"/g)).toEqual([
			'aria-label="Table: First"',
			'aria-label="Table: Second one"',
		]);
	});

	it('numbers the second and third tables under one heading, so no two boxes share a name', () => {
		const html = render(
			`## Images\n\n${TABLE}\n\nText.\n\n${TABLE}\n\n${TABLE}\n\n## Run\n\n${TABLE}\n`,
		);
		expect(html.match(/aria-label="[^"]*"/g)).toEqual([
			'aria-label="Table: Images"',
			'aria-label="Table 2: Images"',
			'aria-label="Table 3: Images"',
			'aria-label="Table: Run"',
		]);
		expect(render(`${TABLE}\n\n${TABLE}\n`).match(/aria-label="[^"]*"/g)).toEqual([
			'aria-label="Table"',
			'aria-label="Table 2"',
		]);
	});

	it('a table with no heading before it is named plainly', () => {
		expect(render(`${TABLE}\n`)).toContain('aria-label="Table"');
	});

	it.each([
		[undefined, 'Table'],
		['', 'Table'],
		['  Status\n  codes ', 'Table: Status codes'],
	])('label for heading %j is %j', (heading, label) => {
		expect(tableScrollLabel(heading)).toBe(label);
	});
});
