import { describe, expect, it } from 'vitest';
import { isMapping } from '../../../src/sources/mapping.ts';

describe('isMapping', () => {
	it('takes a YAML mapping as one, so the contract reader finds the paths the views go under', () => {
		expect(isMapping({ paths: {} })).toBe(true);
		expect(isMapping({})).toBe(true);
	});

	it('refuses a list, null and a scalar, so a contract with one where a mapping goes is refused', () => {
		expect(isMapping([])).toBe(false);
		expect(isMapping(null)).toBe(false);
		expect(isMapping(undefined)).toBe(false);
		expect(isMapping('paths')).toBe(false);
		expect(isMapping(3)).toBe(false);
	});
});
