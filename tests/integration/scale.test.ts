/**
 * Pages bounded by design: builds 200 and 1,000 generated views and checks that every page kind
 * but the overview stays within 1.5× of its size at 200 views, and that the overview pages (home
 * and each environment's pages) stay within their budget.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../../support/build.ts';
import { pageKindSizes, type PageKindSize } from '../../support/page-sizes.ts';
import { writeViewSet } from '../../support/view-sets.ts';

/** How much a page other than the overview may grow from 200 to 1,000 views. */
const GROWTH = 1.5;
/** The overview's budget at 1,000 views, gzip bytes, for the home page and each environment page. */
const OVERVIEW_BUDGET_GZIP = 100 * 1024;
/** Page kinds that grow with the views by design: the overview's pages, and the contract, which carries one example per view. */
const UNBOUNDED = new Set([
	'overview',
	'an environment (largest)',
	'contract (openapi.json)',
	'contract (openapi.yaml)',
]);

let folder: string;
const sizes = new Map<number, PageKindSize[]>();

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-scale-'));
	for (const count of [200, 1000]) {
		const views = path.join(folder, `views-${count}`);
		const dist = path.join(folder, `dist-${count}`);
		await writeViewSet(views, count);
		const result = buildPortal(dist, views);
		if (result.status !== 0) throw new Error(`${count} views failed to build:\n${result.output}`);
		sizes.set(count, await pageKindSizes(dist));
	}
}, 600_000);

afterAll(async () => {
	if (folder) await rm(folder, { recursive: true, force: true });
});

/** The sizes at `count` views, by kind. */
function byKind(count: number): Map<string, PageKindSize> {
	return new Map((sizes.get(count) ?? []).map((size) => [size.kind, size]));
}

describe('at 1,000 views', () => {
	it('has every page kind it had at 200 views, and the environment pages', () => {
		const small = [...byKind(200).keys()];
		const large = [...byKind(1000).keys()];
		expect(large).toEqual(small);
		expect(large).toEqual(
			expect.arrayContaining(['overview', 'a view (largest)', 'an environment (largest)']),
		);
	});

	it('keeps every page but the overview within 1.5× of its size at 200 views', () => {
		const small = byKind(200);
		const grown = [...byKind(1000)]
			.filter(([kind]) => !UNBOUNDED.has(kind))
			.map(([kind, size]) => ({
				kind,
				ratio: Number((size.raw / (small.get(kind)?.raw ?? 1)).toFixed(2)),
			}))
			.filter(({ ratio }) => ratio > GROWTH);
		expect(grown).toEqual([]);
	});

	it('keeps the home page and each environment page within the overview budget', () => {
		const large = byKind(1000);
		for (const kind of ['overview', 'an environment (largest)']) {
			expect(large.get(kind)?.gzip, kind).toBeLessThanOrEqual(OVERVIEW_BUDGET_GZIP);
		}
	});

	it('splits an environment of more than 40 views over pages', () => {
		// 200 views over 20 environments make 10 each, one page apiece; 1,000 make 50 each, two
		// pages apiece (40 and 10).
		expect(byKind(200).get('an environment (largest)')?.pages).toBe(20);
		expect(byKind(1000).get('an environment (largest)')?.pages).toBe(40);
	});
});
