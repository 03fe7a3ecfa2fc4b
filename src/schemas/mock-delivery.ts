/**
 * What a request (`Prefer: delay=…, fault=…`) or the mock's chaos (MOCK_CHAOS) may ask of how an
 * answer goes out: a delay in a range, and the faults WireMock names. The mock's controls and the
 * settings both read them from here.
 */

/** A delay asked for: `delay=500` is 500 to 500, `delay=100-500` picks in between. */
export interface DelayRange {
	min: number;
	max: number;
}

/** The longest delay a request may ask for, in milliseconds. */
export const LONGEST_DELAY_MS = 30_000;

/**
 * The faults a request may ask for, as WireMock names them: the connection reset before any
 * byte, closed with no answer, random bytes then closed, headers and half the body then closed,
 * or the body sent a little at a time over the delay.
 */
export const FAULT_KINDS = ['reset', 'empty', 'garbage', 'truncated', 'slow-body'] as const;

/** A fault a request may ask for. */
export type FaultKind = (typeof FAULT_KINDS)[number];

/** `delay=<ms>` or `delay=<min>-<max>`, each a whole number of milliseconds. */
const DELAY = /^(\d{1,5})(?:-(\d{1,5}))?$/;

/** A delay as asked for, or undefined when it is not one from 0 to 30,000 ms, low end first. */
export function readDelay(text: string): DelayRange | undefined {
	const match = DELAY.exec(text);
	if (!match) return undefined;
	const min = Number(match[1]);
	const max = match[2] === undefined ? min : Number(match[2]);
	if (max > LONGEST_DELAY_MS || min > max) return undefined;
	return { min, max };
}

/** Whether a text names a fault kind. */
export function isFault(text: string): text is FaultKind {
	return (FAULT_KINDS as readonly string[]).includes(text);
}

/** The largest seed: the largest whole number a JavaScript number holds exactly. */
export const LARGEST_SEED = Number.MAX_SAFE_INTEGER;

/** What a seed must be, as a message says it. */
export const SEED_EXPECTED = `a whole number from 0 to ${LARGEST_SEED}, e.g. seed=7`;

/**
 * A seed as asked for (`seed=7`), in its plain digits (`007` is the seed `7`), or undefined when
 * it is not a whole number from 0 to LARGEST_SEED written in digits.
 */
export function readSeed(text: string): string | undefined {
	if (!/^\d{1,16}$/.test(text)) return undefined;
	const seed = Number(text);
	return seed <= LARGEST_SEED ? String(seed) : undefined;
}
