/**
 * Prism's mock controls, read as Prism's own HTTP server reads them: a `Prefer` header
 * (`code=401, example=invalid-key, dynamic=true, seed=7`), or, when the request has no `Prefer`
 * header, the query parameters `__code`, `__example`, `__dynamic` and `__seed`. A control that
 * cannot be read, or is repeated in the query, gets Prism's 422, with a message that names it and
 * what was expected. `choose`
 * then says which of the contract's answers a request gets: the key decides first, so a refused
 * key gets its challenge whatever the controls ask for, and the controls pick among the rest.
 */
import parsePreferHeader from 'parse-prefer-header';
import { z } from 'zod';
import type { DirectoryAnswer } from './directory.ts';

/** The controls a request carries; each is absent when not asked for. */
export interface MockControls {
	/** The status to answer, e.g. 401. */
	code?: number | undefined;
	/** The name of the example to answer with, e.g. a view's slug. */
	example?: string | undefined;
	/** A body generated from the schema instead of an example. */
	dynamic?: boolean | undefined;
	/** The seed of the generated body, so it is the same each time. */
	seed?: string | undefined;
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
});

/** Reads the controls; `prefer` is the Prefer header, `query` the request's query parameters. */
export function readControls(prefer: string | undefined, query: URLSearchParams): ControlsParse {
	let raw: {
		code?: string | undefined;
		example?: string | undefined;
		dynamic?: string | undefined;
		seed?: string | undefined;
	};
	let spell: (name: string, value: string) => string;
	if (prefer !== undefined && prefer.trim() !== '') {
		raw = preferencesSchema.parse(parsePreferHeader(prefer));
		spell = (name, value) => `Prefer: ${name}=${value}`;
	} else {
		// Prism answers a control sent twice with 422, since it cannot tell which one was meant.
		for (const name of ['code', 'example', 'dynamic', 'seed']) {
			const values = query.getAll(`__${name}`);
			if (values.length > 1) {
				const sent = values.map((value) => `__${name}=${value}`).join(', ');
				return { ok: false, problem: `${sent}: expected __${name} once` };
			}
		}
		const read = (name: string): string | undefined => query.get(`__${name}`) ?? undefined;
		raw = {
			code: read('code'),
			example: read('example'),
			dynamic: read('dynamic'),
			seed: read('seed'),
		};
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
		controls.seed = raw.seed;
		spelled.push(spell('seed', raw.seed));
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
