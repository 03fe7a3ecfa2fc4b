/** Error messages that say what a field expected, and whether it was missing. */
import type { z } from 'zod';

/** A zod error function: "is missing; expected …" for an absent field, "expected …" otherwise. */
export function expected(text: string) {
	return (issue: z.core.$ZodRawIssue): string =>
		issue.input === undefined ? `is missing; expected ${text}` : `expected ${text}`;
}
