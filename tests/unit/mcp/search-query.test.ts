/**
 * A search asked again of the same index answers from its first answer: Pagefind's excerpts, the
 * costliest part of a search, are worked out once per question and version of the sources.
 */
import { describe, expect, it } from 'vitest';
import type { PagefindIndex } from '../../../mcp/pagefind.ts';
import { searchPortal } from '../../../mcp/search-query.ts';

/** An index of two pages that counts the searches and excerpts Pagefind is asked for. */
function countingIndex(): { index: PagefindIndex; searched: string[]; excerpts: () => number } {
	const searched: string[] = [];
	let excerpts = 0;
	const pages = [
		{ url: '/views/production/', title: 'Production', kind: 'view' },
		{ url: '/people/ada.lovelace/', title: 'Ada Lovelace', kind: 'person' },
	];
	const index: PagefindIndex = {
		search: (query, filters) => {
			searched.push(JSON.stringify([query, filters ?? null]));
			const found = pages.filter((page) => !filters?.['kind'] || filters['kind'] === page.kind);
			return Promise.resolve({
				total: found.length,
				hits: (count) => {
					excerpts += Math.min(count, found.length);
					return Promise.resolve(
						found.slice(0, count).map((page) => ({
							url: page.url,
							excerpt: `The <mark>${query ?? ''}</mark> page`,
							meta: { title: page.title, labels: 'production' },
							filters: { kind: [page.kind] },
						})),
					);
				},
			});
		},
		destroy: () => Promise.resolve(),
	};
	return { index, searched, excerpts: () => excerpts };
}

describe('searches asked again', () => {
	it('the same question twice gets the same answer, and Pagefind works out its excerpts once', async () => {
		const { index, searched, excerpts } = countingIndex();
		const first = await searchPortal(index, 'admin');
		const again = await searchPortal(index, '  admin ');
		expect(again).toEqual(first);
		expect(first.map((result) => result.excerpt)).toEqual([
			'The **admin** page',
			'The **admin** page',
		]);
		expect(searched).toHaveLength(1);
		expect(excerpts()).toBe(2);
	});

	it('other words or other filters are asked of Pagefind, each once', async () => {
		const { index, searched } = countingIndex();
		await searchPortal(index, 'admin');
		await searchPortal(index, 'admin', { kind: 'person' });
		await searchPortal(index, 'deployer');
		await searchPortal(index, 'admin', { kind: 'person' });
		expect(searched).toEqual([
			'["admin",null]',
			'["admin",{"kind":"person"}]',
			'["deployer",null]',
		]);
		const people = await searchPortal(index, 'admin', { kind: 'person' });
		expect(people.map((result) => result.href)).toEqual(['/people/ada.lovelace/']);
	});

	it('an answer changed by its caller does not change the next answer to the same question', async () => {
		const { index } = countingIndex();
		const first = await searchPortal(index, 'admin');
		first[0]!.title = 'Changed';
		first.pop();
		const again = await searchPortal(index, 'admin');
		expect(again.map((result) => result.title)).toEqual(['Production', 'Ada Lovelace']);
	});

	it('a new index, made when the sources change, is asked again', async () => {
		const before = countingIndex();
		const after = countingIndex();
		await searchPortal(before.index, 'admin');
		await searchPortal(after.index, 'admin');
		expect(before.searched).toHaveLength(1);
		expect(after.searched).toHaveLength(1);
	});
});
