/**
 * The mock's answers to `QUERY /api/v2/users` (OpenAPI 3.2's query method: a safe, repeatable
 * request with a body), which Prism cannot serve, so the contract Prism reads leaves it out
 * (`query-aside.ts`) and `decide.ts` answers it as it answers GET, with two steps of its own: once
 * the key is accepted (a refusal is GET's: 401 with the Bearer challenge, or 400), the body is
 * checked against the operation's request body schema, a body it does not allow getting the
 * operation's own 422 (or 400) problem naming each violation (`queryRefusal`); then the users
 * answer the key and controls chose keeps the users the filter matches, as JSON or, when asked by
 * `Accept` and the contract gives one (its `itemSchema`), a stream of JSON lines or of server-sent
 * events, each event's data one user's JSON (`queryAnswer`); an event it cannot fill so is refused
 * at start (`query-aside.ts`).
 * Its controls (`Prefer: code=…, example=…`, `__code`, `__example`) pick among the QUERY
 * operation's own responses and examples, not GET's (`queryControlled`).
 * A QUERY is never kept: its answer depends on its body.
 */
import type { ValidateFunction } from 'ajv';
import {
	describeViolation,
	EVENT_STREAM_TYPE,
	type Violation,
} from '../src/shared/contract-check.ts';
import { USERS_PATH } from '../src/shared/curl.ts';
import { problemBody } from '../src/shared/problems.ts';
import { contractAjv } from '../src/sources/contract-validators.ts';
import { isMapping } from '../src/sources/mapping.ts';
import type { Operation, ResponseModel } from '../src/sources/openapi.ts';
import { answerFromModel, controlProblem, someNames, type Answer } from './answers.ts';
import type { MockControls } from './controls.ts';
import type { Logged, MockRequest } from './sent-answers.ts';
import type { MockState } from './state.ts';

/** The most bytes of a QUERY's body the mock reads; a longer body is refused unread. */
export const MAX_QUERY_BODY = 64 * 1024;

/** The media type of a stream of JSON objects, one a line. */
const JSON_LINES = 'application/jsonl';

/** The methods a page may use on the mock: GET and HEAD, and QUERY when the contract has one. */
export function pageMethods(state: MockState | undefined): string[] {
	const query = state?.reference.operations.some(({ method }) => method === 'QUERY');
	return query ? ['GET', 'HEAD', 'QUERY'] : ['GET', 'HEAD'];
}

/** The request body validators, compiled once per operation of a reading of the contract. */
const validators = new WeakMap<Operation, ValidateFunction | undefined>();

/** The validator of an operation's JSON request body, or undefined when it gives no schema. */
function bodyValidator(operation: Operation): ValidateFunction | undefined {
	if (validators.has(operation)) return validators.get(operation);
	const json = operation.requestBody?.bodies.find(({ mediaType }) => /json/i.test(mediaType));
	const schema = json?.schema;
	// A JSON Schema is an object (or a boolean, which a request body's never is here).
	const validate = isMapping(schema) ? contractAjv().compile(schema) : undefined;
	validators.set(operation, validate);
	return validate;
}

/** What is wrong with a QUERY's body, in one line, or its value when the operation allows it. */
export function readQueryBody(
	operation: Operation,
	body: string | undefined,
): { ok: true; value: unknown } | { ok: false; detail: string } {
	if (body === undefined) {
		return { ok: false, detail: `The body is longer than ${MAX_QUERY_BODY} bytes.` };
	}
	if (body.trim() === '') {
		return operation.requestBody?.required
			? { ok: false, detail: 'The body is empty: send a JSON filter, e.g. {} for every user.' }
			: { ok: true, value: {} };
	}
	let value: unknown;
	try {
		value = JSON.parse(body) as unknown;
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return { ok: false, detail: `The body is not JSON (${reason}).` };
	}
	const validate = bodyValidator(operation);
	if (validate && !validate(value)) {
		const violations: Violation[] = validate.errors ?? [];
		return { ok: false, detail: violations.map(describeViolation).join('; ') };
	}
	return { ok: true, value };
}

/**
 * The problem a body the operation does not allow gets: its own 422 (else 400) problem from the
 * contract, with this body's violations as its detail; a generic 422 when it gives none.
 */
function bodyProblem(operation: Operation, detail: string): Answer {
	const response =
		operation.responses.find(({ status }) => status === '422') ??
		operation.responses.find(({ status }) => status === '400');
	const body = response?.bodies.find(({ mediaType }) => /problem\+json/i.test(mediaType));
	const example = body?.examples[0]?.value;
	const status = Number(response?.status ?? 422);
	const problem = isMapping(example)
		? { ...example, status, detail }
		: { ...problemBody('invalid-body', detail), status };
	return {
		status,
		headers: { 'Content-Type': body?.mediaType ?? 'application/problem+json' },
		body: JSON.stringify(problem),
	};
}

/**
 * Whether a user matches a filter: each text field given is in the user's field of that name, in
 * any case; any other field given equals it.
 */
export function matches(user: Record<string, unknown>, filter: Record<string, unknown>): boolean {
	return Object.entries(filter).every(([field, wanted]) => {
		const have = user[field];
		return typeof have === 'string' && typeof wanted === 'string'
			? have.toLowerCase().includes(wanted.toLowerCase())
			: have === wanted;
	});
}

