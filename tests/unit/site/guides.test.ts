/** The guides' order in the sidebar and the previous/next links that follow it. */
import { describe, expect, it } from 'vitest';
import { guideNeighbours, sortGuides } from '../../../src/site/guides.ts';

const guide = (id: string, title: string, order: number) => ({ id, data: { title, order } });

describe('sortGuides', () => {
	it('puts guides by their order, and guides of equal order by title', () => {
		const sorted = sortGuides([
			guide('versioning', 'Versioning', 3),
			guide('mock-server', 'The mock server', 100),
			guide('getting-started', 'Getting started', 1),
			guide('adding-a-view', 'Adding a view', 100),
		]);
		expect(sorted.map(({ id }) => id)).toEqual([
			'getting-started',
			'versioning',
			'adding-a-view',
			'mock-server',
		]);
	});
});

describe('guideNeighbours', () => {
	const guides = [{ id: 'getting-started' }, { id: 'authentication' }, { id: 'versioning' }];

	it('links a middle guide to the ones before and after it', () => {
		expect(guideNeighbours(guides, 'authentication')).toEqual({
			prev: { id: 'getting-started' },
			next: { id: 'versioning' },
		});
	});

	it('gives the first guide no previous and the last no next', () => {
		expect(guideNeighbours(guides, 'getting-started')).toEqual({
			prev: undefined,
			next: { id: 'authentication' },
		});
		expect(guideNeighbours(guides, 'versioning')).toEqual({
			prev: { id: 'authentication' },
			next: undefined,
		});
	});

	it('gives a guide that is not in the list no links', () => {
		expect(guideNeighbours(guides, 'missing')).toEqual({ prev: undefined, next: undefined });
	});
});
