/**
 * The contract's check of an answer, shared by the try-it panel (in the browser), the mock as a
 * validating proxy and the conformance run: is the body what the contract says for its status and
 * media type (a stream of JSON lines or of server-sent events, OpenAPI 3.2's `itemSchema`, item by
 * item), checked by
 * validators compiled from the contract (at build time for the panel,
 * src/integrations/try-it-validators.ts; at start for the proxy and the run,
 * src/sources/contract-validators.ts), each violation named by where it is. Every text comes back
 * plain, for `textContent`, a log line or a header.
 */
import { USERS_PATH } from './curl.ts';

/** An answer as the check reads it: status, media type, the body as text and as JSON. */
export interface AnswerToCheck {
	status: number;
	/** The media type of the Content-Type header, lowercased, without parameters. */
	mediaType: string | undefined;
	/** The body as text. */
	text: string;
	/** How reading the body ended: only a `complete` body is checked against a schema. */
	ending: string;
	/** The body as JSON, `{ value }`, or `undefined` when it is not JSON or did not arrive whole. */
	json: { value: unknown } | undefined;
}

/** One violation as a compiled validator reports it: the parts of Ajv's error object read here. */
export interface Violation {
	/** JSON Pointer to the value that is wrong, `''` for the whole body. */
	instancePath: string;
	keyword: string;
	params: Readonly<Record<string, unknown>>;
}

/** A validator compiled at build time: true when the value matches, else `errors` say why. */
export interface BodyValidator {
	(value: unknown): boolean;
	errors?: readonly Violation[] | null;
}

/**
 * The media types of a stream of JSON values, one a line (JSON Lines, NDJSON), whose items the
 * check reads line by line against the contract's `itemSchema`.
 */
export const JSON_LINES_TYPES: readonly string[] = [
	'application/jsonl',
	'application/x-jsonlines',
	'application/x-ndjson',
];

/**
 * The check of a stream of JSON lines (OpenAPI 3.2's `itemSchema`): each line that is not blank
 * is one item, which `eachLine` checks.
 */
export interface LinesValidator {
	eachLine: BodyValidator;
}

/** The media type of server-sent events, whose items the check reads event by event. */
export const EVENT_STREAM_TYPE = 'text/event-stream';

/**
 * The check of a stream of server-sent events (OpenAPI 3.2's `itemSchema`): each event, as
 * `readEvents` reads it, is one item, which `eachEvent` checks.
 */
export interface EventsValidator {
	eachEvent: BodyValidator;
}

/**
 * The contract's answers: status, then media type, then its validator (`null`: no schema), or its
 * item's for a stream of JSON lines or of server-sent events.
 */
export type ContractAnswers = Readonly<
	Record<string, Readonly<Record<string, BodyValidator | LinesValidator | EventsValidator | null>>>
>;

/** The most violations listed; the rest are counted. */
export const MAX_LISTED_VIOLATIONS = 20;

/** What the check found: a verdict, a sentence saying it, and the violations, one line each. */
export interface ContractCheck {
	verdict: 'matches' | 'breaks' | 'unchecked';
	headline: string;
	violations: string[];
}

/** Formats in words. */
const FORMAT_WORDS: Readonly<Record<string, string>> = {
	email: 'an email address',
	'uri-reference': 'a URI reference',
	uri: 'a URI',
	uuid: 'a UUID',
	ipv4: 'an IPv4 address',
	ipv6: 'an IPv6 address',
	hostname: 'a host name',
};

/** JSON types in words, with their article. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
	object: 'an object',
	array: 'an array',
	string: 'a string',
	number: 'a number',
	integer: 'an integer',
	boolean: 'true or false',
	null: 'null',
};

/** A name or value from the body, made safe to show on one line and cut when long. */
function shown(text: string, cap = 60): string {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
	const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
	return clean.length > cap ? `${clean.slice(0, cap)}…` : clean;
}

