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
});

/** The portal's settings. */
export interface PortalSettings {
	/** The absolute path of the view fixture folder. */
	viewsDir: string;
	/** The absolute path of the MDX guide folder. */
	docsDir: string;
	/** The port the portal is served on. */
	portalPort: number;
	/** The port the mock listens on. */
	mockPort: number;
	/** The absolute path of the OpenAPI document. */
	openApiFile: string;
	/** Whether the mock prints a line per request (MOCK_LOG=off turns it off). */
	mockLog: boolean;
	/** Names the portal servers answer under beyond 127.0.0.1, localhost and [::1], lower case. */
	portalAllowedHosts: string[];
	/** Names the mock answers under beyond 127.0.0.1, localhost and [::1], lower case. */
	mockAllowedHosts: string[];
}

/** Reads the settings from an environment (process.env by default); throws a message per bad variable. */
export function readSettings(env: NodeJS.ProcessEnv = process.env): PortalSettings {
	const result = settingsSchema.safeParse({
		PORTAL_VIEWS_DIR: env['PORTAL_VIEWS_DIR'] || undefined,
		PORTAL_DOCS_DIR: env['PORTAL_DOCS_DIR'] || undefined,
		PORTAL_PORT: env['PORTAL_PORT'] || undefined,
		MOCK_PORT: env['MOCK_PORT'] || undefined,
		PORTAL_OPENAPI: env['PORTAL_OPENAPI'] || undefined,
		MOCK_LOG: env['MOCK_LOG'] || undefined,
		PORTAL_ALLOWED_HOSTS: env['PORTAL_ALLOWED_HOSTS'] || undefined,
		MOCK_ALLOWED_HOSTS: env['MOCK_ALLOWED_HOSTS'] || undefined,
	});
	if (!result.success) {
		throw new Error(
			`Invalid environment:\n${result.error.issues.map((issue) => `  ${issue.message}`).join('\n')}`,
		);
	}
	const { PORTAL_VIEWS_DIR, PORTAL_DOCS_DIR, PORTAL_PORT, MOCK_PORT, PORTAL_OPENAPI, MOCK_LOG } =
		result.data;
	const { PORTAL_ALLOWED_HOSTS, MOCK_ALLOWED_HOSTS } = result.data;
	return {
		viewsDir: path.resolve(PORTAL_VIEWS_DIR),
		docsDir: path.resolve(PORTAL_DOCS_DIR),
		portalPort: PORTAL_PORT,
		mockPort: MOCK_PORT,
		openApiFile: path.resolve(PORTAL_OPENAPI),
		mockLog: MOCK_LOG === 'on',
		portalAllowedHosts: PORTAL_ALLOWED_HOSTS,
		mockAllowedHosts: MOCK_ALLOWED_HOSTS,
	};
}
