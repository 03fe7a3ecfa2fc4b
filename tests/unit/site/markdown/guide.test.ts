/** A guide's twin, from the guide as the portal renders it to HTML. */
import { describe, expect, it } from 'vitest';
import {
	guideMarkdown,
	htmlToMarkdownBlocks,
	twinLink,
} from '../../../../src/site/markdown/guide.ts';
import { markdownText } from '../../../../src/site/markdown/mdast.ts';
import {
	allNodes,
	codeBlocksOf,
	linksOf,
	parseMarkdown,
	textOf,
} from '../../../support/markdown.ts';

/** The Markdown of an HTML fragment, as a guide's twin writes it. */
const markdown = (html: string): string => markdownText(htmlToMarkdownBlocks(html));

describe('a guide’s twin', () => {
	it('opens with the guide’s title and description, then its body', () => {
		const text = guideMarkdown(
			{ title: 'The mock server', description: 'Start the live mock.' },
			'<p>It listens on <code>http://127.0.0.1:4010</code>.</p><h2 id="start-it">Start it</h2>',
		);
		expect(text).toBe(
			'# The mock server\n\nStart the live mock.\n\nIt listens on `http://127.0.0.1:4010`.\n\n## Start it\n',
		);
	});

	it('keeps a command exactly as the page shows it, in the language its block names', () => {
		const command =
			'curl -H "Authorization: Bearer ${API_KEY:?export a key from a view page first}" http://127.0.0.1:4010/api/v2/users';
		const html = [
			`<pre class="wrap" data-language="sh" data-sample="sh"><code>${command.replaceAll('"', '&quot;')}</code></pre>`,
			'<pre class="language-js"><code class="language-js"><span class="token">const</span> a = 1;</code></pre>',
			// As Shiki writes it: a line per span, the language on the pre.
			'<pre class="astro-code" data-language="python"><code><span class="line">import os</span>\n<span class="line">print(1)</span></code></pre>',
			'<pre><code>plain log line</code></pre>',
		].join('\n');
		expect(codeBlocksOf(markdown(html))).toEqual([
			{ lang: 'sh', value: command },
			{ lang: 'js', value: 'const a = 1;' },
			{ lang: 'python', value: 'import os\nprint(1)' },
			{ lang: null, value: 'plain log line' },
		]);
	});

	it('leaves out what only works in a page: buttons, scripts, styles and hidden parts', () => {
		const html = `
			<div class="block-head"><h4>curl</h4><button type="button" data-copy="x">Copy</button></div>
			<div role="tablist" hidden><button role="tab">curl</button><button role="tab">HTTPie</button></div>
			<script>alert(1)</script><style>p { color: red }</style><template><p>later</p></template>
			<span aria-hidden="true">ICON</span>
			<p>Kept</p>`;
		const text = markdown(html);
		expect(text).not.toMatch(/Copy|HTTPie|alert|color|later|ICON/);
		expect(textOf(parseMarkdown(text))).toBe('curlKept');
	});

	it('keeps tables, with their caption before them', () => {
		const html =
			'<section class="table-scroll"><table><caption>Views by label</caption><thead><tr><th>Label</th><th>Views</th></tr></thead><tbody><tr><td><code>v5.8</code></td><td>a | b</td></tr></tbody></table></section>';
		const tree = parseMarkdown(markdown(html));
		expect(textOf(tree.children![0]!)).toBe('Views by label');
		const rows = allNodes(tree)
			.filter((node) => node.type === 'tableRow')
			.map((row) => (row.children ?? []).map(textOf));
		expect(rows).toEqual([
			['Label', 'Views'],
			['v5.8', 'a | b'],
		]);
	});

	it('leads a link to a portal page to its twin, and leaves files and other sites alone', () => {
		const html = [
			'<a href="/docs/mock-server/">a</a>',
			'<a href="/reference/#get-api-v2-users">b</a>',
			'<a href="/">c</a>',
			'<a href="/openapi.json">d</a>',
			'<a href="/compare/">e</a>',
			'<a href="https://stoplight.io/open-source/prism">f</a>',
		].join(' ');
		expect(linksOf(markdown(`<p>${html}</p>`))).toEqual([
			'/docs/mock-server.md',
			'/reference.md#get-api-v2-users',
			'/index.md',
			'/openapi.json',
			'/compare/',
			'https://stoplight.io/open-source/prism',
		]);
		expect(twinLink('//evil.example/x/')).toBe('//evil.example/x/');
		expect(twinLink('#local')).toBe('#local');
	});
});
