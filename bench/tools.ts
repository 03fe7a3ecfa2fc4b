/**
 * The benchmarks' own packages (`bench/tools/package.json`: Lighthouse, chrome-launcher,
 * Starlight, and the peers the mock is started beside: Scalar's mock server and Mockoon), kept out of the portal's default install. They live in a folder of their own, so
 * the other benchmarks keep resolving the portal's packages; `npm run bench` installs them on
 * first use (`bench/install.ts`), and this module loads them from there.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The folder of the benchmarks' own packages. */
export const TOOLS_DIR = path.join(import.meta.dirname, 'tools');

/** A folder inside the tools folder, so a site built there finds Starlight beside it. */
export const TOOLS_WORK_DIR = path.join(TOOLS_DIR, '.work');

/** An executable of the tools' packages, e.g. their own `astro`. */
export function toolBin(name: string): string {
	return path.join(TOOLS_DIR, 'node_modules', '.bin', name);
}

/** The `package.json` of one of the tools' packages. */
export function toolPackageJson(name: string): string {
	return path.join(TOOLS_DIR, 'node_modules', ...name.split('/'), 'package.json');
}

const requireTool = createRequire(path.join(TOOLS_DIR, 'package.json'));

/** Lighthouse, as `bench/tools-types.d.ts` types it. */
export async function importLighthouse(): Promise<typeof import('lighthouse')> {
	const url = pathToFileURL(requireTool.resolve('lighthouse')).href;
	return (await import(url)) as typeof import('lighthouse');
}

/** chrome-launcher, as `bench/tools-types.d.ts` types it. */
export async function importChromeLauncher(): Promise<typeof import('chrome-launcher')> {
	const url = pathToFileURL(requireTool.resolve('chrome-launcher')).href;
	return (await import(url)) as typeof import('chrome-launcher');
}

/**
 * The URL of a tools' package's ES module entry, as `import` would find it from the tools folder:
 * its `exports` for `import`, else what `require` finds. (`require.resolve` alone would pick a
 * package's CommonJS build where it ships both, loading a second copy of what it shares.)
 */
function moduleEntry(name: string): string {
	const file = toolPackageJson(name);
	const { exports } = JSON.parse(readFileSync(file, 'utf8')) as {
		exports?: { '.'?: { import?: string | { default?: string } } };
	};
	const entry = exports?.['.']?.import;
	const relative = typeof entry === 'string' ? entry : entry?.default;
	return pathToFileURL(
		relative ? path.join(path.dirname(file), relative) : requireTool.resolve(name),
	).href;
}

/** Scalar's mock server, as `bench/tools-types.d.ts` types it. */
export async function importScalarMockServer(): Promise<typeof import('@scalar/mock-server')> {
	return (await import(moduleEntry('@scalar/mock-server'))) as typeof import('@scalar/mock-server');
}

/** Hono's Node.js server adapter, which Scalar's mock server needs to listen. */
export async function importHonoNodeServer(): Promise<typeof import('@hono/node-server')> {
	return (await import(moduleEntry('@hono/node-server'))) as typeof import('@hono/node-server');
}
