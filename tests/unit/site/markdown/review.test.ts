/** The review pages' Markdown twins: a review flag's findings, stale keys and unchanged directories. */
import { describe, expect, it } from 'vitest';
import {
	flagMarkdown,
	staleKeysMarkdown,
	stillViewsMarkdown,
} from '../../../../src/site/markdown/review.ts';
import type { HistoryStatus } from '../../../../src/site/history-collection.ts';

const available: HistoryStatus = {
	available: true,
	reason: '',
	shallow: false,
	start: '2025-01-01T00:00:00.000Z',
	head: {
		hash: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
		short: 'a1b2c3d',
		date: '2026-11-20T12:00:00.000Z',
		author: 'Mira Novak',
		subject: 'Rotate keys',
	},
	dirty: false,
};

/** The text a twin should be, line by line. */
const lines = (...text: string[]) => `${text.join('\n')}\n`;

describe('a review flag’s twin', () => {
	const finding = {
		subject: { label: 'Amara Okafor', href: '/people/amara.okafor/' },
		context: 'amara.okafor@example.com',
		groups: [
			{
				label: '“A. Okafor”',
				rows: [{ view: 'production · Production', href: '/views/production/#user-amara_2eokafor' }],
				more: 0,
			},
			{
				label: '“Amara Okafor”',
				rows: [
					{ view: 'staging · Staging', href: '/views/staging/#user-amara_2eokafor' },
					{ view: 'dr · DR', href: '/views/dr/#user-amara_2eokafor' },
				],
				more: 2,
			},
		],
	};

	it('gives the rule, then each finding with its directory rows, and its HTML page', () => {
		const text = flagMarkdown({
			id: 'several-names',
			title: 'One email under several names',
			rule: 'Flagged when one email has more than one name.',
			total: 1,
			currentPage: 1,
			lastPage: 1,
			start: 0,
			data: [finding],
		});
		expect(text).toBe(
			lines(
				'# One email under several names',
				'',
				"A review flag of the access overview: 1 finding. Each view links to the person's row in its user directory, on the view's HTML page.",
				'',
				'**Rule.** Flagged when one email has more than one name.',
				'',
				'- [Amara Okafor](/people/amara.okafor.md) (amara.okafor@example.com): “A. Okafor” in [production · Production](/views/production/#user-amara_2eokafor); “Amara Okafor” in [staging · Staging](/views/staging/#user-amara_2eokafor), [dr · DR](/views/dr/#user-amara_2eokafor) and [2 more](/people/amara.okafor.md)',
				'',
				'The same page in HTML: [/access/flags/several-names/](/access/flags/several-names/).',
			),
		);
	});

	it('says when none is found, and numbers its pages when there are several', () => {
		const none = flagMarkdown({
			id: 'role-differs',
			title: 'Role differs within an environment',
			rule: 'Flagged when roles differ.',
			total: 0,
			currentPage: 1,
			lastPage: 1,
			start: 0,
			data: [],
		});
		expect(none).toBe(
			lines(
				'# Role differs within an environment',
				'',
				"A review flag of the access overview: none found. Each view links to the person's row in its user directory, on the view's HTML page.",
				'',
				'**Rule.** Flagged when roles differ.',
				'',
				'The same page in HTML: [/access/flags/role-differs/](/access/flags/role-differs/).',
			),
		);
		const paged = flagMarkdown({
			id: 'role-differs',
			title: 'Role differs within an environment',
			rule: 'Flagged when roles differ.',
			total: 120,
			currentPage: 3,
			lastPage: 3,
			start: 100,
			data: [finding],
		});
		expect(paged).toContain('# Role differs within an environment, page 3 of 3\n');
		expect(paged).toContain(': 120 findings (101–101 on page 3 of 3).');
		expect(paged).toContain(
			'\n* [Previous page](/access/flags/role-differs/2.md)\n* [First page](/access/flags/role-differs.md)\n',
		);
		expect(paged).toContain('[/access/flags/role-differs/3/](/access/flags/role-differs/3/)');
	});
});

describe('the stale keys’ twin', () => {
	it('names each key by whose it is, its view, since when and how many days, never its value', () => {
		const text = staleKeysMarkdown({
			limit: 90,
			head: '2026-11-20T12:00:00.000Z',
			total: 2,
			status: available,
			currentPage: 1,
			lastPage: 1,
			start: 0,
			data: [
				{
					slug: 'production',
					view: 'production · Production',
					environment: 'production',
					person: {
						key: 'priya.raman@example.com',
						name: 'Priya Raman',
						email: 'Priya.Raman@example.com',
					},
					since: '2026-06-01T08:00:00.000Z',
					days: 172,
					atLeast: false,
				},
				{
					slug: 'staging',
					view: 'staging · Staging',
					environment: 'staging',
					person: undefined,
					since: '2025-01-01T00:00:00.000Z',
					days: 688,
					atLeast: true,
				},
			],
		});
		expect(text).toBe(
			lines(
				'# Keys not rotated for more than 90 days',
				'',
				'2 keys came in (granted or rotated) more than 90 days before the last commit (20 Nov 2026, 12:00 UTC), oldest first. `PORTAL_KEY_MAX_AGE_DAYS` sets the limit. A key is named by whose it is, never by its value.',
				'',
				'| Key of | View | In since | Days |',
				'| - | - | - | - |',
				'| [Priya Raman](/people/priya.raman.md) (Priya.Raman@example.com) | [production · Production](/views/production.md) | 1 Jun 2026, 08:00 UTC | 172 |',
				'| the view itself (`config.api_key`) | [staging · Staging](/views/staging.md) | 1 Jan 2025, 00:00 UTC | at least 688 |',
				'',
				'The same page in HTML: [/access/review/keys/](/access/review/keys/).',
			),
		);
	});
});

describe('the unchanged directories’ twin', () => {
	it('lists each view with its environment, when its directory last changed and how long ago', () => {
		const text = stillViewsMarkdown({
			head: '2026-11-20T12:00:00.000Z',
			total: 101,
			status: { ...available, shallow: true },
			currentPage: 2,
			lastPage: 2,
			start: 100,
			data: [
				{
					slug: 'dr',
					view: 'dr · DR',
					environment: 'dr-eu-west',
					since: '2026-03-02T10:15:00.000Z',
					days: 263,
					atLeast: false,
				},
			],
		});
		expect(text).toBe(
			lines(
				'# Directories unchanged for more than 180 days, page 2 of 2',
				'',
				"101 views whose directory last changed more than 180 days before the last commit (20 Nov 2026, 12:00 UTC), while another view's changed within that time; longest unchanged first (101–101 on page 2 of 2).",
				'',
				'**History from 2025-01-01 on; the clone is shallow.** Changes before then are not shown (`git fetch --unshallow` fetches them).',
				'',
				'| View | Environment | Directory last changed | Days |',
				'| - | - | - | - |',
				'| [dr · DR](/views/dr.md) | dr-eu-west | 2 Mar 2026, 10:15 UTC | 263 |',
				'',
				'- [Previous page](/access/review/views.md)',
				'',
				'The same page in HTML: [/access/review/views/2/](/access/review/views/2/).',
			),
		);
	});
});
