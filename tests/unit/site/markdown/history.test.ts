/** The history pages' Markdown twins: a view's history and the access changes, a page at a time. */
import { describe, expect, it } from 'vitest';
import {
	accessChangesMarkdown,
	viewHistoryMarkdown,
} from '../../../../src/site/markdown/history.ts';
import type { HistoryStatus } from '../../../../src/site/history-collection.ts';
import type { HistoryEntry } from '../../../../src/site/history.ts';

const commit = {
	hash: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
	short: 'a1b2c3d',
	date: '2026-11-18T09:30:00.000Z',
	author: 'Mira Novak',
	subject: 'Give Priya admin in production',
};
const available: HistoryStatus = {
	available: true,
	reason: '',
	shallow: false,
	start: '2026-10-01T00:00:00.000Z',
	head: commit,
	dirty: false,
};
const priya = {
	key: 'priya.raman@example.com',
	name: 'Priya Raman',
	email: 'priya.raman@example.com',
};

/** Priya's role change in production, as the history gives it. */
const roleChange: HistoryEntry = {
	kind: 'role changed',
	person: priya,
	role: 'admin',
	from: 'deployer',
	to: 'admin',
	order: 0,
	sequence: 0,
	commit,
	slug: 'production',
	view: 'production · Production',
	environment: 'production',
	line: 0,
};

/** The filters of the access changes, as a build with two environments would have them. */
const facets = {
	environments: ['production', 'staging'],
	roles: ['admin' as const],
	kinds: ['granted', 'role changed'],
};

/** A page of one view's history holding the commits given. */
function historyPage(status: HistoryStatus, commits = 1, currentPage = 1, lastPage = 1) {
	return {
		slug: 'production',
		name: 'production · Production',
		status,
		committed: true,
		total: commits,
		currentPage,
		lastPage,
		start: (currentPage - 1) * 20,
		data: Array.from({ length: Math.min(commits, 20) }, () => ({
			commit,
			changes: [roleChange],
		})),
	};
}

describe("a view's history twin", () => {
	it('gives each commit as a dated heading, its short name, subject and author, and its changes', () => {
		const text = viewHistoryMarkdown(historyPage(available));
		expect(text).toContain('# History of production · Production\n');
		expect(text).toContain('## 18 Nov 2026, 09:30 UTC\n');
		expect(text).toContain('`a1b2c3d` Give Priya admin in production by Mira Novak');
		expect(text).toContain(
			'- Priya Raman (priya.raman@example.com): Role changed: deployer → admin',
		);
	});

	it('says plainly when history is unavailable, and where a shallow clone stops', () => {
		const none = viewHistoryMarkdown(
			historyPage(
				{ ...available, available: false, reason: 'the portal was built without .git' },
				0,
			),
		);
		expect(none).toContain(
			"**History unavailable:** the portal was built without .git. Only today's access is shown.",
		);
		const shallow = viewHistoryMarkdown(historyPage({ ...available, shallow: true }));
		expect(shallow).toContain('**History from 2026-10-01 on; the clone is shallow.**');
	});

	it('links to its neighbouring pages when paged', () => {
		const text = viewHistoryMarkdown(historyPage(available, 45, 2, 3));
		expect(text).toContain('# History of production · Production, page 2 of 3');
		expect(text).toContain('[Previous page](/views/production/history.md)');
		expect(text).toContain('[Next page](/views/production/history/3.md)');
	});
});

describe('the access changes twin', () => {
	it('is a table of changes with date, person, change, view and commit', () => {
		const entry: HistoryEntry = {
			kind: 'granted',
			person: priya,
			role: 'admin',
			to: 'admin',
			order: 0,
			sequence: 0,
			commit,
			slug: 'production',
			view: 'production · Production',
			environment: 'production',
			line: 0,
		};
		const text = accessChangesMarkdown({
			status: available,
			total: 1,
			currentPage: 1,
			lastPage: 1,
			start: 0,
			data: [entry],
			filter: undefined,
			label: undefined,
			facets,
		});
		expect(text).toContain('# Access changes\n');
		expect(text).toContain('| Date | Person | Change | View | Commit |');
		expect(text).toContain(
			'| 18 Nov 2026, 09:30 UTC | Priya Raman (priya.raman@example.com) | Granted admin | production · Production (production) | `a1b2c3d` Give Priya admin in production by Mira Novak |',
		);
	});
});

describe('a filtered access changes twin', () => {
	it('names its filter, links every filter and its neighbours, and its HTML page', () => {
		const text = accessChangesMarkdown({
			status: available,
			total: 250,
			currentPage: 2,
			lastPage: 3,
			start: 100,
			data: [roleChange],
			filter: { role: 'admin' },
			label: 'role admin',
			facets,
		});
		expect(text).toBe(
			[
				'# Access changes: role admin, page 2 of 3',
				'',
				"250 changes of who holds which role in which view, that concern the role admin, newest first, from the fixtures' git history (changes 101–101 on page 2 of 3). Keys and configuration values are never shown: a rotation names the person or the member.",
				'',
				'[Every change](/access/changes.md). By environment: [production](/access/changes/environments/production.md), [staging](/access/changes/environments/staging.md). By role: [admin](/access/changes/roles/admin.md). By kind: [granted](/access/changes/kinds/granted.md), [role changed](/access/changes/kinds/role-changed.md).',
				'',
				'| Date | Person | Change | View | Commit |',
				'| - | - | - | - | - |',
				'| 18 Nov 2026, 09:30 UTC | Priya Raman (priya.raman@example.com) | Role changed: deployer → admin | production · Production (production) | `a1b2c3d` Give Priya admin in production by Mira Novak |',
				'',
				'- [Previous page](/access/changes/roles/admin.md)',
				'- [Next page](/access/changes/roles/admin/3.md)',
				'',
				'The same page in HTML: [/access/changes/roles/admin/2/](/access/changes/roles/admin/2/).',
				'',
			].join('\n'),
		);
	});

	it('says in words which changes an environment, a kind or a person filter keeps', () => {
		const page = {
			status: available,
			total: 1,
			currentPage: 1,
			lastPage: 1,
			start: 0,
			data: [roleChange],
			facets,
		};
		const first = (text: string) => text.split('\n')[2];
		expect(
			first(
				accessChangesMarkdown({
					...page,
					filter: { environment: 'production' },
					label: 'in production',
				}),
			),
		).toMatch(/^1 change of who holds which role in which view, in the environment production, /);
		expect(
			first(accessChangesMarkdown({ ...page, filter: { kind: 'granted' }, label: 'granted' })),
		).toMatch(/^1 change of who holds which role in which view, of the kind granted, /);
		expect(
			first(
				accessChangesMarkdown({ ...page, filter: { person: 'priya.raman' }, label: 'Priya Raman' }),
			),
		).toMatch(/^1 change of who holds which role in which view, of Priya Raman, newest first/);
	});
});
