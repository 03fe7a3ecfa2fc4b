/** Free text a reader must be able to see: names, labels, status notes. */

/**
 * A character that shows: not white space, not a control or format character, not a code point
 * Unicode says to draw as nothing (U+200B ZERO WIDTH SPACE, U+3164 HANGUL FILLER, …), not
 * unassigned or private.
 */
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{C}\p{Z}]/u;

/** Whether the text has at least one character a reader sees. */
export function hasVisibleText(text: string): boolean {
	return VISIBLE.test(text);
}

/**
 * A character a reader does not see: the complement of VISIBLE (every `\p{Z}` character is white
 * space too).
 */
const INVISIBLE = /[\p{White_Space}\p{Default_Ignorable_Code_Point}\p{C}]/u;

/**
 * Where the first character a reader cannot see is in a text, and which it is, as a message says
 * it (`character 4 is U+200B`, counting characters, not UTF-16 units), or undefined when there is
 * none: a zero-width or format character inside a secret or an address would be copied unseen.
 */
export function invisibleCharacter(text: string): string | undefined {
	const found = INVISIBLE.exec(text);
	if (!found) return undefined;
	const position = [...text.slice(0, found.index)].length + 1;
	// Stryker disable next-line LogicalOperator: a match is one character, never empty
	const code = (found[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
	return `character ${position} is U+${code}`;
}
