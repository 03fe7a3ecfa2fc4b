/**
 * The MCP server over the portal, the mock and the access review: its tools (each with zod input
 * and output schemas and a one-line description), and its resources (the published contract,
 * llms.txt and each guide). Every answer comes from the secret-free snapshot or the access
 * history; `call_mock` alone reads the fixtures, to send a key it never returns. Errors are one
 * line naming the input; the server keeps serving. The server answers `initialize` and `tools/list`
 * from this module's light imports alone: each tool loads its own code (the contract's parser,
 * Pagefind, Ajv, git) on its first call, so an assistant's client connects without waiting for it.
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { ROLES } from '../src/schemas/view.ts';
import { guideHref, OPENAPI_JSON_HREF, LLMS_TXT_HREF } from '../src/shared/urls.ts';
import { ACCESS_KINDS } from '../src/site/history.ts';
import type { checkAnswer } from './check-answer.ts';
import type { PortalReader } from './portal.ts';
import { ALLOWED_MOCKS_SETTING, type MockAddresses } from './places.ts';
import type { PagefindIndex, SearchRecord } from './pagefind.ts';
import type { DialogSearch } from './search.ts';
import {
	CALL_TIMEOUT_MS,
	LONGEST_CALL_TIMEOUT_MS,
	MOCK_METHODS,
	READABLE_PAGES,
	SEARCH_KINDS,
	ToolInputError,
} from './tool-names.ts';

/** What the server is built with, beside the reader. */
export interface PortalServerOptions {
	/** The package version the server reports. */
	version: string;
	/** The local mock's address, `call_mock`'s default. */
	localMock: string;
	/** The mocks `call_mock` may send a key to: the portal's, and those MCP_ALLOWED_MOCKS lists. */
	mocks: MockAddresses;
	/** What the search dialog decides: its filters, its refusals and its excerpts. */
	dialog: DialogSearch;
}

/** The scheme of the server's resources: `portal:///openapi.json`, `portal:///docs/<guide>.md`. */
export const RESOURCE_ROOT = 'portal://';

/** A resource's URI from its portal address. */
export function resourceUri(href: string): string {
	return `${RESOURCE_ROOT}${href}`;
}

const roleSchema = z.enum(ROLES, { error: `role: expected one of ${ROLES.join(', ')}` });

const holdingSchema = z.object({
	name: z.string(),
	email: z.string(),
	role: z.enum(ROLES),
	environment: z.string(),
	view: z.string().describe("The view's name"),
	slug: z.string(),
	person: z.string().describe("The person's page"),
});

const checkSchema = z.object({
	conforms: z.boolean(),
	verdict: z.enum(['matches', 'breaks', 'unchecked']),
	headline: z.string(),
	violations: z.array(z.string()).describe('One line each, starting with its JSON path'),
});

/** A module loaded on first use, once; a failed load is tried again on the next use. */
function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
	let loading: Promise<T> | undefined;
	return () => {
		loading ??= load().catch((error: unknown) => {
			loading = undefined;
			throw error;
		});
		return loading;
	};
}

/** The tools' code, each module loaded by the first call that needs it. */
const code = {
	tools: onFirstUse(() => import('./tools.ts')),
	search: onFirstUse(() => import('./search.ts')),
	pagefind: onFirstUse(() => import('./pagefind.ts')),
	callMock: onFirstUse(() => import('./call-mock.ts')),
	checkAnswer: onFirstUse(() => import('./check-answer.ts')),
	guideText: onFirstUse(() => import('./guide-text.ts')),
};

/**
 * A reader made on its first use, by `load`: the entry point hands the portal's reader in this
 * way, so that its sources' code (the contract's parser, the fixtures' reader) loads with the
 * first tool call, not before `initialize`.
 */
export function readerOnFirstUse(load: () => Promise<PortalReader>): PortalReader {
	const reader = onFirstUse(load);
	return {
		snapshot: async () => (await reader()).snapshot(),
		entries: async () => (await reader()).entries(),
		accessHistory: async () => (await reader()).accessHistory(),
		contractChanges: async () => (await reader()).contractChanges(),
	};
}

/** A tool's result: its structured content, and the same as JSON text for clients without it. */
function result(structured: object) {
	return {
		content: [{ type: 'text' as const, text: JSON.stringify(structured, null, 2) }],
		structuredContent: { ...structured } as Record<string, unknown>,
	};
}

/** A key of any prefix, as the console shapes them (`ick-4f1c9a07-Qx7m`), anywhere in a text. */
const KEY_IN_TEXT = /\b[a-z]{2,8}-[0-9a-f]{8}-[A-Za-z0-9]{4}\b/g;

