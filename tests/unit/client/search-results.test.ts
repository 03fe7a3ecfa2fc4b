/** Search results come from the index as data: only same-site paths may become links. */
import { describe, expect, it } from 'vitest';
import { readResult } from '../../../src/client/search/search.ts';

describe('readResult', () => {
	it('reads a result with a same-site path, its title, labels and excerpt', () => {
		expect(
			readResult({
				url: '/views/production/',
				meta: { title: 'production · Production', labels: 'production · v5.8' },
				excerpt: 'A <mark>view</mark>.',
			}),
		).toEqual({
			url: '/views/production/',
			title: 'production · Production',
			labels: 'production · v5.8',
			excerpt: 'A <mark>view</mark>.',
		});
	});

	it.each([
		['an absolute URL', 'https://evil.example/'],
		['a protocol-relative URL, which leaves the site', '//evil.example/views/'],
		['a backslash that browsers read as a slash', '/\\evil.example/'],
		['a script URL', 'javascript:alert(1)'],
		['a relative path without its slash', 'views/production/'],
	])('refuses %s', (_case, url) => {
		expect(readResult({ url, meta: { title: 'x' }, excerpt: '' })).toBeUndefined();
	});

	it('refuses what is not a result at all', () => {
		expect(readResult(null)).toBeUndefined();
		expect(readResult('/views/production/')).toBeUndefined();
		expect(readResult({ url: 42 })).toBeUndefined();
	});

	it('names a result without a title by its path', () => {
		expect(readResult({ url: '/docs/', excerpt: 'x' })).toEqual({
			url: '/docs/',
			title: '/docs/',
			labels: '',
			excerpt: 'x',
		});
	});
});
