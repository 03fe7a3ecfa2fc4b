/**
 * How the reference page lays an operation out without repeating itself: headers that every
 * response carries alike are shown once, and a body schema's field table is shown at its first
 * use and pointed to after that. Also the rest the page decides about an operation: its heading
 * id, which examples a body shows and how, and what its code samples send.
 */
import {
	authHeader,
	sampleQuerystring,
	type SampleRequest,
	type SentBody,
} from './code-samples.ts';
import type { PageHeading } from './page-headings.ts';
import { reasonPhrase } from '../sources/reason-phrase.ts';
import {
	type ContractTag,
	type NamedExample,
	type Operation,
	type OperationResponse,
	type Parameter,
	type ResponseHeader,
	type SchemaRow,
} from '../sources/openapi.ts';

/** What makes two headers the same for a reader: name, requirement, description and examples. */
function headerKey(header: ResponseHeader): string {
	return JSON.stringify([
		header.name.toLowerCase(),
		header.required,
		header.description ?? '',
		header.examples,
	]);
}

/** The headers every response carries alike, in the first response's order; none for one response. */
export function sharedHeaders(responses: readonly OperationResponse[]): ResponseHeader[] {
	const [first, ...rest] = responses;
	if (!first || rest.length === 0) return [];
	return first.headers.filter((header) =>
		rest.every((response) =>
			response.headers.some((other) => headerKey(other) === headerKey(header)),
		),
	);
}

/** A response's own headers: those not shared by every response. */
export function ownHeaders(
	response: OperationResponse,
	shared: readonly ResponseHeader[],
): ResponseHeader[] {
	const sharedKeys = new Set(shared.map(headerKey));
	return response.headers.filter((header) => !sharedKeys.has(headerKey(header)));
}

/** Where a body's field table stands: `status mediaType` of the first body with its schema name. */
export function firstSchemaUse(responses: readonly OperationResponse[]): Map<string, string> {
	const first = new Map<string, string>();
	for (const response of responses) {
		for (const body of response.bodies) {
			if (body.schemaName && !first.has(body.schemaName)) {
				first.set(body.schemaName, `${response.status} ${body.mediaType}`);
			}
		}
	}
	return first;
}

/** Past this many examples of a success body (one per view), the page shows one and points to the file. */
export const SHOWN_EXAMPLES = 3;

/**
 * Whether a body's examples are the published ones, one per view: a success with more than
 * `SHOWN_EXAMPLES`. An error's examples (the kinds of 401, say) are the contract's own.
 */
export function isPerView(status: string, count: number): boolean {
	return /^2(\d\d|XX)$/i.test(status) && count > SHOWN_EXAMPLES;
}

/** The examples the page shows of a body: all of them, or the first of one per view. */
export function shownExamples(examples: readonly NamedExample[], status = '200'): NamedExample[] {
	return examples.slice(0, isPerView(status, examples.length) ? 1 : undefined);
}

/** An example's value as the page shows it: a string as it is, anything else as indented JSON. */
export function exampleValue(value: unknown): string {
	return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** The id of an operation's heading, from its method and path, e.g. `get-api-v2-users`. */
export function operationSlug(operation: Pick<Operation, 'method' | 'path'>): string {
	return `${operation.method}-${operation.path}`
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/-$/, '');
}

/** Whether a response status is an error, 4xx or 5xx (also as `4XX`), for its badge colour. */
export function isErrorStatus(status: string): boolean {
	return /^[45](\d\d|XX)$/i.test(status);
}

/** How a status reads in the status overview: 2xx green, 4xx red, 5xx amber, anything else plain. */
export type StatusTone = 'success' | 'client-error' | 'server-error' | 'other';

/** The colour family of a response status (also as `2XX`), for its row in the status overview. */
export function statusTone(status: string): StatusTone {
	if (/^2(\d\d|XX)$/i.test(status)) return 'success';
	if (/^4(\d\d|XX)$/i.test(status)) return 'client-error';
	if (/^5(\d\d|XX)$/i.test(status)) return 'server-error';
	return 'other';
}

/**
 * The examples the response-example picker offers for a body: one per view is cut to the first
 * `SHOWN_EXAMPLES`, so the page stays the same size however many views there are; an error's
 * own kinds are all offered.
 */
export function pickedExamples(examples: readonly NamedExample[], status: string): NamedExample[] {
	return examples.slice(0, isPerView(status, examples.length) ? SHOWN_EXAMPLES : undefined);
}

/**
 * The parts of an operation, in page order, each under an h3 whose id ends with its key: security
 * and parameters, then the samples and the response examples (beside them on a wide screen),
 * then the responses with their schemas.
 */
