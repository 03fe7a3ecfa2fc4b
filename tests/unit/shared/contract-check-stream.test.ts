/**
 * The contract's check of a stream of JSON lines (OpenAPI 3.2's `itemSchema`, e.g. QUERY's
 * `application/jsonl` answer): each line that is not blank must be JSON and match the item's
 * schema, and each violation names its line, in the words the check uses for a whole body.
 */
import { describe, expect, it } from 'vitest';
import {
	checkAnswer,
	MAX_LISTED_VIOLATIONS,
	type AnswerToCheck,
	type BodyValidator,
	type ContractAnswers,
	type Violation,
} from '../../../src/shared/contract-check.ts';
import { contractAjv } from '../../../src/sources/contract-validators.ts';

/** The item schema of a user, as the 3.2 contract's QUERY streams them. */
const user = contractAjv().compile({
	type: 'object',
	required: ['name', 'email', 'role'],
	additionalProperties: false,
	properties: {
		name: { type: 'string' },
		email: { type: 'string', format: 'email' },
		role: { enum: ['admin', 'viewer'] },
	},
});

const CONTRACT: ContractAnswers = {
	'200': { 'application/json': null, 'application/jsonl': { eachLine: user } },
};

const ADA = { name: 'Ada Example', email: 'ada@example.com', role: 'admin' };
const BEN = { name: 'Ben Example', email: 'ben@example.com', role: 'viewer' };

/** A whole 200 answer of JSON lines with this text. */
function lines(text: string, ending = 'complete'): AnswerToCheck {
	return { status: 200, mediaType: 'application/jsonl', text, ending, json: undefined };
}

/** The lines of these values, each ended by a newline, as the mock streams them. */
function stream(...values: unknown[]): string {
	return values.map((value) => `${JSON.stringify(value)}\n`).join('');
}

describe('the check of a stream of JSON lines against its item schema', () => {
	it('matches a stream whose every line is an item the contract allows, counting the lines', () => {
		expect(checkAnswer(lines(stream(ADA, BEN)), CONTRACT, 'QUERY /api/v2/users')).toEqual({
			verdict: 'matches',
			headline:
				"The body matches the contract's 200 application/jsonl item schema, line by line (2 lines).",
			violations: [],
		});
	});

	it('skips blank lines and reads a line ended by CRLF, so one item counts as one line', () => {
		const text = `\n${JSON.stringify(ADA)}\r\n  \n`;
		expect(checkAnswer(lines(text), CONTRACT).headline).toBe(
			"The body matches the contract's 200 application/jsonl item schema, line by line (1 line).",
		);
	});

	it('matches an empty stream: no line is an item the contract refuses', () => {
		expect(checkAnswer(lines(''), CONTRACT).verdict).toBe('matches');
	});

	it('names the line of a field that breaks the item schema, as it names a field of a body', () => {
		const text = stream(ADA, BEN, { ...BEN, email: 'not an address', role: 'boss' });
		expect(checkAnswer(lines(text), CONTRACT)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 200 application/jsonl item schema (2 problems):",
			violations: [
				'line 3: /email: must be an email address',
				'line 3: /role: must be one of admin, viewer',
			],
		});
	});

	it('names the line itself when the whole item is wrong, and counts blank lines in its number', () => {
		const text = `${JSON.stringify(ADA)}\n\n[1]\n`;
		expect(checkAnswer(lines(text), CONTRACT).violations).toEqual(['line 3: must be an object']);
	});

	it('names a missing field and a field the contract does not have on its line', () => {
		const text = stream({ name: 'Ada', email: 'ada@example.com' }, { ...ADA, key: 'x' });
		expect(checkAnswer(lines(text), CONTRACT).violations).toEqual([
			'line 1: /role: is required but missing',
			'line 2: /key: is not in the contract',
		]);
	});

	it('breaks a stream with a line that is not JSON, naming that line, and checks the others', () => {
		const text = `${JSON.stringify(ADA)}\n{"name": \n${JSON.stringify({ ...BEN, role: 'boss' })}\n`;
		expect(checkAnswer(lines(text), CONTRACT)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 200 application/jsonl item schema (2 problems):",
			violations: ['line 2: is not JSON', 'line 3: /role: must be one of admin, viewer'],
		});
	});

	it('a body of one JSON document spread over lines is not a stream of items', () => {
		const text = JSON.stringify(ADA, null, 2);
		const checked = checkAnswer(lines(text), CONTRACT);
		expect(checked.verdict).toBe('breaks');
		expect(checked.violations[0]).toBe('line 1: is not JSON');
	});

	it('lists at most the first problems of a long stream and counts the rest', () => {
		const text = stream(...Array.from({ length: 26 }, () => ({ ...ADA, role: 'boss' })));
		const checked = checkAnswer(lines(text), CONTRACT);
		expect(checked.headline).toBe(
			"The body breaks the contract's 200 application/jsonl item schema (26 problems):",
		);
		expect(checked.violations).toHaveLength(MAX_LISTED_VIOLATIONS + 1);
		expect(checked.violations[MAX_LISTED_VIOLATIONS - 1]).toBe(
			`line ${MAX_LISTED_VIOLATIONS}: /role: must be one of admin, viewer`,
		);
		expect(checked.violations[MAX_LISTED_VIOLATIONS]).toBe('… and 6 more');
	});

	it('says one problem in the singular', () => {
		const text = stream({ ...ADA, role: 'boss' });
		expect(checkAnswer(lines(text), CONTRACT).headline).toBe(
			"The body breaks the contract's 200 application/jsonl item schema (1 problem):",
		);
	});

	it('names the line of an item its validator refuses without saying why', () => {
		const refusing: BodyValidator = Object.assign((_value: unknown) => false, {
			errors: null as readonly Violation[] | null,
		});
		const contract: ContractAnswers = { '200': { 'application/jsonl': { eachLine: refusing } } };
		expect(checkAnswer(lines(stream(ADA)), contract)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 200 application/jsonl item schema (1 problem):",
			violations: ["line 1: does not match the contract's item schema"],
		});
	});

	it('leaves a stream that did not arrive whole unchecked, as it leaves a body', () => {
		const text = `${JSON.stringify(ADA)}\n{"name":`;
		expect(checkAnswer(lines(text, 'timed-out'), CONTRACT).verdict).toBe('unchecked');
	});

	it('checks the whole body, not its lines, where the contract gives a schema and no item schema', () => {
		const whole: ContractAnswers = { '200': { 'application/jsonl': user } };
		const answer = { ...lines(stream(ADA)), json: { value: ADA } };
		expect(checkAnswer(answer, whole).headline).toBe(
			"The body matches the contract's 200 application/jsonl schema.",
		);
	});
});
