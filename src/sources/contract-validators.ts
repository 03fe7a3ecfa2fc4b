/**
 * The contract's validators in Node: every operation's response bodies compiled by Ajv with the
 * options the try-it panel's build-time validators use (src/integrations/try-it-validators.ts),
 * and the headers each status declares, for the contract's check of an answer
 * (src/shared/contract-check.ts). The mock as a validating proxy and the conformance run check
 * answers with them, so the three agree on what conforms.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { BodyValidator } from '../shared/contract-check.ts';
import type { OperationContract } from '../shared/exchange-check.ts';
import type { ApiReference } from './openapi.ts';

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

/** An operation as the contract's check names it: `GET /api/v2/users`. */
export function operationName(method: string, path: string): string {
	return `${method.toUpperCase()} ${path}`;
}

/**
 * Every operation of the contract with its validators, by `operationName`. Identical schemas
 * share one validator. Throws, naming the operation, status and media type, on a schema Ajv
 * cannot compile.
 */
export function contractValidators(
	reference: ApiReference,
	file = 'openapi.yaml',
): Map<string, OperationContract> {
	const ajv = new Ajv2020({ allErrors: true, strict: true, messages: false });
	addFormats(ajv, { mode: 'fast', formats: [...CONTRACT_FORMATS] });
	ajv.addVocabulary(OPENAPI_KEYWORDS);
	const bySchema = new Map<string, BodyValidator>();
	const operations = new Map<string, OperationContract>();
	for (const { method, path, responses } of reference.operations) {
		const operation = operationName(method, path);
		const answers: Record<string, Record<string, BodyValidator | null>> = {};
		const headers: Record<string, { name: string; required: boolean }[]> = {};
		for (const response of responses) {
			const bodies: Record<string, BodyValidator | null> = {};
			for (const body of response.bodies) {
				if (body.schema === undefined) {
					bodies[body.mediaType] = null;
					continue;
				}
				const text = JSON.stringify(body.schema);
				let validator = bySchema.get(text);
				if (!validator) {
					try {
						validator = ajv.compile(JSON.parse(text) as object);
					} catch (error) {
						const reason = error instanceof Error ? error.message : String(error);
						throw new Error(
							`${file}: ${operation} ${response.status} ${body.mediaType}: Ajv cannot compile its schema (${reason})`,
							{ cause: error },
						);
					}
					bySchema.set(text, validator);
				}
				bodies[body.mediaType] = validator;
			}
			answers[response.status] = bodies;
			headers[response.status] = response.headers.map(({ name, required }) => ({
				name,
				required,
			}));
		}
		operations.set(operation, { operation, answers, headers });
	}
	return operations;
}
