/** A guide as the MCP server gives it: readable Markdown, without MDX's imports and components. */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readGuides } from '../../../src/sources/guides.ts';
import { guideText, mdxToMarkdown } from '../../../mcp/guide-text.ts';
import type { MockWords } from '../../../src/site/mock-place.ts';
import { ROOT } from '../../../support/processes.ts';

const mock: MockWords = {
	url: 'https://mock.portal.example',
	local: false,
	heading: 'Call the mock',
	localUrl: 'http://127.0.0.1:4010',
};

const SHOWN = '(shown on the page /docs/x/)';

describe('a guide’s MDX as Markdown', () => {
	it('drops imports and exports, one line or several', () => {
		const body = [
			"import A from '../A.astro';",
			'import {',
			'\tB,',
			'\tC,',
			"} from '../b.ts';",
			"export const d = 'e';",
			'',
			'Prose.',
		].join('\n');
		expect(mdxToMarkdown(body, '/docs/x/', mock)).toBe('Prose.');
	});

	it('writes the mock’s address out, the shared one or a reader’s own', () => {
		expect(
			mdxToMarkdown('Shared <MockAddress />, own <MockAddress local />.', '/docs/x/', mock),
		).toBe('Shared https://mock.portal.example, own http://127.0.0.1:4010.');
	});

	it('writes the settings reference out as a table, each setting with its flag and default', () => {
		const text = mdxToMarkdown('<SettingsReference group="portal" />', '/docs/settings/', mock);
		const lines = text.split('\n');
		expect(lines[0]).toBe('| Variable | Flag | Default | What it changes | Read by |');
		const port = lines.find((line) => line.startsWith('| `MOCK_PORT` |'));
		expect(port).toMatch(
			/^\| `MOCK_PORT` \| `--mock-port <port>` \(npm start, npm run dev, npm run mcp\); `--port <port>` \(npm run mock\) \| 4010 \| .*npm run mock/,
		);
		expect(text).toContain('| `MOCK_ALLOWED_ORIGINS` |');
		expect(text).not.toContain('(shown on the page');
	});

	it('writes the problems guide out as tables, each problem with its status, title and advice', () => {
		const text = mdxToMarkdown('<ProblemTypes sender="console" />', '/docs/problems/', mock);
		const lines = text.split('\n');
		expect(lines[0]).toBe('| Problem | Status | Title | What went wrong | What to change |');
		expect(lines.find((line) => line.startsWith('| `missing-key` |'))).toBe(
			'| `missing-key` | 401 | A directory key is required | The request carries no bearer credentials: no `Authorization` header, an empty one, or another scheme such as Basic. | Send a key from a view\'s directory as "`Authorization`: Bearer <key>". |',
		);
		expect(text).not.toContain('(shown on the page');
	});

	it('points to the page for a component or an expression, whatever its braces and quotes hold', () => {
		const body = [
			'A key looks like {KEY_SHAPE}.',
			'',
			'<CodeBlock',
			'  language="http"',
			'  code={`GET ${path} HTTP/1.1\\n{"a": "}"}`}',
			'/>',
			'',
			'<Note>Keep **this**.</Note> and <code>{PREFIX}</code>.',
		].join('\n');
		expect(mdxToMarkdown(body, '/docs/x/', mock)).toBe(
			[`A key looks like ${SHOWN}.`, '', SHOWN, '', `Keep **this**. and \`${SHOWN}\`.`].join('\n'),
		);
	});

	it('leaves code blocks, inline code and autolinks as written', () => {
		const body = [
			'Run `<Tag>{x}</Tag>` or see <https://portal.example/docs/>.',
			'',
			'```json',
			'{ "mcpServers": { "a": <B /> } }',
			'```',
		].join('\n');
		expect(mdxToMarkdown(body, '/docs/x/', mock)).toBe(body);
	});

	it('leaves no import, component or expression in any guide of the portal', async () => {
		const guides = await readGuides(path.join(ROOT, 'content/docs'));
		expect(guides.length).toBeGreaterThan(3);
		for (const guide of guides) {
			const text = guideText(guide, mock);
			expect(text.startsWith(`# ${guide.title}\n\n${guide.description}\n\n`), guide.id).toBe(true);
			const prose = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
			expect(prose, guide.id).not.toMatch(/^import |<[A-Z][A-Za-z]*[\s/>]|[{}]/m);
		}
	});
});
