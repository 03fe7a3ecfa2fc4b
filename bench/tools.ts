/**
 * The benchmarks' own packages (`bench/tools/package.json`: Lighthouse, chrome-launcher,
 * Starlight), kept out of the portal's default install. They live in a folder of their own, so
 * the other benchmarks keep resolving the portal's packages; `npm run bench` installs them on
 * first use (`bench/install.ts`), and this module loads them from there.
 */
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
