/** The try-it panel's last requests: checked entry by entry, newest first, at most 20, no keys. */
import { describe, expect, it } from 'vitest';
import {
	HISTORY_LIMIT,
	historyEntry,
	historyRow,
	historyText,
	readHistory,
	withEntry,
	type HistoryEntry,
} from '../../../../src/client/try-it/history.ts';

const ENTRY: HistoryEntry = {
	at: Date.UTC(2026, 10, 24, 9, 5, 7),
	view: 'production',
	viewTitle: 'Production',
	person: 'ada.lovelace',
	personLabel: 'Ada Lovelace (viewer)',
	server: 'http://127.0.0.1:4010',
	status: 200,
	ms: 112,
};

describe('readHistory', () => {
	it('reads back what historyText wrote', () => {
		expect(readHistory(historyText([ENTRY]))).toEqual([ENTRY]);
	});

	it.each([
		['nothing stored', null],
		['storage refused', undefined],
		['cut-off JSON', '[{"at":'],
		['an object', '{"at":1}'],
		['a number', '3'],
	])('is empty for %s', (_, stored) => {
		expect(readHistory(stored)).toEqual([]);
	});

	it('drops the entries with a malformed member and keeps the good ones', () => {
		const stored = JSON.stringify([
			{ ...ENTRY, status: '200' },
			{ ...ENTRY, view: '<img>' },
			{ ...ENTRY, server: 'javascript:alert(1)' },
			{ ...ENTRY, personLabel: '   ' },
			{ ...ENTRY, ms: -1 },
			{ ...ENTRY, at: 1.5 },
			null,
			ENTRY,
		]);
		expect(readHistory(stored)).toEqual([ENTRY]);
	});

	it('keeps at most 20 entries from storage', () => {
		const stored = JSON.stringify(Array.from({ length: 30 }, (_, at) => ({ ...ENTRY, at })));
		expect(readHistory(stored).map(({ at }) => at)).toEqual(
			Array.from({ length: 20 }, (_, at) => at),
		);
	});
});

describe('withEntry', () => {
	it('puts the newest first and lets the 21st fall off', () => {
		let history: HistoryEntry[] = [];
		for (let at = 1; at <= 21; at += 1) history = withEntry(history, { ...ENTRY, at });
		expect(history).toHaveLength(HISTORY_LIMIT);
		expect(history[0]?.at).toBe(21);
		expect(history.at(-1)?.at).toBe(2);
	});

	it('does not add an invalid entry', () => {
		expect(withEntry([ENTRY], { ...ENTRY, view: 'Not A Slug' })).toEqual([ENTRY]);
	});
});

describe('historyEntry', () => {
	it('copies the known members only, so a key handed along is not kept', () => {
		const entry = historyEntry({ ...ENTRY, key: 'ick-4f1c9a07-Qx7m' });
		expect(entry).toEqual(ENTRY);
		expect(historyText([{ ...ENTRY, key: 'ick-4f1c9a07-Qx7m' } as HistoryEntry])).not.toContain(
			'ick-4f1c9a07-Qx7m',
		);
	});
});

describe('historyRow', () => {
	it('shows time, view, person, status and duration; re-sendable on its own view page', () => {
		const row = historyRow(ENTRY, 'production');
		expect(row).toMatchObject({
			view: 'Production',
			person: 'Ada Lovelace (viewer)',
			status: '200',
			tone: 'ok',
			duration: '112 ms',
			here: true,
			datetime: '2026-11-24T09:05:07.000Z',
		});
		expect(row.time).toMatch(/^\d\d:05:07$/);
	});

	it('is not re-sendable on another view page, nor with a typed key', () => {
		expect(historyRow(ENTRY, 'staging').here).toBe(false);
		const typed = historyRow({ ...ENTRY, person: '', personLabel: 'Another key' }, 'production');
		expect(typed.here).toBe(false);
		expect(typed.person).toBe('another key (not kept)');
	});

	it('says "no answer" for a request that got none, and colours 4xx and 5xx', () => {
		expect(historyRow({ ...ENTRY, status: 0, ms: 1250 }, 'production')).toMatchObject({
			status: 'no answer',
			tone: 'other',
			duration: '1.25 s',
		});
		expect(historyRow({ ...ENTRY, status: 401 }, 'production').tone).toBe('client');
		expect(historyRow({ ...ENTRY, status: 503 }, 'production').tone).toBe('server');
	});
});
