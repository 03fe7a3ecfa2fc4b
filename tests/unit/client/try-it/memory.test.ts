/** What the try-it panel remembers for the tab: read back only when every member checks out. */
import { describe, expect, it } from 'vitest';
import {
	memoryText,
	personSlugOf,
	readMemory,
	readTab,
	writeTab,
	viewSlug,
} from '../../../../src/client/try-it/memory.ts';

describe('readMemory', () => {
	it('reads back the view, person and server the panel wrote', () => {
		const text = JSON.stringify({
			view: 'staging-us-east',
			person: 'ada.lovelace',
			server: 'http://127.0.0.1:4010',
		});
		expect(readMemory(text)).toEqual({
			view: 'staging-us-east',
			person: 'ada.lovelace',
			server: 'http://127.0.0.1:4010',
		});
	});

	it('remembers "Another key…" as an empty person, never as a key', () => {
		expect(readMemory('{"person":""}')).toEqual({ person: '' });
	});

	it.each([
		['nothing stored', null],
		['storage refused', undefined],
		['cut-off JSON', '{"view":'],
		['a number', '42'],
		['null', 'null'],
		['an array', '["production"]'],
		['a string', '"production"'],
	])('gives no memory for %s', (_, stored) => {
		expect(readMemory(stored)).toEqual({});
	});

	it('drops each member that is malformed and keeps the others', () => {
		const text = JSON.stringify({
			view: '../admin',
			person: 'Ada <script>',
			server: 'javascript:alert(1)',
		});
		expect(readMemory(text)).toEqual({});
		expect(readMemory(JSON.stringify({ view: 'Production', person: 'ada', server: 42 }))).toEqual({
			person: 'ada',
		});
	});

	it('puts a server in its normal form', () => {
		expect(readMemory('{"server":"http://localhost:4010/"}')).toEqual({
			server: 'http://localhost:4010',
		});
	});

	it('ignores members it does not know, and a __proto__ member changes nothing', () => {
		const memory = readMemory(
			'{"view":"production","key":"ick-4f1c9a07-Qx7m","__proto__":{"x":1}}',
		);
		expect(memory).toEqual({ view: 'production' });
		expect(Object.keys(memory)).toEqual(['view']);
	});
});

describe('memoryText', () => {
	it('writes only the known, valid members', () => {
		const memory = {
			view: 'production',
			person: 'ada',
			server: 'http://127.0.0.1:4010',
			key: 'ick-4f1c9a07-Qx7m',
		};
		expect(JSON.parse(memoryText(memory))).toEqual({
			view: 'production',
			person: 'ada',
			server: 'http://127.0.0.1:4010',
		});
	});
});

describe('viewSlug and personSlugOf', () => {
	it('accept slugs and refuse the rest', () => {
		expect(viewSlug('eu-west-2')).toBe('eu-west-2');
		expect(viewSlug('a'.repeat(64))).toBeUndefined();
		expect(viewSlug('-x')).toBeUndefined();
		expect(viewSlug(7)).toBeUndefined();
		expect(personSlugOf('j.doe_40corp.example')).toBe('j.doe_40corp.example');
		expect(personSlugOf('J.Doe')).toBeUndefined();
		expect(personSlugOf(null)).toBeUndefined();
	});
});

describe('readTab and writeTab', () => {
	it('let a missing or refusing storage pass: nothing read, nothing thrown', () => {
		expect(readTab('console-portal.try-it.memory')).toBeNull();
		expect(() => writeTab('console-portal.try-it.memory', '{}')).not.toThrow();
	});
});
