/**
 * The contract changelog's own words and paging, which its page, its twin and the MCP server's
 * search share: a reader of any of them sees the same heading, lede and summaries.
 */
import { describe, expect, it } from 'vitest';
import type { ContractEntry } from '../../../src/site/contract-changes.ts';
import {
	changesHeading,
	changesLede,
	changesPageProseText,
	contractChangesPages,
	entrySummary,
} from '../../../src/site/contract-changes-text.ts';
import type { HistoryStatus } from '../../../src/sources/git.ts';

const status: HistoryStatus = {
	available: true,
	reason: '',
	shallow: false,
	start: '2026-09-01T10:00:00.000Z',
	head: undefined,
	dirty: false,
};

/** A commit of the changelog of a kind, with changes of the classes given. */
function entry(
	kind: ContractEntry['kind'],
	classes: ContractEntry['changes'][number]['class'][] = [],
	components = 0,
): ContractEntry {
	const counts = { breaking: 0, 'non-breaking': 0, deprecated: 0, annotation: 0, unclassified: 0 };
	for (const each of classes) counts[each] += 1;
	return {
		commit: {
			hash: 'b'.repeat(40),
			short: 'bbbbbbb',
			date: '2026-09-04T10:00:00.000Z',
			author: 'Barbara Liskov',
			subject: 'A change',
		},
		kind,
		changes: classes.map((each) => ({
			class: each,
			action: 'add',
			where: 'paths',
			description: 'A change',
		})),
		counts,
		components,
	};
}

describe("the contract changelog's words and pages", () => {
	it('cuts 45 commits into pages of 20, numbering each page’s first commit in the whole list', () => {
		const entries = Array.from({ length: 45 }, () => entry('changed', ['breaking']));
		const pages = contractChangesPages(status, entries);
		expect(
			pages.map(({ currentPage, lastPage, start, total, entries: shown }) => [
				currentPage,
				lastPage,
				start,
				total,
				shown.length,
			]),
		).toEqual([
			[1, 3, 0, 45, 20],
			[2, 3, 20, 45, 20],
			[3, 3, 40, 45, 5],
		]);
		expect(pages.every((page) => page.status === status)).toBe(true);
	});

	it('gives an empty changelog one page that says no commit changed the contract', () => {
		const [only, ...more] = contractChangesPages(status, []);
		expect(more).toEqual([]);
		expect(only && changesHeading(only)).toBe('Contract changes');
		expect(only && changesLede({ ...only, shown: 0 })).toEqual({
			before: '0 commits changed',
			after: ', newest first.',
		});
	});

	it('says which page of how many, and which commits it shows, only when there are pages', () => {
		const place = { total: 45, currentPage: 3, lastPage: 3, start: 40, shown: 5 };
		expect(changesHeading(place)).toBe('Contract changes, page 3 of 3');
		expect(changesLede(place)).toEqual({
			before: '45 commits changed',
			after: ', newest first (commits 41–45 on page 3 of 3).',
		});
		expect(changesLede({ total: 1, currentPage: 1, lastPage: 1, start: 0, shown: 1 }).before).toBe(
			'1 commit changed',
		);
	});

	it('tells a commit by its counts, its documentation changes, or what it did', () => {
		expect(entrySummary(entry('changed', ['breaking', 'non-breaking'], 2))).toBe(
			'1 breaking, 1 non-breaking (and 2 changes inside components, told where used)',
		);
		expect(entrySummary(entry('changed', ['annotation', 'annotation']))).toBe(
			'2 documentation changes',
		);
		expect(entrySummary(entry('changed', ['annotation'], 1))).toBe(
			'1 documentation change (and 1 change inside components, told where used)',
		);
		expect(entrySummary(entry('added'))).toBe('The contract was added.');
		expect(entrySummary(entry('start'))).toMatch(/^History starts here \(the clone is shallow\)/);
	});

	it('says the page’s prose with its links as their words', () => {
		expect(changesPageProseText()).toContain(
			'The versioning guide says when the path version changes; the API reference shows the contract today.',
		);
	});
});