export const OPERATION_SECTIONS = [
	{ key: 'security', title: 'Security' },
	{ key: 'parameters', title: 'Parameters' },
	{ key: 'samples', title: 'Code samples' },
	{ key: 'examples', title: 'Response examples' },
	{ key: 'responses', title: 'Responses' },
] as const;

/** The section of an operation that takes a body, after its parameters. */
export const REQUEST_BODY_SECTION = { key: 'body', title: 'Request body' } as const;

/** The id of an operation's section heading, e.g. `get-api-v2-users-responses`. */
export function sectionId(
	operationId: string,
	key: (typeof OPERATION_SECTIONS)[number]['key'] | typeof REQUEST_BODY_SECTION.key,
): string {
	return `${operationId}-${key}`;
}

/** The id of the reference page's servers heading. */
export const SERVERS_ID = 'servers';

/** The id of the reference page's try-it heading, where the endpoint card's Try it button leads. */
export const TRY_IT_ID = 'try-it';

/** The reference page's h2 and h3 headings, for its "On this page" list. */
export function referenceHeadings(
	operations: readonly Pick<Operation, 'method' | 'path' | 'requestBody'>[],
): PageHeading[] {
	return [
		...operations.flatMap((operation) => {
			const id = operationSlug(operation);
			const sections = operation.requestBody
				? [...OPERATION_SECTIONS.slice(0, 2), REQUEST_BODY_SECTION, ...OPERATION_SECTIONS.slice(2)]
				: OPERATION_SECTIONS;
			return [
				{ depth: 2, slug: id, text: `${operation.method} ${operation.path}` },
				...sections.map(({ key, title }) => ({
					depth: 3,
					slug: sectionId(id, key),
					text: title,
				})),
			];
		}),
		{ depth: 2, slug: TRY_IT_ID, text: 'Try it' },
		{ depth: 2, slug: SERVERS_ID, text: 'Servers' },
	];
}

/** The header the code samples send the key in: that of the first scheme they know how to send. */
export function sampleAuth(security: Operation['security']): SampleRequest['auth'] {
	return security.map(({ scheme }) => authHeader(scheme)).find((header) => header !== undefined);
}

/** The headers the code samples send: each header parameter that has an example. */
export function sampleHeaders(parameters: readonly Parameter[]): SampleRequest['headers'] {
	return parameters
		.filter((parameter) => parameter.in === 'header' && typeof parameter.example === 'string')
		.map((parameter) => ({ name: parameter.name, value: String(parameter.example) }));
}

/**
 * What an operation's samples get: a body to print, or, when its first success has none (HEAD,
 * a 204), the status they print with the headers, which the samples test expects.
 */
export function sampleAnswer(operation: Pick<Operation, 'method' | 'responses'>): {
	body: boolean;
	status: number | undefined;
} {
	const success = operation.responses.find(({ status }) => /^2\d\d$/.test(status));
	const body = operation.method.toUpperCase() !== 'HEAD' && (success?.bodies.length ?? 0) > 0;
	return { body, status: body || !success ? undefined : Number(success.status) };
}

/** The query the code samples send: each query parameter that is required or has an example. */
export function sampleQuery(parameters: readonly Parameter[]): SampleRequest['query'] {
	return parameters
		.filter(
			(parameter) =>
				parameter.in === 'query' && (parameter.required || parameter.example !== undefined),
		)
		.map((parameter) => ({
			name: parameter.name,
			// The contract's query examples are text and numbers. TODO: an object or array example
			// would read [object Object] or a,b; serialise it by the parameter's style once one exists.
			// eslint-disable-next-line @typescript-eslint/no-base-to-string -- see the TODO above
			value: String(parameter.example ?? ''),
		}));
}

/**
 * The request an operation's code samples send to `server`, and what they get: the page's samples
 * and its Markdown twin's are made from it, so the twin shows the commands the page runs.
 */
export function operationSample(
	operation: Operation,
	server: string,
): { request: SampleRequest; status: number | undefined } {
	const answer = sampleAnswer(operation);
	return {
		request: {
			method: operation.method,
			server,
			path: operation.path,
			query: sampleQuery(operation.parameters),
			querystring: sampleQuerystring(operation.parameters),
			headers: sampleHeaders(operation.parameters),
			auth: sampleAuth(operation.security),
			body: answer.body,
			content: sampleContent(operation),
		},
		status: answer.status,
	};
}

/**
 * The body an operation's samples send: of its first media type, its first example (as compact
 * JSON for a JSON type), else `{}` for a JSON body; none when it takes no body or no JSON one
 * without an example.
 */
