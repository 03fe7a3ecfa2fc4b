/**
 * The model of an OpenAPI document that the reference page renders and the mock answers from:
 * Redocly's bundler (`@redocly/openapi-core`) dereferences the document, zod checks every part
 * the model reads, and the model is built from that. An error names the file, the field where
 * it is written (through any `$ref` that led there) and what was expected.
 */
import {
	BaseResolver,
	bundleDocument,
	createConfig,
	getTypes,
	isRef,
	Source,
	unescapePointerFragment,
} from '@redocly/openapi-core';
import { z } from 'zod';
import { parameterSchema, securitySchemeSchema } from '../schemas/contract-parts.ts';

const text = z.string();

/** Whether a text is a regular expression JavaScript can compile with the `u` flag. */
function isPattern(pattern: string): boolean {
	try {
		new RegExp(pattern, 'u');
		return true;
	} catch {
		// The RegExp constructor throws only a SyntaxError, for a pattern it cannot compile: the
		// answer.
		return false;
	}
}

/** A JSON Schema node, as far as the reference table reads it. */
const schemaNodeSchema = z.looseObject({
	$ref: text.optional(),
	type: z.union([text, z.array(text)]).optional(),
	description: text.optional(),
	format: text.optional(),
	properties: z.record(z.string(), z.unknown()).optional(),
	items: z.unknown().optional(),
	required: z.array(text).optional(),
	enum: z.array(z.unknown()).optional(),
	minimum: z.number().optional(),
	maximum: z.number().optional(),
	minLength: z.number().optional(),
	maxLength: z.number().optional(),
	minItems: z.number().optional(),
	maxItems: z.number().optional(),
	pattern: text
		.refine(isPattern, {
			error: 'expected a regular expression (ECMA-262, as JSON Schema patterns are)',
		})
		.optional(),
	additionalProperties: z.unknown().optional(),
});

/** A JSON Schema node. */
export type SchemaNode = z.infer<typeof schemaNodeSchema>;

/**
 * An Example: its data as `value` (3.1) or `dataValue` (3.2), or as sent, `serializedValue`
 * (3.2). The fields OpenAPI 3.2 says exclude each other are named when both are written.
 */
const exampleSchema = z
	.object({
		summary: text.optional(),
		description: text.optional(),
		value: z.unknown().optional(),
		dataValue: z.unknown().optional(),
		serializedValue: text.optional(),
	})
	.superRefine((example, context) => {
		// Redocly's lint names an externalValue beside value or serializedValue, and its bundler
		// reads the file or URL an externalValue names before this check could.
		const pairs = [
			['value', 'dataValue'],
			['value', 'serializedValue'],
		] as const;
		for (const [one, other] of pairs) {
			if (example[one] !== undefined && example[other] !== undefined) {
				context.addIssue({
					code: 'custom',
					path: [other],
					message: `expected ${one} or ${other}, not both (OpenAPI 3.2, Example Object)`,
				});
			}
		}
	});

const mediaSchema = z.object({
	schema: z.unknown().optional(),
	/** What each item of a stream is (OpenAPI 3.2): JSON lines, server-sent events, ... */
	itemSchema: z.unknown().optional(),
	example: z.unknown().optional(),
	examples: z.record(z.string(), exampleSchema).optional(),
});

const headerSchema = z.object({
	description: text.optional(),
	required: z.boolean().optional(),
	schema: z.unknown().optional(),
	example: z.unknown().optional(),
	examples: z.record(z.string(), exampleSchema).optional(),
});

/** A response as 3.2 writes it: its description may be left out (a summary may stand for it). */
const responseSchema = z.object({
	summary: text.optional(),
	description: text.optional(),
	headers: z.record(z.string(), headerSchema).optional(),
	content: z.record(z.string(), mediaSchema).optional(),
});

/** A response's schema: as 3.2 writes it, or as 3.1 does. */
type ResponseSchema = z.ZodType<z.infer<typeof responseSchema>>;

/** A response as 3.1 writes it: with its description. */
const responseSchema31 = responseSchema.extend({ description: text });

/** An operation parameter. */
export type Parameter = z.infer<typeof parameterSchema>;

/** A request body: its media types, each with its schema and examples. */
const requestBodySchema = z.object({
	description: text.optional(),
	required: z.boolean().optional(),
	content: z.record(z.string(), mediaSchema),
});

