/**
 * The parts of the benchmarks’ own packages (bench/tools/package.json) that the benchmarks use, typed
 * here so the portal's type-check and lint pass on its default install, where they are absent.
 */
declare module 'lighthouse' {
	/** A Lighthouse result, as far as the benchmark reads it. */
	export interface Result {
		runtimeError?: { message: string };
		categories: Record<
			string,
			{ score: number | null; auditRefs: { id: string; weight: number }[] } | undefined
		>;
		audits: Record<
			string,
			{ title: string; score: number | null; displayValue?: string } | undefined
		>;
	}
	/** Lighthouse's desktop settings. */
	export const desktopConfig: unknown;
	/** Runs Lighthouse on a URL in the Chrome listening on `flags.port`. */
	export default function lighthouse(
		url: string,
		flags: { port: number; output: 'json'; logLevel: 'error' },
		config: unknown,
	): Promise<{ lhr: Result } | undefined>;
}

declare module 'chrome-launcher' {
	/** A running Chrome. */
	export interface LaunchedChrome {
		port: number;
		kill(): void;
	}
	/** Starts Chrome with a DevTools port. */
	export function launch(options: {
		chromePath: string;
		chromeFlags: string[];
	}): Promise<LaunchedChrome>;
}

declare module '@scalar/mock-server' {
	/** The parts of a Hono app that serving it needs. */
	export interface MockApp {
		fetch: (request: Request) => Response | Promise<Response>;
	}
	/** Builds a Hono app that mocks an OpenAPI document (a file path, a URL or an object). */
	export function createMockServer(options: {
		document: string | Record<string, unknown>;
		logger?: boolean;
	}): Promise<MockApp>;
}

declare module '@hono/node-server' {
	/** Serves a fetch handler with node:http on a port and host name. */
	export function serve(options: {
		fetch: (request: Request) => Response | Promise<Response>;
		port: number;
		hostname: string;
	}): import('node:http').Server;
}
