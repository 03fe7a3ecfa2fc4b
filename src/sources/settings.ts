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

/** A command a person runs, as the settings reference groups the settings. */
export type Command =
	'start' | 'dev' | 'mock' | 'conform' | 'mcp' | 'build' | 'image' | 'web image' | 'test';

/** One setting: the environment variable, its flag, its parser, and what it is for. */
export interface Setting {
	/** The flag that sets it on the commands that take flags (`port` is `--port`), if people change it often. */
	readonly flag?: string;
	/** Another flag name on some commands: MOCK_PORT is `--port` on the mock, `--mock-port` beside the portal. */
	readonly flagOn?: Partial<Record<Command, string>>;
	/** The value as usage lines show it: `<port>`, `on|off|json`. */
	readonly value: string;
	/** The parser: turns the variable's text into the value, with its default. */
	readonly schema: z.ZodType;
	/** What happens when it is not set, where the parser has no default to show. */
	readonly unset?: string;
	/** One line: what it changes. */
	readonly description: string;
	/** The commands that read it. */
	readonly commands: readonly Command[];
	/** The code that reads it when it is not `readSettings` (the image script, the conformance run, ...). */
	readonly readBy?: string;
}

/** The commands that run the portal's own servers and read the portal's settings. */
const PORTAL: readonly Command[] = ['start', 'dev', 'build', 'mock', 'conform', 'mcp'];

/** Text read as it is given; the code named in `readBy` checks it. */
const optionalText = z.string().optional();

/**
 * Every setting the portal reads, one entry per environment variable: this table serves the
 * flags, the environment, each command's `--help` and the settings reference page.
 */
