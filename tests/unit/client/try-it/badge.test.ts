/** The try-it answer's badge: status, time and size in one line, coloured by the status class. */
import { describe, expect, it } from 'vitest';
import { badgeSize, badgeText, statusTone } from '../../../../src/client/try-it/badge.ts';

describe('badgeText', () => {
	it('reads like "200 OK · 112 ms · 649 B"', () => {
		expect(badgeText('200 OK', '112 ms', 649)).toBe('200 OK · 112 ms · 649 B');
		expect(badgeText('503 Service Unavailable', '1.25 s', 2048)).toBe(
			'503 Service Unavailable · 1.25 s · 2 KiB',
		);
	});
});

describe('badgeSize', () => {
	it.each([
		[0, '0 B'],
		[1023, '1023 B'],
		[1024, '1 KiB'],
		[1536, '1.5 KiB'],
		[262_144, '256 KiB'],
		[1_258_291, '1.2 MiB'],
	])('%i bytes is %s', (bytes, text) => {
		expect(badgeSize(bytes)).toBe(text);
	});
});

describe('statusTone', () => {
	it.each([
		[200, 'ok'],
		[299, 'ok'],
		[304, 'other'],
		[400, 'client'],
		[499, 'client'],
		[500, 'server'],
		[599, 'server'],
		[0, 'other'],
	])('%i is %s', (status, tone) => {
		expect(statusTone(status)).toBe(tone);
	});
});