/** An operation, its responses written as the contract's version says. */
const operationSchemaOf = (response: ResponseSchema) =>
	z.object({
		operationId: text.optional(),
		summary: text.optional(),
		description: text.optional(),
		security: z.array(z.record(z.string(), z.array(text))).optional(),
		parameters: z.array(parameterSchema).optional(),
		requestBody: requestBodySchema.optional(),
		tags: z.array(text).optional(),
		responses: z.record(z.string(), response),
	});

/** A security scheme. */
export type SecurityScheme = z.infer<typeof securitySchemeSchema>;

/** The methods a path item names as fields: 3.2 adds `query`; others go in `additionalOperations`. */
const METHODS = [
	'get',
	'head',
	'post',
	'put',
	'patch',
	'delete',
	'options',
	'trace',
	'query',
] as const;

/** A tag, with what OpenAPI 3.2 adds: a short summary, the tag it is nested under, and its kind. */
const tagSchema = z.object({
	name: text,
	summary: text.optional(),
	description: text.optional(),
	parent: text.optional(),
	kind: text.optional(),
});

/** A tag of the contract: its name, and what 3.2 adds for navigation. */
export type ContractTag = z.infer<typeof tagSchema>;

/** The tags, each parent naming a tag of the list, and no tag nested under itself. */
const tagsSchema = z.array(tagSchema).superRefine((tags, context) => {
	const parents = new Map(tags.map((tag) => [tag.name, tag.parent]));
	for (const [index, tag] of tags.entries()) {
		if (tag.parent === undefined) continue;
		if (!parents.has(tag.parent)) {
			context.addIssue({
				code: 'custom',
				path: [index, 'parent'],
				message: `expected the name of a tag in tags, found "${tag.parent}"`,
			});
			continue;
		}
		const chain = [tag.name];
		let parent: string | undefined = tag.parent;
		while (parent !== undefined && !chain.includes(parent)) {
			chain.push(parent);
			parent = parents.get(parent);
		}
		if (parent === tag.name) {
			context.addIssue({
				code: 'custom',
				path: [index, 'parent'],
				message: `expected parents that do not loop, found ${[...chain, tag.name].join(' → ')}`,
			});
		}
	}
});

/**
 * A URI reference (RFC 3986, section 4.1) without a fragment, as OpenAPI 3.2's `$self` must be:
 * the characters a URI may hold, each `%` starting a percent-encoding, and no `#`.
 */
const SELF_PATTERN = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?[\]]|%[0-9A-Fa-f]{2})*$/;

/** The document, its responses written as the contract's version says. */
const documentSchemaOf = (response: ResponseSchema) => {
	const operationSchema = operationSchemaOf(response);
	return z.object({
		openapi: text.regex(/^3\.[12]\.\d+$/, {
			error: 'expected an OpenAPI 3.1 or 3.2 version like "3.2.0"',
		}),
		$self: text
			.regex(SELF_PATTERN, {
				error:
					'expected a URI reference without a fragment (RFC 3986), e.g. "https://portal.example/openapi.json"',
			})
			.optional(),
		info: z.object({
			title: text,
			version: text,
			summary: text.optional(),
			description: text.optional(),
		}),
		servers: z
			.array(z.object({ url: text, description: text.optional() }))
			.min(1, { error: 'expected at least one server' }),
		security: z.array(z.record(z.string(), z.array(text))).optional(),
		tags: tagsSchema.optional(),
		paths: z.record(
			z.string(),
			z.partialRecord(z.enum(METHODS), operationSchema).and(
				z.looseObject({
					additionalOperations: z.record(z.string(), operationSchema).optional(),
				}),
			),
		),
		components: z
			.object({
				securitySchemes: z.record(z.string(), securitySchemeSchema).optional(),
				responses: z.record(z.string(), response).optional(),
			})
			.loose()
			.optional(),
	});
};

/** A 3.2 document, whose responses may leave out their description. */
const documentSchema = documentSchemaOf(responseSchema);
/** A 3.1 document, whose responses each have their description. */
const documentSchema31 = documentSchemaOf(responseSchema31);

/** An example of a body or a header. */
export interface NamedExample {
	name: string;
	summary?: string | undefined;
	/** Its data: the Example's `value` or `dataValue`; for a `serializedValue` alone, that text. */
	value: unknown;
	/** The OpenAPI 3.2 field the example is written in, when not `value`: shown as such. */
	field?: 'dataValue' | 'serializedValue' | undefined;
	/** The example as it is sent, when the contract gives it (3.2's `serializedValue`). */
	serializedValue?: string | undefined;
}

