/** The overview's grouping: environments in display order, and their API labels. */
import { describe, expect, it } from 'vitest';
import { environmentGroups, environmentPageOf, viewCount } from '../../../src/site/overview.ts';
import { compareViews } from '../../../src/shared/views.ts';

const entry = (slug: string, environment: string, apiVersion?: string) => ({
	slug,
	view: { environment, ...(apiVersion ? { apiVersion } : {}) },
});

describe('environment groups', () => {
	it('keeps the display order of environments and of views within each', () => {
		const groups = environmentGroups([
			entry('staging', 'staging'),
			entry('production', 'production'),
			entry('staging-edge', 'staging'),
		]);
		expect(groups.map(({ environment }) => environment)).toEqual(['staging', 'production']);
		expect(groups[0]?.views.map(({ slug }) => slug)).toEqual(['staging', 'staging-edge']);
	});

	it('lists each API label once, newest first with v10 after v9, and counts views without one', () => {
		const [group] = environmentGroups([
			entry('a', 'qa', 'v9.2'),
			entry('b', 'qa'),
			entry('c', 'qa', 'v10.1'),
			entry('d', 'qa', 'v9.2'),
			entry('e', 'qa'),
		]);
		expect(group?.apiLabels).toEqual(['v10.1', 'v9.2']);
		expect(group?.unlabelled).toBe(2);
	});
});

describe('environment pages', () => {
	it('finds the page of an environment’s list that holds a view, 40 to a page', () => {
		const members = Array.from({ length: 81 }, (_, index) => ({ slug: `view-${index}` }));
		expect(environmentPageOf(members, 'view-0')).toBe(1);
		expect(environmentPageOf(members, 'view-39')).toBe(1);
		expect(environmentPageOf(members, 'view-40')).toBe(2);
		expect(environmentPageOf(members, 'view-80')).toBe(3);
		expect(environmentPageOf(members, 'no-such-view')).toBe(1);
	});

	it('count views in words', () => {
		expect(viewCount(1)).toBe('1 view');
		expect(viewCount(12)).toBe('12 views');
		expect(viewCount(10000)).toBe('10,000 views');
	});
});

describe('the order of views', () => {
	const view = (slug: string, environment: string, configuration?: string) =>
		({ slug, view: { environment, ...(configuration ? { configuration } : {}) } }) as Parameters<
			typeof compareViews
		>[0];

	it('counts the numbers in labels as numbers: Canary 9 before Canary 10 and Canary 45', () => {
		const sorted = [
			view('qa-canary-45', 'qa', 'Canary 45'),
			view('qa-canary-10', 'qa', 'Canary 10'),
			view('qa', 'qa'),
			view('qa-canary-9', 'qa', 'Canary 9'),
			view('dr-2', 'dr-2'),
			view('dr-10', 'dr-10'),
		].sort(compareViews);
		expect(sorted.map(({ slug }) => slug)).toEqual([
			'dr-2',
			'dr-10',
			'qa',
			'qa-canary-9',
			'qa-canary-10',
			'qa-canary-45',
		]);
	});
});
