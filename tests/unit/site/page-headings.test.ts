/** The "On this page" list: h2 headings with their h3 headings under them, nothing deeper. */
import { describe, expect, it } from 'vitest';
import { pageOutline } from '../../../src/site/page-headings.ts';

describe('pageOutline', () => {
	it('nests each h3 under the h2 before it and leaves h4 and deeper out', () => {
		expect(
			pageOutline([
				{ depth: 2, slug: 'start-it', text: 'Start it' },
				{ depth: 3, slug: 'with-a-key', text: 'With a key' },
				{ depth: 4, slug: 'detail', text: 'Detail' },
				{ depth: 3, slug: 'without-a-key', text: 'Without a key' },
				{ depth: 2, slug: 'the-request-log', text: 'The request log' },
			]),
		).toEqual([
			{
				depth: 2,
				slug: 'start-it',
				text: 'Start it',
				children: [
					{ depth: 3, slug: 'with-a-key', text: 'With a key' },
					{ depth: 3, slug: 'without-a-key', text: 'Without a key' },
				],
			},
			{ depth: 2, slug: 'the-request-log', text: 'The request log', children: [] },
		]);
	});

	it('keeps an h3 that comes before any h2 at the top level instead of dropping it', () => {
		expect(
			pageOutline([
				{ depth: 1, slug: 'title', text: 'Title' },
				{ depth: 3, slug: 'early', text: 'Early' },
			]),
		).toEqual([{ depth: 3, slug: 'early', text: 'Early', children: [] }]);
	});

	it('gives no list for a page without h2 or h3 headings', () => {
		expect(pageOutline([])).toEqual([]);
	});
});
