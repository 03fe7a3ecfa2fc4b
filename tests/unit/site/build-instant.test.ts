import { describe, expect, it } from 'vitest';
import { buildInstant } from '../../../src/site/build-instant.ts';
import { updatedAgainstBuild } from '../../../src/site/duration.ts';
import { readSettings } from '../../../src/sources/settings.ts';

describe("the build's instant", () => {
	it('is SOURCE_DATE_EPOCH when set, so a reproducible build counts from the same instant', () => {
		expect(buildInstant(1795478400, Date.UTC(2030, 0, 1))).toBe('2026-11-24T00:00:00.000Z');
	});

	it('is the time of the build without it', () => {
		expect(buildInstant(undefined, Date.UTC(2026, 10, 24, 7, 45))).toBe('2026-11-24T07:45:00.000Z');
	});

	it('reads SOURCE_DATE_EPOCH from the environment as whole seconds, and refuses anything else', () => {
		expect(readSettings({ SOURCE_DATE_EPOCH: '1795478400' }).sourceDateEpoch).toBe(1795478400);
		expect(readSettings({}).sourceDateEpoch).toBeUndefined();
		for (const bad of ['yesterday', '-1', '1795478400.5', '1e9'])
			expect(() => readSettings({ SOURCE_DATE_EPOCH: bad }), bad).toThrow(
				'SOURCE_DATE_EPOCH: expected whole seconds since 1970-01-01 (e.g. 1795478400)',
			);
	});
});

describe('when a view was last updated, against the build', () => {
	it('gives the UTC date and how long before the build, in one unit', () => {
		expect(updatedAgainstBuild('2026-11-18T09:30:12.345Z', '2026-11-24T00:00:00.000Z')).toBe(
			'2026-11-18, 6 days before this build',
		);
		expect(updatedAgainstBuild('2026-11-23T21:10:00.000Z', '2026-11-24T00:00:00.000Z')).toBe(
			'2026-11-23, 3 h before this build',
		);
	});

	it('counts two views from the same instant, so their figures compare', () => {
		const builtAt = '2026-11-24T00:00:00.000Z';
		expect(updatedAgainstBuild('2026-11-03T19:41:22.459Z', builtAt)).toBe(
			'2026-11-03, 21 days before this build',
		);
		expect(updatedAgainstBuild('2026-11-20T13:26:37.880Z', builtAt)).toBe(
			'2026-11-20, 4 days before this build',
		);
	});

	it('counts calendar days from a day apart, so the count adds up with the date shown', () => {
		// 25 hours apart, but two dates apart: the 22nd is two days before the 24th.
		expect(updatedAgainstBuild('2026-11-22T23:00:00.000Z', '2026-11-24T00:00:00.000Z')).toBe(
			'2026-11-22, 2 days before this build',
		);
		expect(updatedAgainstBuild('2026-11-22T12:00:00.000Z', '2026-11-23T13:00:00.000Z')).toBe(
			'2026-11-22, 1 day before this build',
		);
		// Under a day apart, the time apart, even across midnight.
		expect(updatedAgainstBuild('2026-11-23T01:00:00.000Z', '2026-11-24T00:00:00.000Z')).toBe(
			'2026-11-23, 23 h before this build',
		);
	});

	it('says "after" for a time past the build, rather than a negative count', () => {
		expect(updatedAgainstBuild('2026-11-26T00:00:00.000Z', '2026-11-24T00:00:00.000Z')).toBe(
			'2026-11-26, 2 days after this build',
		);
	});
});
