/**
 * The users operation's answers to a plain request (no control: a key's own view, or the key's
 * refusal) without Prism: from the document Prism would read (`contractForPrism`'s copy), the
 * same status, headers in the same order and the same body Prism gives for a status and a named
 * example, with `dynamic` off. Where Prism would generate something from a schema (a header with
 * a schema and no example, a body example without a value), or pick among media types, there is
 * no plain answer and Prism is asked (`answers.ts`). tests/unit/mock/plain-answers.test.ts holds
 * the two equal, request by request.
 */
import { isMapping } from '../src/sources/mapping.ts';
import { USERS_PATH } from '../src/shared/curl.ts';

/** A named example as Prism names it: `examples` by their names, a lone `example` as `default`. */
export interface PlainExample {
	key: string;
	/** Its value; absent when the example has none (an `externalValue`). */
	value?: unknown;
}

/** A response header as Prism reads it: whether it has a schema, and its examples. */
interface PlainHeader {
	name: string;
	schema: boolean;
	examples: PlainExample[];
}

/** One response of the users operation as Prism answers it without generating anything. */
export interface PlainResponse {
	headers: PlainHeader[];
	/** Its one media type and that body's examples; none when the response has no body. */
	content?: { mediaType: string; examples: PlainExample[] } | undefined;
}

/** The users operation's responses a plain answer can be made of, by status code. */
export type PlainUsers = ReadonlyMap<string, PlainResponse>;

/** The node a local reference (`#/components/…`) names, followed through references; else undefined. */
function resolved(document: Record<string, unknown>, node: unknown, depth = 0): unknown {
	if (!isMapping(node) || typeof node['$ref'] !== 'string') return node;
	const reference = node['$ref'];
	if (!reference.startsWith('#/') || depth > 16) return undefined;
	let found: unknown = document;
	for (const step of reference.slice(2).split('/')) {
		const name = step.replaceAll('~1', '/').replaceAll('~0', '~');
		found = isMapping(found) ? found[name] : undefined;
	}
	return resolved(document, found, depth + 1);
}

/** An object's examples as Prism names them, or undefined where one cannot be read. */
function examplesOf(
	document: Record<string, unknown>,
	node: Record<string, unknown>,
): PlainExample[] | undefined {
	const { examples, example } = node;
	if (examples !== undefined && example !== undefined) return undefined;
	if (example !== undefined) return [{ key: 'default', value: example }];
	if (examples === undefined) return [];
	if (!isMapping(examples)) return undefined;
	const read: PlainExample[] = [];
	for (const [key, written] of Object.entries(examples)) {
		const each = resolved(document, written);
		if (!isMapping(each)) return undefined;
		read.push('value' in each ? { key, value: each['value'] } : { key });
	}
	return read;
}

/** One response, or undefined where Prism would negotiate or generate. */
function plainResponse(
	document: Record<string, unknown>,
	written: unknown,
): PlainResponse | undefined {
	const response = resolved(document, written);
	if (!isMapping(response)) return undefined;
	const headers: PlainHeader[] = [];
	const declared = response['headers'] ?? {};
	if (!isMapping(declared)) return undefined;
	for (const [name, writtenHeader] of Object.entries(declared)) {
		const header = resolved(document, writtenHeader);
		if (!isMapping(header)) return undefined;
		const examples = examplesOf(document, header);
		const schema = header['schema'] !== undefined;
		// Prism would generate this header's value from its schema, or write an object as text.
		if (!examples || (schema && examples.length === 0)) return undefined;
		const value = examples[0]?.value;
		if (!(value === undefined || value === null || ['string', 'number'].includes(typeof value)))
			return undefined;
		headers.push({ name, schema, examples });
	}
	const content = response['content'];
	if (content === undefined) return { headers };
	if (!isMapping(content)) return undefined;
	const media = Object.entries(content);
	const [first] = media;
	// More than one media type: Prism negotiates among them.
	if (media.length !== 1 || !first) return undefined;
	const [mediaType, writtenMedia] = first;
	const body = resolved(document, writtenMedia);
	if (!isMapping(body)) return undefined;
	const examples = examplesOf(document, body);
	if (!examples) return undefined;
	return { headers, content: { mediaType, examples } };
}

/**
 * The responses of GET /api/v2/users in the document Prism reads that a plain answer can be made
 * of (a deprecated operation gets Prism's `deprecation` header: none).
 */
export function plainUsers(document: Record<string, unknown>): PlainUsers {
	const plain = new Map<string, PlainResponse>();
	const paths = document['paths'];
	const item = isMapping(paths) ? resolved(document, paths[USERS_PATH]) : undefined;
	const operation = isMapping(item) ? item['get'] : undefined;
	if (!isMapping(operation) || operation['deprecated'] === true) return plain;
	const responses = operation['responses'];
	if (!isMapping(responses)) return plain;
	for (const [code, written] of Object.entries(responses)) {
		const response = plainResponse(document, written);
		if (response) plain.set(code, response);
	}
	return plain;
}

/**
 * What Prism's mocker gives for a response, a named example and the body examples it has (the
 * views' for the 200): its headers (each declared one in order, from its first example, then
 * `Content-type`) and its body; undefined where Prism would generate the body, or for a response
 * without one.
 */
export function plainOutput(
	response: PlainResponse,
	example: string,
	bodyExamples: readonly PlainExample[],
): { headers: Record<string, string | number | null>; body: unknown } | undefined {
	const headers: Record<string, string | number | null> = {};
	for (const header of response.headers) {
		const value = header.schema ? header.examples[0]?.value : undefined;
		headers[header.name] = typeof value === 'string' || typeof value === 'number' ? value : null;
	}
	if (!response.content) return undefined;
	const chosen = bodyExamples.find(({ key }) => key === example);
	if (chosen?.value === undefined) return undefined;
	headers['Content-type'] = response.content.mediaType;
	return { headers, body: chosen.value };
}
