/**
 * Parts of the contract's model that both its reader (`src/sources/openapi.ts`, which loads
 * Redocly) and its cache (`src/sources/contract-cache.ts`, which must not) check with: an
 * operation's parameter and a security scheme, as the contract writes them and the model keeps them.
 */
import { z } from 'zod';

/** An operation parameter as the contract writes it, and as the model keeps it. */
export const parameterSchema = z.object({
	name: z.string(),
	/** Where it goes; `querystring` (OpenAPI 3.2) is the whole query string as one value. */
	in: z.enum(['query', 'querystring', 'header', 'path', 'cookie']),
	description: z.string().optional(),
	required: z.boolean().optional(),
	schema: z.unknown().optional(),
	example: z.unknown().optional(),
	/** Its media type and schema, when written as content (as a querystring parameter must be). */
	content: z.record(z.string(), z.object({ schema: z.unknown().optional() })).optional(),
});

/** A security scheme as the contract writes it, and as the model keeps it. */
export const securitySchemeSchema = z.object({
	type: z.string(),
	scheme: z.string().optional(),
	bearerFormat: z.string().optional(),
	name: z.string().optional(),
	in: z.string().optional(),
	description: z.string().optional(),
});
