/**
 * The tests' own packages (tests/package.json: @astrojs/check, Kubernetes' schemas, the MCP
 * Inspector's CLI, cheerio, html-validate, secretlint), kept out of the portal's install: this
 * installs them on first use, or again when their lock changed. Vitest runs it before any test
 * (a global setup), `npm run lint` and `npm run check` run it first (`node tests/tools.ts`).
 * Files under tests/ then import them as any package: Node looks in tests/node_modules first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

const TESTS = import.meta.dirname;

/** The path of a command one of the tests' own packages installs (tests/node_modules/.bin). */
export function toolBin(name: string): string {
	return path.join(TESTS, 'node_modules', '.bin', name);
}

/** Installs tests/package.json from its lock when it is missing or its lock is newer. */
export function installTestTools(): void {
	const lock = path.join(TESTS, 'package-lock.json');
	const installed = path.join(TESTS, 'node_modules', '.package-lock.json');
	if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
	console.error('Installing the tests’ own packages (tests/package.json)…');
	const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
		cwd: TESTS,
		stdio: 'inherit',
	});
	if (result.status !== 0) {
		throw new Error('Could not install tests/package.json; the messages above say why.');
	}
}

/** Vitest's global setup: the packages are there before any test file imports them. */
export default installTestTools;

if (import.meta.main) installTestTools();
