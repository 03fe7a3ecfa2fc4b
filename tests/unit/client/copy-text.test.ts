/** The copy buttons' logic: the clipboard when there is one, what the reader is told if not. */
import { describe, expect, it } from 'vitest';
import {
	copyShortcut,
	copyText,
	type ClipboardLike,
} from '../../../src/client/copy-button/copy-text.ts';

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

describe('copyShortcut', () => {
	it.each([
		[
			'Chrome on macOS',
			'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
			'⌘C',
		],
		[
			'Firefox on macOS',
			'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
			'⌘C',
		],
		[
			'Safari on an iPad',
			'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
			'⌘C',
		],
		[
			'Chromium on Linux',
			'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
			'Ctrl+C',
		],
		[
			'Edge on Windows',
			'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
			'Ctrl+C',
		],
		['an empty user agent', '', 'Ctrl+C'],
	])('names the key that copies for %s', (_browser, userAgent, shortcut) => {
		expect(copyShortcut(userAgent)).toBe(shortcut);
	});

	it('tells a Mac reader to press ⌘C, not Ctrl+C, which copies nothing there', async () => {
		await expect(copyText(CURL, undefined, '⌘C')).resolves.toEqual({
			copied: false,
			message: 'Select the text and press ⌘C to copy',
		});
		await expect(copyText(CURL, clipboard(true), '⌘C')).resolves.toEqual({
			copied: false,
			message: 'Copy was blocked; select the text and press ⌘C',
		});
	});
});
