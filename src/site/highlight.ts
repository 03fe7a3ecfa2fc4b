/**
 * Build-time syntax highlighting for every code block of the portal, with Shiki. A token is
 * marked with a one-letter class for its kind (`<span class="k">`), never an inline style: the
 * Content-Security-Policy allows no inline styles, and global.css gives each class its colour in
 * light and dark. Adjacent tokens of one kind, and the spaces between them, share one span; a
 * token of plain text has none. No script is needed in the page.
 */
import type { Element, ElementContent } from 'hast';
import {
	createHighlighter,
	type BundledLanguage,
	type Highlighter,
	type ThemeRegistration,
} from 'shiki';

/** The kinds of token that get a colour, by class: what global.css colours them as. */
export const TOKEN_CLASSES = {
	/** Comments. */
	c: ['comment', 'punctuation.definition.comment', 'string.quoted.docstring'],
	/** Strings, and an HTTP header's value. */
	s: ['string', 'string.other.http', 'markup.inline.raw'],
	/** Keywords, storage words (`const`, `def`), an HTTP method, `${` `}` in a template. */
	k: [
		'keyword',
		'storage',
		'variable.language',
		'keyword.control.http',
		'punctuation.definition.template-expression',
	],
	/** Numbers, `true`, `null` and other constants, a command's options (`-H`). */
	n: ['constant', 'support.constant', 'constant.other.option'],
	/** Function and command names, types and classes. */
	f: [
		'entity.name.function',
		'support.function',
		'meta.function-call.generic',
		'entity.name.command',
		'entity.name.type',
		'entity.name.class',
		'support.class',
	],
	/** Keys: a JSON member's name, an object literal's key, an HTTP header's name. */
	p: ['support.type.property-name', 'meta.object-literal.key', 'entity.name.tag'],
	/** A variable read in a shell string (`${API_KEY}`), a parameter's name. */
	v: ['variable.other.normal.shell', 'variable.parameter', 'punctuation.definition.variable'],
} as const;

/** The class of a kind of token. */
export type TokenClass = keyof typeof TOKEN_CLASSES;

/** Plain text: no span, the code block's own colour. */
const PLAIN = '#000000';

/**
 * Scopes that stay plain although a broader scope has a kind: operators (`=`), the code inside a
 * template's `${…}`, and a shell line's closing backslash, which reads as punctuation.
 */
const PLAIN_SCOPES = [
	'keyword.operator',
	'meta.template.expression',
	'meta.embedded',
	'constant.character.escape.line-continuation',
];

const CLASSES = Object.keys(TOKEN_CLASSES) as TokenClass[];

/** Each kind's stand-in colour in the theme Shiki is given; the colour is read back as the class. */
const colourOf = (index: number): string => `#0000${(index + 1).toString(16).padStart(2, '0')}`;
const CLASS_OF_COLOUR = new Map<string, TokenClass>(
	CLASSES.map((name, index) => [colourOf(index).toUpperCase(), name]),
);

/** A theme whose colours are stand-ins for the kinds of token, never painted. */
const KINDS_THEME: ThemeRegistration = {
	name: 'console-portal-kinds',
	type: 'light',
	colors: { 'editor.foreground': PLAIN, 'editor.background': '#ffffff' },
	tokenColors: [
		...CLASSES.map((name, index) => ({
			scope: [...TOKEN_CLASSES[name]],
			settings: { foreground: colourOf(index) },
		})),
		// Later rules win over earlier ones of the same depth, and deeper scopes over broader ones.
		{ scope: PLAIN_SCOPES, settings: { foreground: PLAIN } },
	],
};

/** The languages highlighted, by the names the portal and its guides use. */
const LANGUAGES = [
	'shellscript',
	'json',
	'javascript',
	'typescript',
	'python',
	'http',
	'yaml',
	'go',
	'ruby',
	'php',
	'java',
	'powershell',
	'csharp',
] as const;

/** Names that mean plain text: no highlighting. */
const PLAIN_LANGUAGES = new Set(['', 'text', 'plaintext', 'txt', 'plain', 'log']);

