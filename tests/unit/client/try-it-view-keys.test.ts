/**
 * @vitest-environment happy-dom
 */
/** The reference's try-it takes a view's keys from that view's page, and from nothing else. */
import { describe, expect, it } from 'vitest';
import { readViewKeys, VIEW_SLUG } from '../../../src/client/try-it/view-keys.ts';

/** A page parsed as the picker parses a fetched one. */
function page(html: string): Document {
	return new DOMParser().parseFromString(html, 'text/html');
}

const VIEW_PAGE = `<main><try-it data-view-title="production · Production" data-directory="d41f9c">
<form><select id="try-it-key" name="key">
<option value="ick-4f1c9a07-Qx7m">Rosa Example (admin)</option>
<option value="ick-0b2e7d19-Lp3k" selected>Ines Example (viewer)</option>
<option value="">Another key…</option>
</select></form></try-it></main>`;

describe('readViewKeys', () => {
	it("takes the view's name, directory and each person's key, with the page's own choice", () => {
		expect(readViewKeys(page(VIEW_PAGE), '/views/production/')).toEqual({
			title: 'production · Production',
			directory: 'd41f9c',
			keys: [
				{ label: 'Rosa Example (admin)', value: 'ick-4f1c9a07-Qx7m', selected: false },
				{ label: 'Ines Example (viewer)', value: 'ick-0b2e7d19-Lp3k', selected: true },
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
