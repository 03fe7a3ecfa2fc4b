/**
 * A guide as the MCP server gives it. The portal's guide twins render the MDX with Astro (its
 * components included), which the server, running without the build, cannot do; this turns the
 * MDX source into readable Markdown instead: the imports and exports go, the mock's address
 * components become the address the pages write out, the settings reference's tables are written
 * out from the table of settings and the problems guide's from the table of problems, a component
 * around prose keeps the prose,
 * and any other component or expression becomes a pointer to the HTML page that shows it. Code
 * blocks stay as written.
 */
import type { GuideSource } from '../src/sources/guides.ts';
import { guideHref } from '../src/shared/urls.ts';
import type { MockWords } from '../src/site/mock-place.ts';
import { problemsMarkdown } from '../src/site/problem-reference.ts';
import { settingsMarkdown } from '../src/site/settings-reference.ts';

/** A fenced code block, kept whole: its braces and angle brackets are code, not MDX. */
const FENCE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm;

/** An `import` or `export` statement, over one line or several (up to its `from '…'`). */
const STATEMENT = /^(import|export)\s[\s\S]*?(?:from\s+['"][^'"]+['"]|['"][^'"]+['"]);?[ \t]*$/gm;

/**
 * Where a JavaScript expression that opens at `start` (a `{`) closes: braces balanced, strings and
 * template literals (with their `${…}`) skipped. The end of the text when it never closes.
 */
function expressionEnd(text: string, start: number): number {
	let depth = 0;
	for (let at = start; at < text.length; at++) {
		const char = text[at];
		if (char === '"' || char === "'" || char === '`') {
			for (at++; at < text.length && text[at] !== char; at++) {
				if (text[at] === '\\') at++;
				else if (char === '`' && text[at] === '$' && text[at + 1] === '{') {
					at = expressionEnd(text, at + 1) - 1;
				}
			}
		} else if (char === '{') depth++;
		else if (char === '}' && --depth === 0) return at + 1;
	}
	return text.length;
}

/** Where an opening tag that starts at `start` (its `<`) ends, and whether it closes itself. */
function tagEnd(text: string, start: number): { end: number; selfClosing: boolean } {
	for (let at = start + 1; at < text.length; at++) {
		const char = text[at];
		if (char === '{') at = expressionEnd(text, at) - 1;
		else if (char === '"' || char === "'") {
			at = text.indexOf(char, at + 1);
			if (at === -1) break;
		} else if (char === '>') return { end: at + 1, selfClosing: text[at - 1] === '/' };
	}
	return { end: text.length, selfClosing: true };
}

/** MDX prose with its components and expressions replaced (see the module's comment). */
function plainProse(prose: string, shown: string, mock: MockWords): string {
	let result = '';
	let at = 0;
	while (at < prose.length) {
		const char = prose[at] ?? '';
		if (char === '`') {
			// An inline code span, kept as written: its braces and tags are code.
			const ticks = /^`+/.exec(prose.slice(at))?.[0] ?? '`';
			const close = prose.indexOf(ticks, at + ticks.length);
			const end = close === -1 ? at + ticks.length : close + ticks.length;
			result += prose.slice(at, end);
			at = end;
			continue;
		}
		if (char === '{') {
			result += shown;
			at = expressionEnd(prose, at);
			continue;
		}
		const name =
			char === '<' ? /^<([A-Za-z][\w.]*)(?=[\s/>])/.exec(prose.slice(at))?.[1] : undefined;
		if (!name) {
			result += char;
			at++;
			continue;
		}
		const { end, selfClosing } = tagEnd(prose, at);
		const attributes = prose.slice(at + name.length + 1, end);
		let inner: string | undefined;
		at = end;
		if (!selfClosing) {
			const close = prose.indexOf(`</${name}>`, end);
			inner = prose.slice(end, close === -1 ? prose.length : close);
			at = close === -1 ? prose.length : close + name.length + 3;
		}
		if (name === 'MockAddress') result += /\blocal\b/.test(attributes) ? mock.localUrl : mock.url;
		// The settings reference's tables, from the one table of settings the page renders.
		else if (name === 'SettingsReference') {
			const group = /\bgroup="([^"]*)"/.exec(attributes)?.[1] ?? '';
			result += settingsMarkdown(group);
		}
		// The problems guide's tables, from the one table of problems the page renders.
		else if (name === 'ProblemTypes') {
			result += problemsMarkdown(/\bsender="([^"]*)"/.exec(attributes)?.[1] ?? '');
		}
		// An element around prose (a term, an address, inline code) keeps the prose.
		else if (inner !== undefined && inner.trim() !== '') {
			const text = plainProse(inner, shown, mock);
			result += name === 'code' ? `\`${text}\`` : text;
		} else result += shown;
	}
	return result;
}

/** Text outside code blocks, changed by `change`; code blocks untouched. */
function outsideCode(text: string, change: (prose: string) => string): string {
	let result = '';
	let last = 0;
	for (const match of text.matchAll(FENCE)) {
		result += change(text.slice(last, match.index)) + match[0];
		last = match.index + match[0].length;
	}
	return result + change(text.slice(last));
}

/** The Markdown of a guide's MDX body (see the module's comment); `page` is its HTML page. */
export function mdxToMarkdown(body: string, page: string, mock: MockWords): string {
	const shown = `(shown on the page ${page})`;
	const markdown = outsideCode(body, (prose) =>
		plainProse(prose.replace(STATEMENT, ''), shown, mock),
	);
	return markdown.replace(/\n{3,}/g, '\n\n').trim();
}

/** A guide as Markdown: its title, its description, and its body (see `mdxToMarkdown`). */
export function guideText(guide: GuideSource, mock: MockWords): string {
	const body = mdxToMarkdown(guide.body, guideHref(guide.id), mock);
	return `# ${guide.title}\n\n${guide.description}\n\n${body}\n`;
}
