/**
 * What the history pages say of a history (the views' and the contract's alike): why there is
 * none, or where it starts, which commit the build was made from and whether the files differ
 * from it.
 */
import { describe, expect, it } from 'vitest';
import { historyStatusOf, type CommitInfo, type GitHistory } from '../../../src/sources/git.ts';

const head: CommitInfo = {
	hash: '3f9c2a7e5b1d4c6a8e0f2b4d6c8a0e1f3b5d7c9a',
	short: '3f9c2a7',
	date: '2026-11-20T09:30:00Z',
	author: 'Ada Example',
	subject: 'Give staging-us-east a read-only key',
};

const older: CommitInfo = {
	hash: '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
	short: '0a1b2c3',
	date: '2026-09-01T08:00:00Z',
	author: 'Ben Example',
	subject: 'Add the production view',
};

describe('the status of a history', () => {
	it('without history, says why and claims no start, head, shallow clone or edit', () => {
		expect(historyStatusOf({ available: false, reason: 'not a git repository' })).toEqual({
			available: false,
			reason: 'not a git repository',
			shallow: false,
			start: '',
			head: undefined,
			dirty: false,
		});
	});

	it('with history, gives where it starts, the head commit and whether the files were edited', () => {
		const history: GitHistory<CommitInfo> = {
			available: true,
			shallow: true,
			start: '2026-09-01T08:00:00Z',
			head,
			dirty: true,
			commits: [older, head],
		};
		expect(historyStatusOf(history)).toEqual({
			available: true,
			reason: '',
			shallow: true,
			start: '2026-09-01T08:00:00Z',
			head: {
				hash: '3f9c2a7e5b1d4c6a8e0f2b4d6c8a0e1f3b5d7c9a',
				short: '3f9c2a7',
				date: '2026-11-20T09:30:00Z',
				author: 'Ada Example',
				subject: 'Give staging-us-east a read-only key',
			},
			dirty: true,
		});
	});

	it('with a full, clean history, says it is not shallow and not edited', () => {
		const history: GitHistory<CommitInfo> = {
			available: true,
			shallow: false,
			start: '2026-09-01T08:00:00Z',
			head,
			dirty: false,
			commits: [older, head],
		};
		expect(historyStatusOf(history)).toMatchObject({ shallow: false, dirty: false });
	});

	it('with history but no commit reached yet, gives an empty start rather than undefined', () => {
		const history: GitHistory<CommitInfo, { tags: string[] }> = {
			available: true,
			shallow: false,
			start: undefined,
			head,
			dirty: false,
			commits: [],
			tags: ['v1.0.0'],
		};
		expect(historyStatusOf(history).start).toBe('');
	});
});