/** How a QUERY's users are sent: one JSON body, JSON lines, or server-sent events. */
type Sent = 'json' | typeof JSON_LINES | typeof EVENT_STREAM_TYPE;

/**
 * A users answer narrowed to the users a filter matches, sent as asked: as JSON, one JSON object
 * a line, or one event a user whose data is its JSON; any other answer (a control's 401, a
 * generated body) as it is.
 */
function filtered(answer: Answer, filter: unknown, sent: Sent): Answer {
	if (answer.status !== 200 || !isMapping(filter)) return answer;
	const parsed = JSON.parse(answer.body) as unknown;
	if (!isMapping(parsed) || !Array.isArray(parsed['users'])) return answer;
	const users = parsed['users'].filter((user) => isMapping(user) && matches(user, filter));
	if (sent === 'json') return { ...answer, body: JSON.stringify({ ...parsed, users }) };
	// JSON.stringify writes no line break, so each user is one line, or one event's one data line.
	const item = sent === JSON_LINES ? '' : 'data: ';
	const end = sent === JSON_LINES ? '\n' : '\n\n';
	return {
		...answer,
		headers: { ...answer.headers, 'Content-Type': sent },
		body: users.map((user) => `${item}${JSON.stringify(user)}${end}`).join(''),
	};
}

/**
 * How the request asks for the users: as server-sent events or JSON lines when `Accept` names
 * that type and the operation's answer declares it item by item (`itemSchema`), else JSON.
 */
function sentAs(request: MockRequest, response: ResponseModel | undefined): Sent {
	const accept = (request.accept ?? '').toLowerCase();
	const streams = (response?.bodies ?? []).filter(({ itemSchema }) => itemSchema !== undefined);
	const offered = (type: string) =>
		accept.includes(type) && streams.some(({ mediaType }) => mediaType === type);
	if (offered(EVENT_STREAM_TYPE)) return EVENT_STREAM_TYPE;
	return offered(JSON_LINES) ? JSON_LINES : 'json';
}

/** The QUERY operation of the users path, which `routeOf` found. */
function queryOperation(state: MockState): Operation | undefined {
	return state.reference.operations.find(
		(operation) => operation.method === 'QUERY' && operation.path === USERS_PATH,
	);
}

/**
 * The problem a QUERY whose key was accepted gets for its body, when the operation does not allow
 * it (what the log line says is written to `logged`); undefined for a body it allows.
 */
export function queryRefusal(
	request: MockRequest,
	state: MockState,
	logged: Logged,
): Answer | undefined {
	const operation = queryOperation(state);
	if (!operation) return undefined;
	const body = readQueryBody(operation, request.body);
	if (body.ok) return undefined;
	logged.refused = `the body is not a filter: ${body.detail}`;
	return bodyProblem(operation, body.detail);
}

/**
 * A QUERY's answer from the users answer the key and controls chose: the users the body's filter
 * matches, as JSON or, when asked by `Accept` and the contract gives one, as JSON lines or
 * server-sent events.
 */
export function queryAnswer(request: MockRequest, state: MockState, answer: Answer): Answer {
	const operation = queryOperation(state);
	const body = operation && readQueryBody(operation, request.body);
	if (!operation || !body?.ok) return answer;
	const ok = operation.responses.find(({ status }) => status === '200');
	return filtered(answer, body.value, sentAs(request, ok));
}

/** The names of the examples of a response's first body, as its controls name them. */
function exampleNames(response: ResponseModel): string[] {
	return response.bodies[0]?.examples.map(({ name }) => name) ?? [];
}

/** Whether the QUERY operation has an example by this name, of any status. */
export function queryHasExample(state: MockState, name: string): boolean {
	return (queryOperation(state)?.responses ?? []).some((response) =>
		exampleNames(response).includes(name),
	);
}

/**
 * The answer a QUERY's controls ask for, from the QUERY operation's own responses, as GET's pick
 * from GET's: the status's example of that name (its 200's `no-match`, its 422), else its first,
 * or the `unknown-code` or `unknown-example` problem naming what the QUERY has. Undefined when
 * they ask for no status but 200 and no example, or when the status and example they name exist
 * but the body is to be generated (`dynamic`): the key's view's users answer those, as for GET.
 */
export function queryControlled(state: MockState, controls: MockControls): Answer | undefined {
	const { code = 200, example } = controls;
	if (code === 200 && example === undefined) return undefined;
	const operation = queryOperation(state);
	if (!operation) return undefined;
	const response = operation.responses.find(({ status }) => status === String(code));
	if (!response) {
		const codes = operation.responses.map(({ status }) => status).join(', ');
		return controlProblem(
			'unknown-code',
			`${controls.spelled}: QUERY ${USERS_PATH} has no ${code} response; it answers ${codes}.`,
		);
	}
	const names = exampleNames(response);
	if (example !== undefined && !names.includes(example)) {
		return controlProblem(
			'unknown-example',
			`${controls.spelled}: the ${code} answer of QUERY ${USERS_PATH} has no example named "${example}"; its examples are ${someNames(names) || 'none'}.`,
		);
	}
	if (controls.dynamic) return undefined;
	return answerFromModel(code, response, example ?? names[0] ?? '');
}
