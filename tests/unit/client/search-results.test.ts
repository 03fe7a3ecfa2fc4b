/** Search results come from the index as data: only same-site paths may become links. */
import { describe, expect, it } from 'vitest';
import { listedBundles, readResult } from '../../../src/client/search/search.ts';

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

describe('listedBundles', () => {
	it('reads the further bundles a large index lists, in its order, and none for a small one', () => {
		expect(listedBundles(['bundle-2/', 'bundle-3/', 'bundle-10/'])).toEqual([
			'bundle-2/',
			'bundle-3/',
			'bundle-10/',
		]);
		expect(listedBundles([])).toEqual([]);
	});

	it('refuses a list that is not one of bundle folders, naming what it found', () => {
		const refusal = 'The search index\'s list of bundles is not a list of folders like "bundle-2/"';
		expect(() => listedBundles({ 'bundle-2/': true })).toThrow(`${refusal}: {"bundle-2/":true}`);
		expect(() => listedBundles(['bundle-2/', 2])).toThrow(`${refusal}: ["bundle-2/",2]`);
		// A folder anywhere else would load an index from off the site or outside the index.
		for (const folder of [
			'https://other.example/pagefind/',
			'../bundle-2/',
			'bundle-2',
			'bundle-0/',
		]) {
			expect(() => listedBundles([folder])).toThrow(refusal);
		}
		expect(() => listedBundles(undefined)).toThrow(`${refusal}: undefined`);
	});
});
