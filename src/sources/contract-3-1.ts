/**
 * The contract as tools that read only OpenAPI 3.1 can read it: the mock hands it to Prism, and
 * the build publishes it beside the 3.2 contract (/openapi-3.1.json) for plain Prism and older
 * viewers. Prism knows nothing of 3.2: given a 3.2 contract, it would answer a `dataValue`
 * example with no body and pass over a `QUERY` operation without a word. So they get the
 * equivalent 3.1 document where one exists without loss for what the mock answers: an example's
 * `dataValue` becomes its `value` (and a `serializedValue` alone its value, parsed for a JSON
 * body), a response written without the description 3.1 requires gets one (its summary, else
 * its status's reason phrase), and what only readers see (`$self`, a tag's summary, parent and
 * kind, a response's summary, a server's name, a scheme's deprecation) is left out. What has no 3.1 equivalent (a
 * `QUERY` operation, other methods under `additionalOperations`, a `querystring` parameter, a
 * stream of items, `itemSchema`) is refused, one line per place, naming the feature.
 */
import { isMapping } from './mapping.ts';
import { reasonPhrase } from './reason-phrase.ts';

/** A contract the mock cannot serve, one line per feature and place. */
export class UnservableContractError extends Error {
	override name = 'UnservableContractError';
}

/** The OpenAPI 3.1 version the document Prism reads says it is. */
const PRISM_VERSION = '3.1.1';

type Path = readonly string[];

/** What 3.2 adds that changes no answer the mock gives, by the object it is written in. */
const READERS_ONLY = {
	tag: ['summary', 'parent', 'kind'],
	response: ['summary'],
	server: ['name'],
	securityScheme: ['deprecated', 'oauth2MetadataUrl'],
} as const;

/** The fields of an Example that hold its data. */
const EXAMPLE_DATA: readonly string[] = ['value', 'dataValue'];

/** Whether a media type is JSON (`application/json`, `application/problem+json`, ...). */
function isJson(mediaType: string): boolean {
	return /^application\/(?:[\w.-]+\+)?json(?:;|$)/i.test(mediaType.trim());
}

/** Removes the given fields of a mapping, in place. */
function leaveOut(node: unknown, fields: readonly string[]): void {
	if (!isMapping(node)) return;
	for (const field of fields) Reflect.deleteProperty(node, field);
}

/**
 * An Example as 3.1 writes it, in place: its `dataValue` as its `value`; a `serializedValue`
 * alone as its value, parsed for a JSON body. Returns a problem's line, or undefined.
 */
function exampleAs31(example: unknown, at: Path, json: boolean): string | undefined {
	if (!isMapping(example)) return undefined;
	const { dataValue, serializedValue } = example;
	Reflect.deleteProperty(example, 'dataValue');
	Reflect.deleteProperty(example, 'serializedValue');
	if (dataValue !== undefined) {
		example['value'] = dataValue;
	} else if (typeof serializedValue === 'string') {
		if (!json) {
			example['value'] = serializedValue;
			return undefined;
		}
		try {
			example['value'] = JSON.parse(serializedValue) as unknown;
		} catch (error) {
			const reason = error instanceof Error ? error.message : String(error);
			return `${at.join('.')}.serializedValue: the mock cannot serve an example of a JSON body whose serializedValue is not JSON (${reason})`;
		}
	}
	return undefined;
}

/** The status each named response of `components.responses` is first given for, by its name. */
function statusesOfNamed(node: unknown, at: Path = [], found = new Map<string, string>()) {
	if (!isMapping(node)) return found;
	const ref = node['$ref'];
	const named = '#/components/responses/';
	if (at.at(-2) === 'responses' && typeof ref === 'string' && ref.startsWith(named)) {
		const name = ref.slice(named.length);
		if (!found.has(name)) found.set(name, at.at(-1) ?? '');
	}
	for (const [key, value] of Object.entries(node)) statusesOfNamed(value, [...at, key], found);
	return found;
}

/**
 * Gives a response 3.2 wrote without a description the one 3.1 requires, in place: its summary,
 * else its status's reason phrase (for a named response, of the first status given it), else
 * its name.
 */