/** A response header. */
export interface ResponseHeader {
	name: string;
	description?: string | undefined;
	required: boolean;
	examples: NamedExample[];
}

/** A response body of one media type. */
export interface ResponseBody {
	mediaType: string;
	/** The schema name when the body's schema is a `$ref` into components. */
	schemaName?: string | undefined;
	rows: SchemaRow[];
	examples: NamedExample[];
	/** The body's schema, dereferenced: what the try-it panel's validators are compiled from. */
	schema?: unknown;
	/**
	 * Whether the body is a stream whose rows and schema name describe each item (OpenAPI 3.2's
	 * `itemSchema`), not the whole body.
	 */
	itemized?: boolean | undefined;
	/** The schema of each item of such a stream, dereferenced: what the stream is checked with. */
	itemSchema?: unknown;
}

/** A request body: whether it is required, what it is, and each media type it may be sent as. */
export interface RequestBodyModel {
	description?: string | undefined;
	required: boolean;
	bodies: ResponseBody[];
}

/** A response: its summary (OpenAPI 3.2), description, headers and bodies. */
export interface ResponseModel {
	summary?: string | undefined;
	/** Its description; empty when a 3.2 contract leaves it out. */
	description: string;
	headers: ResponseHeader[];
	bodies: ResponseBody[];
}

/** One response of an operation. */
export interface OperationResponse extends ResponseModel {
	status: string;
}

/** One row of a schema table: a field, its type, whether it is required, and what it holds. */
export interface SchemaRow {
	/** Where the field is, e.g. `users[].email`. */
	field: string;
	type: string;
	required: boolean;
	description: string;
	/** Constraints in words: enum values, format, bounds. */
	constraints: string[];
}

/** One operation, ready to render. */
export interface Operation {
	method: string;
	path: string;
	operationId?: string | undefined;
	summary?: string | undefined;
	description?: string | undefined;
	/** The names of the tags the operation is filed under. */
	tags?: string[] | undefined;
	security: { name: string; scheme: SecurityScheme }[];
	parameters: Parameter[];
	/** The body the request sends, when the operation takes one (a QUERY's filter, say). */
	requestBody?: RequestBodyModel | undefined;
	responses: OperationResponse[];
}

/** The parts of openapi.yaml the reference page shows. */
export interface ApiReference {
	/** The OpenAPI version the contract is written in, e.g. `3.2.0`. */
	openapi?: string | undefined;
	/** The contract's own address as it says it (OpenAPI 3.2's `$self`). */
	self?: string | undefined;
	/** The tags, nested by their parents (OpenAPI 3.2) in the reference's navigation. */
	tags?: ContractTag[] | undefined;
	title: string;
	version: string;
	summary?: string | undefined;
	description?: string | undefined;
	servers: { url: string; description?: string | undefined }[];
	operations: Operation[];
	/** The named responses of `components.responses`, such as the problems of unknown paths. */
	responses: Record<string, ResponseModel>;
}

/** An error in an OpenAPI document, naming the file, the field and the expectation. */
export class OpenApiError extends Error {
	override name = 'OpenApiError';
}

type Path = readonly PropertyKey[];

/** Spells a path as `paths./api/v2/users.get.responses.200`. */
function spell(path: Path): string {
	return path.map(String).join('.') || '(the document)';
}

/** An error with one line per problem, each naming the file and the field. */
function invalid(file: string, lines: readonly string[]): OpenApiError {
	return new OpenApiError(
		`Invalid OpenAPI document:\n${lines.map((line) => `  ${file}: ${line}`).join('\n')}`,
	);
}

/** The steps of an internal `$ref` such as `#/components/schemas/User`. */
function pointerSteps(ref: string): string[] {
	return ref === '#' ? [] : ref.slice(2).split('/').map(unescapePointerFragment);
}

/** The value at a path of a parsed document, or undefined. */
function valueAt(document: unknown, path: Path): unknown {
	let node = document;
	for (const step of path) {
		node = typeof node === 'object' && node !== null ? Reflect.get(node, step) : undefined;
	}
	return node;
}

/** Keys under which a `$ref` is data (an example, a default), not a reference. */
const DATA_KEYS = new Set(['example', 'value', 'dataValue', 'default', 'const', 'enum']);

