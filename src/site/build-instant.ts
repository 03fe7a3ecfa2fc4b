/** The instant a build describes: what the overview counts each view's age from. */
import { readSettings } from '../sources/settings.ts';

/**
 * SOURCE_DATE_EPOCH's instant when it is set (a reproducible build gives the same pages every
 * time), else `now`: as an ISO timestamp in UTC.
 */
export function buildInstant(sourceDateEpoch: number | undefined, now: number): string {
	return new Date(sourceDateEpoch === undefined ? now : sourceDateEpoch * 1000).toISOString();
}

/** This build's instant, taken once, so every page counts from the same one. */
export const BUILT_AT = buildInstant(readSettings().sourceDateEpoch, Date.now());
