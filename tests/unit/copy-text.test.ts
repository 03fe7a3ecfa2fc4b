/** The copy buttons' logic: the clipboard when there is one, and what the reader is told when not. */
import { describe, expect, it } from 'vitest';
import { copyText, type ClipboardLike } from '../../src/lib/copy-text.ts';

const CURL =
	'curl -H "Authorization: Bearer ick-4f1c9a07-Qx7m" http://203.0.113.24:8443/api/v2/users';

/** A clipboard that keeps what it was given, or refuses as a browser does without permission. */
function clipboard(refuse = false): ClipboardLike & { written: string[] } {
	const written: string[] = [];
	return {
		written,
		writeText: (text) => {
			if (refuse)
				return Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
			written.push(text);
			return Promise.resolve();
		},
	};
}

describe('copyText', () => {
	it('puts the text on the clipboard as it is and says "Copied"', async () => {
		const board = clipboard();
		await expect(copyText(CURL, board)).resolves.toEqual({ copied: true, message: 'Copied' });
		expect(board.written).toEqual([CURL]);
	});

	it('tells the reader how to copy when the page has no clipboard (plain http, old browsers)', async () => {
		await expect(copyText(CURL, undefined)).resolves.toEqual({
			copied: false,
			message: 'Select the text and press Ctrl+C to copy',
		});
	});

	it('tells the reader the copy was blocked when the clipboard refuses, instead of "Copied"', async () => {
		const board = clipboard(true);
		await expect(copyText(CURL, board)).resolves.toEqual({
			copied: false,
			message: 'Copy was blocked; select the text and press Ctrl+C',
		});
		expect(board.written).toEqual([]);
	});
});