/** Whether a key holds data: an example or default, or a schema's `examples` list. */
function holdsData(key: string, value: unknown, at: Path): boolean {
	// Under `properties`, keys are field names, whatever they are called.
	if (at.at(-1) === 'properties') return false;
	return DATA_KEYS.has(key) || (key === 'examples' && Array.isArray(value));
}

/** Every `$ref` written in a document, with where it stands, skipping example and default data. */
function* refsOf(node: unknown, at: Path = []): Generator<{ at: Path; ref: string }> {
	if (typeof node !== 'object' || node === null) return;
	if (isRef(node)) yield { at, ref: node.$ref };
	for (const [key, value] of Object.entries(node)) {
		if (!holdsData(key, value, at)) {
			yield* refsOf(value, [...at, Array.isArray(node) ? Number(key) : key]);
		}
	}
}

/**
 * Where the part at a path of the dereferenced document is written: the path is walked through
 * the written document, jumping along each internal `$ref` met on the way (and at the end when
 * `follow` is set). Returns the written path and node.
 */
function written(document: unknown, path: Path, follow = true): { at: Path; node: unknown } {
	let at: Path = [];
	let node = document;
	const jump = (): void => {
		for (let hops = 0; hops < 32 && isRef(node) && node.$ref.startsWith('#'); hops += 1) {
			at = pointerSteps(node.$ref);
			node = valueAt(document, at);
		}
	};
	for (const step of path) {
		jump();
		node = valueAt(node, [step]);
		at = [...at, step];
	}
	if (follow) jump();
	return { at, node };
}

/** The name of a `components.schemas` entry that a written node refers to, if it does. */
function schemaNameOf(node: unknown): string | undefined {
	if (!isRef(node)) return undefined;
	const steps = pointerSteps(node.$ref);
	return steps.length === 3 && steps[0] === 'components' && steps[1] === 'schemas'
		? steps[2]
		: undefined;
}

/** The first `$ref` chain of the written document that comes back to where it started. */
function refLoop(document: unknown): { at: Path; refs: string[] } | undefined {
	for (const { at } of refsOf(document)) {
		const refs: string[] = [];
		let node: unknown = valueAt(document, at);
		while (isRef(node) && node.$ref.startsWith('#') && refs.length < 32) {
			refs.push(node.$ref);
			const where = pointerSteps(node.$ref);
			if (spell(where) === spell(at)) return { at, refs };
			node = valueAt(document, where);
		}
	}
	return undefined;
}

/** Redocly's configuration for dereferencing: no rules, no decorators, no config file read. */
const bundleConfig = createConfig({});

/**
 * Dereferences a parsed document with Redocly: every internal `$ref` replaced by what it names.
 * A `$ref` into another file or URL, one that names nothing, and a loop of `$ref`s are named.
 */
async function dereference(document: Record<string, unknown>, file: string): Promise<unknown> {
	const outside = [...refsOf(document)].filter(({ ref }) => !ref.startsWith('#'));
	if (outside.length > 0) {
		throw invalid(
			file,
			outside.map(
				({ at, ref }) =>
					`${spell([...at, '$ref'])}: expected an internal $ref like "#/components/…", found "${ref}"`,
			),
		);
	}
	// Redocly dereferences in place: it gets its own copy.
	const copy = structuredClone(document);
	let result: Awaited<ReturnType<typeof bundleDocument>>;
	try {
		result = await bundleDocument({
			document: { source: new Source(file, ''), parsed: copy },
			config: await bundleConfig,
			// 3.2's types, which are 3.1's and what 3.2 adds, read a 3.1 document as 3.1's do.
			types: getTypes('oas3_2'),
			externalRefResolver: new BaseResolver(),
			dereference: true,
		});
	} catch (error) {
		const loop = refLoop(document);
		if (loop) {
			throw invalid(file, [
				`${spell(loop.at)}: expected $refs that do not loop, found ${loop.refs.join(' → ')}`,
			]);
		}
		const reason = error instanceof Error ? error.message : String(error);
		throw invalid(file, [`expected a document Redocly can read (${reason})`]);
	}
	const dangling = result.problems
		.filter((problem) => problem.severity === 'error')
		.map((problem) => {
			const at = pointerSteps(problem.location[0]?.pointer ?? '#');
			const ref = valueAt(document, [...at, '$ref']);
			return typeof ref === 'string'
				? `${spell([...at, '$ref'])}: expected a reference to an existing part, found "${ref}"`
				: `${spell(at)}: ${problem.message}`;
		});
	if (dangling.length > 0) throw invalid(file, dangling);
	return result.bundle.parsed;
}

