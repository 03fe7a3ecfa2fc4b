/**
 * Prism's mock controls, read as Prism's own HTTP server reads them: a `Prefer` header
 * (`code=401, example=invalid-key, dynamic=true, seed=7`), or, when the request has no `Prefer`
 * header, the query parameters `__code`, `__example`, `__dynamic` and `__seed` (a whole number).
 * Beside Prism's,
 * ours: `delay` (milliseconds, or a range picked from, seeded by `seed`) and `fault` (how the
 * answer is broken on its way out), `__delay` and `__fault` in the query. A control that
 * cannot be read, or is repeated in the query, gets Prism's 422, with a message that names it and
 * what was expected. `choose`
 * then says which of the contract's answers a request gets: the key decides first, so a refused
 * key gets its challenge whatever the controls ask for, and the controls pick among the rest.
 */
import parsePreferHeader from 'parse-prefer-header';
import { z } from 'zod';
import {
	FAULT_KINDS,
	isFault,
	LONGEST_DELAY_MS,
	readDelay,
	readSeed,
	SEED_EXPECTED,
	type DelayRange,
	type FaultKind,
} from '../src/schemas/mock-delivery.ts';
import type { DirectoryAnswer } from './directory.ts';

// The delays and faults a request may ask for are the settings' too (MOCK_CHAOS): see there.
export { FAULT_KINDS, LONGEST_DELAY_MS, readDelay, type DelayRange, type FaultKind };

/** The controls a request carries; each is absent when not asked for. */
export interface MockControls {
	/** The status to answer, e.g. 401. */
	code?: number | undefined;
	/** The name of the example to answer with, e.g. a view's slug. */
	example?: string | undefined;
	/** A body generated from the schema instead of an example. */
	dynamic?: boolean | undefined;
	/**
	 * The seed of the generated body and of a delay's pick, so each is the same each time: a whole
	 * number, in its plain digits.
	 */
	seed?: string | undefined;
	/** How long to wait before answering, in milliseconds: one value, or a range to pick from. */
	delay?: DelayRange | undefined;
	/** How the answer is broken on its way out, one of the kinds WireMock names. */
	fault?: FaultKind | undefined;
	/** Where the controls came from, as a person would write them back. */
	spelled: string;
}

/** The controls of a request, or why one cannot be read. */
export type ControlsParse = { ok: true; controls: MockControls } | { ok: false; problem: string };

const stringValue = z.union([z.string(), z.literal(true).transform(() => '')]).optional();

/** What `parse-prefer-header` returns: preferences by camel-cased name. */
const preferencesSchema = z.looseObject({
	code: stringValue,
	example: stringValue,
	dynamic: stringValue,
	seed: stringValue,
	delay: stringValue,
	fault: stringValue,
});

/** The names of the controls, as Prefer and the query (with `__` before it) spell them. */
export const NAMES = ['code', 'example', 'dynamic', 'seed', 'delay', 'fault'] as const;

/**
 * A source of numbers from 0 to 1 (1 left out) that is the same for the same seed, so a request
 * that names a seed gets the same delay and the same bytes each time (FNV-1a, then mulberry32).
 */
export function seededRandom(seed: string): () => number {
	let state = 0x811c9dc5;
	for (const character of seed) {
		state ^= character.codePointAt(0) ?? 0;
		state = Math.imul(state, 0x01000193);
	}
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
		mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
		return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
	};
}

/** The delay to wait, in whole milliseconds, picked uniformly from the range by `random`. */
export function pickDelay(delay: DelayRange, random: () => number): number {
	return delay.min + Math.floor(random() * (delay.max - delay.min + 1));
}

/** A control of ours named before a value, after the start or a separator: `, code=`. */
const CONTROL_NAMED = new RegExp(`(?:^|[,;])\\s*(?:${NAMES.join('|')})\\s*=`, 'i');

/**
 * The preference whose value opens a double quote that never closes (`code="401`), when it is a
 * control of ours or hides one: `parse-prefer-header` reads such a value to the end of the header
 * and drops it, with every control after it. Undefined when every quote closes, or when the
 * quote left open concerns no control of ours.
 */
