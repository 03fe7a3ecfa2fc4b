#!/usr/bin/env node
/**
 * `console-portal <command> [flags]` (package.json's `bin`, for `npx console-portal mock`): runs
 * `start`, `dev`, `mock`, `conform` or `mcp` as `npm start` and `npm run <command>` run them, with
 * the same flags. It runs with the Node on PATH; npx and npm put the project's pinned Node first.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Each command's entry, and the arguments it is given before the person's. */
const ENTRIES: Record<string, { file: string; args: string[] }> = {
	start: { file: 'scripts/start.ts', args: [] },
	dev: { file: 'scripts/start.ts', args: ['--dev'] },
	mock: { file: 'mock/cli.ts', args: [] },
	conform: { file: 'scripts/conform.ts', args: [] },
	mcp: { file: 'mcp/cli.ts', args: [] },
};

const USAGE = `Usage: console-portal ${Object.keys(ENTRIES).join('|')} [flags]   (console-portal <command> --help lists them)`;

const [name = '', ...args] = process.argv.slice(2);
if (name === '--version') {
	const { packageVersion } = await import('../src/sources/command-line.ts');
	process.stdout.write(`${packageVersion()}\n`);
	process.exit(0);
}
if (name === '--help' || name === '-h') {
	process.stdout.write(`${USAGE}\n`);
	process.exit(0);
}
const entry = Object.hasOwn(ENTRIES, name) ? ENTRIES[name] : undefined;
if (!entry) {
	process.stderr.write(
		`console-portal: ${name === '' ? 'which command?' : `unknown command ${name}`}\n${USAGE}\n`,
	);
	process.exit(2);
}
// The entry reads process.argv as `node <entry> <flags>` would give it, and so do the mock's
// workers, which node:cluster starts with this process's argv[1] and arguments.
const file = path.resolve(import.meta.dirname, '..', entry.file);
process.argv.splice(1, process.argv.length - 1, file, ...entry.args, ...args);
await import(pathToFileURL(file).href);
