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
