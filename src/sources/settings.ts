/** Portal settings read from environment variables, each parsed before use. */
import path from 'node:path';
import { z } from 'zod';

const portSchema = (name: string) =>
	z.coerce
		.number({ error: `${name}: expected a TCP port number from 1 to 65535` })
		.int({ error: `${name}: expected a whole TCP port number from 1 to 65535` })
		.min(1, { error: `${name}: expected a TCP port number from 1 to 65535` })
		.max(65535, { error: `${name}: expected a TCP port number from 1 to 65535` });

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
	});
	if (!result.success) {
		throw new Error(
			`Invalid environment:\n${result.error.issues.map((issue) => `  ${issue.message}`).join('\n')}`,
		);
	}
	const { PORTAL_VIEWS_DIR, PORTAL_DOCS_DIR, PORTAL_PORT, MOCK_PORT, PORTAL_OPENAPI, MOCK_LOG } =
		result.data;
	return {
		viewsDir: path.resolve(PORTAL_VIEWS_DIR),
		docsDir: path.resolve(PORTAL_DOCS_DIR),
		portalPort: PORTAL_PORT,
		mockPort: MOCK_PORT,
		openApiFile: path.resolve(PORTAL_OPENAPI),
		mockLog: MOCK_LOG === 'on',
	};
}
