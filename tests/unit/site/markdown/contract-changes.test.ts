/**
 * The contract changelog's twin: each commit of the page with its facts and its changes with their
 * class, links to the neighbouring pages only, and history that is missing or stops said plainly.
 */
import { describe, expect, it } from 'vitest';
import type { ContractEntry } from '../../../../src/site/contract-changes.ts';
import type { HistoryStatus } from '../../../../src/site/history-collection.ts';
import { contractChangesMarkdown } from '../../../../src/site/markdown/contract-changes.ts';

const available: HistoryStatus = {
	available: true,
	reason: '',
	shallow: false,
	start: '2026-09-01T10:00:00.000Z',
	head: undefined,
	dirty: false,
};

/** A commit of the changelog with one breaking change. */
const breaking: ContractEntry = {
	commit: {
		hash: 'a'.repeat(40),
		short: 'aaaaaaa',
		date: '2026-09-04T10:00:00.000Z',
		author: 'Barbara Liskov',
		subject: 'A listed user may come without an email',
	},
	kind: 'changed',
	changes: [
		{
			class: 'breaking',
			action: 'remove',
			where: 'paths › /api/v2/users › get',
			description: '[Removed] operation GET /api/v2/users',
		},
	],
	counts: { breaking: 1, 'non-breaking': 0, deprecated: 0, annotation: 0, unclassified: 0 },
	components: 0,
};

describe('the contract changelog twin', () => {
	it('gives each commit its date, name, subject and author, and each change its class', () => {
		const text = contractChangesMarkdown({
			status: available,
			entries: [breaking],
			total: 1,
			currentPage: 1,
			lastPage: 1,
			start: 0,
		});
		expect(text).toContain('## 4 Sept 2026, 10:00 UTC · aaaaaaa\n');
		expect(text).toContain(
			'`aaaaaaa` A listed user may come without an email — by Barbara Liskov. 1 breaking\n',
		);
		expect(text).toContain(
			'- **Breaking** \\[Removed] operation GET /api/v2/users (`paths › /api/v2/users › get`)\n',
		);
		expect(text).not.toMatch(/Next page|Previous page|History unavailable/);
	});

	it('links a middle page to its neighbours, and numbers its commits in the whole list', () => {
		const text = contractChangesMarkdown({
			status: available,
			entries: [breaking],
			total: 41,
			currentPage: 2,
			lastPage: 3,
			start: 20,
		});
		expect(text).toContain('# Contract changes, page 2 of 3\n');
		expect(text).toContain('(commits 21–21 on page 2 of 3)');
		expect(text).toContain('[Previous page](/reference/changes.md)\n');
		expect(text).toContain('[Next page](/reference/changes/3.md)\n');
	});

	it('says why there is no history, and where a shallow clone’s history starts', () => {
		const none = contractChangesMarkdown({
			status: { ...available, available: false, reason: 'no git here' },
			entries: [],
			total: 0,
			currentPage: 1,
			lastPage: 1,
			start: 0,
		});
		expect(none).toContain('**History unavailable:** no git here.');
		const shallow = contractChangesMarkdown({
			status: { ...available, shallow: true, start: '2026-09-03T10:00:00.000Z' },
			entries: [],
			total: 0,
			currentPage: 1,
			lastPage: 1,
			start: 0,
		});
		expect(shallow).toContain('**History from 2026-09-03 on; the clone is shallow.**');
	});

	it('explains every class, and tells a commit of documentation only in one line', () => {
		const documentation: ContractEntry = {
			...breaking,
			commit: { ...breaking.commit, short: 'bbbbbbb', subject: 'Reword the examples' },
			changes: [
				{
					class: 'annotation',
					action: 'replace',
					where: 'paths › /api/v2/users › get › summary',
					description: '[Replaced] annotation (summary)',
				},
				{
					class: 'annotation',
					action: 'replace',
					where: 'paths › /api/v2/users › options › parameters › 0 › example',
					description: '[Replaced] example',
				},
			],
			counts: { breaking: 0, 'non-breaking': 0, deprecated: 0, annotation: 2, unclassified: 0 },
		};
		const text = contractChangesMarkdown({
			status: available,
			entries: [documentation, breaking],
			total: 2,
			currentPage: 1,
			lastPage: 1,
			start: 0,
		});
		for (const label of [
			'Breaking',
			'Non-breaking',
			'Deprecated',
			'Documentation',
			'Unclassified',
		]) {
			expect(text).toMatch(new RegExp(`^- \\*\\*${label}\\*\\*: \\S.+$`, 'm'));
		}
		const items = text.split('\n').filter((line) => line.startsWith('- **Documentation** only'));
		expect(items).toEqual([
			'- **Documentation** only, 2 changes: \\[Replaced] annotation (summary) (`paths › /api/v2/users › get › summary`); \\[Replaced] example (`paths › /api/v2/users › options › parameters › 0 › example`)',
		]);
		expect(text).toContain(
			'- **Breaking** \\[Removed] operation GET /api/v2/users (`paths › /api/v2/users › get`)\n',
		);
	});
});