/**
 * A bearer credential, as an Authorization header carries it, anywhere in a text: eight characters
 * or more with a digit among them, so that words after "Bearer" in a query are not taken for one.
 */
const BEARER_IN_TEXT = /\bBearer\s+(?=[^\s,;"']*\d)([^\s,;"']{8,})/gi;

/**
 * The keys a caller gave in a tool's input, anywhere in it: every text shaped like a key, and
 * every credential after `Bearer`. An input is never a place a key should go, so none is echoed.
 */
export function callersKeys(input: unknown): string[] {
	const found = new Set<string>();
	const visit = (value: unknown): void => {
		if (typeof value === 'string') {
			for (const [key] of value.matchAll(KEY_IN_TEXT)) found.add(key);
			for (const [, credential] of value.matchAll(BEARER_IN_TEXT)) found.add(credential ?? '');
		} else if (Array.isArray(value)) {
			value.forEach(visit);
		} else if (value !== null && typeof value === 'object') {
			Object.entries(value).forEach(([name, inner]) => {
				visit(name);
				visit(inner);
			});
		}
	};
	visit(input);
	found.delete('');
	return [...found].sort((a, b) => b.length - a.length);
}

/** A tool's answer with every given secret replaced in each of its texts, names and values alike. */
function withoutSecretsIn(value: unknown, replace: (text: string) => string): unknown {
	if (typeof value === 'string') return replace(value);
	if (Array.isArray(value)) return value.map((item) => withoutSecretsIn(item, replace));
	if (value !== null && typeof value === 'object') return withoutSecretsInObject(value, replace);
	return value;
}

/** An object's names and values, each text with every given secret replaced. */
function withoutSecretsInObject(
	value: object,
	replace: (text: string) => string,
): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(value).map(([name, item]) => [replace(name), withoutSecretsIn(item, replace)]),
	);
}

/**
 * Runs a tool; an error becomes one line (a ToolInputError's own, or a generic one). An answer or
 * an error may repeat an input, and an input may be a key an assistant was given elsewhere: every
 * key the input holds is replaced in the answer, and in an error line every secret value of the
 * fixtures too, before it is sent.
 */
async function answer(
	reader: PortalReader,
	tool: string,
	input: unknown,
	work: () => Promise<object>,
) {
	const given = callersKeys(input);
	try {
		const done = await work();
		if (given.length === 0) return result(done);
		const { withoutSecrets } = await code.callMock();
		return result(withoutSecretsInObject(done, (text) => withoutSecrets(text, given)));
	} catch (error) {
		const line =
			error instanceof ToolInputError
				? error.message
				: `${tool}: the portal's sources could not be read (${error instanceof Error ? error.name : 'Error'}); see the server's log`;
		if (!(error instanceof ToolInputError)) console.error(error);
		const { secretsOf, withoutSecrets } = await code.callMock();
		let secrets: string[] = [];
		try {
			secrets = secretsOf(...(await reader.entries()));
		} catch {
			// Fixtures that do not load: the line names files and fields only.
		}
		const every = [...new Set([...secrets, ...given])].sort((a, b) => b.length - a.length);
		throw new ToolInputError(withoutSecrets(line, every), { cause: error });
	}
}

