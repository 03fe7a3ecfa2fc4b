/**
 * The contract's validators, compiled in one place: one Ajv setup (its options, formats and
 * OpenAPI's keywords) and one walk of each operation's answers, which the try-it panel's
 * build-time plugin (src/integrations/try-it-validators.ts) turns into standalone code for the
 * browser, and which `contractValidators` compiles in Node, once per reading of the contract, for
 * the mock as a validating proxy, the conformance run and MCP's `check_answer`. All four then check
 * an exchange with the same code (src/shared/exchange-check.ts), so they agree on what conforms.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { CodeOptions } from 'ajv';
import addFormats from 'ajv-formats';
import {
	EVENT_STREAM_TYPE,
	JSON_LINES_TYPES,
	type BodyValidator,
	type EventsValidator,
	type LinesValidator,
} from '../shared/contract-check.ts';
import type { DeclaredHeader, OperationContract } from '../shared/exchange-check.ts';
import type { ApiReference, Operation } from './openapi.ts';

/** The formats the validators check, as regular expressions that compile inline. */
export const CONTRACT_FORMATS = [
	'email',
	'uri-reference',
	'uri',
	'uuid',
	'ipv4',
	'ipv6',
	'hostname',
] as const;

/**
 * OpenAPI's own schema keywords, and Prism's `x-faker` (what `dynamic=true` generates):
 * annotations only, which Ajv's strict mode would refuse.
 */
export const OPENAPI_KEYWORDS = ['example', 'xml', 'externalDocs', 'discriminator', 'x-faker'];

/**
 * The Ajv options of every validator of the contract: every error, strict schemas, and no
 * message texts, since the check words each violation itself (src/shared/contract-check.ts).
 */
export const CONTRACT_AJV_OPTIONS = { allErrors: true, strict: true, messages: false } as const;

/**
 * An Ajv set up as the contract's validators are: its options, formats and keywords. `code` asks
 * for standalone code, as the try-it panel's build does.
 */
export function contractAjv(code?: CodeOptions): Ajv2020 {
	const ajv = new Ajv2020({ ...CONTRACT_AJV_OPTIONS, ...(code && { code }) });
	addFormats(ajv, { mode: 'fast', formats: [...CONTRACT_FORMATS] });
	ajv.addVocabulary(OPENAPI_KEYWORDS);
	return ajv;
}

/** A body schema the validators cannot be made from, naming the file and where in it. */
export class ContractSchemaError extends Error {
	override name = 'ContractSchemaError';
}

/** An operation as the contract's check names it: `GET /api/v2/users`. */
export function operationName(method: string, path: string): string {
	return `${method.toUpperCase()} ${path}`;
}

/**
 * A body's check by the name of its schema: a name, `{ eachLine }` for a stream of JSON lines
 * (`JSON_LINES_TYPES`) or `{ eachEvent }` for server-sent events (`EVENT_STREAM_TYPE`), checked
 * item by item against its `itemSchema`, or `null` for no schema (another stream is not checked).
 */
export type SchemaName = string | { eachLine: string } | { eachEvent: string } | null;

/** One operation's answers, each body by the name of its schema (`null`: no schema). */
export interface OperationSchemas {
	operation: string;
	answers: Record<string, Record<string, SchemaName>>;
	headers: Record<string, DeclaredHeader[]>;
}

/**
 * Walks an operation's answers: each body schema (a stream of JSON lines: its item schema) is
 * named once by `named` (identical schemas share a name), which `add` is given to compile; a
 * schema Ajv refuses, or one that contains itself, is a ContractSchemaError naming where it is in
 * the file.
 */
export function operationSchemas(
	{ method, path, responses }: Operation,
	named: Map<string, string>,
	add: (name: string, schema: object) => void,
	file = 'openapi.yaml',
): OperationSchemas {
	const answers: Record<string, Record<string, SchemaName>> = {};
	const headers: Record<string, DeclaredHeader[]> = {};
	for (const response of responses) {
		const bodies: Record<string, SchemaName> = {};
		for (const body of response.bodies) {
			const itemized = body.itemSchema !== undefined;
			const lines = itemized && JSON_LINES_TYPES.includes(body.mediaType);
			const events = itemized && body.mediaType === EVENT_STREAM_TYPE;
			const schema = lines || events ? body.itemSchema : body.schema;
			if (schema === undefined) {
				bodies[body.mediaType] = null;
				continue;
			}
			const where = `${file}: paths.${path}.${method.toLowerCase()}.responses.${response.status}.content.${body.mediaType}.${lines || events ? 'itemSchema' : 'schema'}`;
			let text: string;
			try {
				text = JSON.stringify(schema);
			} catch (error) {
				// JSON.stringify throws a TypeError only for a value that contains itself.
				if (!(error instanceof TypeError)) throw error;
				throw new ContractSchemaError(
					`${where}: expected a schema that does not contain itself; the validators compile each body schema whole`,
					{ cause: error },
				);
			}
			let name = named.get(text);
			if (name === undefined) {
				name = `body${named.size}`;
				try {
					add(name, JSON.parse(text) as object);
				} catch (error) {
					const reason = error instanceof Error ? error.message : String(error);
					throw new ContractSchemaError(`${where}: Ajv cannot compile it (${reason})`, {
						cause: error,
					});
				}
				named.set(text, name);
			}
			bodies[body.mediaType] = lines ? { eachLine: name } : events ? { eachEvent: name } : name;
		}
		answers[response.status] = bodies;
		headers[response.status] = response.headers.map(({ name, required }) => ({ name, required }));
	}
	return { operation: operationName(method, path), answers, headers };
}

/** The compiled check a body's schema name stands for. */
function compiledCheck(
	name: SchemaName,
	validators: ReadonlyMap<string, BodyValidator>,
): BodyValidator | LinesValidator | EventsValidator | null {
	if (name === null) return null;
	if (typeof name === 'string') return validators.get(name) ?? null;
	if ('eachEvent' in name) {
		const eachEvent = validators.get(name.eachEvent);
		return eachEvent ? { eachEvent } : null;
	}
	const eachLine = validators.get(name.eachLine);
	return eachLine ? { eachLine } : null;
}

/** The validators of each reading of the contract, compiled on its first use. */
const compiled = new WeakMap<ApiReference, Map<string, OperationContract>>();

/**
 * Every operation of the contract with its validators, by `operationName`, compiled once per
 * reading of the contract (the same `reference` gets the same map). Identical schemas share one
 * validator. Throws a ContractSchemaError on a schema Ajv cannot compile.
 */
export function contractValidators(
	reference: ApiReference,
	file = 'openapi.yaml',
): Map<string, OperationContract> {
	const known = compiled.get(reference);
	if (known) return known;
	const ajv = contractAjv();
	const named = new Map<string, string>();
	const validators = new Map<string, BodyValidator>();
	const add = (name: string, schema: object): void => {
		validators.set(name, ajv.compile(schema));
	};
	const operations = new Map<string, OperationContract>();
	for (const operation of reference.operations) {
		const schemas = operationSchemas(operation, named, add, file);
		const answers: Record<
			string,
			Record<string, BodyValidator | LinesValidator | EventsValidator | null>
		> = {};
		for (const [status, bodies] of Object.entries(schemas.answers)) {
			answers[status] = Object.fromEntries(
				Object.entries(bodies).map(([type, name]) => [type, compiledCheck(name, validators)]),
			);
		}
		operations.set(schemas.operation, { ...schemas, answers });
	}
	compiled.set(reference, operations);
	return operations;
}