export const SETTINGS = {
	PORTAL_PORT: {
		flag: 'port',
		flagOn: { mcp: 'portal-port' },
		value: '<port>',
		schema: portSchema('PORTAL_PORT').default(4321),
		description:
			'The port `npm start` and `npm run dev` serve the portal on (the web image: 8080, from 1024).',
		commands: ['start', 'dev', 'build', 'mcp', 'web image'],
	},
	MOCK_PORT: {
		flag: 'mock-port',
		flagOn: { mock: 'port' },
		value: '<port>',
		schema: portSchema('MOCK_PORT').default(4010),
		description: 'The port the mock listens on; pages and samples call it there.',
		commands: ['start', 'dev', 'build', 'mock', 'mcp'],
	},
	MOCK_HOST: {
		flag: 'host',
		value: '<address>',
		schema: listenAddressSchema('MOCK_HOST').default('127.0.0.1'),
		description:
			'The address the mock binds: 127.0.0.1 is this machine only, 0.0.0.0 every interface.',
		commands: ['mock'],
	},
	PORTAL_VIEWS_DIR: {
		flag: 'views',
		value: '<folder>',
		schema: z.string().min(1).default('content/views'),
		description: 'The folder of view fixtures, one JSON file per view.',
		commands: PORTAL,
	},
	PORTAL_OPENAPI: {
		flag: 'contract',
		value: '<file>',
		schema: z.string().min(1).default('openapi.yaml'),
		description: 'The OpenAPI document (the contract) the mock serves and the reference renders.',
		commands: PORTAL,
	},
	PORTAL_DOCS_DIR: {
		flag: 'docs',
		value: '<folder>',
		schema: z.string().min(1).default('content/docs'),
		description: 'The folder of MDX guides the portal serves and MCP searches.',
		commands: ['start', 'dev', 'build', 'mcp'],
	},
	PORTAL_BUILD_CACHE_DIR: {
		value: '<folder>',
		schema: z.string().min(1).default('node_modules/.astro'),
		description:
			'Where a build keeps its cache; two builds at once of different fixtures need one each.',
		commands: ['start', 'build'],
	},
	MOCK_LOG: {
		flag: 'log',
		value: 'on|off|json',
		schema: z
			.enum(['on', 'off', 'json'], { error: 'MOCK_LOG: expected on, off or json' })
			.default('on'),
		description:
			"The mock's request log: a logfmt line per request (on), a JSON object (json), or none.",
		commands: ['start', 'dev', 'mock'],
	},
	MOCK_LOG_PROBES: {
		value: 'on|off',
		schema: z.enum(['on', 'off'], { error: 'MOCK_LOG_PROBES: expected on or off' }).default('off'),
		description:
			'Whether /healthz and /readyz get a log line each too (a probe comes every few seconds).',
		commands: ['start', 'dev', 'mock'],
	},
	MOCK_WORKERS: {
		flag: 'workers',
		value: '<count>|auto',
		schema: workersSchema('MOCK_WORKERS'),
		description: 'How many node:cluster workers serve the mock; auto is one per core.',
		commands: ['mock'],
	},
	MOCK_CHAOS: {
		flag: 'chaos',
		value: '<rules>',
		schema: chaosSchema.optional(),
		unset: 'no chaos',
		description:
			'Delays, faults and statuses served to a share of requests, e.g. "delay=50-300 code=503:5%".',
		commands: ['start', 'dev', 'mock'],
	},
	MOCK_UPSTREAM: {
		flag: 'upstream',
		value: '<url>',
		schema: upstreamSchema,
		unset: 'the mock answers itself',
		description:
			"A console to forward to as a validating proxy (the web image: the mock's origin to proxy to).",
		commands: ['start', 'dev', 'mock', 'web image'],
	},
	MOCK_UPSTREAM_TIMEOUT_MS: {
		value: '<ms>',
		schema: z
			.string()
			.regex(/^\d{1,6}$/, {
				error: `MOCK_UPSTREAM_TIMEOUT_MS: expected a whole number of milliseconds from 1 to ${MAX_UPSTREAM_TIMEOUT_MS}`,
			})
			.transform(Number)
			.refine((ms) => ms >= 1 && ms <= MAX_UPSTREAM_TIMEOUT_MS, {
				error: `MOCK_UPSTREAM_TIMEOUT_MS: expected a whole number of milliseconds from 1 to ${MAX_UPSTREAM_TIMEOUT_MS}`,
			})
			.default(10_000),
		description: "How long the proxy waits for the console's whole answer before its 504.",
		commands: ['start', 'dev', 'mock'],
	},
	MOCK_PROXY_ERRORS: {
		value: 'on|off',
		schema: z
			.enum(['on', 'off'], { error: 'MOCK_PROXY_ERRORS: expected on or off' })
			.default('off'),
		description: "Whether the proxy turns a console's answer that breaks the contract into a 502.",
		commands: ['start', 'dev', 'mock'],
	},
	MOCK_ALLOWED_HOSTS: {
		value: '<names>',
		schema: hostNamesSchema('MOCK_ALLOWED_HOSTS', 'mock.intranet.example'),
		unset: 'loopback names only',
		description: 'Host names the mock answers under beyond 127.0.0.1, localhost and [::1].',
		commands: ['start', 'dev', 'mock'],
	},
	MOCK_ALLOWED_ORIGINS: {
		value: '<origins>',
		schema: originsSchema('MOCK_ALLOWED_ORIGINS'),
		unset: 'loopback origins only',
		description: 'Origins whose pages may call the mock (CORS) beyond loopback ones.',
		commands: ['start', 'dev', 'mock'],
	},
	PORTAL_ALLOWED_HOSTS: {
		value: '<names>',
		schema: hostNamesSchema('PORTAL_ALLOWED_HOSTS', 'portal.intranet.example'),
		unset: 'loopback names only',
		description: 'Host names the portal answers under beyond 127.0.0.1, localhost and [::1].',
		commands: ['start', 'dev', 'web image'],
	},
	PORTAL_MOCK_URL: {
		value: '<url>|<path>',
		schema: mockUrlSchema,
		unset: 'http://127.0.0.1:<MOCK_PORT>',
		description:
			"Where readers reach the mock: try-it, samples, the contract and the CSP follow it; / is the portal's origin.",
		commands: ['start', 'dev', 'build', 'mcp', 'web image'],
	},
	PORTAL_URL: {
		value: '<origin>',
		schema: portalUrlSchema,
		unset: 'http://127.0.0.1:<PORTAL_PORT>',
		description:
			'Where readers reach the portal: samples resolve a path-only PORTAL_MOCK_URL on it.',
		commands: ['start', 'dev', 'build', 'mcp', 'web image'],
	},
	MCP_ALLOWED_MOCKS: {
		value: '<urls>',
		schema: mockAddressesSchema,
		unset: 'the local mock and PORTAL_MOCK_URL only',
		description: "Mocks the MCP server's call_mock may send a key to, beyond the local one.",
		commands: ['mcp'],
	},
	PORTAL_KEY_MAX_AGE_DAYS: {
		value: '<days>',
		schema: z.coerce
			.number({ error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650' })
			.int({ error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650' })
			.min(1, { error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650' })
			.max(3650, {
				error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650',
			})
			.default(90),
		description: 'How many days a key may go unrotated before the access review flags it.',
		commands: ['start', 'dev', 'build', 'mcp'],
	},
	SOURCE_DATE_EPOCH: {
		value: '<seconds>',
		schema: z
			.string()
			.regex(/^\d{1,11}$/, {
				error: 'SOURCE_DATE_EPOCH: expected whole seconds since 1970-01-01 (e.g. 1795478400)',
			})
			.transform(Number)
			.optional(),
		unset: 'the last commit, or the newest source',
		description: 'The instant a reproducible build or image describes, in seconds since 1970.',
		commands: ['start', 'build', 'image'],
	},
	CONFORM_BASE_URL: {
		flag: 'base-url',
		value: '<url>',
		schema: optionalText,
		unset: 'required',
		description: 'The console a conformance run checks, e.g. https://console.intranet.example.',
		commands: ['conform'],
		readBy: 'scripts/conform.ts',
	},
	CONFORM_KEYS: {
		value: '<keys>',
		schema: optionalText,
		unset: 'CONFORM_KEYS_FILE',
		description: 'The keys a conformance run sends, separated by spaces or commas (never a flag).',
		commands: ['conform'],
		readBy: 'mock/conform/decide.ts',
	},
	CONFORM_KEYS_FILE: {
		value: '<file>',
		schema: optionalText,
		unset: 'CONFORM_KEYS',
		description: 'A file of keys for a conformance run; # starts a comment.',
		commands: ['conform'],
		readBy: 'mock/conform/decide.ts',
	},
	CONFORM_TIMEOUT_MS: {
		flag: 'timeout-ms',
		value: '<ms>',
		schema: z
			.string()
			.regex(/^\d{1,6}$/, {
				error: `CONFORM_TIMEOUT_MS: expected a whole number of milliseconds from 1 to ${MAX_UPSTREAM_TIMEOUT_MS}`,
			})
			.refine((ms) => Number(ms) >= 1 && Number(ms) <= MAX_UPSTREAM_TIMEOUT_MS, {
				error: `CONFORM_TIMEOUT_MS: expected a whole number of milliseconds from 1 to ${MAX_UPSTREAM_TIMEOUT_MS}`,
			})
			.default('10000'),
		description: "How long a conformance run waits for each of the console's answers.",
		commands: ['conform'],
		readBy: 'scripts/conform.ts',
	},
	CONFORM_JUNIT: {
		flag: 'junit',
		value: '<file>',
		schema: optionalText,
		unset: 'no JUnit report',
		description: 'Where a conformance run writes its JUnit report, for CI.',
		commands: ['conform'],
		readBy: 'scripts/conform.ts',
	},
	CONFORM_MARKDOWN: {
		flag: 'markdown',
		value: '<file>',
		schema: optionalText,
		unset: 'no Markdown report',
		description: 'Where a conformance run writes its Markdown report.',
		commands: ['conform'],
		readBy: 'scripts/conform.ts',
	},
	IMAGE_BASE: {
		value: '<image>',
		schema: optionalText,
		unset: 'the public Debian slim Node image, or the local base',
		description: 'The base image `npm run image` builds the images on.',
		commands: ['image'],
		readBy: 'scripts/image.ts',
	},
	IMAGE_LOCAL_BASE: {
		value: '1',
		schema: optionalText,
		unset: 'the public base',
		description: 'With 1, `npm run image` makes its base image here from Debian packages.',
		commands: ['image'],
		readBy: 'scripts/image.ts',
	},
	IMAGE_REPOSITORY: {
		value: '<registry>',
		schema: optionalText,
		unset: 'localhost',
		description: 'The repository the images are named in, e.g. registry.intranet.example/team.',
		commands: ['image'],
		readBy: 'scripts/image.ts',
	},
	IMAGE_SOURCE: {
		value: '<url>',
		schema: optionalText,
		unset: "package.json's repository, else git's origin",
		description:
			'The source address the images are labelled with (org.opencontainers.image.source).',
		commands: ['image'],
		readBy: 'scripts/lib/images.ts',
	},
	IMAGE_DEBIAN_MIRROR: {
		value: '<url>',
		schema: optionalText,
		unset: 'http://deb.debian.org/debian',
		description: 'The Debian mirror the local base image is made from.',
		commands: ['image'],
		readBy: 'scripts/lib/images.ts',
	},
	IMAGE_DEBIAN_SECURITY_MIRROR: {
		value: '<url>',
		schema: optionalText,
		unset: 'http://deb.debian.org/debian-security',
		description: 'The Debian security mirror the local base image is made from.',
		commands: ['image'],
		readBy: 'scripts/lib/images.ts',
	},
	NO_SYSTEM_INSTALL: {
		value: '1|0',
		schema: optionalText,
		unset: '0: install what is missing when it can',
		description:
			'With 1, `npm test` only checks the Debian packages the tests need, never installs them.',
		commands: ['test'],
		readBy: 'scripts/lib/system-packages.ts',
	},
} as const satisfies Record<string, Setting>;

/** The name of a setting's environment variable. */
export type SettingName = keyof typeof SETTINGS;

/** The zod shape of a table of settings: each variable's parser. */
function shapeOf<Table extends Record<string, Setting>>(
	table: Table,
): { [Name in keyof Table]: Table[Name]['schema'] } {
	// Object.fromEntries cannot say which key holds which parser; the entries are the table's own.
	return Object.fromEntries(
		Object.entries(table).map(([name, setting]) => [name, setting.schema]),
	) as { [Name in keyof Table]: Table[Name]['schema'] };
}

const settingsSchema = z.object(shapeOf(SETTINGS));

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

/** Every setting, with its variable's name. */
export const SETTING_LIST: readonly (Setting & { readonly name: SettingName })[] = Object.entries(
	SETTINGS,
).map(([name, setting]: [string, Setting]) => ({ ...setting, name: name as SettingName }));

/** The variables `readSettings` reads: the settings no other code reads by itself. */
const VARIABLES = SETTING_LIST.filter((setting) => setting.readBy === undefined).map(
	(setting) => setting.name,
);

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