/** The server, with every tool and resource registered; connect it to a transport. */
export function createPortalServer(reader: PortalReader, options: PortalServerOptions): McpServer {
	const server = new McpServer(
		{ name: 'console-portal', version: options.version },
		{
			instructions:
				'The Console Portal: views of an administration console, its people and roles, access changes from git history, and a mock of GET /api/v2/users. No tool returns a key or a configuration value; the HTML pages show those.',
		},
	);

	// The portal's search index, made again only when the pages it holds changed.
	let searchIndex: ((records: readonly SearchRecord[]) => Promise<PagefindIndex>) | undefined;

	server.registerTool(
		'search',
		{
			description:
				"Search the portal's views, people, access pages, guides and API reference; filter by page kind, environment, configuration label, API label or role.",
			inputSchema: {
				query: z
					.string()
					.describe('Words to find; empty with a filter lists what the filter holds'),
				kind: z.enum(SEARCH_KINDS).optional(),
				environment: z.string().optional().describe('e.g. production'),
				configuration: z.string().optional().describe('Configuration label, e.g. Production'),
				api: z.string().optional().describe('API label, e.g. v5.8'),
				role: roleSchema.optional(),
			},
			outputSchema: {
				results: z.array(
					z.object({
						title: z.string(),
						href: z.string().describe('The page on the portal'),
						kind: z.enum(SEARCH_KINDS),
						labels: z.string(),
						excerpt: z.string(),
					}),
				),
			},
		},
		async ({ query, ...filters }) =>
			answer(reader, 'search', { query, ...filters }, async () => {
				const { searchPortal, searchRecords } = await code.search();
				searchIndex ??= (await code.pagefind()).createRecordSearch();
				const records = searchRecords(
					await reader.snapshot(),
					options.dialog,
					await reader.contractChanges(),
				);
				return {
					results: await searchPortal(options.dialog, await searchIndex(records), query, filters),
				};
			}),
	);

	server.registerTool(
		'read_page',
		{
			description: `Read a portal page as its Markdown twin by its address: ${READABLE_PAGES}.`,
			inputSchema: {
				address: z.string().describe('e.g. /views/production/ or /views/production.md'),
			},
			outputSchema: { address: z.string(), markdown: z.string() },
		},
		async ({ address }) =>
			answer(reader, 'read_page', address, async () => ({
				address,
				markdown: (await code.tools()).readPage(await reader.snapshot(), address),
			})),
	);

	server.registerTool(
		'list_views',
		{
			description:
				'List the console views, of one environment or all, with their labels and last-updated times.',
			inputSchema: { environment: z.string().optional().describe('e.g. production') },
			outputSchema: {
				views: z.array(
					z.object({
						slug: z.string(),
						name: z.string(),
						environment: z.string(),
						configuration: z.string().nullable(),
						apiVersion: z.string().nullable(),
						lastUpdated: z.string(),
						href: z.string(),
						markdown: z.string(),
					}),
				),
			},
		},
		async ({ environment }) =>
			answer(reader, 'list_views', environment, async () => ({
				views: (await code.tools()).listViews(await reader.snapshot(), environment),
			})),
	);

	server.registerTool(
		'who_holds',
		{
			description:
				'Who holds a role (in one environment or any) across the views, or every role one person holds, by email; one row per view.',
			inputSchema: {
				role: roleSchema.optional(),
				environment: z.string().optional(),
				email: z.string().optional().describe("A person's email, for every role they hold"),
			},
			outputSchema: { count: z.number().int(), holdings: z.array(holdingSchema) },
		},
		async (query) =>
			answer(reader, 'who_holds', query, async () => {
				const holdings = (await code.tools()).whoHolds(await reader.snapshot(), query);
				return { count: holdings.length, holdings };
			}),
	);

	server.registerTool(
		'access_changes',
		{
			description:
				'Access changes from git history (granted, revoked, role changed, key rotated, name or email changed), newest first, filtered by environment, role, kind, person, and since a date or tag.',
			inputSchema: {
				environment: z.string().optional(),
				role: roleSchema.optional(),
				kind: z.enum(ACCESS_KINDS).optional(),
				email: z.string().optional().describe("A person's email"),
				since: z.string().optional().describe('A date (YYYY-MM-DD or ISO 8601) or a git tag'),
				limit: z
					.number()
					.int()
					.min(1)
					.max(1000)
					.optional()
					.describe('At most this many rows (100)'),
			},
			outputSchema: {
				total: z.number().int(),
				page: z.string().describe('The HTML page listing every change'),
				history: z.string().describe('Where the history starts and ends'),
				rows: z.array(
					z.object({
						date: z.string(),
						commit: z.string(),
						author: z.string(),
						subject: z.string(),
						environment: z.string(),
						slug: z.string(),
						view: z.string(),
						person: z.string(),
						email: z.string(),
						kind: z.enum(ACCESS_KINDS),
						role: z.string(),
						from: z.string(),
						to: z.string(),
					}),
				),
			},
		},
		async (filters) =>
			answer(reader, 'access_changes', filters, async () =>
				(await code.tools()).accessChanges(await reader.accessHistory(), filters),
			),
	);

	server.registerTool(
		'call_mock',
		{
			description:
				"Send a view's example request (GET /api/v2/users, or HEAD or OPTIONS) to a mock as one person of the view, and check the answer against the contract; the key is sent but never shown.",
			inputSchema: {
				slug: z.string().describe("The view's slug, e.g. production"),
				email: z.string().describe("The person's email, from the view's directory"),
				method: z.enum(MOCK_METHODS).default('GET'),
				prefer: z
					.string()
					.optional()
					.describe(
						"The mock's controls as a Prefer header, e.g. code=401 or example=<slug>, dynamic=true",
					),
				baseUrl: z
					.string()
					.default(options.localMock)
					.describe(
						`The mock, by default the local one; only the portal's mock and those ${ALLOWED_MOCKS_SETTING} lists are called`,
					),
				timeoutMs: z
					.number()
					.int()
					.min(1)
					.max(LONGEST_CALL_TIMEOUT_MS)
					.optional()
					.describe(`How long to wait for the whole answer, in milliseconds (${CALL_TIMEOUT_MS})`),
			},
			outputSchema: {
				request: z.string(),
				as: z.string(),
				key: z.string().describe('Where the key sent is shown: never in this result'),
				status: z.number().int(),
				headers: z.record(z.string(), z.string()),
				body: z.string(),
				check: checkSchema,
			},
		},
		async (call) =>
			answer(reader, 'call_mock', call, async () => {
				const [{ callMock }, { checkAnswer }, { whereSecretsAre }] = await Promise.all([
					code.callMock(),
					code.checkAnswer(),
					code.tools(),
				]);
				const sent = await callMock(await reader.entries(), call, options.mocks);
				const { reference } = await reader.snapshot();
				const check =
					call.method === 'GET'
						? checkAnswerSafely(() => checkAnswer(reference, sent))
						: {
								conforms: false,
								verdict: 'unchecked' as const,
								headline: `The contract describes GET ${'/api/v2/users'}; a ${call.method} answer is not checked.`,
								violations: [],
							};
				return { ...sent, key: whereSecretsAre(call.slug), check };
			}),
	);

	server.registerTool(
		'check_answer',
		{
			description:
				'Check a status, headers and body of GET /api/v2/users against the contract, as try-it does; each violation is named by its JSON path.',
			inputSchema: {
				status: z.number().int().describe('The HTTP status, e.g. 200'),
				headers: z
					.record(z.string(), z.string())
					.optional()
					.describe('e.g. {"content-type": "application/json"}'),
				body: z.string().optional().describe('The body as text (JSON)'),
			},
			outputSchema: checkSchema.shape,
		},
		async (input) =>
			answer(reader, 'check_answer', input, async () =>
				(await code.checkAnswer()).checkAnswer((await reader.snapshot()).reference, input),
			),
	);

	server.registerResource(
		'openapi.json',
		resourceUri(OPENAPI_JSON_HREF),
		{
			title: 'The published contract',
			description: 'openapi.yaml with one named 200 example per view, as the portal publishes it',
			mimeType: 'application/json',
		},
		async (uri) => ({
			contents: [
				{
					uri: uri.href,
					mimeType: 'application/json',
					text: `${JSON.stringify((await reader.snapshot()).contract, null, 2)}\n`,
				},
			],
		}),
	);

	server.registerResource(
		'llms.txt',
		resourceUri(LLMS_TXT_HREF),
		{
			title: 'llms.txt',
			description: 'The portal for AI assistants, linking to the Markdown twins',
			mimeType: 'text/markdown',
		},
		async (uri) => ({
			contents: [
				{
					uri: uri.href,
					mimeType: 'text/markdown',
					text: (await code.tools()).llmsText(await reader.snapshot()),
				},
			],
		}),
	);

	server.registerResource(
		'guide',
		new ResourceTemplate(resourceUri('/docs/{guide}.md'), {
			list: async () => ({
				resources: (await reader.snapshot()).guides.map((guide) => ({
					uri: resourceUri(`${guideHref(guide.id).replace(/\/$/, '')}.md`),
					name: guide.title,
					description: guide.description,
					mimeType: 'text/markdown',
				})),
			}),
		}),
		{
			title: 'A guide',
			description:
				'A guide as Markdown: its MDX with components and expressions pointing to the HTML page',
			mimeType: 'text/markdown',
		},
		async (uri, { guide }) => {
			const portal = await reader.snapshot();
			const found = portal.guides.find((candidate) => candidate.id === guide);
			if (!found) throw new ToolInputError(`guide "${String(guide)}": no such guide`);
			const text = (await code.guideText()).guideText(found, portal.mock);
			return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
		},
	);

	return server;
}

/** A check that cannot be made (the contract lacks the operation) said in its headline. */
function checkAnswerSafely(
	check: () => ReturnType<typeof checkAnswer>,
): ReturnType<typeof checkAnswer> {
	try {
		return check();
	} catch (error) {
		const why = error instanceof ToolInputError ? error.message : 'the contract could not be read';
		return { conforms: false, verdict: 'unchecked', headline: why, violations: [] };
	}
}