export function sampleContent(operation: Pick<Operation, 'requestBody'>): SentBody | undefined {
	const body = operation.requestBody?.bodies[0];
	if (!body) return undefined;
	const json = /^application\/(?:[\w.-]+\+)?json$/i.test(body.mediaType);
	const example = body.examples[0];
	if (example === undefined) return json ? { mediaType: body.mediaType, text: '{}' } : undefined;
	return { mediaType: body.mediaType, text: exampleAsSent(example, json) };
}

/**
 * An example's text as a request sends it: a `serializedValue` as written (it is the text sent),
 * a string as it is for a body that is no JSON, anything else as compact JSON.
 */
export function exampleAsSent(
	example: Pick<NamedExample, 'value' | 'serializedValue'>,
	json: boolean,
): string {
	if (example.serializedValue !== undefined) return example.serializedValue;
	const { value } = example;
	return typeof value === 'string' && !json ? value : JSON.stringify(value);
}

/** The kind of stream a media type is, in words, for a body described item by item. */
export function streamName(mediaType: string): string {
	const type = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
	if (type === 'text/event-stream') return 'server-sent events';
	if (['application/jsonl', 'application/x-ndjson', 'application/x-jsonlines'].includes(type)) {
		return 'JSON lines';
	}
	if (type === 'application/json-seq') return 'JSON text sequences';
	return 'a stream of items';
}

/** One field of a parameter's schema, as the parameters list shows it. */
export interface ParameterField {
	name: string;
	type: string | undefined;
	required: boolean;
	description: string | undefined;
}

/**
 * A parameter written as content (a `querystring` one must be): its media type and the fields of
 * its schema; undefined for one written with a schema alone.
 */
export function parameterContent(
	parameter: Pick<Parameter, 'content'>,
): { mediaType: string; fields: ParameterField[] } | undefined {
	const [entry] = Object.entries(parameter.content ?? {});
	if (!entry) return undefined;
	const [mediaType, { schema }] = entry;
	const node = isRecord(schema) ? schema : {};
	const properties = isRecord(node['properties']) ? node['properties'] : {};
	const required = Array.isArray(node['required']) ? node['required'] : [];
	return {
		mediaType,
		fields: Object.entries(properties).map(([name, field]) => {
			const about = isRecord(field) ? field : {};
			return {
				name,
				type: typeof about['type'] === 'string' ? about['type'] : undefined,
				required: required.includes(name),
				description: typeof about['description'] === 'string' ? about['description'] : undefined,
			};
		}),
	};
}

/** Whether a value is a mapping of names to values. */
function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A field of a schema explorer: its schema row and the fields inside it, nested as written. */
export interface SchemaField {
	/** The field's own name (`email`), or `[]` for the items of an array inside an array. */
	name: string;
	row: SchemaRow;
	/** What each item of an array field is, when the items are objects of their own. */
	items?: SchemaRow | undefined;
	fields: SchemaField[];
}

/**
 * A body schema's rows (`users`, `users[]`, `users[].email`) as a tree for the schema explorer: a
 * field holds the fields written under it, and an array of objects holds its items' fields
 * directly (its `[]` row becomes what each item is), so `users` opens onto `name`, `email`...
 */
export function schemaTree(rows: readonly SchemaRow[]): SchemaField[] {
	const top: SchemaField[] = [];
	const byField = new Map<string, SchemaField>();
	for (const row of rows) {
		const item = row.field.endsWith('[]');
		const parentField = item ? row.field.slice(0, -2) : row.field.replace(/\.?[^.]*$/, '');
		const parent = byField.get(parentField);
		if (item && parent && parent.items === undefined && parent.fields.length === 0) {
			parent.items = row;
			byField.set(row.field, parent);
			continue;
		}
		const field: SchemaField = {
			name: item ? '[]' : row.field.slice(parentField.length).replace(/^\./, ''),
			row,
			fields: [],
		};
		(parent?.fields ?? top).push(field);
		byField.set(row.field, field);
	}
	return top;
}

/**
 * The operation a HEAD or OPTIONS operation stands beside: the GET of the same path, which the
 * page documents in full, so these two show only what differs from it.
 */
export function mirroredOperation<T extends Pick<Operation, 'method' | 'path'>>(
	operation: T,
	operations: readonly T[],
): T | undefined {
	if (!/^(head|options)$/i.test(operation.method)) return undefined;
	return operations.find(
		(other) => other.method.toLowerCase() === 'get' && other.path === operation.path,
	);
}

/** Whether two operations ask for the same security schemes, in the same order. */
export function sameSecurity(
	one: Pick<Operation, 'security'>,
	other: Pick<Operation, 'security'>,
): boolean {
	return (
		JSON.stringify(one.security.map(({ name }) => name)) ===
		JSON.stringify(other.security.map(({ name }) => name))
	);
}

