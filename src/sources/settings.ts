/** Portal settings read from environment variables, each parsed before use. */
import path from 'node:path';
import { z } from 'zod';

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
	/** Whether the mock prints a line per request. */
	MOCK_LOG: z.enum(['on', 'off'], { error: 'MOCK_LOG: expected on or off' }).default('on'),
	/** Names the portal servers answer under beyond 127.0.0.1, localhost and [::1]. */
	PORTAL_ALLOWED_HOSTS: hostNamesSchema('PORTAL_ALLOWED_HOSTS', 'portal.intranet.example'),
	/** Names the mock answers under beyond 127.0.0.1, localhost and [::1]. */
	MOCK_ALLOWED_HOSTS: hostNamesSchema('MOCK_ALLOWED_HOSTS', 'mock.intranet.example'),
	/** How many days a key may go unrotated before the access review flags it. */
	PORTAL_KEY_MAX_AGE_DAYS: z.coerce
		.number({ error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650' })
		.int({ error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650' })
		.min(1, { error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650' })
		.max(3650, { error: 'PORTAL_KEY_MAX_AGE_DAYS: expected a whole number of days from 1 to 3650' })
		.default(90),
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
	/** Whether the mock prints a line per request (MOCK_LOG=off turns it off). */
	readonly mockLog: boolean;
	/** Names the portal servers answer under beyond 127.0.0.1, localhost and [::1], lower case. */
	readonly portalAllowedHosts: readonly string[];
	/** Names the mock answers under beyond 127.0.0.1, localhost and [::1], lower case. */
	readonly mockAllowedHosts: readonly string[];
	/** How many days a key may go unrotated before the access review flags it. */
	readonly keyMaxAgeDays: number;
}

/** The variables the settings are read from. */
const VARIABLES = [
	'PORTAL_VIEWS_DIR',
	'PORTAL_DOCS_DIR',
	'PORTAL_PORT',
	'MOCK_PORT',
	'PORTAL_OPENAPI',
	'MOCK_LOG',
	'PORTAL_ALLOWED_HOSTS',
	'MOCK_ALLOWED_HOSTS',
	'PORTAL_KEY_MAX_AGE_DAYS',
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
	const { PORTAL_ALLOWED_HOSTS, MOCK_ALLOWED_HOSTS, PORTAL_KEY_MAX_AGE_DAYS } = result.data;
	return Object.freeze({
		viewsDir: path.resolve(PORTAL_VIEWS_DIR),
		docsDir: path.resolve(PORTAL_DOCS_DIR),
		portalPort: PORTAL_PORT,
		mockPort: MOCK_PORT,
		openApiFile: path.resolve(PORTAL_OPENAPI),
		mockLog: MOCK_LOG === 'on',
		portalAllowedHosts: PORTAL_ALLOWED_HOSTS,
		mockAllowedHosts: MOCK_ALLOWED_HOSTS,
		keyMaxAgeDays: PORTAL_KEY_MAX_AGE_DAYS,
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
