/**
 * What a copy button does with its text: the async clipboard when the page may use it, and
 * otherwise words that tell the reader how to copy the text the button then selects. Kept apart
 * from the element (`src/client/copy-button/copy-button.ts`) so a unit test can import it.
 */

/** Where copied text goes: the async clipboard when the page may use it. */
export interface ClipboardLike {
	writeText(text: string): Promise<void>;
}

/** How a copy went: whether the text is on the clipboard, and words for a live region. */
export interface CopyOutcome {
	/** False when the reader has to copy the text themselves; the button then selects it. */
	copied: boolean;
	message: string;
}

/** The keys that copy on the reader's system, by its user agent: ⌘C on Apple's, else Ctrl+C. */
export function copyShortcut(userAgent: string): string {
	return /\b(Macintosh|iPhone|iPad)\b/.test(userAgent) ? '⌘C' : 'Ctrl+C';
}

/**
 * Copies text to the clipboard when there is one (there is none on plain http away from
 * localhost, nor in old browsers), and says how it went; `shortcut` is the keys the reader is
 * told to press instead (`copyShortcut`).
 */
export async function copyText(
	text: string,
	clipboard: ClipboardLike | undefined,
	shortcut = 'Ctrl+C',
): Promise<CopyOutcome> {
	if (!clipboard) {
		return { copied: false, message: `Select the text and press ${shortcut} to copy` };
	}
	try {
		await clipboard.writeText(text);
		return { copied: true, message: 'Copied' };
	} catch {
		// The browser refused the clipboard (no permission, no focus): the message says how to copy
		// by hand.
		return { copied: false, message: `Copy was blocked; select the text and press ${shortcut}` };
	}
}