function openQuote(prefer: string): { name: string; value: string } | undefined {
	if ((prefer.match(/"/g)?.length ?? 0) % 2 === 0) return undefined;
	// Quotes pair up in order (the parser knows no escape), so the last one is left open.
	const quote = prefer.lastIndexOf('"');
	const start = Math.max(prefer.lastIndexOf(',', quote), prefer.lastIndexOf(';', quote)) + 1;
	const preference = prefer.slice(start);
	const equals = preference.indexOf('=');
	// No `=` from the preference on: it has no value, and no control follows it.
	if (equals < 0) return undefined;
	const name = preference.slice(0, equals).trim().toLowerCase();
	const ours = (NAMES as readonly string[]).includes(name);
	if (!ours && !CONTROL_NAMED.test(prefer.slice(quote))) return undefined;
	return { name, value: preference.slice(equals + 1).trim() };
}

/** A control's name, as `NAMES` lists them. */
type ControlName = (typeof NAMES)[number];

/**
 * Whether each control's value is one the mock understood and accepted, by name; an example is
 * accepted when the contract has one of that name (`shownControls`'s `exampleKnown`).
 */
const ACCEPTED: Record<Exclude<ControlName, 'example'>, (value: string) => boolean> = {
	code: (value) => /^\d{3}$/.test(value),
	dynamic: (value) => value === 'true' || value === 'false',
	seed: (value) => readSeed(value) !== undefined,
	delay: (value) => readDelay(value) !== undefined,
	fault: isFault,
};

/**
 * The controls of a request as its log line shows them: each control of ours that was sent, with
 * its value when the mock understood and accepted it (`code=401`, `example=<a name the contract
 * has>`, `dynamic=true`, `delay=100-500`, `fault=reset`, `seed=7`) and otherwise its length only
 * (`<unrecognised, 23 chars>`; `<not shown, 23 chars>` for a seed), so that no key reaches the log in any spelling (percent-encoded, base64, hex,
 * reversed). `exampleKnown` says whether the contract has an example of that name (none when not
 * given).
 */
export function shownControls(
	prefer: string | undefined,
	query: URLSearchParams,
	exampleKnown?: (name: string) => boolean,
): string {
	const fromPrefer = prefer !== undefined && prefer.trim() !== '';
	const sent: [ControlName, string][] = [];
	if (fromPrefer) {
		// A quote left open hides the rest of the header: only its length is shown.
		const open = openQuote(prefer);
		if (open) return `Prefer: ${open.name}=<unrecognised, ${open.value.length} chars>`;
		const read = preferencesSchema.safeParse(parsePreferHeader(prefer));
		const raw = read.success ? read.data : {};
		for (const name of NAMES) {
			const value = raw[name];
			if (value !== undefined) sent.push([name, value]);
		}
	} else {
		for (const name of NAMES)
			for (const value of query.getAll(`__${name}`)) sent.push([name, value]);
	}
	return sent
		.map(([name, value]) => {
			const accepted = name === 'example' ? exampleKnown?.(value) === true : ACCEPTED[name](value);
			const shown = accepted
				? value
				: name === 'seed'
					? `<not shown, ${value.length} chars>`
					: `<unrecognised, ${value.length} chars>`;
			return fromPrefer ? `Prefer: ${name}=${shown}` : `__${name}=${shown}`;
		})
		.join(', ');
}

/**
 * Why a request's controls were refused, as its log line says it: the controls as
 * `shownControls` shows them, then what was expected (which holds nothing the request sent).
 */
export function shownRefusal(problem: string, shown: string): string {
	const expected = problem.lastIndexOf(': expected ');
	return `${shown || 'the controls'}${expected < 0 ? '' : problem.slice(expected)}`;
}

/** Reads the controls; `prefer` is the Prefer header, `query` the request's query parameters. */
export function readControls(prefer: string | undefined, query: URLSearchParams): ControlsParse {
	let raw: Partial<Record<ControlName, string | undefined>>;
	let spell: (name: string, value: string) => string;
	if (prefer !== undefined && prefer.trim() !== '') {
		const open = openQuote(prefer);
		if (open !== undefined) {
			const bare = open.value.replace(/^"/, '');
			const example = (NAMES as readonly string[]).includes(open.name)
				? `, e.g. ${open.name}="${bare}" or ${open.name}=${bare}`
				: '';
			return {
				ok: false,
				problem: `Prefer: ${open.name}=${open.value}: expected a closing double quote after the value${example}`,
			};
		}
		raw = preferencesSchema.parse(parsePreferHeader(prefer));
		spell = (name, value) => `Prefer: ${name}=${value}`;
	} else {
		// Prism answers a control sent twice with 422, since it cannot tell which one was meant.
		for (const name of NAMES) {
			const values = query.getAll(`__${name}`);
			if (values.length > 1) {
				const sent = values.map((value) => `__${name}=${value}`).join(', ');
				return { ok: false, problem: `${sent}: expected __${name} once` };
			}
		}
		const read = (name: string): string | undefined => query.get(`__${name}`) ?? undefined;
		raw = Object.fromEntries(NAMES.map((name) => [name, read(name)]));
		spell = (name, value) => `__${name}=${value}`;
	}
	const controls: Omit<MockControls, 'spelled'> = {};
	const spelled: string[] = [];
	if (raw.code !== undefined) {
		if (!/^\d{3}$/.test(raw.code)) {
			return {
				ok: false,
				problem: `${spell('code', raw.code)}: expected a three-digit status code, e.g. code=401`,
			};
		}
		controls.code = Number(raw.code);
		spelled.push(spell('code', raw.code));
	}
	if (raw.example !== undefined) {
		if (raw.example === '') {
			return { ok: false, problem: `${spell('example', '')}: expected the name of an example` };
		}
		controls.example = raw.example;
		spelled.push(spell('example', raw.example));
	}
	if (raw.dynamic !== undefined) {
		if (raw.dynamic !== 'true' && raw.dynamic !== 'false') {
			return {
				ok: false,
				problem: `${spell('dynamic', raw.dynamic)}: expected dynamic=true or dynamic=false`,
			};
		}
		controls.dynamic = raw.dynamic === 'true';
		spelled.push(spell('dynamic', raw.dynamic));
	}
	if (raw.seed !== undefined) {
		const seed = readSeed(raw.seed);
		if (seed === undefined) {
			return { ok: false, problem: `${spell('seed', raw.seed)}: expected ${SEED_EXPECTED}` };
		}
		controls.seed = seed;
		spelled.push(spell('seed', raw.seed));
	}
	if (raw.delay !== undefined) {
		const delay = readDelay(raw.delay);
		if (!delay) {
			return {
				ok: false,
				problem: `${spell('delay', raw.delay)}: expected milliseconds from 0 to ${LONGEST_DELAY_MS}, or a range low-high, e.g. delay=500 or delay=100-500`,
			};
		}
		controls.delay = delay;
		spelled.push(spell('delay', raw.delay));
	}
	if (raw.fault !== undefined) {
		if (!isFault(raw.fault)) {
			return {
				ok: false,
				problem: `${spell('fault', raw.fault)}: expected one of ${FAULT_KINDS.join(', ')}`,
			};
		}
		controls.fault = raw.fault;
		spelled.push(spell('fault', raw.fault));
	}
	return { ok: true, controls: { ...controls, spelled: spelled.join(', ') } };
}

/** The status and example a request is answered with, from its key and then its controls. */
export function choose(
	answer: DirectoryAnswer,
	controls: MockControls,
): { code: number; example: string | undefined } {
	if (answer.status !== 200) return { code: answer.status, example: answer.challenge };
	const code = controls.code ?? 200;
	const example =
		controls.example ?? (code === 200 && !controls.dynamic ? answer.holder.slug : undefined);
	return { code, example };
}
