import { markdownToHtml } from 'satteri';
import { describe, expect, it } from 'vitest';
import { codeBlocks, fenceLanguage } from '../../../src/integrations/code-blocks.ts';
import { copyWhat } from '../../../src/site/code-block.ts';

/** A guide's Markdown rendered with the plugin, as HTML. */
async function render(markdown: string): Promise<string> {
	return (await markdownToHtml(markdown, { hastPlugins: [codeBlocks] })).html;
}

describe("a guide's Markdown code block", () => {
	it('is highlighted with the classes every code block uses, and names its language', async () => {
		const html = await render('Run it:\n\n```sh\nnpm run mock\n```\n');
		expect(html).toContain(
			'<pre data-language="sh"><code><span class="f">npm </span><span class="s">run mock</span></code></pre>',
		);
		expect(html).not.toContain('style=');
	});

	it('keeps a block without a language as plain, escaped text', async () => {
		const html = await render('```\n[mock] 8 views <ok> & more\n```\n');
		expect(html).toContain('<pre><code>[mock] 8 views &lt;ok&gt; &amp; more</code></pre>');
	});

	it('stops the build at a language the highlighter does not know, naming it', async () => {
		await expect(render('```cobol\nDISPLAY "x".\n```\n')).rejects.toThrow(/"cobol"/);
	});

	it.each([
		[['language-json'], 'json'],
		[['other', 'language-http'], 'http'],
		[[], undefined],
	])('reads the language of classes %j as %j', (className, language) => {
		expect(
			fenceLanguage({ type: 'element', tagName: 'code', properties: { className }, children: [] }),
		).toBe(language);
	});
});

describe("a code block's copy button", () => {
	it.each([
		['sh', 'the command'],
		['json', 'the JSON'],
		['http', 'the request'],
		['python', 'the Python code'],
		[undefined, 'the code'],
	])('for %j copies %j', (language, what) => {
		expect(copyWhat(language)).toBe(what);
	});
});
