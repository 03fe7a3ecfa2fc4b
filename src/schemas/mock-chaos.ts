/**
 * MOCK_CHAOS, the mock's chaos for a soak test: which delays, faults and statuses it serves to
 * what share of the requests it answers, from which seed, and for which view or person only:
 *
 *   delay=50-300 fault=reset:2% code=503:5% seed=7 view=staging-us-east
 *
 * Items are `name=value`, separated by spaces, each name at most once. `delay=<ms>` or
 * `<min>-<max>` (0 to 30,000) goes to every request in scope, or to a share of them with
 * `:<share>%`; `fault=<kind>:<share>%` and `code=<status>:<share>%` take several, separated by
 * commas (`fault=reset:2%,empty:1%`), and a request gets at most one of them, so their shares add
 * up to 100% at most. Shares are percentages with up to two decimals (`0.5%`). Whether a `code` is
 * one the contract declares is checked by the mock once it has read the contract. A `seed` is a
 * whole number, as a request's `Prefer: seed=` is.
 */
import { z } from 'zod';
import { ANY_KEY_PATTERN } from './key.ts';
import {
	FAULT_KINDS,
	isFault,
	LONGEST_DELAY_MS,
	readDelay,
	readSeed,
	SEED_EXPECTED,
	type DelayRange,
	type FaultKind,
} from './mock-delivery.ts';
import { SLUG_PATTERN } from './view.ts';

/** A share of requests, in hundredths of a percent: 200 is 2%, 10,000 all of them. */
export type Share = number;

/** All the requests in scope, as a share. */
export const ALL: Share = 10_000;

/** What a request in scope may get instead of its answer: a fault, or another status. */
export type ChaosOutcome =
	{ kind: 'fault'; fault: FaultKind; share: Share } | { kind: 'code'; code: number; share: Share };

/** MOCK_CHAOS, read. */
export interface ChaosRule {
	/** The delay served, and to what share of the requests in scope. */
	delay?: { range: DelayRange; share: Share } | undefined;
	/** The faults, then the statuses, in the order written; a request gets one at most. */
	outcomes: readonly ChaosOutcome[];
	/** The seed the choices are drawn from; none draws them at random. */
	seed?: string | undefined;
	/** Only requests of this view: its key's view, or the example the request asks for. */
	view?: string | undefined;
	/** Only requests whose key this person (an email, lower case) holds. */
	person?: string | undefined;
}

/** MOCK_CHAOS read, or the one line that says what is wrong with it. */
export type ChaosParse = { ok: true; rule: ChaosRule } | { ok: false; problem: string };

/** The names MOCK_CHAOS knows. */
const NAMES = ['delay', 'fault', 'code', 'seed', 'view', 'person'] as const;

/** The names, as a message lists them. */
const LISTED = 'delay=, fault=, code=, seed=, view= or person=';

/** An example of a whole value, as messages give it. */
export const CHAOS_EXAMPLE = 'delay=50-300 fault=reset:2% code=503:5% seed=7';

/** `2%`, `0.5%`, `100%`: a percentage with at most two decimals. */
const SHARE = /^(\d{1,3})(?:\.(\d{1,2}))?%$/;

/** Anything shaped like a key, wherever it is in a text. */
const KEY_ANYWHERE = new RegExp(ANY_KEY_PATTERN.source.slice(1, -1), 'g');

/** A part of the value as a message quotes it: printable, short, and never a key. */
function quoted(text: string): string {
	const shown = text.replace(KEY_ANYWHERE, '<key>').replace(/[^\x20-\x7e]/g, '?');
	return `"${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}"`;
}

/** A share as written, in hundredths of a percent, or undefined when it is not one above 0%. */
export function readShare(text: string): Share | undefined {
	const match = SHARE.exec(text);
	if (!match) return undefined;
	const share = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
	return share > 0 && share <= ALL ? share : undefined;
}

/** A share as a person writes it: `2%`, `0.5%`. */
export function shownShare(share: Share): string {
	return `${share / 100}%`;
}

