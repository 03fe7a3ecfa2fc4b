/** The key shape: what a fixture's key and a token sent to the mock must look like. */
import { describe, expect, it } from 'vitest';
import { keyProblem } from '../../../src/schemas/key.ts';

const SHAPE =
	'expected a key shaped ick-<8 lowercase hex>-<4 letters or digits>, e.g. ick-4f1c9a07-Qx7m';

describe('keyProblem', () => {
	it.each(['ick-4f1c9a07-Qx7m', 'ick-00000000-0000', 'ick-abcdef12-ZZZZ'])('accepts %s', (key) => {
		expect(keyProblem(key)).toBeUndefined();
	});

	it.each([
		['1ick-4f1c9a07-Qx7m', 'a digit before the prefix'],
		['ick-4f1c9a07-Qx7mm', 'a fifth letter at the end'],
		['ick-4f1c9a07-Qx7', 'three letters at the end'],
		['ick-4f1c9a0-Qx7m', 'seven hex digits'],
		['ick-4f1c9a077-Qx7m', 'nine hex digits'],
		['ick-4F1C9A07-Qx7m', 'upper-case hex'],
		['ick-4f1c9g07-Qx7m', 'a letter that is not hex'],
		['ick-4f1c9a07-Qx7!', 'punctuation at the end'],
		['ick-4f1c9a07-Qx7m\n', 'a newline after the key'],
		[' ick-4f1c9a07-Qx7m', 'a space before the key'],
		['a-4f1c9a07-Qx7m', 'a one-letter prefix, too short to be a prefix at all'],
		['abcdefghi-4f1c9a07-Qx7m', 'a nine-letter prefix, too long to be a prefix at all'],
		['', 'nothing'],
	])('refuses %j (%s) with the key shape', (key) => {
		expect(keyProblem(key)).toBe(SHAPE);
	});

	it.each([
		['ab-4f1c9a07-Qx7m', 'ab'],
		['xick-4f1c9a07-Qx7m', 'xick'],
		['abcdefgh-4f1c9a07-Qx7m', 'abcdefgh'],
		['ick1-4f1c9a07-Qx7m', undefined],
	])('names the prefix of a key of another prefix (%s)', (key, prefix) => {
		expect(keyProblem(key)).toBe(
			prefix === undefined ? SHAPE : `expected the portal's key prefix "ick-", found "${prefix}-"`,
		);
	});
});
