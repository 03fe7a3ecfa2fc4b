/**
 * The contract's check of a stream of server-sent events (OpenAPI 3.2's `itemSchema` on
 * `text/event-stream`): the body is read into events as a browser's EventSource reads it, each
 * event is the object `{ data, event?, id?, retry? }` the 3.2 spec models it as, and each
 * violation names its event, in the words the check uses for a stream of JSON lines.
 */
import { describe, expect, it } from 'vitest';
import {
	checkAnswer,
	MAX_LISTED_VIOLATIONS,
	readEvents,
	type AnswerToCheck,
	type BodyValidator,
	type ContractAnswers,
	type Violation,
} from '../../../src/shared/contract-check.ts';
import { contractAjv } from '../../../src/sources/contract-validators.ts';

/** The 3.2 spec's event of a user: its data is the user's JSON. */
const userEvent = contractAjv().compile({
	type: 'object',
	required: ['data'],
	additionalProperties: false,
	properties: {
		data: { type: 'string', contentMediaType: 'application/json' },
		event: { enum: ['user'] },
		id: { type: 'string', pattern: '^[0-9]+$' },
		retry: { type: 'integer', maximum: 5000 },
	},
});

const CONTRACT: ContractAnswers = {
	'200': { 'application/json': null, 'text/event-stream': { eachEvent: userEvent } },
};

/** A whole 200 answer of server-sent events with this text. */
function events(text: string, ending = 'complete'): AnswerToCheck {
	return { status: 200, mediaType: 'text/event-stream', text, ending, json: undefined };
}

const ADA = '{"name":"Ada Example"}';
const BEN = '{"name":"Ben Example"}';

describe('the reading of server-sent events', () => {
	it('reads one event per blank line, each data line joined by a newline', () => {
		expect(readEvents(`data: ${ADA}\n\ndata: a\ndata: b\n\n`)).toEqual({
			events: [{ data: ADA }, { data: 'a\nb' }],
			unended: false,
		});
	});

	it('reads event, id and retry fields, retry as a number, and ignores comments and unknown fields', () => {
		const text = ': a comment\nevent: user\nid: 7\nretry: 3000\nmood: calm\ndata: x\n\n';
		expect(readEvents(text).events).toEqual([{ data: 'x', event: 'user', id: '7', retry: 3000 }]);
	});

	it('takes one space after the colon away, keeps any other, and reads a bare name as empty', () => {
		expect(readEvents('data:x\ndata:  y\ndata\n\n').events).toEqual([{ data: 'x\n y\n' }]);
	});

	it('takes away only a space right after the colon, not one inside the value', () => {
		expect(readEvents('data:a b\nevent: new user\n\n').events).toEqual([
			{ data: 'a b', event: 'new user' },
		]);
	});

	it('drops only a byte-order mark that starts the stream, and keeps one inside a value', () => {
		expect(readEvents('data: a\uFEFFb\n\n').events).toEqual([{ data: 'a\uFEFFb' }]);
	});

	it('reads a field it does not know as nothing, even with digits for a value', () => {
		expect(readEvents('count: 5\ndata: a\n\n').events).toEqual([{ data: 'a' }]);
	});

	it('reads lines ended by CRLF or CR alike, after a byte-order mark', () => {
		expect(readEvents('\uFEFFdata: a\r\n\r\ndata: b\r\rdata: c\n\n').events).toEqual([
			{ data: 'a' },
			{ data: 'b' },
			{ data: 'c' },
		]);
	});

	it('drops a block without data, as a browser does, and its fields with it', () => {
		expect(readEvents('event: user\nid: 1\n\n\n\ndata: a\n\n').events).toEqual([{ data: 'a' }]);
	});

	it('keeps a retry that is not digits out, and an id holding NUL, as a browser ignores them', () => {
		expect(readEvents('retry: 3s\nid: a\u0000b\ndata: a\n\nretry: -1\ndata: b\n\n').events).toEqual(
			[{ data: 'a' }, { data: 'b' }],
		);
	});

	it('gives each event only the fields of its own block', () => {
		expect(readEvents('event: user\nid: 1\nretry: 9\ndata: a\n\ndata: b\n\n').events).toEqual([
			{ data: 'a', event: 'user', id: '1', retry: 9 },
			{ data: 'b' },
		]);
	});

	it('a later field of a kind wins over an earlier one in its event', () => {
		expect(readEvents('event: a\nevent: b\ndata: x\n\n').events).toEqual([
			{ data: 'x', event: 'b' },
		]);
	});

	it('notes an event the body ends inside, whether or not its last line is ended', () => {
		expect(readEvents(`data: ${ADA}\n\ndata: x\n`)).toEqual({
			events: [{ data: ADA }],
			unended: true,
		});
		expect(readEvents('data: x').unended).toBe(true);
		expect(readEvents('data: x\n\ndata: y')).toEqual({ events: [{ data: 'x' }], unended: true });
		expect(readEvents('data: x\n\n: bye').unended).toBe(false);
		expect(readEvents('').unended).toBe(false);
	});
});

