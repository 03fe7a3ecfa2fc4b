/**
 * A small JSON tokenizer for the try-it panel's answer body, so it is coloured as the page's code
 * is (src/site/highlight.ts marks tokens at build time; no highlighter reaches the browser). It
 * gives each token the class the page's code blocks use for its kind: `p` for a member's name,
 * `s` for a string, `n` for a number, `true`, `false` or `null`; punctuation and anything else
 * stay plain. It never fails: text that is not JSON (a body cut short) is marked as far as it
 * reads as JSON, and the rest stays plain.
 */

/** A kind of token that gets a colour: the page's code-block classes (global.css, `pre .p`). */
export type JsonTokenKind = 'p' | 's' | 'n';

/** A run of text: coloured as `kind`, or plain when it has none. */
export interface JsonToken {
	text: string;
	kind?: JsonTokenKind;
}

/** A string with its quotes, up to the closing quote or the end of the text. */
const STRING = /"(?:[^"\\\n]|\\.)*"?/y;

/** A JSON number. */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The literals. */
const LITERAL = /(?:true|false|null)(?![\w.+-])/y;

/** Spaces, then a colon: what follows a member's name. */
const NAME_END = /\s*:/y;

/** Splits a JSON text into coloured tokens and plain runs; their texts joined give the text back. */
export function jsonTokens(text: string): JsonToken[] {
	const tokens: JsonToken[] = [];
	let plain = '';
	const push = (token: string, kind: JsonTokenKind): void => {
		if (plain) tokens.push({ text: plain });
		plain = '';
		tokens.push({ text: token, kind });
	};
	const match = (pattern: RegExp, at: number): string | undefined => {
		pattern.lastIndex = at;
		return pattern.exec(text)?.[0] || undefined;
	};
	let at = 0;
	while (at < text.length) {
		const character = text[at] ?? '';
		let token: string | undefined;
		if (character === '"' && (token = match(STRING, at))) {
			push(token, match(NAME_END, at + token.length) ? 'p' : 's');
		} else if (/[-\d]/.test(character) && (token = match(NUMBER, at))) {
			push(token, 'n');
		} else if (/[tfn]/.test(character) && (token = match(LITERAL, at))) {
			push(token, 'n');
		} else {
			// A word that is not a literal (`nullx`) stays plain whole, not from its middle.
			token = /[\w-]/.test(character) ? (match(/[\w.+-]+/y, at) ?? character) : character;
			plain += token;
		}
		at += token.length;
	}
	if (plain) tokens.push({ text: plain });
	return tokens;
}
