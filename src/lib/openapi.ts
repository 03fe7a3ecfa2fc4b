/**
 * Reads openapi.yaml for the reference page: parses the YAML, checks every part the page shows
 * with zod, and resolves internal `$ref`s. Errors name the file, the field and the expectation.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';

const text = z.string();

const refSchema = z.object({
	$ref: z.string().startsWith('#/', { error: 'expected an internal $ref like "#/components/…"' }),
});

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
	pattern: text.optional(),
	additionalProperties: z.unknown().optional(),
});

/** A JSON Schema node. */
export type SchemaNode = z.infer<typeof schemaNodeSchema>;

const exampleSchema = z.object({
	summary: text.optional(),
	description: text.optional(),
	value: z.unknown(),
});

const mediaSchema = z.object({
	schema: z.unknown().optional(),
	example: z.unknown().optional(),
	examples: z.record(z.string(), z.unknown()).optional(),
});

const headerSchema = z.object({
	description: text.optional(),
	required: z.boolean().optional(),
	schema: z.unknown().optional(),
	example: z.unknown().optional(),
	examples: z.record(z.string(), z.unknown()).optional(),
});

const responseSchema = z.object({
	description: text,
	headers: z.record(z.string(), z.unknown()).optional(),
	content: z.record(z.string(), mediaSchema).optional(),
});

const parameterSchema = z.object({
	name: text,
	in: z.enum(['query', 'header', 'path', 'cookie']),
	description: text.optional(),
	required: z.boolean().optional(),
	schema: z.unknown().optional(),
	example: z.unknown().optional(),
});

/** An operation parameter. */
export type Parameter = z.infer<typeof parameterSchema>;

const operationSchema = z.object({
	operationId: text.optional(),
	summary: text.optional(),
	description: text.optional(),
	security: z.array(z.record(z.string(), z.array(text))).optional(),
	parameters: z.array(z.unknown()).optional(),
	responses: z.record(z.string(), z.unknown()),
});

const securitySchemeSchema = z.object({
	type: text,
	scheme: text.optional(),
	bearerFormat: text.optional(),
	name: text.optional(),
	in: text.optional(),
	description: text.optional(),
});

/** A security scheme. */
export type SecurityScheme = z.infer<typeof securitySchemeSchema>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const documentSchema = z.object({
	openapi: text.regex(/^3\.1\.\d+$/, { error: 'expected an OpenAPI 3.1 version like "3.1.0"' }),
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
	paths: z.record(
		z.string(),
		z.partialRecord(z.enum(METHODS), operationSchema).and(z.looseObject({})),
	),
	components: z
		.object({
			securitySchemes: z.record(z.string(), securitySchemeSchema).optional(),
		})
		.loose()
		.optional(),
});

/** An example of a body or a header. */
export interface NamedExample {
	name: string;
	summary?: string | undefined;
	value: unknown;
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
}

/** One response of an operation. */
export interface OperationResponse {
	status: string;
	description: string;
	headers: ResponseHeader[];
	bodies: ResponseBody[];
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
	security: { name: string; scheme: SecurityScheme }[];
	parameters: Parameter[];
	responses: OperationResponse[];
}

/** The parts of openapi.yaml the reference page shows. */
export interface ApiReference {
	title: string;
	version: string;
	summary?: string | undefined;
	description?: string | undefined;
	servers: { url: string; description?: string | undefined }[];
	operations: Operation[];
}

/** An error in openapi.yaml, naming the file, the field and the expectation. */
export class OpenApiError extends Error {
	override name = 'OpenApiError';
}

/** Spells a path as `paths./api/v2/users.get.responses.200`. */
function spell(path: readonly PropertyKey[]): string {
	return path.map(String).join('.') || '(the document)';
}

/** Parses a value with a schema, or throws an error naming the file and field. */
function check<T>(
	file: string,
	at: readonly PropertyKey[],
	schema: z.ZodType<T>,
	value: unknown,
): T {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	const lines = result.error.issues.map(
		(issue) => `  ${file}: ${spell([...at, ...issue.path])}: ${issue.message}`,
	);
	throw new OpenApiError(`Invalid OpenAPI document:\n${lines.join('\n')}`);
}

