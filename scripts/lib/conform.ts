/**
 * The conformance run (`npm run conform`), without sockets: which requests it sends a console
 * (for each key GET and HEAD, a CORS preflight, and the 401s of no key, a key of the wrong shape
 * and a well-shaped unknown key), how each answer is judged (the status expected, then the
 * contract's check the mock's proxy and try-it make, src/shared/contract-check.ts), and the
 * reports: a table for people, JUnit XML for CI and Markdown for a review. A key is never
 * written: it is named by its holder when a fixture holds it, else by its last four characters,
 * and anything shaped like a key is masked in every report.
 */
import {
	answerViolations,
	type UpstreamAnswer,
	type UpstreamFailure,
} from '../../mock/forwarder/decide.ts';
import type { OperationContract } from '../../src/shared/exchange-check.ts';
import { USERS_PATH } from '../../src/shared/curl.ts';

/** A key to send, and how every output names it. */
export interface NamedKey {
	key: string;
	/** `Amara Okafor (production)`, or `the key ending KApG`. */
	shown: string;
}

/** One check: a request and the status the contract says it gets. */
export interface ConformCheck {
	/** `GET /api/v2/users as Amara Okafor (production)`. */
	name: string;
	/** `GET /api/v2/users`: the operation whose answers the contract says. */
	operation: string;
	method: 'GET' | 'HEAD' | 'OPTIONS';
	/** Headers to send besides Host. */
	headers: [string, string][];
	expected: number;
	/** Whether the challenge must say `error="invalid_token"` (RFC 6750, section 3.1). */
	invalidToken?: boolean;
}

/** A well-shaped key that no directory holds. */
export const UNKNOWN_KEY = 'ick-00000000-Zz00';

/** The page origin the preflight names. */
export const PREFLIGHT_ORIGIN = 'http://localhost:3000';

/** The keys read from CONFORM_KEYS (comma-separated) or the file CONFORM_KEYS_FILE names. */
export function keysFrom(
	env: NodeJS.ProcessEnv,
	readFile: (file: string) => string,
): { ok: true; keys: string[] } | { ok: false; problem: string } {
	const inline = env['CONFORM_KEYS'];
	const file = env['CONFORM_KEYS_FILE'];
	let text: string;
	if (inline !== undefined && inline.trim() !== '') {
		text = inline;
	} else if (file !== undefined && file !== '') {
		try {
			text = readFile(file);
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code ?? String(error);
			return { ok: false, problem: `CONFORM_KEYS_FILE: ${file} cannot be read (${code})` };
		}
	} else {
		return {
			ok: false,
			problem:
				'no keys: set CONFORM_KEYS=<key>,<key> or CONFORM_KEYS_FILE=<file> (keys are never taken from the command line, where shell history and process lists keep them)',
		};
	}
	const keys = [
		...new Set(
			text
				.split(/[,\n]/)
				.map((key) => key.trim())
				.filter((key) => key !== '' && !key.startsWith('#')),
		),
	];
	if (keys.length === 0) return { ok: false, problem: 'no keys: CONFORM_KEYS names none' };
	return { ok: true, keys };
}

/** How a key is named: by its holder, when a fixture holds it, else by its last four characters. */
export function nameKey(key: string, holders: ReadonlyMap<string, string>): NamedKey {
	return { key, shown: holders.get(key) ?? `the key ending ${key.slice(-4)}` };
}

