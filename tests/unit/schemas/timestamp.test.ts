/** The timestamp a fixture's lastUpdated and generatedAt carry, and what a fixture author is told. */
import { describe, expect, it } from 'vitest';
import { timestampSchema } from '../../../src/schemas/timestamp.ts';

const SHAPE = 'an ISO 8601 UTC timestamp with milliseconds, like 2026-11-18T09:30:12.345Z';

/** The messages of the issues a value raises, in order; none when it is accepted. */
function messagesFor(value: unknown): string[] {
	const result = timestampSchema.safeParse(value);
	return result.success ? [] : result.error.issues.map(({ message }) => message);
}

describe('timestampSchema', () => {
	it.each(['2026-11-18T09:30:12.345Z', '2024-02-29T00:00:00.000Z', '1999-12-31T23:59:59.999Z'])(
		'accepts %s',
		(value) => {
			expect(messagesFor(value)).toEqual([]);
		},
	);

	it.each([
		['2026-11-18T09:30:12Z', 'no milliseconds'],
		['2026-11-18T09:30:12.3456Z', 'four fraction digits'],
		['2026-11-18T10:31:00.000+01:00', 'an offset instead of Z'],
		['2026-11-18 09:30:12.345Z', 'a space instead of T'],
		['x2026-11-18T09:30:12.345Z', 'text before the timestamp'],
		['2026-11-18T09:30:12.345Zx', 'text after the timestamp'],
		['2026-11-18T09:30:12.345Z\n', 'a newline after the timestamp'],
		['', 'nothing'],
	])('refuses %j (%s) with the one message that names the format', (value) => {
		expect(messagesFor(value)).toEqual([`expected ${SHAPE}`]);
	});

	it.each([
		['2026-02-30T09:30:12.345Z', '30 February'],
		['2025-02-29T09:30:12.345Z', '29 February in a common year'],
		['2026-11-18T24:00:00.000Z', 'hour 24'],
		['2026-13-01T09:30:12.345Z', 'month 13'],
	])('refuses %s (%s) as not a real date and time', (value) => {
		expect(messagesFor(value)).toEqual([`expected a real date and time (${SHAPE})`]);
	});

	it('says a missing timestamp is missing, and a number is not one', () => {
		expect(messagesFor(undefined)).toEqual([`is missing; expected ${SHAPE}`]);
		expect(messagesFor(1_763_458_212_345)).toEqual([`expected ${SHAPE}`]);
	});
});
