/**
 * Installs the benchmarks' own packages (`bench/tools/package.json`: Lighthouse, Starlight) on
 * first use, or again when their lock changed, so the portal's default install stays lean.
 * `npm run bench`, `bench:weight` and `bench:lighthouse` run it first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';

const BENCH = path.join(import.meta.dirname, 'tools');
const lock = path.join(BENCH, 'package-lock.json');
const installed = path.join(BENCH, 'node_modules', '.package-lock.json');

if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(lock).mtimeMs) {
	console.error('Installing the benchmarks’ own packages (bench/tools/package.json)…');
	const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
		cwd: BENCH,
		stdio: 'inherit',
	});
	if (result.status !== 0) {
		console.error('Could not install bench/tools/package.json; the messages above say why.');
		process.exit(1);
	}
}