/** Reads the whole reference from openapi.yaml text. */
export function parseOpenApi(source: string, file = 'openapi.yaml'): ApiReference {
	let raw: unknown;
	try {
		raw = parse(source);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new OpenApiError(`Invalid OpenAPI document:\n  ${file}: expected valid YAML (${reason})`);
	}
	return referenceFromDocument(raw, file);
}

/** Reads the whole reference from a parsed document, such as the published contract. */
export function referenceFromDocument(raw: unknown, file = 'openapi.yaml'): ApiReference {
	const doc = check(file, [], documentSchema, raw);

	/** Follows an internal `$ref` (recursively) and returns the target and where it lives. */
	const follow = (
		value: unknown,
		at: readonly PropertyKey[],
	): { value: unknown; at: PropertyKey[] } => {
		let current = value;
		let where = [...at];
		for (let hops = 0; hops < 20; hops += 1) {
			const ref = refSchema.safeParse(current);
			if (!ref.success) {
				// A $ref this reader cannot follow (another file, a URL) is named, not silently dropped.
				const other = z.object({ $ref: z.string() }).safeParse(current);
				if (other.success) {
					throw new OpenApiError(
						`Invalid OpenAPI document:\n  ${file}: ${spell([...where, '$ref'])}: expected an internal $ref like "#/components/…", found "${other.data.$ref}"`,
					);
				}
				return { value: current, at: where };
			}
			const pointer = ref.data.$ref
				.slice(2)
				.split('/')
				.map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
			let target: unknown = raw;
			for (const part of pointer) {
				target =
					typeof target === 'object' && target !== null
						? (target as Record<string, unknown>)[part]
						: undefined;
			}
			if (target === undefined) {
				throw new OpenApiError(
					`Invalid OpenAPI document:\n  ${file}: ${spell([...where, '$ref'])}: expected a reference to an existing part, found "${ref.data.$ref}"`,
				);
			}
			current = target;
			where = pointer;
		}
		throw new OpenApiError(
			`Invalid OpenAPI document:\n  ${file}: ${spell(where)}: expected $refs that do not loop`,
		);
	};

	const resolve = <T>(value: unknown, at: readonly PropertyKey[], schema: z.ZodType<T>): T => {
		const target = follow(value, at);
		return check(file, target.at, schema, target.value);
	};

	const examplesOf = (
		media: { example?: unknown; examples?: Record<string, unknown> | undefined },
		at: readonly PropertyKey[],
	): NamedExample[] => {
		const named = Object.entries(media.examples ?? {}).map(([name, example]) => {
			const { summary, value } = resolve(example, [...at, 'examples', name], exampleSchema);
			return { name, summary, value };
		});
		return media.example === undefined
			? named
			: [{ name: 'example', value: media.example }, ...named];
	};

	const rowsOf = (schema: unknown, at: readonly PropertyKey[]): SchemaRow[] => {
		const rows: SchemaRow[] = [];
		const walk = (
			node: unknown,
			where: readonly PropertyKey[],
			field: string,
			required: boolean,
			depth: number,
			inside: ReadonlySet<string> = new Set(),
		): void => {
			const target = follow(node, where);
			// A schema met again inside itself (a tree) gets its row, and is not expanded again.
			const location = spell(target.at);
			const recursive = inside.has(location);
			const within = new Set([...inside, location]);
			const schemaNode = check(file, target.at, schemaNodeSchema, target.value);
			const type = Array.isArray(schemaNode.type)
				? schemaNode.type.join(' or ')
				: (schemaNode.type ?? 'any');
			const constraints: string[] = [];
			if (schemaNode.enum)
				constraints.push(
					`one of ${schemaNode.enum.map((value) => JSON.stringify(value)).join(', ')}`,
				);
			if (schemaNode.format) constraints.push(`format ${schemaNode.format}`);
			if (schemaNode.minLength !== undefined)
				constraints.push(`at least ${schemaNode.minLength} characters`);
			if (schemaNode.maxLength !== undefined)
				constraints.push(`at most ${schemaNode.maxLength} characters`);
			if (schemaNode.minimum !== undefined) constraints.push(`minimum ${schemaNode.minimum}`);
			if (schemaNode.maximum !== undefined) constraints.push(`maximum ${schemaNode.maximum}`);
			if (schemaNode.pattern) constraints.push(`pattern ${schemaNode.pattern}`);
			if (field) {
				const itemType =
					type === 'array' && schemaNode.items !== undefined
						? arrayType(schemaNode.items, [...target.at, 'items'])
						: '';
				rows.push({
					field,
					type: itemType || type,
					required,
					description: schemaNode.description ?? '',
					constraints,
				});
			}
			if (recursive || depth > 8) return;
			for (const [name, property] of Object.entries(schemaNode.properties ?? {})) {
				walk(
					property,
					[...target.at, 'properties', name],
					field ? `${field}.${name}` : name,
					schemaNode.required?.includes(name) ?? false,
					depth + 1,
					within,
				);
			}
			if (schemaNode.items !== undefined)
				walk(schemaNode.items, [...target.at, 'items'], `${field}[]`, true, depth + 1, within);
		};
		const arrayType = (items: unknown, where: readonly PropertyKey[]): string => {
			const target = follow(items, where);
			const node = check(file, target.at, schemaNodeSchema, target.value);
			const name =
				typeof target.at[target.at.length - 2] === 'string' &&
				target.at[target.at.length - 2] === 'schemas'
					? String(target.at.at(-1))
					: (node.type ?? 'any');
			return `array of ${Array.isArray(name) ? name.join(' or ') : name}`;
		};
		walk(schema, at, '', true, 0);
		return rows;
	};

	const schemes = doc.components?.securitySchemes ?? {};
	const operations: Operation[] = [];
	for (const [path, item] of Object.entries(doc.paths)) {
		for (const method of METHODS) {
			const operation = item[method];
			if (!operation) continue;
			const at = ['paths', path, method];
			const requirements = operation.security ?? doc.security ?? [];
			const security = requirements.flatMap((requirement) =>
				Object.keys(requirement).map((name) => {
					const scheme = schemes[name];
					if (!scheme) {
						throw new OpenApiError(
							`Invalid OpenAPI document:\n  ${file}: ${spell([...at, 'security'])}: expected "${name}" to be a scheme in components.securitySchemes`,
						);
					}
					return { name, scheme };
				}),
			);
			const parameters = (operation.parameters ?? []).map((parameter, index) =>
				resolve(parameter, [...at, 'parameters', index], parameterSchema),
			);
			const responses = Object.entries(operation.responses).map(
				([status, value]): OperationResponse => {
					const target = follow(value, [...at, 'responses', status]);
					const response = check(file, target.at, responseSchema, target.value);
					const headers = Object.entries(response.headers ?? {}).map(([name, header]) => {
						const resolved = resolve(header, [...target.at, 'headers', name], headerSchema);
						return {
							name,
							description: resolved.description,
							required: resolved.required ?? false,
							examples: examplesOf(resolved, [...target.at, 'headers', name]),
						};
					});
					const bodies = Object.entries(response.content ?? {}).map(([mediaType, media]) => {
						const mediaAt = [...target.at, 'content', mediaType];
						const ref = refSchema.safeParse(media.schema);
						return {
							mediaType,
							schemaName: ref.success ? ref.data.$ref.split('/').at(-1) : undefined,
							rows: media.schema === undefined ? [] : rowsOf(media.schema, [...mediaAt, 'schema']),
							examples: examplesOf(media, mediaAt),
						};
					});
					return { status, description: response.description, headers, bodies };
				},
			);
			operations.push({
				method: method.toUpperCase(),
				path,
				operationId: operation.operationId,
				summary: operation.summary,
				description: operation.description,
				security,
				parameters,
				responses,
			});
		}
	}
	return {
		title: doc.info.title,
		version: doc.info.version,
		summary: doc.info.summary,
		description: doc.info.description,
		servers: doc.servers,
		operations,
	};
}

/** Reads and parses openapi.yaml from a path. */
export function readOpenApi(file: string): ApiReference {
	let source: string;
	try {
		source = readFileSync(file, 'utf8');
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		throw new OpenApiError(`Cannot read the OpenAPI document ${file}: ${reason}`);
	}
	return parseOpenApi(source, file);
}
