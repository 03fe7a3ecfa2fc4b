/** The Versioning guide's table: a row per API label, bounded whatever the number of views. */
import { describe, expect, it } from 'vitest';
import { labelGroups } from '../../../src/site/api-labels.ts';

const entry = (slug: string, apiVersion?: string) => ({ slug, view: { apiVersion } });

describe('labelGroups', () => {
	it('gives one row per label, newest first by number, the unlabelled last', () => {
		const groups = labelGroups([
			entry('a', 'v2.5'),
			entry('b'),
			entry('c', 'v10.1'),
			entry('d', 'v9.12'),
			entry('e', 'v2.5'),
			entry('f', 'v9.3'),
		]);
		expect(groups.map(({ label, total }) => [label, total])).toEqual([
			['v10.1', 1],
			['v9.12', 1],
			['v9.3', 1],
			['v2.5', 2],
			[undefined, 1],
		]);
		expect(groups[3]?.shown.map(({ slug }) => slug)).toEqual(['a', 'e']);
	});

	it('names the first few views of a label in display order and counts them all', () => {
		const views = Array.from({ length: 1000 }, (_, index) => entry(`view-${index}`, 'v4.2'));
		const [group, ...rest] = labelGroups(views, 3);
		expect(rest).toEqual([]);
		expect(group?.total).toBe(1000);
		expect(group?.shown.map(({ slug }) => slug)).toEqual(['view-0', 'view-1', 'view-2']);
	});
});
