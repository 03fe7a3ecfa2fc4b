/**
 * The try-it panel's validators: at build time, Ajv, set up as the contract's validators are in
 * Node (src/sources/contract-validators.ts), compiles the schema of each response body of
 * GET /api/v2/users in the contract (and of QUERY /api/v2/users when it has one) into standalone
 * code, plain JavaScript with no `eval`, so the pages' Content-Security-Policy holds. The panel imports it as the virtual module
 * `virtual:try-it-validators`; no JSON Schema library reaches the browser. The same plugin gives
 * the panel's request options what the contract offers (`virtual:try-it-choices`: the statuses,
 * the header and query names, the faults), which load with the options, not with sending.
 */
import standalone from 'ajv/dist/standalone/index.js';
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';
import { readContract, shownPath } from '../sources/contract.ts';
import {
	contractAjv,
	operationSchemas,
	type OperationSchemas,
	type SchemaName,
} from '../sources/contract-validators.ts';
import { USERS_PATH } from '../shared/curl.ts';
import type { ApiReference } from '../sources/openapi.ts';
import { exampleAsSent } from '../site/reference-layout.ts';
import { FAULT_KINDS } from '../schemas/mock-delivery.ts';
import { readSettings } from '../sources/settings.ts';

/** The module the panel imports its validators from. */
export const VALIDATORS_MODULE = 'virtual:try-it-validators';

/** Vite's name for the resolved module: the `\0` keeps other plugins off it. */
const RESOLVED_MODULE = `\0${VALIDATORS_MODULE}`;

/** The module the panel's request options import the contract's choices from. */
export const CHOICES_MODULE = 'virtual:try-it-choices';

const RESOLVED_CHOICES = `\0${CHOICES_MODULE}`;

/**
 * The query parameters the mock reads as its controls when a request has no `Prefer` header, as
 * the contract's description names them (mock/controls.ts reads them).
 */
export const QUERY_CONTROLS = ['__code', '__example', '__dynamic', '__seed', '__delay', '__fault'];

/** A contract the panel's validators cannot be made from, naming the file and what is missing. */
export class ValidatorError extends Error {
	override name = 'ValidatorError';
}

/**
 * The source of `virtual:try-it-validators`: `contract`, the operation GET /api/v2/users as the
 * contract's check reads it (src/shared/exchange-check.ts): its answers keyed by status then media
 * type, each a compiled validator (`null` for a body without a schema, `{ eachLine }` for a stream
 * of JSON lines), and the headers each status declares; `responses`, its answers alone; and
 * `queryContract`, QUERY /api/v2/users read the same way when the contract has one (OpenAPI 3.2),
 * else `undefined`. The schemas are walked and Ajv is set up as in Node
 * (src/sources/contract-validators.ts), here to standalone code; identical schemas share one
 * function, across both operations.
 */
export function validatorSource(reference: ApiReference, file = 'openapi.yaml'): string {
	const operation = (wanted: string) =>
		reference.operations.find(({ method, path }) => method === wanted && path === USERS_PATH);
	const get = operation('GET');
	if (!get) throw new ValidatorError(`${file}: expected a GET ${USERS_PATH} operation`);
	const query = operation('QUERY');
	const ajv = contractAjv({ source: true, esm: true, optimize: true });
	const exports: Record<string, string> = {};
	const add = (name: string, schema: object): void => {
		ajv.addSchema(schema, name);
		// Compiled now, so that a schema Ajv refuses is named by its place in the file.
		ajv.getSchema(name);
		exports[name] = name;
	};
	const named = new Map<string, string>();
	const getSchemas = operationSchemas(get, named, add, file);
	const querySchemas = query && operationSchemas(query, named, add, file);
	const code = Object.keys(exports).length ? standalone(ajv, exports) : '';
	const queryContract = querySchemas
		? `{ operation: ${JSON.stringify(querySchemas.operation)}, answers: ${answersSource(querySchemas)}, headers: ${JSON.stringify(querySchemas.headers)} }`
		: 'undefined';
	return (
		`${withImports(code)}\nexport const responses = ${answersSource(getSchemas)};\n` +
		`export const contract = { operation: ${JSON.stringify(getSchemas.operation)}, answers: responses, headers: ${JSON.stringify(getSchemas.headers)} };\n` +
		`export const queryContract = ${queryContract};\n`
	);
}

/** An operation's answers as module code: status, then media type, then its check. */
function answersSource({ answers }: OperationSchemas): string {
	const entries = Object.entries(answers).map(
		([status, bodies]) =>
			`${JSON.stringify(status)}: {${Object.entries(bodies)
				.map(([type, name]) => `${JSON.stringify(type)}: ${checkSource(name)}`)
				.join(', ')}}`,
	);
	return `{${entries.join(', ')}}`;
}

/** A body's check as module code: its validator's name, `{ eachLine or eachEvent: … }`, `null`. */
function checkSource(name: SchemaName): string {
	if (name === null || typeof name === 'string') return name ?? 'null';
	if ('eachEvent' in name) return `{ eachEvent: ${name.eachEvent} }`;
	return `{ eachLine: ${name.eachLine} }`;
}

