/** Portal settings read from environment variables, each parsed before use. */
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { chaosSchema, type ChaosRule } from '../schemas/mock-chaos.ts';

const portSchema = (name: string) =>
	z.coerce
		.number({ error: `${name}: expected a TCP port number from 1 to 65535` })
		.int({ error: `${name}: expected a whole TCP port number from 1 to 65535` })
		.min(1, { error: `${name}: expected a TCP port number from 1 to 65535` })
		.max(65535, { error: `${name}: expected a TCP port number from 1 to 65535` });

/** A host name as Host headers carry it, without scheme or port: `portal.intranet.example`. */
const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

/** Comma-separated host names, each checked; empty entries and spaces around names ignored. */
const hostNamesSchema = (name: string, example: string) =>
	z
		.string()
		.transform((text) =>
			text
				.split(',')
				.map((entry) => entry.trim().toLowerCase())
				.filter((entry) => entry !== ''),
		)
		.superRefine((names, context) => {
			for (const host of names.filter((entry) => !HOST_NAME.test(entry))) {
				context.addIssue({
					code: 'custom',
					message: `${name}: expected host names separated by commas (${example}), without scheme or port; "${host}" is not one`,
				});
			}
		})
		.default([]);

/** What PORTAL_MOCK_URL accepts, as its messages name it. */
const MOCK_URL_EXPECTED =
	"expected the address readers reach the mock at: an http:// or https:// origin (https://mock.intranet.example), or a path on the portal's own origin (/)";

/** A path readers' browsers resolve on the portal's own origin: segments of plain URL characters. */
const PORTAL_PATH = /^\/(?:[A-Za-z0-9._~-]+\/?)*$/;

/**
 * Parses an http(s) address as a setting is written: no spaces, backslashes or control characters
 * around or inside it, no user name or password, no query or fragment. Returns the address without
 * a trailing slash, or adds one issue that says what is wrong (never echoing a password).
 */
