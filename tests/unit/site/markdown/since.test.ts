/** The Markdown twins of access since a tag: the list of tags, and a tag's net difference with today. */
import { describe, expect, it } from 'vitest';
import { sinceMarkdown, sinceTagMarkdown } from '../../../../src/site/markdown/since.ts';
import type { HistoryStatus } from '../../../../src/site/history-collection.ts';
import type { SinceRow } from '../../../../src/shared/access-since.ts';

const commit = {
	hash: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
	short: 'a1b2c3d',
	date: '2026-10-01T14:05:00.000Z',
	author: 'Mira Novak',
	subject: 'Release 1.0 of the fixtures',
};
const available: HistoryStatus = {
	available: true,
	reason: '',
	shallow: false,
	start: '2026-01-01T00:00:00.000Z',
	head: commit,
	dirty: false,
};

/** Priya gained admin in production since the tag; Jon lost viewer in staging. */
const rows: SinceRow[] = [
	{
		change: 'gained',
		environment: 'production',
		role: 'admin',
		name: 'Priya Raman',
		email: 'priya.raman@example.com',
		slug: 'priya.raman',
		then: 0,
		now: 2,
	},
	{
		change: 'lost',
		environment: 'staging',
		role: 'viewer',
		name: 'Jon Bell',
		email: 'jon.bell@example.com',
		slug: '',
		then: 1,
		now: 0,
	},
];

/** The text a twin should be, line by line. */
const lines = (...text: string[]) => `${text.join('\n')}\n`;

describe('the twin of access since a tag or a date', () => {
	it('lists each tag with its commit and what changed since, and points to the date picker', () => {
		expect(sinceMarkdown([{ name: 'v1.0', commit, rows, unreadable: [] }], available)).toBe(
			lines(
				'# What changed in access since a tag or a date',
				'',
				'The net difference between then and now: who holds a role in an environment that they did not hold then, and who no longer holds one they held. Each change on the way is on [Access changes](/access/changes.md).',
				'',
				'## Since a tag',
				'',
				'| Tag | Commit | Since then |',
				'| - | - | - |',
				'| [v1.0](/access/since/v1.0.md) | `a1b2c3d` 1 Oct 2026, 14:05 UTC Release 1.0 of the fixtures | 1 gained, 1 lost |',
				'',
				'## Since a date',
				'',
				"Picking any date runs in the browser, on the HTML page. It reads [access-since.json](/access-since.json): today's access and each commit's change to it, without keys.",
				'',
				'The same page in HTML: [/access/since/](/access/since/).',
			),
		);
	});

	it('says why there is no tag', () => {
		expect(sinceMarkdown([], available)).toContain('\n\nThe repository has no tag.\n\n');
		const none = sinceMarkdown([], { ...available, available: false, reason: 'no .git' });
		expect(none).toContain('\n\nWithout history there are no tags.\n\n');
		expect(none).toContain("**History unavailable:** no .git. Only today's access is shown.");
	});
});

describe('the twin of access since one tag', () => {
	it('gives the tag’s commit, the counts, and one row per person, environment and role', () => {
		const text = sinceTagMarkdown({
			name: 'v1.0',
			commit,
			unreadable: ['broken'],
			gained: 1,
			total: 2,
			status: available,
			currentPage: 1,
			lastPage: 1,
			start: 0,
			data: rows,
		});
		expect(text).toBe(
			lines(
				'# What changed in access since v1.0',
				'',
				'The tag names commit `a1b2c3d` of 1 Oct 2026, 14:05 UTC, by Mira Novak: Release 1.0 of the fixtures.',
				'',
				'Since then 1 role was gained and 1 role was lost, by person and environment. Each change on the way is on [Access changes](/access/changes.md).',
				'',
				'The view schema refuses 1 fixture at this tag (broken); its view is left out on both sides.',
				'',
				'| Change | Person | Environment | Role | Views then → now |',
				'| - | - | - | - | - |',
				'| gained | [Priya Raman](/people/priya.raman.md) (priya.raman@example.com) | production | admin | 0 → 2 |',
				'| lost | Jon Bell (jon.bell@example.com) | staging | viewer | 1 → 0 |',
				'',
				'The same page in HTML: [/access/since/v1.0/](/access/since/v1.0/).',
			),
		);
	});

	it('numbers its pages, links its neighbours, and says when nobody gained or lost a role', () => {
		const text = sinceTagMarkdown({
			name: 'release/2',
			commit,
			unreadable: [],
			gained: 150,
			total: 250,
			status: available,
			currentPage: 2,
			lastPage: 3,
			start: 100,
			data: rows,
		});
		expect(text).toContain('# What changed in access since release/2, page 2 of 3\n');
		expect(text).toContain(
			'Since then 150 roles were gained and 100 roles were lost, by person and environment (rows 101–102 on page 2 of 3).',
		);
		const nobody = sinceTagMarkdown({
			name: 'release/2',
			commit,
			unreadable: [],
			gained: 0,
			total: 0,
			status: available,
			currentPage: 1,
			lastPage: 1,
			start: 0,
			data: [],
		});
		expect(nobody).toContain(
			'\n\nNobody gained or lost a role in any environment since release/2.\n',
		);
		expect(text).toContain(
			'- [Previous page](/access/since/release_2f2.md)\n- [Next page](/access/since/release_2f2/3.md)\n',
		);
		expect(text).toContain('[/access/since/release_2f2/2/](/access/since/release_2f2/2/)');
	});
});