/** What the try-it panel offers a reader who builds a request, read from the contract. */
export interface TryItChoices {
	/** The statuses GET /api/v2/users answers, for `Prefer: code=…`. */
	statuses: string[];
	/** Header names the contract declares for the request: its parameters, security, the preflight's. */
	headers: string[];
	/** The request headers a page may send, as the preflight's `Access-Control-Allow-Headers` says. */
	pageHeaders: string[];
	/** Query parameter names: the operation's, then the mock's controls. */
	query: string[];
	/** The faults the mock can break an answer with, for `Prefer: fault=…`. */
	faults: string[];
	/** The body a QUERY /api/v2/users starts with, when the contract has one (OpenAPI 3.2). */
	queryBody?: string | undefined;
	/**
	 * The media types QUERY's success answer comes in (JSON, a stream of JSON lines), when the
	 * contract has a QUERY: with more than one, the reader may ask for one with `Accept`.
	 */
	queryAnswerTypes?: string[] | undefined;
}

/** The choices of the panel's request options, from the contract's GET and OPTIONS operations. */
export function tryItChoices(reference: ApiReference, file = 'openapi.yaml'): TryItChoices {
	const operation = (method: string) =>
		reference.operations.find((entry) => entry.method === method && entry.path === USERS_PATH);
	const get = operation('GET');
	if (!get) throw new ValidatorError(`${file}: expected a GET ${USERS_PATH} operation`);
	const allowed = operation('OPTIONS')
		?.responses.flatMap(({ headers }) => headers)
		.find(({ name }) => name.toLowerCase() === 'access-control-allow-headers')
		?.examples.find(({ value }) => typeof value === 'string')?.value;
	const pageHeaders = typeof allowed === 'string' ? allowed.split(/\s*,\s*/).filter(Boolean) : [];
	const named = (place: string): string[] =>
		get.parameters.filter((parameter) => parameter.in === place).map(({ name }) => name);
	const security = get.security.flatMap(({ scheme }) =>
		scheme.type === 'http'
			? ['Authorization']
			: scheme.in === 'header' && scheme.name
				? [scheme.name]
				: [],
	);
	return {
		statuses: get.responses.map(({ status }) => status).filter((status) => /^\d{3}$/.test(status)),
		headers: [...new Set([...named('header'), ...security, ...pageHeaders, 'Prefer'])],
		pageHeaders,
		query: [...new Set([...named('query'), ...QUERY_CONTROLS])],
		faults: [...FAULT_KINDS],
		...queryChoice(operation('QUERY')),
	};
}

/**
 * The body a QUERY starts with (its request body's first example, as compact JSON, else `{}`),
 * and the media types of its first success answer.
 */
function queryChoice(query: ApiReference['operations'][number] | undefined): {
	queryBody?: string;
	queryAnswerTypes?: string[];
} {
	if (!query) return {};
	const example = query.requestBody?.bodies[0]?.examples[0];
	const success = query.responses.find(({ status }) => /^2(?:\d\d|XX)$/.test(status));
	return {
		queryBody: example === undefined ? '{}' : exampleAsSent(example, true),
		queryAnswerTypes: success?.bodies.map(({ mediaType }) => mediaType) ?? [],
	};
}

/**
 * Ajv's standalone code reaches its runtime helpers (such as `ucs2length`, which counts
 * characters as JSON Schema does) with `require`, even as an ES module; each becomes an import.
 * The helpers are CommonJS: Node's namespace puts `module.exports` under `default`, Vite's puts
 * `exports.default` there, so each is read as `require` would have returned it.
 */
function withImports(code: string): string {
	const imports: string[] = [];
	const body = code.replace(/require\("([^"]+)"\)/g, (_, specifier: string) => {
		const name = `runtime${imports.length}`;
		// Node's ES module loader wants the file name whole; Ajv writes `ajv/dist/runtime/ucs2length`.
		const file = /\.[cm]?js$/.test(specifier) ? specifier : `${specifier}.js`;
		imports.push(
			`import * as ${name}Module from ${JSON.stringify(file)};\n` +
				`const ${name} = ${name}Module.default?.__esModule ? ${name}Module.default : ${name}Module;`,
		);
		return name;
	});
	return `${imports.join('\n')}\n${body.replace(/^"use strict";/, '')}`;
}

/**
 * Vite's side of the module: compiled from the contract, again whenever the contract changes. The
 * unit tests' Vite (vitest.config.ts) has it too, so they can load the panel's code as a page does.
 */
export function validatorsPlugin(): Plugin {
	return {
		name: 'console-portal:try-it-validators',
		resolveId(id) {
			if (id === VALIDATORS_MODULE) return RESOLVED_MODULE;
			return id === CHOICES_MODULE ? RESOLVED_CHOICES : undefined;
		},
		async load(id) {
			if (id !== RESOLVED_MODULE && id !== RESOLVED_CHOICES) return undefined;
			const file = readSettings().openApiFile;
			this.addWatchFile(file);
			const { reference } = await readContract(file);
			return id === RESOLVED_CHOICES
				? `export const choices = ${JSON.stringify(tryItChoices(reference, shownPath(file)))};\n`
				: validatorSource(reference, shownPath(file));
		},
	};
}

/** The Astro integration that gives the try-it panel its build-time validators. */
export function tryItValidators(): AstroIntegration {
	return {
		name: 'console-portal:try-it-validators',
		hooks: {
			'astro:config:setup': ({ updateConfig }) => {
				updateConfig({ vite: { plugins: [validatorsPlugin()] } });
			},
		},
	};
}