/** Checks a part of the dereferenced document, naming each problem where it is written. */
function checker(document: Record<string, unknown>, file: string) {
	return <T>(at: Path, schema: z.ZodType<T>, value: unknown): T => {
		const result = schema.safeParse(value);
		if (result.success) return result.data;
		const lines = result.error.issues.map(
			(issue) => `${spell(written(document, [...at, ...issue.path]).at)}: ${issue.message}`,
		);
		throw invalid(file, [...new Set(lines)]);
	};
}

/** A count and its noun, in the singular for one: `1 character`, `8 items`. */
function counted(count: number, noun: string): string {
	return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** Constraints of a schema node in words: enum values, format, lengths, item counts, bounds, pattern. */
function constraintsOf(node: SchemaNode): string[] {
	const constraints: string[] = [];
	if (node.enum)
		constraints.push(`one of ${node.enum.map((value) => JSON.stringify(value)).join(', ')}`);
	if (node.format) constraints.push(`format ${node.format}`);
	if (node.minLength !== undefined)
		constraints.push(`at least ${counted(node.minLength, 'character')}`);
	if (node.maxLength !== undefined)
		constraints.push(`at most ${counted(node.maxLength, 'character')}`);
	if (node.minItems !== undefined && node.minItems === node.maxItems) {
		constraints.push(`exactly ${counted(node.minItems, 'item')}`);
	} else {
		if (node.minItems !== undefined) constraints.push(`at least ${counted(node.minItems, 'item')}`);
		if (node.maxItems !== undefined) constraints.push(`at most ${counted(node.maxItems, 'item')}`);
	}
	if (node.minimum !== undefined) constraints.push(`minimum ${node.minimum}`);
	if (node.maximum !== undefined) constraints.push(`maximum ${node.maximum}`);
	if (node.pattern) constraints.push(`pattern ${node.pattern}`);
	return constraints;
}

/**
 * A named Example as the model keeps it: its data from `value` or 3.2's `dataValue`, or, given
 * only as sent (`serializedValue`), that text, with the field it was written in.
 */
function namedExample(name: string, example: z.infer<typeof exampleSchema>): NamedExample {
	const { summary, dataValue, serializedValue } = example;
	if (dataValue !== undefined) {
		return { name, summary, value: dataValue, field: 'dataValue', serializedValue };
	}
	if (serializedValue !== undefined) {
		return { name, summary, value: serializedValue, field: 'serializedValue', serializedValue };
	}
	return { name, summary, value: example.value };
}

/** A node's type in words: `string or null` for a type array, `any` when it has none. */
function typeOf(node: SchemaNode): string {
	return Array.isArray(node.type) ? node.type.join(' or ') : (node.type ?? 'any');
}

/**
 * Reads the model of a parsed OpenAPI 3.1 or 3.2 document: the operations, their security, parameters
 * and responses, and the named responses of `components.responses`.
 */
export async function referenceFromDocument(
	document: Record<string, unknown>,
	file = 'openapi.yaml',
): Promise<ApiReference> {
	const dereferenced = await dereference(document, file);
	const check = checker(document, file);
	// A 3.1 response must have its description; 3.2 lets a response leave it out.
	const is31 = String(valueAt(dereferenced, ['openapi'])).startsWith('3.1.');
	const doc = check([], is31 ? documentSchema31 : documentSchema, dereferenced);

	/** The field rows of a body schema, each schema expanded once per branch. */
	const rowsOf = (schema: unknown, at: Path): SchemaRow[] => {
		const rows: SchemaRow[] = [];
		const walk = (
			value: unknown,
			where: Path,
			field: string,
			required: boolean,
			inside: ReadonlySet<string>,
		): void => {
			const node = check(where, schemaNodeSchema, value);
			// A schema met again inside itself (a tree) gets its row, and is not expanded again.
			const place = spell(written(document, where).at);
			if (field) {
				const items = written(document, [...where, 'items'], false).node;
				const itemsNode = schemaNodeSchema.safeParse(node.items);
				const itemType =
					typeOf(node) === 'array' && node.items !== undefined
						? `array of ${schemaNameOf(items) ?? (itemsNode.success ? typeOf(itemsNode.data) : 'any')}`
						: undefined;
				rows.push({
					field,
					type: itemType ?? typeOf(node),
					required,
					description: node.description ?? '',
					constraints: constraintsOf(node),
				});
			}
			if (inside.has(place) || inside.size > 8) return;
			const within = new Set([...inside, place]);
			for (const [name, property] of Object.entries(node.properties ?? {})) {
				walk(
					property,
					[...where, 'properties', name],
					field ? `${field}.${name}` : name,
					node.required?.includes(name) ?? false,
					within,
				);
			}
			if (node.items !== undefined)
				walk(node.items, [...where, 'items'], `${field}[]`, true, within);
		};
		// Stryker disable next-line BooleanLiteral: the root gets no row (its field is empty), so its required flag is never read
		walk(schema, at, '', true, new Set());
		return rows;
	};

	const examplesOf = (media: {
		example?: unknown;
		examples?: Record<string, z.infer<typeof exampleSchema>> | undefined;
	}): NamedExample[] => {
		const named = Object.entries(media.examples ?? {}).map(([name, example]) =>
			namedExample(name, example),
		);
		return media.example === undefined
			? named
			: [{ name: 'example', value: media.example }, ...named];
	};

	/** A body of one media type: its rows, from its `itemSchema` for a stream of items. */
	const bodyOf = (
		mediaType: string,
		media: z.infer<typeof mediaSchema>,
		mediaAt: Path,
	): ResponseBody => {
		const itemized = media.itemSchema !== undefined;
		const described = itemized ? 'itemSchema' : 'schema';
		const schema = itemized ? media.itemSchema : media.schema;
		return {
			mediaType,
			schemaName: schemaNameOf(written(document, [...mediaAt, described], false).node),
			rows: schema === undefined ? [] : rowsOf(schema, [...mediaAt, described]),
			examples: examplesOf(media),
			schema: media.schema,
			...(itemized ? { itemized, itemSchema: media.itemSchema } : {}),
		};
	};

	const responseOf = (response: z.infer<typeof responseSchema>, at: Path): ResponseModel => ({
		summary: response.summary,
		description: response.description ?? '',
		headers: Object.entries(response.headers ?? {}).map(([name, header]) => ({
			name,
			description: header.description,
			required: header.required ?? false,
			examples: examplesOf(header),
		})),
		bodies: Object.entries(response.content ?? {}).map(([mediaType, media]) =>
			bodyOf(mediaType, media, [...at, 'content', mediaType]),
		),
	});

	const schemes = doc.components?.securitySchemes ?? {};
	const operations: Operation[] = [];
	for (const [path, item] of Object.entries(doc.paths)) {
		// The fixed methods in their order, then those of 3.2's additionalOperations as written.
		const named = [
			...METHODS.map((method) => ({ method, operation: item[method], at: [method] })),
			...Object.entries(item.additionalOperations ?? {}).map(([method, operation]) => ({
				method,
				operation,
				at: ['additionalOperations', method],
			})),
		];
		for (const { method, operation, at: within } of named) {
			if (!operation) continue;
			const at = ['paths', path, ...within];
			const requirements = operation.security ?? doc.security ?? [];
			const security = requirements.flatMap((requirement) =>
				Object.keys(requirement).map((name) => {
					const scheme = schemes[name];
					if (!scheme) {
						throw invalid(file, [
							`${spell([...at, 'security'])}: expected "${name}" to be a scheme in components.securitySchemes`,
						]);
					}
					return { name, scheme };
				}),
			);
			operations.push({
				method: method.toUpperCase(),
				path,
				operationId: operation.operationId,
				summary: operation.summary,
				description: operation.description,
				tags: operation.tags,
				security,
				parameters: operation.parameters ?? [],
				...(operation.requestBody
					? {
							requestBody: {
								description: operation.requestBody.description,
								required: operation.requestBody.required ?? false,
								bodies: Object.entries(operation.requestBody.content).map(([mediaType, media]) =>
									bodyOf(mediaType, media, [...at, 'requestBody', 'content', mediaType]),
								),
							},
						}
					: {}),
				responses: Object.entries(operation.responses).map(([status, response]) => ({
					status,
					...responseOf(response, [...at, 'responses', status]),
				})),
			});
		}
	}
	return {
		openapi: doc.openapi,
		self: doc.$self,
		tags: doc.tags,
		title: doc.info.title,
		version: doc.info.version,
		summary: doc.info.summary,
		description: doc.info.description,
		servers: doc.servers,
		operations,
		responses: Object.fromEntries(
			Object.entries(doc.components?.responses ?? {}).map(([name, response]) => [
				name,
				responseOf(response, ['components', 'responses', name]),
			]),
		),
	};
}
