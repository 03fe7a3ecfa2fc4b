/** How the portal writes times: in UTC, the same on every machine. */
import { describe, expect, it } from 'vitest';
import { formatShortTimestamp, formatTimestamp } from '../../../src/site/time.ts';

describe('formatTimestamp', () => {
	it('writes an instant to the millisecond, in UTC', () => {
		expect(formatTimestamp('2026-11-18T09:30:12.345Z')).toBe('2026-11-18 09:30:12.345 UTC');
	});
});

describe('formatShortTimestamp', () => {
	it('writes the day, the month as British English shortens it, the year and the minute, in UTC', () => {
		expect(formatShortTimestamp('2026-11-18T09:30:12.345Z')).toBe('18 Nov 2026, 09:30 UTC');
		expect(formatShortTimestamp('2026-01-01T00:00:00.000Z')).toBe('1 Jan 2026, 00:00 UTC');
		expect(formatShortTimestamp('2026-09-30T23:59:59.999Z')).toBe('30 Sept 2026, 23:59 UTC');
		expect(formatShortTimestamp('2026-06-05T12:00:00.000Z')).toBe('5 Jun 2026, 12:00 UTC');
	});
});