describe('the check of server-sent events against their item schema', () => {
	it('matches a stream whose every event the contract allows, counting the events', () => {
		const text = `event: user\nid: 1\ndata: ${ADA}\n\n: keep-alive\n\ndata: ${BEN}\n\n`;
		expect(checkAnswer(events(text), CONTRACT, 'QUERY /api/v2/users')).toEqual({
			verdict: 'matches',
			headline:
				"The body matches the contract's 200 text/event-stream item schema, event by event (2 events).",
			violations: [],
		});
	});

	it('says one event in the singular, and matches an empty stream', () => {
		expect(checkAnswer(events(`data: ${ADA}\n\n`), CONTRACT).headline).toBe(
			"The body matches the contract's 200 text/event-stream item schema, event by event (1 event).",
		);
		expect(checkAnswer(events(''), CONTRACT).verdict).toBe('matches');
	});

	it('names the event of a field that breaks the item schema, as it names a line', () => {
		const text = `data: ${ADA}\n\nevent: person\nid: x\nretry: 9000\ndata: ${BEN}\n\n`;
		expect(checkAnswer(events(text), CONTRACT)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 200 text/event-stream item schema (3 problems):",
			violations: [
				'event 2: /event: must be one of user',
				'event 2: /id: must match the pattern ^[0-9]+$',
				'event 2: /retry: must be <= 5000',
			],
		});
	});

	it('names the event itself when the whole event is wrong', () => {
		const strict: ContractAnswers = {
			'200': {
				'text/event-stream': {
					eachEvent: contractAjv().compile({ type: 'object', maxProperties: 1 }),
				},
			},
		};
		expect(checkAnswer(events('data: a\n\nid: 1\ndata: b\n\n'), strict).violations).toEqual([
			"event 2: breaks the contract's maxProperties rule",
		]);
	});

	it('breaks a stream that ends inside an event, which a client never receives', () => {
		expect(checkAnswer(events(`data: ${ADA}\n\ndata: ${BEN}\n`), CONTRACT)).toEqual({
			verdict: 'breaks',
			headline: "The body breaks the contract's 200 text/event-stream item schema (1 problem):",
			violations: ['event 2: is not ended by a blank line, so a client never receives it'],
		});
	});

	it('names the event its validator refuses without saying why', () => {
		const refusing: BodyValidator = Object.assign((_value: unknown) => false, {
			errors: null as readonly Violation[] | null,
		});
		const contract: ContractAnswers = { '200': { 'text/event-stream': { eachEvent: refusing } } };
		expect(checkAnswer(events('data: a\n\n'), contract).violations).toEqual([
			"event 1: does not match the contract's item schema",
		]);
	});

	it('lists at most the first problems of a long stream and counts the rest', () => {
		const text = 'event: other\ndata: x\n\n'.repeat(25);
		const checked = checkAnswer(events(text), CONTRACT);
		expect(checked.violations).toHaveLength(MAX_LISTED_VIOLATIONS + 1);
		expect(checked.violations[MAX_LISTED_VIOLATIONS]).toBe('… and 5 more');
	});

	it('leaves a stream that did not arrive whole unchecked', () => {
		expect(checkAnswer(events('data: x\n', 'timed-out'), CONTRACT).verdict).toBe('unchecked');
	});
});
