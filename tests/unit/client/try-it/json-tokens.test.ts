import { describe, expect, it } from 'vitest';
import { jsonTokens } from '../../../../src/client/try-it/json-tokens.ts';

/** The tokens as `kind:text`, plain runs as their text, for compact expectations. */
const shown = (text: string): string[] =>
	jsonTokens(text).map(({ kind, text: piece }) => (kind ? `${kind}:${piece}` : piece));

describe("the try-it answer's JSON colouring", () => {
	it("marks a member's name as a key and its value by kind, as the page's code blocks do", () => {
		expect(shown('{\n  "name": "Ada",\n  "age": -1.5e3,\n  "ok": true,\n  "x": null\n}')).toEqual([
			'{\n  ',
			'p:"name"',
			': ',
			's:"Ada"',
			',\n  ',
			'p:"age"',
			': ',
			'n:-1.5e3',
			',\n  ',
			'p:"ok"',
			': ',
			'n:true',
			',\n  ',
			'p:"x"',
			': ',
			'n:null',
			'\n}',
		]);
	});

	it('reads escaped quotes inside a string, and a string in an array is a value, not a key', () => {
		expect(shown('["a \\"b\\" c", "d"]')).toEqual(['[', 's:"a \\"b\\" c"', ', ', 's:"d"', ']']);
	});

	it('a key followed by spaces before its colon is still a key', () => {
		expect(shown('{"users" : []}')).toEqual(['{', 'p:"users"', ' : []}']);
	});

	it('a body cut short is coloured as far as it reads, and gives back every character', () => {
		const cut = '{"users":[{"name":"Ad';
		expect(shown(cut)).toEqual(['{', 'p:"users"', ':[{', 'p:"name"', ':', 's:"Ad']);
		expect(
			jsonTokens(cut)
				.map(({ text }) => text)
				.join(''),
		).toBe(cut);
	});

	it('a word that starts like a literal is not coloured from its start', () => {
		expect(shown('nullx truthy false-ish')).toEqual(['nullx truthy false-ish']);
	});
});