declare global {
	/**
	 * The one highlighter of a process. A build loads this module more than once (the guides'
	 * Markdown plugin with the config, the pages' bundle, the content layer), and each copy made a
	 * highlighter of its own: three at a build, each with its grammars and its WebAssembly memory
	 * (17 to 50 MB), kept to the build's end.
	 */
	var consolePortalHighlighter: Promise<Highlighter> | undefined;
}

/** The one highlighter of a build, made when first asked for and shared by every copy of this module. */
function loadHighlighter(): Promise<Highlighter> {
	globalThis.consolePortalHighlighter ??= createHighlighter({
		themes: [KINDS_THEME],
		langs: [...LANGUAGES],
	});
	return globalThis.consolePortalHighlighter;
}

/** A run of code: its text and the class of its kind, none for plain text. */
export interface CodeRun {
	text: string;
	kind?: TokenClass | undefined;
}

/** Adds a token to the runs: merged into the last run when of its kind, or only whitespace. */
function pushRun(runs: CodeRun[], text: string, kind: TokenClass | undefined): void {
	const last = runs.at(-1);
	if (last && (last.kind === kind || /^\s*$/.test(text))) last.text += text;
	else runs.push(kind ? { text, kind } : { text });
}

/**
 * The code as runs of tokens, each marked with its kind. `language` is a name or alias Shiki
 * knows among the portal's languages (`sh`, `json`, `js`, `python`, `http`, `go`, …); none, or
 * `text`, is plain text. An unknown language is an error naming it and the languages known.
 */
export async function highlightRuns(code: string, language?: string): Promise<CodeRun[]> {
	const name = (language ?? '').trim().toLowerCase();
	if (PLAIN_LANGUAGES.has(name)) return code === '' ? [] : [{ text: code }];
	const shiki = await loadHighlighter();
	const known = shiki.getLoadedLanguages();
	const isLoaded = (candidate: string): candidate is BundledLanguage => known.includes(candidate);
	if (!isLoaded(name)) {
		throw new Error(
			`Code block: no highlighting for the language "${language ?? ''}"; expected one of ` +
				`${[...PLAIN_LANGUAGES].filter(Boolean).join(', ')}, ${[...known].sort().join(', ')}`,
		);
	}
	// No time limit per line (Shiki's default is 500 ms): on a loaded build machine a line would
	// otherwise be cut after its first tokens and ship uncoloured; our code blocks are short.
	const lines = shiki.codeToTokensBase(code, {
		lang: name,
		theme: KINDS_THEME,
		tokenizeTimeLimit: 0,
	});
	const runs: CodeRun[] = [];
	lines.forEach((line, index) => {
		if (index > 0) pushRun(runs, '\n', undefined);
		for (const token of line) {
			pushRun(runs, token.content, CLASS_OF_COLOUR.get((token.color ?? PLAIN).toUpperCase()));
		}
	});
	return runs;
}

const escapeHtml = (text: string): string =>
	text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** The runs as the HTML inside a `<code>`: `<span class="k">` per run of a kind, text escaped. */
export function runsToHtml(runs: readonly CodeRun[]): string {
	return runs
		.map(({ text, kind }) =>
			kind ? `<span class="${kind}">${escapeHtml(text)}</span>` : escapeHtml(text),
		)
		.join('');
}

/** The runs as HTML-tree nodes, for a Markdown plugin: the same spans as `runsToHtml`. */
export function runsToHast(runs: readonly CodeRun[]): ElementContent[] {
	return runs.map(({ text, kind }): ElementContent => {
		if (!kind) return { type: 'text', value: text };
		const span: Element = {
			type: 'element',
			tagName: 'span',
			properties: { className: [kind] },
			children: [{ type: 'text', value: text }],
		};
		return span;
	});
}

/** The highlighted HTML of some code, for the inside of its `<code>` element. */
export async function highlightHtml(code: string, language?: string): Promise<string> {
	return runsToHtml(await highlightRuns(code, language));
}