function httpAddress(
	name: string,
	text: string,
	expected: string,
	context: { addIssue(issue: { code: 'custom'; message: string }): void },
	options: { path: boolean },
): string | undefined {
	const fail = (message: string): undefined => {
		context.addIssue({ code: 'custom', message: `${name}: ${message}` });
		return undefined;
	};
	// A space, a backslash or a control character (\p{Cc}): URL parsing would drop or mend them.
	if (/[\s\\\p{Cc}]/u.test(text)) {
		return fail(`${expected}; "${printable(text)}" has a space, backslash or control character`);
	}
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		// new URL throws only for text that is no URL, which is what the line says.
		return fail(`${expected}; "${printable(text)}" is not one`);
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return fail(`${expected}; "${printable(text)}" has the scheme ${url.protocol.slice(0, 40)}`);
	}
	if (url.username || url.password) {
		return fail(
			`expected an address without a user name or password (${url.protocol}//${url.host}); it would be written wherever the address is shown or logged`,
		);
	}
	if (/[?#]/.test(text)) return fail(`expected an address without a query (?…) or fragment (#…)`);
	if (!options.path && url.pathname !== '/') {
		return fail(`expected an origin without a path (${url.origin}), not "${printable(text)}"`);
	}
	if (!PORTAL_PATH.test(url.pathname)) {
		return fail(`${expected}; the path of "${printable(text)}" is not one`);
	}
	return url.origin + url.pathname.replace(/\/+$/, '');
}

/** A value as an error message quotes it: printable, and short. */
function printable(text: string): string {
	const shown = text.replace(/[^\x20-\x7e]/g, '?');
	return shown.length > 100 ? `${shown.slice(0, 100)}…` : shown;
}

/** PORTAL_MOCK_URL: an http(s) address (a path after the origin allowed), or a path such as `/`. */
const mockUrlSchema = z
	.string()
	.transform((text, context) => {
		if (text.startsWith('/') && !text.startsWith('//')) {
			// No `.` or `..` segment: browsers would resolve it to another path than the one written.
			if (PORTAL_PATH.test(text) && !/\/\.{1,2}(?:\/|$)/.test(text)) {
				return text.replace(/(.)\/+$/, '$1');
			}
			context.addIssue({
				code: 'custom',
				message: `PORTAL_MOCK_URL: ${MOCK_URL_EXPECTED}; "${printable(text)}" is not a plain path`,
			});
			return z.NEVER;
		}
		return (
			httpAddress('PORTAL_MOCK_URL', text, MOCK_URL_EXPECTED, context, { path: true }) ?? z.NEVER
		);
	})
	.optional();

/** PORTAL_URL: the portal's own origin, as readers reach it. */
const portalUrlSchema = z
	.string()
	.transform(
		(text, context) =>
			httpAddress(
				'PORTAL_URL',
				text,
				'expected the origin readers reach the portal at, such as https://portal.intranet.example',
				context,
				{ path: false },
			) ?? z.NEVER,
	)
	.optional();

/** Comma-separated origins (MOCK_ALLOWED_ORIGINS), each checked; empty entries ignored. */
const originsSchema = (name: string) =>
	z
		.string()
		.transform((text, context) =>
			text
				.split(',')
				.map((entry) => entry.trim())
				.filter((entry) => entry !== '')
				.map((entry) =>
					httpAddress(
						name,
						entry,
						'expected origins separated by commas (https://portal.intranet.example), each a scheme, a host and an optional port',
						context,
						{ path: false },
					),
				)
				.filter((entry) => entry !== undefined),
		)
		.default([]);

/** MCP_ALLOWED_MOCKS: comma-separated http(s) addresses (a base path allowed), each checked. */
const mockAddressesSchema = z
	.string()
	.transform((text, context) =>
		text
			.split(',')
			.map((entry) => entry.trim())
			.filter((entry) => entry !== '')
			.map((entry) =>
				httpAddress(
					'MCP_ALLOWED_MOCKS',
					entry,
					'expected mock addresses separated by commas (https://mock.intranet.example), each http(s) with an optional base path',
					context,
					{ path: true },
				),
			)
			.filter((entry) => entry !== undefined),
	)
	.default([]);

/** An IP address to listen on, IPv4 or IPv6, without port or brackets. */
const listenAddressSchema = (name: string) =>
	z
		.string()
		.refine((text) => z.ipv4().safeParse(text).success || z.ipv6().safeParse(text).success, {
			error: (issue) =>
				`${name}: expected an IP address to listen on, such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface), without port or brackets; "${String(issue.input)}" is not one`,
		});

/** The most workers MOCK_WORKERS may ask for. */
const MAX_WORKERS = 256;

/** A number of workers, or `auto` for as many as the cores this process may use. */
const workersSchema = (name: string) =>
	z
		.string()
		.transform((text, context) => {
			const count = text === 'auto' ? os.availableParallelism() : Number(text);
			if (/^(?:auto|\d+)$/.test(text) && count >= 1 && count <= MAX_WORKERS) return count;
			context.addIssue({
				code: 'custom',
				message: `${name}: expected a whole number of workers from 1 to ${MAX_WORKERS}, or auto for one per core; "${text}" is not one`,
			});
			return z.NEVER;
		})
		.default(1);

/** MOCK_UPSTREAM: the console the mock forwards to, an http(s) address (a base path allowed). */
const upstreamSchema = z
	.string()
	.transform(
		(text, context) =>
			httpAddress(
				'MOCK_UPSTREAM',
				text,
				"expected the console's base URL to forward to, such as https://console.intranet.example",
				context,
				{ path: true },
			) ?? z.NEVER,
	)
	.optional();

/** The longest MOCK_UPSTREAM_TIMEOUT_MS: ten minutes. */
const MAX_UPSTREAM_TIMEOUT_MS = 600_000;

const settingsSchema = z.object({
	/** Where the view fixtures live; tests point this at broken or generated sets. */
	PORTAL_VIEWS_DIR: z.string().min(1).default('content/views'),
	/** Where the MDX guides live; tests point this at a hostile set. */
	PORTAL_DOCS_DIR: z.string().min(1).default('content/docs'),
	/** The port `npm start` serves the portal on. */
	PORTAL_PORT: portSchema('PORTAL_PORT').default(4321),
	/** The port the mock listens on. */
	MOCK_PORT: portSchema('MOCK_PORT').default(4010),
	/** The OpenAPI document the reference page is rendered from; tests point this at a copy. */
	PORTAL_OPENAPI: z.string().min(1).default('openapi.yaml'),
	/**
	 * Where a build keeps its cache (Astro's cacheDir, which holds the content collections' data
	 * store): two builds at once of different fixtures need one each, or one reads the other's.
	 */
	PORTAL_BUILD_CACHE_DIR: z.string().min(1).default('node_modules/.astro'),
	/** The address the mock binds: this machine only unless told otherwise (a container binds 0.0.0.0). */
	MOCK_HOST: listenAddressSchema('MOCK_HOST').default('127.0.0.1'),
	/** Whether the mock prints a line per request, and how: logfmt (on), JSON, or not at all. */
	MOCK_LOG: z
		.enum(['on', 'off', 'json'], { error: 'MOCK_LOG: expected on, off or json' })
		.default('on'),
	/** Whether /healthz and /readyz get a line each too; off, as a probe comes every few seconds. */
	MOCK_LOG_PROBES: z
		.enum(['on', 'off'], { error: 'MOCK_LOG_PROBES: expected on or off' })
		.default('off'),
	/** How many node:cluster workers serve the mock; 1 serves from the one process. */
	MOCK_WORKERS: workersSchema('MOCK_WORKERS'),
	/** Names the portal servers answer under beyond 127.0.0.1, localhost and [::1]. */
	PORTAL_ALLOWED_HOSTS: hostNamesSchema('PORTAL_ALLOWED_HOSTS', 'portal.intranet.example'),
	/** Names the mock answers under beyond 127.0.0.1, localhost and [::1]. */
	MOCK_ALLOWED_HOSTS: hostNamesSchema('MOCK_ALLOWED_HOSTS', 'mock.intranet.example'),
	/** Origins whose pages may call the mock (CORS) beyond http://127.0.0.1, localhost and [::1]. */
	MOCK_ALLOWED_ORIGINS: originsSchema('MOCK_ALLOWED_ORIGINS'),
	/** Where readers reach the mock: the pages' try-it, samples, contract and CSP follow it. */
	PORTAL_MOCK_URL: mockUrlSchema,
	/** The console the mock forwards every request to, as a validating proxy; none by default. */
	MOCK_UPSTREAM: upstreamSchema,
	/** How long the proxy waits for the console's whole answer before its 504. */
	MOCK_UPSTREAM_TIMEOUT_MS: z
		.string()
		.regex(/^\d{1,6}$/, {
			error: `MOCK_UPSTREAM_TIMEOUT_MS: expected a whole number of milliseconds from 1 to ${MAX_UPSTREAM_TIMEOUT_MS}`,
		})
		.transform(Number)
		.refine((ms) => ms >= 1 && ms <= MAX_UPSTREAM_TIMEOUT_MS, {
			error: `MOCK_UPSTREAM_TIMEOUT_MS: expected a whole number of milliseconds from 1 to ${MAX_UPSTREAM_TIMEOUT_MS}`,
		})
		.default(10_000),
	/** Whether the proxy answers a console's answer that breaks the contract with a 502 problem. */
	MOCK_PROXY_ERRORS: z
		.enum(['on', 'off'], { error: 'MOCK_PROXY_ERRORS: expected on or off' })
		.default('off'),
	/** Where readers reach the portal: the origin samples resolve a path-only PORTAL_MOCK_URL on. */
	PORTAL_URL: portalUrlSchema,
	/** Mocks the MCP server's call_mock may send a key to beyond the local one and PORTAL_MOCK_URL. */
	MCP_ALLOWED_MOCKS: mockAddressesSchema,
	/** Delays, faults and statuses the mock serves to a share of requests (a soak test). */
	MOCK_CHAOS: chaosSchema.optional(),
	/** How many days a key may go unrotated before the access review flags it. */
	PORTAL_KEY_MAX_AGE_DAYS: z.coerce
		.number({ error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650' })
		.int({ error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650' })
		.min(1, { error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650' })
		.max(3650, { error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650' })
		.default(90),
	/** The instant a reproducible build describes, in seconds since 1970 (reproducible-builds.org). */
	SOURCE_DATE_EPOCH: z
		.string()
		.regex(/^\d{1,11}$/, {
			error: 'SOURCE_DATE_EPOCH: expected whole seconds since 1970-01-01 (e.g. 1795478400)',
		})
		.transform(Number)
		.optional(),
});

/** The portal's settings. */
export interface PortalSettings {
	/** The absolute path of the view fixture folder. */
	readonly viewsDir: string;
	/** The absolute path of the MDX guide folder. */
	readonly docsDir: string;
	/** The port the portal is served on. */
	readonly portalPort: number;
	/** The port the mock listens on. */
	readonly mockPort: number;
	/** The absolute path of the OpenAPI document. */
	readonly openApiFile: string;
	/** The absolute path of the build's cache folder (PORTAL_BUILD_CACHE_DIR). */
	readonly buildCacheDir: string;
	/** The address the mock binds (MOCK_HOST): 127.0.0.1 unless told otherwise. */
	readonly mockHost: string;
	/** Whether the mock prints a line per request (MOCK_LOG=off turns it off). */
	readonly mockLog: boolean;
	/** How each request's line is written: logfmt after the time, or one JSON object (MOCK_LOG=json). */
	readonly mockLogFormat: 'logfmt' | 'json';
	/** Whether the probes (/healthz, /readyz) get a line each too (MOCK_LOG_PROBES=on). */
	readonly mockLogProbes: boolean;
	/** How many node:cluster workers serve the mock (MOCK_WORKERS); 1 is the one process. */
	readonly mockWorkers: number;
	/** Names the portal servers answer under beyond 127.0.0.1, localhost and [::1], lower case. */
	readonly portalAllowedHosts: readonly string[];
	/** Names the mock answers under beyond 127.0.0.1, localhost and [::1], lower case. */
	readonly mockAllowedHosts: readonly string[];
	/** Origins whose pages may call the mock beyond loopback ones (MOCK_ALLOWED_ORIGINS). */
	readonly mockAllowedOrigins: readonly string[];
	/**
	 * Where readers reach the mock (PORTAL_MOCK_URL): an http(s) address without a trailing slash,
	 * or a path on the portal's own origin (`/`). By default the local mock, http://127.0.0.1:<MOCK_PORT>.
	 */
	readonly mockUrl: string;
	/** Where readers reach the portal (PORTAL_URL), an origin: by default http://127.0.0.1:<PORTAL_PORT>. */
	readonly portalUrl: string;
	/** Mocks `call_mock` may send a key to beyond the local one and PORTAL_MOCK_URL (MCP_ALLOWED_MOCKS). */
	readonly mcpAllowedMocks: readonly string[];
	/** The console the mock forwards to as a validating proxy (MOCK_UPSTREAM), without a trailing slash. */
	readonly mockUpstream: string | undefined;
	/** How long the proxy waits for the console's whole answer, in milliseconds (default 10000). */
	readonly mockUpstreamTimeoutMs: number;
	/** Whether a console's answer that breaks the contract becomes a 502 problem (MOCK_PROXY_ERRORS=on). */
	readonly mockProxyErrors: boolean;
	/** The delays, faults and statuses the mock serves to a share of requests (MOCK_CHAOS); none by default. */
	readonly mockChaos: ChaosRule | undefined;
	/** How many days a key may go unrotated before the access review flags it. */
	readonly keyMaxAgeDays: number;
	/** SOURCE_DATE_EPOCH in seconds when set: the instant a reproducible build describes. */
	readonly sourceDateEpoch: number | undefined;
}

/** The variables the settings are read from. */
const VARIABLES = [
	'PORTAL_VIEWS_DIR',
	'PORTAL_DOCS_DIR',
	'PORTAL_PORT',
	'MOCK_PORT',
	'PORTAL_OPENAPI',
	'PORTAL_BUILD_CACHE_DIR',
	'MOCK_HOST',
	'MOCK_LOG',
	'MOCK_LOG_PROBES',
	'MOCK_WORKERS',
	'PORTAL_ALLOWED_HOSTS',
	'MOCK_ALLOWED_HOSTS',
	'MOCK_ALLOWED_ORIGINS',
	'PORTAL_MOCK_URL',
	'PORTAL_URL',
	'MCP_ALLOWED_MOCKS',
	'MOCK_UPSTREAM',
	'MOCK_UPSTREAM_TIMEOUT_MS',
	'MOCK_PROXY_ERRORS',
	'MOCK_CHAOS',
	'PORTAL_KEY_MAX_AGE_DAYS',
	'SOURCE_DATE_EPOCH',
] as const;

/** Parses the settings from an environment; throws a message per bad variable. */
function parseSettings(env: NodeJS.ProcessEnv): PortalSettings {
	const result = settingsSchema.safeParse(
		Object.fromEntries(VARIABLES.map((name) => [name, env[name] || undefined])),
	);
	if (!result.success) {
		throw new Error(
			`Invalid environment:\n${result.error.issues.map((issue) => `  ${issue.message}`).join('\n')}`,
		);
	}
	const { PORTAL_VIEWS_DIR, PORTAL_DOCS_DIR, PORTAL_PORT, MOCK_PORT, PORTAL_OPENAPI, MOCK_LOG } =
		result.data;
	const {
		PORTAL_ALLOWED_HOSTS,
		MOCK_ALLOWED_HOSTS,
		MOCK_ALLOWED_ORIGINS,
		PORTAL_MOCK_URL,
		PORTAL_URL,
		PORTAL_KEY_MAX_AGE_DAYS,
		MOCK_HOST,
		MOCK_LOG_PROBES,
		MOCK_WORKERS,
		SOURCE_DATE_EPOCH,
	} = result.data;
	const { MOCK_UPSTREAM, MOCK_UPSTREAM_TIMEOUT_MS, MOCK_PROXY_ERRORS, MOCK_CHAOS } = result.data;
	const { PORTAL_BUILD_CACHE_DIR, MCP_ALLOWED_MOCKS } = result.data;
	if (MOCK_CHAOS && MOCK_UPSTREAM) {
		// The proxy passes the console's answers on as they come; the chaos is the mock's own.
		throw new Error(
			"Invalid environment:\n  MOCK_CHAOS: not with MOCK_UPSTREAM; the validating proxy passes the console's answers on as they come",
		);
	}
	return Object.freeze({
		viewsDir: path.resolve(PORTAL_VIEWS_DIR),
		docsDir: path.resolve(PORTAL_DOCS_DIR),
		portalPort: PORTAL_PORT,
		mockPort: MOCK_PORT,
		openApiFile: path.resolve(PORTAL_OPENAPI),
		buildCacheDir: path.resolve(PORTAL_BUILD_CACHE_DIR),
		mockHost: MOCK_HOST,
		mockLog: MOCK_LOG !== 'off',
		mockLogFormat: MOCK_LOG === 'json' ? 'json' : 'logfmt',
		mockLogProbes: MOCK_LOG_PROBES === 'on',
		mockWorkers: MOCK_WORKERS,
		portalAllowedHosts: PORTAL_ALLOWED_HOSTS,
		mockAllowedHosts: MOCK_ALLOWED_HOSTS,
		mockAllowedOrigins: MOCK_ALLOWED_ORIGINS,
		mockUrl: PORTAL_MOCK_URL ?? `http://127.0.0.1:${MOCK_PORT}`,
		portalUrl: PORTAL_URL ?? `http://127.0.0.1:${PORTAL_PORT}`,
		mcpAllowedMocks: MCP_ALLOWED_MOCKS,
		mockUpstream: MOCK_UPSTREAM,
		mockUpstreamTimeoutMs: MOCK_UPSTREAM_TIMEOUT_MS,
		mockProxyErrors: MOCK_PROXY_ERRORS === 'on',
		mockChaos: MOCK_CHAOS,
		keyMaxAgeDays: PORTAL_KEY_MAX_AGE_DAYS,
		sourceDateEpoch: SOURCE_DATE_EPOCH,
	});
}

/** The settings last parsed from process.env, and the variables' values they were parsed from. */
let fromProcess: { values: string; settings: PortalSettings } | undefined;

/**
 * Reads the settings from an environment; throws a message per bad variable. Given no
 * environment, reads process.env, parsing it once for as long as the variables keep their values.
 */
export function readSettings(env?: NodeJS.ProcessEnv): PortalSettings {
	if (env) return parseSettings(env);
	const values = JSON.stringify(VARIABLES.map((name) => process.env[name] ?? null));
	if (fromProcess?.values !== values)
		fromProcess = { values, settings: parseSettings(process.env) };
	return fromProcess.settings;
}