/** A response's headers that the mirrored operation's response of the same status lacks or words otherwise. */
export function headersBeyond(
	response: Pick<OperationResponse, 'headers'>,
	mirrored: Pick<OperationResponse, 'headers'> | undefined,
): ResponseHeader[] {
	const theirs = new Set((mirrored?.headers ?? []).map(headerKey));
	return response.headers.filter((header) => !theirs.has(headerKey(header)));
}

/**
 * Where each named body schema is explored on the page: the first body that uses it, in page
 * order (its id, e.g. `schema-problem`), so every later use links there instead of repeating it.
 */
export function schemaHomes(
	operations: readonly Pick<Operation, 'method' | 'path' | 'responses'>[],
): Map<string, { status: string; operationId: string; id: string }> {
	const homes = new Map<string, { status: string; operationId: string; id: string }>();
	for (const operation of operations) {
		for (const [name, where] of firstSchemaUse(operation.responses)) {
			if (homes.has(name)) continue;
			homes.set(name, {
				status: where.split(' ')[0] ?? '',
				operationId: operationSlug(operation),
				id: `schema-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
			});
		}
	}
	return homes;
}

/**
 * A response description cut for its disclosure: the first sentence is the line shown closed
 * (a colon that leads into a list made a full stop, as text and inline code), the rest shows open.
 */
export function statusLine(description: string): {
	line: { text: string; code: boolean }[];
	rest: string;
} {
	const first = /^.*?[.:](?=\s|$)/s.exec(description)?.[0] ?? description;
	return {
		line: first
			.trim()
			.replace(/:$/, '.')
			.split('`')
			.map((piece, index) => ({ text: piece, code: index % 2 === 1 })),
		// A colon leads into what follows: open, the whole description reads on from the line.
		rest: /:\s*$/.test(first) ? description.trim() : description.slice(first.length).trim(),
	};
}

/**
 * The line a response's disclosure shows closed, and what it shows open: the response's summary
 * (OpenAPI 3.2) over its whole description, or else the description's first sentence, or else,
 * for a 3.2 response written with neither, its status's reason phrase.
 */
export function responseLine(
	response: Pick<OperationResponse, 'status' | 'summary' | 'description'>,
): {
	line: { text: string; code: boolean }[];
	rest: string;
} {
	const summary =
		response.summary ?? (response.description.trim() ? undefined : reasonPhrase(response.status));
	if (summary === undefined) return statusLine(response.description);
	return {
		line: summary
			.trim()
			.split('`')
			.map((piece, index) => ({ text: piece, code: index % 2 === 1 })),
		rest: response.description.trim(),
	};
}

/** How an example is written, in OpenAPI 3.2's words, when not as a plain `value`. */
export function exampleForm(example: Pick<NamedExample, 'field'>): string | undefined {
	if (example.field === 'dataValue') return 'dataValue: the data, before it is serialised';
	if (example.field === 'serializedValue') return 'serializedValue: the bytes as sent';
	return undefined;
}

/** A tag of the reference's navigation: its title, its operations and the tags nested under it. */
export interface TagNode {
	name: string;
	/** What the navigation shows: the tag's summary, or else its name. */
	title: string;
	description?: string | undefined;
	operations: { label: string; slug: string; summary?: string | undefined }[];
	children: TagNode[];
}

/**
 * The reference's navigation by tag, nested as the tags' parents say (OpenAPI 3.2): a tree of
 * the navigation tags (those of no kind, or of kind `nav`), each with the operations filed under
 * it. Empty when no tag uses what 3.2 adds (a summary, a parent or a kind): a 3.1 contract's
 * page keeps its layout.
 */
export function tagTree(
	tags: readonly ContractTag[] | undefined,
	operations: readonly Pick<Operation, 'method' | 'path' | 'summary' | 'tags'>[],
): TagNode[] {
	const all = tags ?? [];
	if (!all.some((tag) => tag.summary ?? tag.parent ?? tag.kind)) return [];
	const nav = all.filter((tag) => tag.kind === undefined || tag.kind === 'nav');
	const names = new Set(nav.map((tag) => tag.name));
	const node = (tag: ContractTag): TagNode => ({
		name: tag.name,
		title: tag.summary ?? tag.name,
		description: tag.description,
		operations: operations
			.filter((operation) => operation.tags?.includes(tag.name))
			.map((operation) => ({
				label: `${operation.method} ${operation.path}`,
				slug: operationSlug(operation),
				summary: operation.summary,
			})),
		children: nav.filter((child) => child.parent === tag.name).map(node),
	});
	// A tag whose parent is not a navigation tag stands at the top.
	return nav.filter((tag) => tag.parent === undefined || !names.has(tag.parent)).map(node);
}