function describeAs31(response: Record<string, unknown>, status: string | undefined, name: string) {
	if (response['$ref'] !== undefined || typeof response['description'] === 'string') return;
	const { summary } = response;
	response['description'] =
		typeof summary === 'string' ? summary : status === undefined ? name : reasonPhrase(status);
}

/**
 * Walks a document in place: what Prism cannot serve goes into `problems`, and each Example,
 * response, tag, server and security scheme is written as 3.1 writes it.
 */
function walk(
	node: unknown,
	at: Path,
	problems: string[],
	json: boolean,
	named: ReadonlyMap<string, string>,
): void {
	if (Array.isArray(node)) {
		for (const [index, item] of node.entries()) {
			walk(item, [...at, String(index)], problems, json, named);
		}
		return;
	}
	if (!isMapping(node)) return;
	const last = at.at(-1);
	const inSchema = at.includes('schema') || at.includes('schemas');
	if (!inSchema) {
		if (at.length === 2 && at[0] === 'paths') {
			if (node['query'] !== undefined) {
				problems.push(
					`${[...at, 'query'].join('.')}: the mock cannot serve a QUERY operation (OpenAPI 3.2's query method)`,
				);
			}
			if (isMapping(node['additionalOperations'])) {
				for (const method of Object.keys(node['additionalOperations'])) {
					problems.push(
						`${[...at, 'additionalOperations', method].join('.')}: the mock cannot serve a ${method} operation (OpenAPI 3.2's additionalOperations)`,
					);
				}
			}
		}
		if (node['in'] === 'querystring') {
			problems.push(
				`${at.join('.')}: the mock cannot serve a querystring parameter (OpenAPI 3.2's whole query string as one parameter)`,
			);
		}
		for (const field of ['itemSchema', 'itemEncoding', 'prefixEncoding']) {
			if (node[field] !== undefined && at.at(-2) === 'content') {
				problems.push(
					`${[...at, field].join('.')}: the mock cannot serve a body described item by item (OpenAPI 3.2's ${field})`,
				);
			}
		}
		if (at.at(-2) === 'responses') {
			const name = at.at(-1) ?? '';
			describeAs31(node, at[0] === 'components' ? named.get(name) : name, name);
			leaveOut(node, READERS_ONLY.response);
		}
		if (at.at(-2) === 'servers') leaveOut(node, READERS_ONLY.server);
		if (at.at(-2) === 'securitySchemes') {
			leaveOut(node, READERS_ONLY.securityScheme);
			if (isMapping(node['flows'])) leaveOut(node['flows'], ['deviceAuthorization']);
		}
		if (last === 'examples') {
			for (const [name, example] of Object.entries(node)) {
				const problem = exampleAs31(example, [...at, name], json);
				if (problem) problems.push(problem);
			}
		}
	}
	for (const [key, value] of Object.entries(node)) {
		// An Example's value is data, not OpenAPI: its keys (`responses`, `in`, ...) are its own.
		if (at.at(-2) === 'examples' && EXAMPLE_DATA.includes(key)) continue;
		walk(value, [...at, key], problems, last === 'content' ? isJson(key) : json, named);
	}
}

/**
 * The document Prism reads for a contract: a copy of it, as it is for OpenAPI 3.1, and its
 * equivalent 3.1 document for 3.2. Throws an `UnservableContractError` naming, in one line each,
 * the file, the place and the 3.2 feature the mock cannot serve.
 */
export function contractForPrism(
	document: Record<string, unknown>,
	file: string,
): Record<string, unknown> {
	// Prism resolves references in place: it gets its own copy.
	const copy = structuredClone(document);
	if (typeof copy['openapi'] !== 'string' || !copy['openapi'].startsWith('3.2.')) return copy;
	copy['openapi'] = PRISM_VERSION;
	Reflect.deleteProperty(copy, '$self');
	if (Array.isArray(copy['tags'])) {
		for (const tag of copy['tags']) leaveOut(tag, READERS_ONLY.tag);
	}
	const problems: string[] = [];
	walk(copy, [], problems, false, statusesOfNamed(copy['paths'], ['paths']));
	if (problems.length > 0) {
		throw new UnservableContractError(problems.map((line) => `${file}: ${line}`).join('\n'));
	}
	return copy;
}