/** Reads one `fault=` or `code=` list into outcomes, or says what is wrong with it. */
function readOutcomes(
	name: 'fault' | 'code',
	value: string,
	item: string,
): ChaosOutcome[] | string {
	const outcomes: ChaosOutcome[] = [];
	const seen = new Set<string>();
	for (const part of value.split(',')) {
		const [what = '', share, ...rest] = part.split(':');
		const read = share === undefined || rest.length > 0 ? undefined : readShare(share);
		if (name === 'fault') {
			if (!isFault(what)) {
				return `${quoted(item)}: ${quoted(what)} is no fault; expected one of ${FAULT_KINDS.join(', ')}, each with a share of requests, e.g. fault=reset:2%`;
			}
			if (read === undefined) {
				return `${quoted(item)}: expected a share of requests from 0.01% to 100% after ${what}, e.g. fault=${what}:2%`;
			}
			outcomes.push({ kind: 'fault', fault: what, share: read });
		} else {
			if (!/^[1-5]\d\d$/.test(what)) {
				return `${quoted(item)}: ${quoted(what)} is no status; expected one from 100 to 599, each with a share of requests, e.g. code=503:5%`;
			}
			if (read === undefined) {
				return `${quoted(item)}: expected a share of requests from 0.01% to 100% after ${what}, e.g. code=${what}:5%`;
			}
			outcomes.push({ kind: 'code', code: Number(what), share: read });
		}
		if (seen.has(what)) return `${quoted(item)}: ${what} is listed twice`;
		seen.add(what);
	}
	return outcomes;
}

/** Reads MOCK_CHAOS; a problem is one line that starts with the variable's name. */
export function readChaos(text: string): ChaosParse {
	const fail = (problem: string): ChaosParse => ({ ok: false, problem: `MOCK_CHAOS: ${problem}` });
	const items = text.trim().split(/\s+/).filter(Boolean);
	if (items.length === 0) return fail(`expected what to serve, e.g. ${CHAOS_EXAMPLE}`);
	const given = new Map<string, { value: string; item: string }>();
	for (const item of items) {
		const equals = item.indexOf('=');
		const name = item.slice(0, Math.max(equals, 0));
		const value = item.slice(equals + 1);
		if (equals <= 0 || value === '') {
			return fail(`${quoted(item)} is not name=value; expected ${LISTED}, e.g. ${CHAOS_EXAMPLE}`);
		}
		if (!(NAMES as readonly string[]).includes(name)) {
			return fail(`${quoted(item)} names no setting of the chaos; expected ${LISTED}`);
		}
		if (given.has(name)) {
			return fail(
				`${name}= is given twice; give it once (several faults or statuses go in one, separated by commas, e.g. fault=reset:2%,empty:1%)`,
			);
		}
		given.set(name, { value, item });
	}
	const rule: { -readonly [K in keyof ChaosRule]: ChaosRule[K] } = { outcomes: [] };
	const delay = given.get('delay');
	if (delay) {
		const [range = '', share, ...rest] = delay.value.split(':');
		const read = readDelay(range);
		const of = share === undefined ? ALL : readShare(share);
		if (!read || of === undefined || rest.length > 0) {
			return fail(
				`${quoted(delay.item)}: expected milliseconds from 0 to ${LONGEST_DELAY_MS}, or a range low-high, with an optional share of requests, e.g. delay=50-300 or delay=50-300:20%`,
			);
		}
		rule.delay = { range: read, share: of };
	}
	const outcomes: ChaosOutcome[] = [];
	for (const name of ['fault', 'code'] as const) {
		const list = given.get(name);
		if (!list) continue;
		const read = readOutcomes(name, list.value, list.item);
		if (typeof read === 'string') return fail(read);
		outcomes.push(...read);
	}
	const total = outcomes.reduce((sum, { share }) => sum + share, 0);
	if (total > ALL) {
		return fail(
			`the shares of fault= and code= add up to ${shownShare(total)}; at most 100%, since a request gets one of them at most`,
		);
	}
	rule.outcomes = outcomes;
	const seed = given.get('seed');
	if (seed) {
		const read = readSeed(seed.value);
		if (read === undefined) return fail(`${quoted(seed.item)}: expected ${SEED_EXPECTED}`);
		rule.seed = read;
	}
	const view = given.get('view');
	if (view) {
		if (!SLUG_PATTERN.test(view.value)) {
			return fail(`${quoted(view.item)}: expected a view's slug, e.g. view=staging-us-east`);
		}
		rule.view = view.value;
	}
	const person = given.get('person');
	if (person) {
		if (!z.email().safeParse(person.value).success) {
			return fail(
				`${quoted(person.item)}: expected the email address of a person in a view's directory, e.g. person=amara.okafor@example.com`,
			);
		}
		rule.person = person.value.toLowerCase();
	}
	if (!rule.delay && outcomes.length === 0) {
		return fail(`nothing to serve: add delay=, fault= or code=, e.g. ${CHAOS_EXAMPLE}`);
	}
	return { ok: true, rule };
}

/** MOCK_CHAOS as the settings read it: the rule, or an issue of one line. */
export const chaosSchema = z.string().transform((text, context): ChaosRule => {
	const read = readChaos(text);
	if (read.ok) return read.rule;
	context.addIssue({ code: 'custom', message: read.problem });
	return z.NEVER;
});
