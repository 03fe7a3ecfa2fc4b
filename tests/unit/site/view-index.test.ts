import { describe, expect, it } from 'vitest';
import {
	FULL_INDEX_LIMIT,
	sidebarIndex,
	WINDOW_RADIUS,
	type IndexedView,
} from '../../../src/site/view-index.ts';

/** The sidebar's groups for one page. */
const sidebarGroups = <V extends IndexedView>(views: readonly V[], current: string | undefined) =>
	sidebarIndex(views)(current);

const portal = (count: number, environments = 3) =>
	Array.from({ length: count }, (_, i) => ({
		slug: `view-${String(i).padStart(5, '0')}`,
		name: `view ${i}`,
		environment: `env-${i % environments}`,
	})).sort((a, b) => a.environment.localeCompare(b.environment) || a.slug.localeCompare(b.slug));

describe('the views sidebar', () => {
	it('lists every view, grouped by environment, in a small portal', () => {
		const views = portal(FULL_INDEX_LIMIT);
		const groups = sidebarGroups(views, views[5]?.slug);
		expect(groups.map(({ environment }) => environment)).toEqual(['env-0', 'env-1', 'env-2']);
		expect(groups.flatMap(({ shown }) => shown)).toEqual(views);
	});

	it('stays the same size however many views a large portal has', () => {
		for (const count of [1000, 10_000]) {
			const views = portal(count);
			const current = views[Math.floor(count / 2)];
			const groups = sidebarGroups(views, current?.slug);
			const shown = groups.flatMap((group) => group.shown);
			expect(shown.length).toBe(2 * WINDOW_RADIUS + 1);
			expect(shown.map(({ slug }) => slug)).toContain(current?.slug);
			expect(shown.every(({ environment }) => environment === current?.environment)).toBe(true);
			expect(groups.reduce((sum, { total }) => sum + total, 0)).toBe(count);
		}
	});

	it('keeps the window inside the environment at its first view', () => {
		const views = portal(500);
		const groups = sidebarGroups(views, views[0]?.slug);
		expect(groups[0]?.shown.map(({ slug }) => slug)).toEqual(
			views.slice(0, WINDOW_RADIUS + 1).map(({ slug }) => slug),
		);
	});
});
