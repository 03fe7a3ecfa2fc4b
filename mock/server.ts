/**
 * The directory-aware mock: a node:http server that uses Prism as a library. Our layer reads
 * the Authorization header, looks the key up in the directory and tells Prism which response
 * of openapi.yaml to serve (status and example name, as Prism's `Prefer: code=…, example=…`
 * would); Prism routes the request and produces every body, the 404 and 405 problems included
 * (from two internal operations that serve the contract's NotFound and MethodNotAllowed).
 *
 * CORS: pages from http://127.0.0.1, http://localhost or http://[::1] on any port may call the
 * mock with an Authorization header; other origins get no CORS headers, so a site open in the
 * reader's browser cannot read the directory through the mock.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@stoplight/prism-core';
import {
	createInstance,
	getHttpOperationsFromSpec,
	ProblemJsonError,
	type IHttpConfig,
	type IHttpRequest,
	type IHttpResponse,
} from '@stoplight/prism-http';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { answerFor, buildDirectory, type Challenge } from '../src/lib/directory.ts';
import { loadViews } from '../src/schemas/fixtures.ts';
import { CONTRACT_FILE, contractExamples, EXAMPLES_PATH, SYNC_COMMAND } from './sync-openapi.ts';

/** The path the contract serves. */
export const USERS_PATH = '/api/v2/users';

/** The response headers a page on another port may read (beyond the CORS-safelisted ones). */
export const EXPOSED_HEADERS = [
	'WWW-Authenticate',
	'Allow',
	'Content-Type',
	'Content-Length',
	'Date',
];

/** The request headers a page may send. `*` would not cover Authorization, so it is named. */
export const ALLOWED_HEADERS = ['Authorization', 'Accept', 'Content-Type'];

/** Origins on this machine: http on 127.0.0.1, localhost or [::1], any port. Others get no CORS. */
const LOCAL_ORIGIN = /^http:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/;

/** Whether pages from an origin may read the mock's answers. */
export function isLocalOrigin(origin: string | undefined): origin is string {
	return origin !== undefined && LOCAL_ORIGIN.test(origin);
}

/** Where and on what the mock runs. */
export interface MockOptions {
	/** The TCP port; 0 picks a free one. */
	port: number;
	/** The address to bind; 127.0.0.1 unless told otherwise. */
	host?: string;
	/** The view fixture folder whose directories the mock knows. */
	viewsDir: string;
	/** The contract; openapi.yaml at the repository root unless told otherwise. */
	contractFile?: string;
}

/** A running mock. */
export interface RunningMock {
	/** `http://127.0.0.1:4010`, without a trailing slash. */
	url: string;
	/** Stops listening and closes open connections. */
	close: () => Promise<void>;
}

/** A port already taken, or another reason the mock could not listen; its message is one line. */
export class MockListenError extends Error {
	override name = 'MockListenError';
}

/** One operation as Prism reads it from the contract. */
type Operation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

/** The methods Prism knows; any other method is routed as TRACE, which the contract lacks (405). */
const methodSchema = z
	.enum(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])
	.catch('trace');

/** A YAML mapping. */
const mappingSchema = z.record(z.string(), z.unknown());

/** The value at a path of mappings, or undefined where the path ends early. */
function valueAt(document: unknown, path: readonly string[]): unknown {
	let value = document;
	for (const step of path) {
		const mapping = mappingSchema.safeParse(value);
		if (!mapping.success) return undefined;
		value = mapping.data[step];
	}
	return value;
}

/** The named examples of a response, as Prism's operations hold them. */
const namedExamplesSchema = z.array(z.object({ key: z.string(), value: z.unknown() }));

/** The problem responses answered outside the contract's operations, and their example names. */
const FALLBACKS = {
	404: { path: '/__fallback/not-found', response: 'NotFound', example: 'not-found' },
	405: {
		path: '/__fallback/method-not-allowed',
		response: 'MethodNotAllowed',
		example: 'method-not-allowed',
	},
} as const;

/** The contract with two internal operations that serve its NotFound and MethodNotAllowed responses. */
function withFallbackOperations(contract: Record<string, unknown>): Record<string, unknown> {
	const paths = Object.fromEntries(
		Object.entries(FALLBACKS).map(([status, { path, response }]) => [
			path,
			{
				get: {
					security: [],
					responses: { [status]: { $ref: `#/components/responses/${response}` } },
				},
			},
		]),
	);
	return { ...contract, paths };
}