/** A value of the contract as it reads in a sentence: strings bare, others as JSON. */
function word(value: unknown): string {
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A pointer one step deeper, the step escaped as JSON Pointer asks (`~0`, `~1`). */
function child(pointer: string, name: unknown): string {
	return `${pointer}/${shown(String(name).replaceAll('~', '~0').replaceAll('/', '~1'))}`;
}

/** `N characters`, `1 character`. */
function count(amount: unknown, noun: string): string {
	return `${word(amount)} ${noun}${amount === 1 ? '' : 's'}`;
}

/** One violation as the panel lists it: `/users/3/role: must be one of admin, deployer, …`. */
export function describeViolation(violation: Violation): string {
	return worded(violation, (pointer) => (pointer === '' ? '(the body)' : shown(pointer, 120)));
}

/** One violation of a stream's item: `line 3: /email: must be an email address`, `event 2: …`. */
function describeItem(violation: Violation, item: string): string {
	return worded(violation, (pointer) =>
		pointer === '' ? item : `${item}: ${shown(pointer, 120)}`,
	);
}

/** A violation in words, `at` naming where a pointer is. */
function worded(
	{ instancePath, keyword, params }: Violation,
	at: (pointer: string) => string,
): string {
	switch (keyword) {
		case 'required':
			return `${at(child(instancePath, params['missingProperty']))}: is required but missing`;
		case 'additionalProperties':
			return `${at(child(instancePath, params['additionalProperty']))}: is not in the contract`;
		case 'enum': {
			const allowed = Array.isArray(params['allowedValues']) ? params['allowedValues'] : [];
			return `${at(instancePath)}: must be one of ${allowed.map(word).join(', ')}`;
		}
		case 'const':
			return `${at(instancePath)}: must be ${word(params['allowedValue'])}`;
		case 'type': {
			const types = String(params['type']).split(',');
			return `${at(instancePath)}: must be ${types.map((type) => TYPE_WORDS[type] ?? type).join(' or ')}`;
		}
		case 'format': {
			const format = String(params['format']);
			return `${at(instancePath)}: must be ${FORMAT_WORDS[format] ?? `in the format ${format}`}`;
		}
		case 'minLength':
			return params['limit'] === 1
				? `${at(instancePath)}: must not be empty`
				: `${at(instancePath)}: must be at least ${count(params['limit'], 'character')} long`;
		case 'maxLength':
			return `${at(instancePath)}: must be at most ${count(params['limit'], 'character')} long`;
		case 'minItems':
			return `${at(instancePath)}: must hold at least ${count(params['limit'], 'item')}`;
		case 'maxItems':
			return `${at(instancePath)}: must hold at most ${count(params['limit'], 'item')}`;
		case 'minimum':
		case 'maximum':
		case 'exclusiveMinimum':
		case 'exclusiveMaximum':
			return `${at(instancePath)}: must be ${word(params['comparison'])} ${word(params['limit'])}`;
		case 'pattern':
			return `${at(instancePath)}: must match the pattern ${word(params['pattern'])}`;
		default:
			return `${at(instancePath)}: breaks the contract's ${keyword} rule`;
	}
}

/** The contract's answers for a status: its own, else its range (`4XX`), else `default`. */
function answersFor(answers: ContractAnswers, status: number) {
	return answers[String(status)] ?? answers[`${String(status)[0]}XX`] ?? answers['default'];
}

/** Checks an answer against the contract's schema for its status and media type. */
export function checkAnswer(
	answer: AnswerToCheck,
	answers: ContractAnswers,
	operation = `GET ${USERS_PATH}`,
): ContractCheck {
	const { status, mediaType } = answer;
	const bodies = answersFor(answers, status);
	const breaks = (headline: string): ContractCheck => ({
		verdict: 'breaks',
		headline,
		violations: [],
	});
	if (!bodies) {
		const listed = Object.keys(answers).join(', ');
		return breaks(`The contract has no ${status} answer for ${operation}; it lists ${listed}.`);
	}
	const types = Object.keys(bodies);
	if (types.length === 0) {
		return answer.text === ''
			? {
					verdict: 'matches',
					headline: `No body, as the contract's ${status} answer says.`,
					violations: [],
				}
			: breaks(`The contract's ${status} answer has no body, but this one has.`);
	}
	const expected = types.join(' or ');
	if (mediaType === undefined) {
		return breaks(
			`The answer has no Content-Type; the contract's ${status} answer is ${expected}.`,
		);
	}
	// Own keys only: a media type such as `constructor` must not find Object's own function.
	const validator = Object.hasOwn(bodies, mediaType) ? bodies[mediaType] : undefined;
	if (validator === undefined) {
		return breaks(
			`The answer is ${shown(mediaType)}; the contract's ${status} answer is ${expected}.`,
		);
	}
	const what = `${status} ${mediaType}`;
	if (answer.ending !== 'complete') {
		return {
			verdict: 'unchecked',
			headline: `The body did not arrive whole, so it was not checked against the contract's ${what} schema.`,
			violations: [],
		};
	}
	if (validator === null) {
		return {
			verdict: 'matches',
			headline: `The contract's ${what} answer has no schema to check.`,
			violations: [],
		};
	}
	if (typeof validator !== 'function') {
		return 'eachEvent' in validator
			? checkEvents(answer.text, validator.eachEvent, what)
			: checkLines(answer.text, validator.eachLine, what);
	}
	const body = answer.json;
	if (!body)
		return breaks(`The body is not JSON, so it cannot match the contract's ${what} schema.`);
	if (validator(body.value)) {
		return {
			verdict: 'matches',
			headline: `The body matches the contract's ${what} schema.`,
			violations: [],
		};
	}
	const errors = validator.errors ?? [];
	return broken(errors.map(describeViolation), `${what} schema`);
}

/** A body that breaks the contract's `schema`: its first problems listed, the rest counted. */
function broken(found: readonly string[], schema: string): ContractCheck {
	const violations = found.slice(0, MAX_LISTED_VIOLATIONS);
	if (found.length > MAX_LISTED_VIOLATIONS) {
		violations.push(`… and ${found.length - MAX_LISTED_VIOLATIONS} more`);
	}
	const problems = found.length === 1 ? '1 problem' : `${found.length} problems`;
	return {
		verdict: 'breaks',
		headline: `The body breaks the contract's ${schema} (${problems}):`,
		violations,
	};
}

/**
 * Checks a stream of JSON lines: each line that is not blank must be JSON that `item` accepts,
 * and each problem names its line, counted from 1 with the blank ones.
 */
function checkLines(text: string, item: BodyValidator, what: string): ContractCheck {
	const found: string[] = [];
	let items = 0;
	for (const [index, line] of text.split('\n').entries()) {
		if (line.trim() === '') continue;
		items += 1;
		let value: unknown;
		try {
			value = JSON.parse(line) as unknown;
		} catch {
			// JSON.parse of a string throws only a SyntaxError, which is what is reported here.
			found.push(`line ${index + 1}: is not JSON`);
			continue;
		}
		found.push(...itemProblems(item, value, `line ${index + 1}`));
	}
	if (found.length) return broken(found, `${what} item schema`);
	return {
		verdict: 'matches',
		headline: `The body matches the contract's ${what} item schema, line by line (${count(items, 'line')}).`,
		violations: [],
	};
}

/** What is wrong with one item of a stream, named `where` (`line 3`, `event 2`): none if allowed. */
function itemProblems(item: BodyValidator, value: unknown, where: string): string[] {
	if (item(value)) return [];
	const errors = item.errors ?? [];
	return errors.length
		? errors.map((violation) => describeItem(violation, where))
		: [`${where}: does not match the contract's item schema`];
}

/**
 * One server-sent event as OpenAPI 3.2 models it for an `itemSchema`: the fields it was sent
 * with, `retry` as a number.
 */
export interface StreamEvent {
	data: string;
	event?: string;
	id?: string;
	retry?: number;
}

/**
 * The events of a `text/event-stream` body, read as a browser's EventSource reads them (the HTML
 * standard's rules): lines ended by CRLF, LF or CR; `name: value` fields (one space after the
 * colon dropped), a line starting with `:` a comment; a blank line ends an event, whose `data`
 * lines are joined by newlines; a block without data is no event. Each event holds the fields of
 * its own block (a browser also carries `id` on to the next events). `unended` says the body
 * ends inside an event, which a browser drops.
 */
export function readEvents(text: string): { events: StreamEvent[]; unended: boolean } {
	const events: StreamEvent[] = [];
	let data: string[] = [];
	let fields: Omit<StreamEvent, 'data'> = {};
	const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
	// What follows the last line break is a line only if it holds something.
	if (lines.at(-1) === '') lines.pop();
	for (const line of lines) {
		if (line === '') {
			if (data.length > 0) events.push({ data: data.join('\n'), ...fields });
			data = [];
			fields = {};
			continue;
		}
		const colon = line.indexOf(':');
		// Stryker disable next-line ConditionalExpression: a comment read as a field names none of the four, so it is ignored all the same
		if (colon === 0) continue;
		// Stryker disable next-line EqualityOperator: a line that starts with a colon, a comment, was skipped above
		const name = colon < 0 ? line : line.slice(0, colon);
		// Stryker disable next-line EqualityOperator: a line that starts with a colon, a comment, was skipped above
		const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
		if (name === 'data') data.push(value);
		else if (name === 'event') fields.event = value;
		else if (name === 'id' && !value.includes('\0')) fields.id = value;
		else if (name === 'retry' && /^[0-9]+$/.test(value)) fields.retry = Number(value);
	}
	return { events, unended: data.length > 0 };
}

/**
 * Checks a stream of server-sent events: each event, as `readEvents` reads it, must be an object
 * `item` accepts, and each problem names its event, counted from 1; a body that ends inside an
 * event breaks it.
 */
function checkEvents(text: string, item: BodyValidator, what: string): ContractCheck {
	const { events, unended } = readEvents(text);
	const found = events.flatMap((event, index) => itemProblems(item, event, `event ${index + 1}`));
	if (unended) {
		found.push(
			`event ${events.length + 1}: is not ended by a blank line, so a client never receives it`,
		);
	}
	if (found.length) return broken(found, `${what} item schema`);
	return {
		verdict: 'matches',
		headline: `The body matches the contract's ${what} item schema, event by event (${count(events.length, 'event')}).`,
		violations: [],
	};
}
