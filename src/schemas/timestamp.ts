import { z } from 'zod';
import { expected } from './expected.ts';

/** The timestamp format in words. */
export const TIMESTAMP_SHAPE =
	'an ISO 8601 UTC timestamp with milliseconds, like 2026-11-18T09:30:12.345Z';

/** Whether a string of the timestamp format names a real instant (no 30 February). */
function isRealInstant(value: string): boolean {
	const instant = new Date(value);
	return !Number.isNaN(instant.getTime()) && instant.toISOString() === value;
}

/** An ISO 8601 UTC timestamp with exactly three fraction digits and a `Z`, for a real date. */
export const timestampSchema = z
	.string({ error: expected(TIMESTAMP_SHAPE) })
	.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, {
		error: expected(TIMESTAMP_SHAPE),
		abort: true,
	})
	.refine(isRealInstant, { error: `expected a real date and time (${TIMESTAMP_SHAPE})` });
