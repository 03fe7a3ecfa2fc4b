/**
 * @vitest-environment happy-dom
 */
/** The reference's try-it takes a view's keys from that view's page, and from nothing else. */
import { describe, expect, it } from 'vitest';
import {
	chosenKey,
	readViewKeys,
	VIEW_SLUG,
	type KeyChoice,
} from '../../../src/client/try-it/view-keys.ts';

/** A page parsed as the picker parses a fetched one. */
function page(html: string): Document {
	return new DOMParser().parseFromString(html, 'text/html');
}

const VIEW_PAGE = `<main><try-it data-view-title="production · Production" data-directory="d41f9c">
<form><select id="try-it-key" name="key">
<option value="ick-4f1c9a07-Qx7m" data-person="rosa.example">Rosa Example (admin)</option>
<option value="ick-0b2e7d19-Lp3k" data-person="ines.example" selected>Ines Example (viewer)</option>
<option value="">Another key…</option>
</select></form></try-it></main>`;

describe('readViewKeys', () => {
	it("takes the view's name, directory and each person's key, with the page's own choice", () => {
		expect(readViewKeys(page(VIEW_PAGE), '/views/production/')).toEqual({
			title: 'production · Production',
			directory: 'd41f9c',
			keys: [
				{
					label: 'Rosa Example (admin)',
					value: 'ick-4f1c9a07-Qx7m',
					person: 'rosa.example',
					selected: false,
				},
				{
					label: 'Ines Example (viewer)',
					value: 'ick-0b2e7d19-Lp3k',
					person: 'ines.example',
					selected: true,
				},
			],
		});
	});

	it('refuses a page without a view’s try-it panel, naming the page', () => {
		expect(() => readViewKeys(page('<main><h1>Not found</h1></main>'), '/views/gone/')).toThrow(
			"/views/gone/: no try-it panel with a view's directory",
		);
		const keyless = VIEW_PAGE.replace(/<option value="ick[^]*?<\/option>/g, '');
		expect(() => readViewKeys(page(keyless), '/views/production/')).toThrow(
			'/views/production/: its try-it panel offers no key',
		);
	});

	it('reads only a panel that names its view, not a panel without one (the reference’s own)', () => {
		const own =
			'<try-it><form><select name="key"><option value="x">x</option></select></form></try-it>';
		expect(() => readViewKeys(page(own), '/reference/')).toThrow('no try-it panel');
	});
});

describe("a person's slug", () => {
	it('is taken only when it is shaped as one; else the choice names nobody, as a typed key does', () => {
		const odd = VIEW_PAGE.replace(
			'data-person="rosa.example"',
			'data-person="Rosa Example"',
		).replace(' data-person="ines.example"', '');
		const people = readViewKeys(page(odd), '/views/production/').keys.map(({ person }) => person);
		expect(people).toEqual(['', '']);
	});
});

describe('chosenKey', () => {
	const keys: KeyChoice[] = [
		{ label: 'Rosa (admin)', value: 'ick-4f1c9a07-Qx7m', person: 'rosa', selected: false },
		{ label: 'Ines (viewer)', value: 'ick-0b2e7d19-Lp3k', person: 'ines', selected: true },
		{ label: 'Omar (operator)', value: 'ick-7c3d5e21-Zt8w', person: 'omar', selected: false },
	];

	it('chooses the person the tab remembers for this view', () => {
		expect(chosenKey(keys, 'production', { view: 'production', person: 'omar' })).toBe(2);
		expect(chosenKey(keys, 'production', { view: 'production', person: 'rosa' })).toBe(0);
	});

	it("else the page's own choice: the memory is another view's, names nobody, or nobody here", () => {
		expect(chosenKey(keys, 'production', { view: 'dr-eu-west', person: 'omar' })).toBe(1);
		expect(chosenKey(keys, 'production', { view: 'production', person: '' })).toBe(1);
		expect(chosenKey(keys, 'production', { view: 'production' })).toBe(1);
		expect(chosenKey(keys, 'production', { view: 'production', person: 'nadia' })).toBe(1);
		expect(chosenKey(keys, 'production', {})).toBe(1);
	});

	it('else the first key, when the page chooses none', () => {
		const unchosen = keys.map((key) => ({ ...key, selected: false }));
		expect(chosenKey(unchosen, 'production', {})).toBe(0);
		expect(chosenKey(unchosen, 'production', { view: 'production', person: 'omar' })).toBe(2);
	});
});

describe('VIEW_SLUG', () => {
	it.each(['production', 'staging-us-east', 'dr-eu-west-2'])('fetches the page of %s', (slug) => {
		expect(VIEW_SLUG.test(slug)).toBe(true);
	});

	it.each(['', '../access', 'a/b', 'Production', 'a--b', '-a', 'a?x=1'])(
		'never fetches a page for %j',
		(slug) => {
			expect(VIEW_SLUG.test(slug)).toBe(false);
		},
	);
});
