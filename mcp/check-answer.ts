/**
 * `check_answer`: an answer's status, headers and body checked against the contract of
 * GET /api/v2/users, as the try-it panel checks it. The body's schema for the status and media
 * type is compiled by Ajv with the panel's options; the panel's own check (src/client/try-it/
 * check.ts, handed in by the server's wiring, since page data may not import browser code) words
 * each violation by its JSON Pointer. Beside the body, each header the contract requires for the
 * status must be present.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { USERS_PATH } from '../src/shared/curl.ts';
import type { ApiReference, OperationResponse } from '../src/sources/openapi.ts';
import { ToolInputError } from './tool-names.ts';

/** A compiled body validator, as the panel's check reads one. */
export interface BodyValidator {
	(value: unknown): boolean;
	errors?:
		readonly { instancePath: string; keyword: string; params: Record<string, unknown> }[] | null;
}

/** Status, then media type, then its validator (`null`: the body has no schema). */
export type ContractAnswers = Record<string, Record<string, BodyValidator | null>>;

/** What the panel's check reads of an answer. */
export interface CheckedAnswer {
	status: number;
	mediaType: string | undefined;
	text: string;
	ending: 'complete';
	json: { value: unknown } | undefined;
}

/** The panel's check: a verdict, a headline and one line per violation. */
export type PanelCheck = (
	answer: CheckedAnswer,
	answers: ContractAnswers,
) => { verdict: 'matches' | 'breaks' | 'unchecked'; headline: string; violations: string[] };

/** The formats the panel's validators check. */
const FORMATS = ['email', 'uri-reference', 'uri', 'uuid', 'ipv4', 'ipv6', 'hostname'] as const;

/** OpenAPI's annotations and Prism's `x-faker`, which Ajv's strict mode would refuse. */
const OPENAPI_KEYWORDS = ['example', 'xml', 'externalDocs', 'discriminator', 'x-faker'];

/** The users operation's responses, or an error naming the contract. */
function usersResponses(reference: ApiReference): OperationResponse[] {
	const operation = reference.operations.find(
		({ method, path }) => method === 'GET' && path === USERS_PATH,
	);
	if (!operation) throw new ToolInputError(`contract: expected a GET ${USERS_PATH} operation`);
	return operation.responses;
}

/** Compiled validators per reference model: compiled once per reading of the contract. */
const compiled = new WeakMap<ApiReference, ContractAnswers>();

/** The contract's answers for GET /api/v2/users, each body schema compiled. */
export function contractAnswers(reference: ApiReference): ContractAnswers {
	const known = compiled.get(reference);
	if (known) return known;
	const ajv = new Ajv2020({ allErrors: true, strict: true });
	addFormats(ajv, { mode: 'fast', formats: [...FORMATS] });
	ajv.addVocabulary(OPENAPI_KEYWORDS);
	const answers: ContractAnswers = {};
	for (const response of usersResponses(reference)) {
		const bodies: Record<string, BodyValidator | null> = {};
		for (const body of response.bodies) {
			bodies[body.mediaType] =
				body.schema === undefined ? null : (ajv.compile(body.schema as object) as BodyValidator);
		}
		answers[response.status] = bodies;
	}
	compiled.set(reference, answers);
	return answers;
}

/** An answer to check: what a client saw. */
export interface AnswerToCheck {
	status: number;
	headers?: Record<string, string> | undefined;
	body?: string | undefined;
}

/** The check's result: whether it conforms, the headline, and each violation. */
export interface AnswerCheck {
	conforms: boolean;
	verdict: 'matches' | 'breaks' | 'unchecked';
	headline: string;
	violations: string[];
}

/** The contract's response for a status: its own, else its range, else `default`. */
function responseFor(responses: readonly OperationResponse[], status: number) {
	const text = String(status);
	return (
		responses.find((response) => response.status === text) ??
		responses.find((response) => response.status === `${text[0]}XX`) ??
		responses.find((response) => response.status === 'default')
	);
}

/** Checks a status, headers and body against the contract, as the try-it panel does. */
export function checkAnswer(
	reference: ApiReference,
	answer: AnswerToCheck,
	panelCheck: PanelCheck,
): AnswerCheck {
	if (!Number.isInteger(answer.status) || answer.status < 100 || answer.status > 599) {
		throw new ToolInputError(`status ${answer.status}: expected an HTTP status from 100 to 599`);
	}
	const headers = new Map(
		Object.entries(answer.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
	);
	const mediaType = headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() || undefined;
	const text = answer.body ?? '';
	let json: { value: unknown } | undefined;
	if (text.trim() !== '') {
		try {
			json = { value: JSON.parse(text) };
		} catch (error) {
			const reason = error instanceof Error ? error.message : 'not JSON';
			throw new ToolInputError(`body: expected JSON text (${reason})`);
		}
	}
	const result = panelCheck(
		{ status: answer.status, mediaType, text, ending: 'complete', json },
		contractAnswers(reference),
	);
	const response = responseFor(usersResponses(reference), answer.status);
	const missing = (response?.headers ?? [])
		.filter((header) => header.required && !headers.has(header.name.toLowerCase()))
		.map((header) => `headers.${header.name}: is required but missing`);
	const violations = [...missing, ...result.violations];
	const verdict = missing.length > 0 ? 'breaks' : result.verdict;
	const headline =
		missing.length > 0 && result.verdict === 'matches'
			? `The headers break the contract's ${answer.status} answer; ${result.headline}`
			: result.headline;
	return { conforms: verdict === 'matches', verdict, headline, violations };
}