/** Reads the contract, checks it carries the examples the fixtures call for, and loads Prism's operations. */
async function loadContract(contractFile: string, viewsDir: string) {
	const text = await readFile(contractFile, 'utf8');
	const parsed = mappingSchema.safeParse(parseYaml(text));
	if (!parsed.success) throw new Error(`${contractFile}: expected an OpenAPI document (a mapping)`);
	const contract = parsed.data;
	const views = await loadViews(viewsDir);
	const examples = valueAt(contract, EXAMPLES_PATH);
	if (JSON.stringify(examples) !== JSON.stringify(contractExamples(views))) {
		throw new Error(
			`${contractFile} does not match the fixtures in ${viewsDir}: run \`${SYNC_COMMAND}\``,
		);
	}

	// Prism's reader resolves references in place: each call gets its own copy.
	const operations = await getHttpOperationsFromSpec(structuredClone(contract));
	const fallbacks = await getHttpOperationsFromSpec(
		withFallbackOperations(structuredClone(contract)),
	);
	const users = operations.find((op) => op.method === 'get' && op.path === USERS_PATH);
	if (!users) throw new Error(`${contractFile} has no GET ${USERS_PATH} operation`);
	return { operations, fallbacks, directory: buildDirectory(views), challenges: challenges(users) };
}

/** The WWW-Authenticate value of each 401 example, from the contract's header examples. */
function challenges(users: Operation): Record<Challenge, string> {
	const unauthorized = users.responses.find(({ code }) => code === '401');
	const header = unauthorized?.headers?.find(
		({ name }) => name.toLowerCase() === 'www-authenticate',
	);
	const examples = namedExamplesSchema.parse(header?.examples ?? []);
	const value = (key: Challenge): string => {
		const example = examples.find((candidate) => candidate.key === key);
		if (typeof example?.value !== 'string') {
			throw new Error(`openapi.yaml: the 401 WWW-Authenticate header has no "${key}" example`);
		}
		return example.value;
	};
	return { 'missing-key': value('missing-key'), 'invalid-key': value('invalid-key') };
}

/** Prism's configuration for one answer: a static example, chosen by status and name. */
function prismConfig(code: number, exampleKey: string, mediaType: string): IHttpConfig {
	return {
		isProxy: false,
		// Our layer checks the key; Prism's security check would accept any bearer token.
		checkSecurity: false,
		validateRequest: false,
		// The examples are generated and tested against the schemas; no need to re-check each answer.
		validateResponse: false,
		errors: false,
		upstreamProxy: undefined,
		mock: { code, exampleKey, dynamic: false, mediaTypes: [mediaType] },
	};
}

/** A request header as one string; repeated headers are joined, so repeated credentials never pass. */
function singleHeader(request: IncomingMessage, name: string): string | undefined {
	return request.headersDistinct[name]?.join(', ');
}

/** Sends a JSON body with the given headers. */
function send(
	response: ServerResponse,
	status: number,
	headers: Record<string, string>,
	body: unknown,
): void {
	const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
	response.writeHead(status, { ...headers, 'Content-Length': Buffer.byteLength(text) });
	response.end(text);
}

/** Prism's output headers as strings, without empty ones. */
function outputHeaders(output: IHttpResponse): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(output.headers ?? {})) {
		if (value === null || value === undefined || value === '') continue;
		// Prism spells it `Content-type`; write it the way the other headers are written.
		headers[name.toLowerCase() === 'content-type' ? 'Content-Type' : name] = String(value);
	}
	return headers;
}