/** Every check of a run, in order. */
export function conformChecks(keys: readonly NamedKey[]): ConformCheck[] {
	const get = `GET ${USERS_PATH}`;
	const checks: ConformCheck[] = [];
	for (const { key, shown } of keys) {
		const authorization: [string, string] = ['Authorization', `Bearer ${key}`];
		checks.push(
			{
				name: `${get} as ${shown}`,
				operation: get,
				method: 'GET',
				headers: [authorization],
				expected: 200,
			},
			{
				name: `HEAD ${USERS_PATH} as ${shown}`,
				operation: `HEAD ${USERS_PATH}`,
				method: 'HEAD',
				headers: [authorization],
				expected: 200,
			},
		);
	}
	checks.push(
		{
			name: `OPTIONS ${USERS_PATH}: a preflight from ${PREFLIGHT_ORIGIN}`,
			operation: `OPTIONS ${USERS_PATH}`,
			method: 'OPTIONS',
			headers: [
				['Origin', PREFLIGHT_ORIGIN],
				['Access-Control-Request-Method', 'GET'],
				['Access-Control-Request-Headers', 'authorization'],
			],
			expected: 204,
		},
		{ name: `${get} without a key`, operation: get, method: 'GET', headers: [], expected: 401 },
		{
			name: `${get} with a key of the wrong shape`,
			operation: get,
			method: 'GET',
			headers: [['Authorization', 'Bearer not-a-directory-key']],
			expected: 401,
			invalidToken: true,
		},
		{
			name: `${get} with a well-shaped key no directory holds`,
			operation: get,
			method: 'GET',
			headers: [['Authorization', `Bearer ${UNKNOWN_KEY}`]],
			expected: 401,
			invalidToken: true,
		},
	);
	return checks;
}

/** What one check found. */
export interface ConformResult {
	check: ConformCheck;
	/** `200 application/json`, or why there was no answer. */
	got: string;
	verdict: 'conforms' | 'breaks' | 'no answer';
	/** Each way the answer breaks the contract, or why there was none. */
	problems: string[];
	/** Why there was no answer at all (the console could not be reached), for the exit code. */
	unreachable?: boolean;
	durationMs: number;
}

/** A failure in words. */
function failureWords(failure: UpstreamFailure, timeoutMs: number): string {
	switch (failure.kind) {
		case 'unreachable':
			return `could not be reached (${failure.cause})`;
		case 'timeout':
			return `did not answer within ${timeoutMs} ms`;
		case 'broken':
			return `closed the connection before its whole answer (${failure.cause})`;
		case 'not-http':
			return `answered something that is not HTTP (${failure.cause})`;
		case 'too-large':
			return `answered a body over ${failure.limit} bytes`;
	}
}

/** The value of a header of an answer, repeated ones joined. */
function header(answer: UpstreamAnswer, name: string): string | undefined {
	const values: string[] = [];
	for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
		if (answer.rawHeaders[index]?.toLowerCase() === name)
			values.push(answer.rawHeaders[index + 1] ?? '');
	}
	return values.length ? values.join(', ') : undefined;
}

/** Judges one answer (or its absence) against what the check expects and the contract. */
export function judge(
	check: ConformCheck,
	result: UpstreamAnswer | UpstreamFailure,
	contract: OperationContract | undefined,
	timeoutMs: number,
	durationMs: number,
): ConformResult {
	if (!('status' in result)) {
		const why = failureWords(result, timeoutMs);
		return {
			check,
			got: 'no answer',
			verdict: 'no answer',
			problems: [`The console ${why}.`],
			unreachable: result.kind === 'unreachable',
			durationMs,
		};
	}
	const type = header(result, 'content-type')?.split(';', 1)[0]?.trim();
	const got = type ? `${result.status} ${type}` : String(result.status);
	const problems: string[] = [];
	if (result.status !== check.expected) {
		problems.push(`Expected ${check.expected}, got ${result.status}.`);
	}
	if (!contract) problems.push(`The contract declares no ${check.operation}.`);
	for (const { message } of answerViolations(result, check.method, contract))
		problems.push(message);
	const challenge = header(result, 'www-authenticate');
	if (check.invalidToken && challenge !== undefined && !/error="invalid_token"/.test(challenge)) {
		problems.push(
			'WWW-Authenticate: a token that opens no directory must get error="invalid_token" (RFC 6750, section 3.1)',
		);
	}
	return { check, got, verdict: problems.length ? 'breaks' : 'conforms', problems, durationMs };
}

/** Anything shaped like a key, and the keys sent, masked in a text. */
export function masked(text: string, keys: readonly string[]): string {
	let out = text.replace(/[a-z]{2,8}-[0-9a-f]{8}-[A-Za-z0-9]{4}/g, '<key>');
	for (const key of keys) if (key !== '') out = out.replaceAll(key, '<key>');
	return out;
}

/** The expected column: the status the contract says. */
const expectedOf = (result: ConformResult): string =>
	`${result.check.expected}${result.check.method === 'HEAD' ? ', no body' : ''}, as the contract says`;

