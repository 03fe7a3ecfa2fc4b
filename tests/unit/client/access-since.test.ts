/** The date-picking page's DOM-free part: the picked day, and the fetched file checked before use. */
import { describe, expect, it } from 'vitest';
import { isSinceData, startOfDay } from '../../../src/client/access-since/since-date.ts';
import { beforeHistory, type SinceData } from '../../../src/shared/access-since.ts';

const data: SinceData = {
	available: true,
	reason: '',
	shallow: true,
	start: '2026-10-02T08:00:00.000Z',
	roles: ['admin', 'deployer', 'operator', 'viewer'],
	environments: ['production'],
	people: [['Amara Okafor', 'amara.okafor@example.com', 'amara.okafor']],
	now: [[0, 0, 0, 1]],
	pending: [],
	commits: [['2026-10-02T08:00:00.000Z', 'abc1234']],
	events: [[0, 0, 0, 0, 1]],
};

describe('the picked day', () => {
	it('starts at midnight UTC', () => {
		expect(startOfDay('2026-10-02')).toBe(Date.UTC(2026, 9, 2));
	});

	it('is refused when it is no date or a day that does not exist', () => {
		for (const value of ['', '2026-10', '2026-02-30', '2026-13-01', '02/10/2026', '2026-10-02x']) {
			expect(startOfDay(value), value).toBeUndefined();
		}
	});

	it('lies before a shallow history when it is before its first commit', () => {
		expect(beforeHistory(data, Date.UTC(2026, 9, 1))).toBe(true);
		expect(beforeHistory(data, Date.UTC(2026, 9, 3))).toBe(false);
	});
});

describe('the fetched file', () => {
	it('is used when it has the shape of /access-since.json', () => {
		expect(isSinceData(data)).toBe(true);
		expect(isSinceData(JSON.parse(JSON.stringify(data)))).toBe(true);
	});

	it('is refused when a list or a field is of another shape', () => {
		expect(isSinceData(null)).toBe(false);
		expect(isSinceData({ ...data, available: 'yes' })).toBe(false);
		expect(isSinceData({ ...data, now: [[0, 0, 0]] })).toBe(false);
		expect(isSinceData({ ...data, events: [[0, 0, 0, 0, '1']] })).toBe(false);
		expect(isSinceData({ ...data, people: [['Amara', 'amara@example.com']] })).toBe(false);
		expect(isSinceData({ ...data, commits: [[1, 'abc']] })).toBe(false);
		expect(isSinceData({ ...data, environments: [1] })).toBe(false);
	});
});