/** Starts the mock; rejects with a one-line `MockListenError` when it cannot listen. */
export async function startMock(options: MockOptions): Promise<RunningMock> {
	const host = options.host ?? '127.0.0.1';
	const {
		operations,
		fallbacks,
		directory,
		challenges: challengeHeaders,
	} = await loadContract(options.contractFile ?? CONTRACT_FILE, options.viewsDir);
	const logger = createLogger('mock', { level: 'silent' });
	const prism = createInstance(prismConfig(200, '', 'application/json'), { logger });
	const configs = new Map<string, IHttpConfig>();
	const configFor = (code: number, example: string, mediaType: string): IHttpConfig => {
		const id = `${code} ${example}`;
		let config = configs.get(id);
		if (!config) configs.set(id, (config = prismConfig(code, example, mediaType)));
		return config;
	};

	/** Asks Prism for one of the contract's responses. */
	const ask = async (
		input: IHttpRequest,
		resources: Operation[],
		config: IHttpConfig,
	): Promise<{ ok: true; output: IHttpResponse } | { ok: false; error: Error }> => {
		const result = await prism.request(input, resources, config)();
		return result._tag === 'Right'
			? { ok: true, output: result.right.output }
			: { ok: false, error: result.left };
	};

	const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
		// No operation has a request body; drain any so the connection stays usable.
		request.resume();
		const origin = singleHeader(request, 'origin');
		const cors: Record<string, string> = isLocalOrigin(origin)
			? {
					'Access-Control-Allow-Origin': origin,
					'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
					Vary: 'Origin',
				}
			: { Vary: 'Origin' };
		const method = (request.method ?? 'GET').toLowerCase();

		if (method === 'options' && origin && request.headers['access-control-request-method']) {
			const allowed = isLocalOrigin(origin)
				? {
						'Access-Control-Allow-Methods': 'GET',
						'Access-Control-Allow-Headers': ALLOWED_HEADERS.join(', '),
						'Access-Control-Max-Age': '600',
					}
				: {};
			send(response, 204, { ...cors, ...allowed }, undefined);
			return;
		}

		let path: string;
		try {
			path = new URL(request.url ?? '/', 'http://mock.invalid').pathname;
		} catch {
			path = '/';
		}
		const answer = answerFor(singleHeader(request, 'authorization'), directory);
		const input: IHttpRequest = {
			method: methodSchema.parse(method),
			url: { path },
			headers: {},
		};
		const config =
			answer.status === 200
				? configFor(200, answer.slug, 'application/json')
				: configFor(401, answer.challenge, 'application/problem+json');

		const result = await ask(input, operations, config);
		if (result.ok) {
			const headers = { ...outputHeaders(result.output), ...cors };
			if (answer.status === 401) headers['WWW-Authenticate'] = challengeHeaders[answer.challenge];
			send(response, result.output.statusCode, headers, result.output.body);
			return;
		}
		// Prism's router refuses unknown paths (404) and other methods (405); anything else is a fault.
		const status = result.error instanceof ProblemJsonError ? result.error.status : 500;
		if (status !== 404 && status !== 405) throw result.error;
		const fallback = FALLBACKS[status];
		const served = await ask(
			{ method: 'get', url: { path: fallback.path }, headers: {} },
			fallbacks,
			configFor(status, fallback.example, 'application/problem+json'),
		);
		if (!served.ok) throw served.error;
		send(
			response,
			served.output.statusCode,
			{ ...outputHeaders(served.output), ...cors },
			served.output.body,
		);
	};

	const server = createServer((request, response) => {
		handle(request, response).catch((error: unknown) => {
			const detail = error instanceof Error ? error.message : String(error);
			if (!response.headersSent) {
				send(
					response,
					500,
					{ 'Content-Type': 'application/problem+json' },
					{
						type: 'about:blank',
						title: 'The mock failed',
						status: 500,
						detail,
					},
				);
			} else {
				response.destroy();
			}
		});
	});
	// Requests Node cannot parse get Node's own 400 (431 for oversized headers); none reach us.

	await new Promise<void>((resolve, reject) => {
		server.once('error', (error: NodeJS.ErrnoException) => {
			const where = `${host}:${options.port}`;
			if (error.code === 'EADDRINUSE') {
				reject(
					new MockListenError(
						`Port ${options.port} on ${host} is already in use: stop what runs there, or set MOCK_PORT to another port`,
					),
				);
			} else if (error.code === 'EACCES') {
				reject(
					new MockListenError(`No permission to listen on ${where}: choose a port above 1023`),
				);
			} else {
				reject(new MockListenError(`Cannot listen on ${where}: ${error.message}`));
			}
		});
		server.listen(options.port, host, resolve);
	});
	const { port } = server.address() as AddressInfo;
	const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
	return {
		url,
		close: () =>
			new Promise<void>((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			}),
	};
}