/** The run's table for the terminal: check, expected, got, verdict, then each problem below. */
export function table(results: readonly ConformResult[]): string {
	const rows = [
		['Check', 'Expected', 'Got', 'Verdict'],
		...results.map((result) => [result.check.name, expectedOf(result), result.got, result.verdict]),
	];
	const widths = [0, 1, 2, 3].map((column) =>
		Math.max(...rows.map((row) => row[column]?.length ?? 0)),
	);
	const line = (row: readonly string[]): string =>
		row
			.map((cell, column) => cell.padEnd(widths[column] ?? 0))
			.join('  ')
			.trimEnd();
	const out = [line(rows[0] ?? []), widths.map((width) => '-'.repeat(width)).join('  ')];
	results.forEach((result, index) => {
		out.push(line(rows[index + 1] ?? []));
		for (const problem of result.problems) out.push(`    ${problem}`);
	});
	return out.join('\n');
}

/** The summary line: how many checks conform. */
export function summary(results: readonly ConformResult[], base: string): string {
	const failing = results.filter(({ verdict }) => verdict !== 'conforms').length;
	return failing === 0
		? `The console at ${base} conforms to the contract: ${results.length} of ${results.length} checks pass.`
		: `The console at ${base} does not conform to the contract: ${failing} of ${results.length} checks fail.`;
}

/** Text escaped for XML. */
function xml(text: string): string {
	return (
		text
			// eslint-disable-next-line no-control-regex -- the characters XML 1.0 cannot hold are exactly what this replaces
			.replace(/[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd]/gu, '?')
			.replaceAll('&', '&amp;')
			.replaceAll('<', '&lt;')
			.replaceAll('>', '&gt;')
			.replaceAll('"', '&quot;')
	);
}

/** The run as JUnit XML: one test case per check, a failure per check that breaks the contract. */
export function junit(results: readonly ConformResult[], base: string): string {
	const failures = results.filter(({ verdict }) => verdict === 'breaks').length;
	const errors = results.filter(({ verdict }) => verdict === 'no answer').length;
	const seconds = (ms: number): string => (ms / 1000).toFixed(3);
	const total = seconds(results.reduce((sum, { durationMs }) => sum + durationMs, 0));
	const cases = results.map((result) => {
		const open = `    <testcase classname="${xml(result.check.operation)}" name="${xml(result.check.name)}" time="${seconds(result.durationMs)}"`;
		if (result.verdict === 'conforms') return `${open}/>`;
		const tag = result.verdict === 'breaks' ? 'failure' : 'error';
		const message = `Expected ${expectedOf(result)}; got ${result.got}`;
		return `${open}>\n      <${tag} message="${xml(message)}" type="${tag === 'failure' ? 'ContractViolation' : 'NoAnswer'}">${xml(result.problems.join('\n'))}</${tag}>\n    </testcase>`;
	});
	return [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<testsuites name="conform" tests="${results.length}" failures="${failures}" errors="${errors}" time="${total}">`,
		`  <testsuite name="${xml(`The console at ${base} against openapi.yaml`)}" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="0" time="${total}">`,
		...cases,
		'  </testsuite>',
		'</testsuites>',
		'',
	].join('\n');
}

/** A Markdown table cell: one line, pipes escaped. */
function cell(text: string): string {
	return text
		.replaceAll('\\', '\\\\')
		.replaceAll('|', '\\|')
		.replace(/\s*\n\s*/g, '<br>');
}

/** The run as Markdown, for a review: the summary, then a row per check with its problems. */
export function markdown(results: readonly ConformResult[], base: string, when: Date): string {
	return [
		`# Conformance of the console at ${base}`,
		'',
		`${summary(results, base)} Run ${when.toISOString()} against openapi.yaml.`,
		'',
		'| Check | Expected | Got | Verdict |',
		'| --- | --- | --- | --- |',
		...results.map((result) => {
			const verdict =
				result.verdict === 'conforms'
					? 'conforms'
					: `**${result.verdict}**: ${result.problems.join('; ')}`;
			return `| ${cell(result.check.name)} | ${cell(expectedOf(result))} | ${cell(result.got)} | ${cell(verdict)} |`;
		}),
		'',
	].join('\n');
}
