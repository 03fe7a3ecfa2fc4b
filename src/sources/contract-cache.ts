/**
 * The contract's last reading, kept on disk from one start to the next (under node_modules/.cache,
 * as the fixture cache and the mock's bundle are): a start whose contract is unchanged takes the
 * document and its checked model from it, and parses no YAML and loads no Redocly, which is a
 * third of the mock's start. A cache file holds one reading: the hash of the contract's text, the
 * document as parsed and its model. It is named for the contract file and for the code that reads
 * a contract (the contract readers, the YAML parser, Redocly and zod): an edited contract has
 * another hash and is read and checked again, with the same messages, and a change to that code
 * (or to Node's V8, whose serialisation the file is in, as structuredClone copies) starts a new
 * cache file. Only a reading that checked out is kept: a refused contract is refused again each
 * time. Where nothing can be read or written, there is no cache.
 */
import { hash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { z } from 'zod';
import { codeHash, pruneOthers, writeAside } from './disk-cache.ts';
import { isMapping } from './mapping.ts';
import { parameterSchema, securitySchemeSchema } from '../schemas/contract-parts.ts';
import type { ApiReference, ResponseModel } from './openapi.ts';

/** The most a cache folder keeps of other contracts' readings (the tests' copies among them), in bytes. */
const OTHER_CACHES_MAX_BYTES = 16 * 1024 * 1024;

/** Where a checkout keeps its contract caches, relative to it. */
export const CONTRACT_CACHE_FOLDER = path.join('node_modules', '.cache', 'console-portal-contract');

/** Where a contract cache is kept and what code it depends on. */
export interface ContractCacheOptions {
	/** The folder of the cache files. */
	folder: string;
	/** The files whose content decides how a contract reads: a change to any starts afresh. */
	code: readonly string[];
}

/** A contract as parsed and checked: what the cache keeps. */
export interface CachedContract {
	document: Record<string, unknown>;
	reference: ApiReference;
}

/**
 * The contract cache of a checkout (the current folder, as `npm run mock` runs in it): kept in its
 * node_modules/.cache, and depending on its contract readers and the packages installed.
 */
export function checkoutContractCache(root = process.cwd()): ContractCacheOptions {
	const src = path.join(root, 'src');
	return {
		folder: path.join(root, CONTRACT_CACHE_FOLDER),
		code: [
			path.join(src, 'sources', 'contract.ts'),
			path.join(src, 'sources', 'openapi.ts'),
			path.join(src, 'sources', 'contract-cache.ts'),
			path.join(src, 'schemas', 'contract-parts.ts'),
			path.join(src, 'shared', 'curl.ts'),
			path.join(src, 'shared', 'urls.ts'),
			// npm's record of every installed package: the YAML parser, Redocly, zod and theirs.
			path.join(root, 'node_modules', '.package-lock.json'),
		],
	};
}

/** The cached reading of one contract file. */
export interface ContractCache {
	/** The reading kept for exactly this text, a new object each time; undefined for any other. */
	get: (text: string) => CachedContract | undefined;
	/** Keeps the reading of this text, in place of the one kept before, if it can be serialised. */
	keep: (text: string, reading: CachedContract) => void;
}

/** An example of a body or a header, as the model keeps it. */
const namedExampleSchema = z.object({
	name: z.string(),
	summary: z.string().optional(),
	value: z.unknown(),
	field: z.enum(['dataValue', 'serializedValue']).optional(),
	serializedValue: z.string().optional(),
});

/** A body of one media type, as the model keeps it. */
const bodySchema = z.object({
	mediaType: z.string(),
	schemaName: z.string().optional(),
	rows: z.array(
		z.object({
			field: z.string(),
			type: z.string(),
			required: z.boolean(),
			description: z.string(),
			constraints: z.array(z.string()),
		}),
	),
	examples: z.array(namedExampleSchema),
	schema: z.unknown().optional(),
	itemized: z.boolean().optional(),
	itemSchema: z.unknown().optional(),
});

/** A response of the model: its description, headers and bodies. */
const responseModelSchema = z.object({
	summary: z.string().optional(),
	description: z.string(),
	headers: z.array(
		z.object({
			name: z.string(),
			description: z.string().optional(),
			required: z.boolean(),
			examples: z.array(namedExampleSchema),
		}),
	),
	bodies: z.array(bodySchema),
}) satisfies z.ZodType<ResponseModel>;

/**
 * The contract's model as `openapi.ts` makes it: a kept reading is parsed with it, so a cache file
 * written by other code (or damaged in a way V8 still reads) is read again rather than trusted.
 */
const apiReferenceSchema = z.object({
	openapi: z.string().optional(),
	self: z.string().optional(),
	tags: z
		.array(
			z.object({
				name: z.string(),
				summary: z.string().optional(),
				description: z.string().optional(),
				parent: z.string().optional(),
				kind: z.string().optional(),
			}),
		)
		.optional(),
	title: z.string(),
	version: z.string(),
	summary: z.string().optional(),
	description: z.string().optional(),
	servers: z.array(z.object({ url: z.string(), description: z.string().optional() })),
	operations: z.array(
		z.object({
			method: z.string(),
			path: z.string(),
			operationId: z.string().optional(),
			summary: z.string().optional(),
			description: z.string().optional(),
			tags: z.array(z.string()).optional(),
			security: z.array(z.object({ name: z.string(), scheme: securitySchemeSchema })),
			parameters: z.array(parameterSchema),
			requestBody: z
				.object({
					description: z.string().optional(),
					required: z.boolean(),
					bodies: z.array(bodySchema),
				})
				.optional(),
			responses: z.array(responseModelSchema.extend({ status: z.string() })),
		}),
	),
	responses: z.record(z.string(), responseModelSchema),
}) satisfies z.ZodType<ApiReference>;

/** What a cache file holds. */
interface CacheFile extends CachedContract {
	text: string;
}

/**
 * The cache of a contract file (`file`, as its readers name it), or undefined when the code it
 * depends on cannot be read. It is for the code as it is when opened, as a process opens it at
 * its start: a mock running while its code is edited keeps its readings under its own code's
 * name, never under the new code's, which its next start runs. Nothing fails for a cache that
 * cannot be read or written.
 */
export function openContractCache(
	file: string,
	options: ContractCacheOptions,
): ContractCache | undefined {
	const code = codeHash(options.code, process.versions.v8);
	if (code === undefined) return undefined;
	const prefix = `${hash('sha256', path.resolve(file), 'hex').slice(0, 16)}-`;
	const name = `${prefix}${code}.v8`;
	const cacheFile = path.join(options.folder, name);
	const textKey = (text: string): string => hash('sha256', text, 'base64url');
	return {
		get: (text) => {
			let kept: unknown;
			try {
				kept = deserialize(readFileSync(cacheFile));
			} catch {
				// No file yet, or one V8 cannot read: the contract is read afresh, as without a cache.
				return undefined;
			}
			if (!isMapping(kept) || kept['text'] !== textKey(text)) return undefined;
			const { document } = kept;
			const reference = apiReferenceSchema.safeParse(kept['reference']);
			return isMapping(document) && reference.success
				? { document, reference: reference.data }
				: undefined;
		},
		keep: (text, { document, reference }) => {
			try {
				const kept: CacheFile = { text: textKey(text), document, reference };
				const bytes = serialize(kept);
				mkdirSync(options.folder, { recursive: true });
				writeAside(cacheFile, bytes);
				// The same contract's readings by older code are of no more use; others are kept a while.
				for (const other of readdirSync(options.folder)) {
					if (other.startsWith(prefix) && other.endsWith('.v8') && other !== name)
						rmSync(path.join(options.folder, other), { force: true });
				}
				pruneOthers(options.folder, name, OTHER_CACHES_MAX_BYTES, (other) => other.includes('.v8'));
			} catch {
				// Not serialisable, or a cache that cannot be written: read it again next time.
			}
		},
	};
}
