/**
 * `npm run conform -- --base-url <console> [--junit <file>] [--markdown <file>]`: checks a real
 * console against the contract, with the keys in CONFORM_KEYS or CONFORM_KEYS_FILE (never on
 * the command line). The checks and reports are `lib/conform.ts`; the contract and the fixtures
 * (which name a key's holder) are read through src/sources/, as the mock reads them. Exits 0
 * when everything conforms, 1 when something does not, 2 when the run could not be made.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ask } from '../mock/forwarder/forward.ts';
import { readContract } from '../src/sources/contract.ts';
import { contractValidators } from '../src/sources/contract-validators.ts';
import { loadViews } from '../src/sources/fixtures.ts';
import { readSettings } from '../src/sources/settings.ts';
import {
	conformChecks,
	judge,
	junit,
	keysFrom,
	markdown,
	masked,
	nameKey,
	summary,
	table,
	type ConformResult,
} from './lib/conform.ts';

/** Stops the run that could not be made, with one line. */
function cannot(message: string): never {
	console.error(`conform: ${message}`);
	process.exit(2);
}

let options: { 'base-url'?: string; junit?: string; markdown?: string; 'timeout-ms'?: string };
try {
	({ values: options } = parseArgs({
		options: {
			'base-url': { type: 'string' },
			junit: { type: 'string' },
			markdown: { type: 'string' },
			'timeout-ms': { type: 'string' },
		},
		strict: true,
		allowPositionals: false,
	}));
} catch (error) {
	cannot(
		`${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)}; usage: npm run conform -- --base-url <console> [--junit <file>] [--markdown <file>] [--timeout-ms <ms>], keys in CONFORM_KEYS or CONFORM_KEYS_FILE`,
	);
}
const given = options['base-url'];
if (!given)
	cannot('--base-url <console> is required, e.g. --base-url https://console.intranet.example');
const url = URL.parse(given);
if (
	!url ||
	(url.protocol !== 'http:' && url.protocol !== 'https:') ||
	url.username ||
	url.password ||
	url.search ||
	url.hash
) {
	cannot(
		`--base-url: expected an http(s) address without credentials, query or fragment; "${given.slice(0, 100)}" is not one`,
	);
}
const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
const timeoutMs = Number(options['timeout-ms'] ?? '10000');
if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000) {
	cannot('--timeout-ms: expected a whole number of milliseconds from 1 to 600000');
}
const read = keysFrom(process.env, (file) => readFileSync(file, 'utf8'));
if (!read.ok) cannot(read.problem);

let settings;
try {
	settings = readSettings();
} catch (error) {
	cannot(error instanceof Error ? error.message : String(error));
}
const { reference } = await readContract(settings.openApiFile).catch((error: unknown) =>
	cannot(error instanceof Error ? error.message : String(error)),
);
const contracts = contractValidators(reference);
const views = await loadViews(settings.viewsDir).catch(() => []);
const holders = new Map(
	views.flatMap(({ slug, view }) =>
		view.users.map((user) => [user.apiKey, `${user.name} (${slug})`] as const),
	),
);
const keys = read.keys.map((key) => nameKey(key, holders));
const secrets = read.keys;
const checks = conformChecks(keys);

console.error(
	`conform: ${checks.length} checks of ${url.origin} against ${reference.title} ${reference.version}…`,
);
const results: ConformResult[] = [];
for (const [index, check] of checks.entries()) {
	if (process.stderr.isTTY)
		process.stderr.write(`\r\x1b[K[${index + 1}/${checks.length}] ${check.name}`);
	const started = performance.now();
	const answer = await ask(
		{
			url: `${base}/api/v2/users`,
			method: check.method,
			headers: [['Host', url.host], ...check.headers],
		},
		timeoutMs,
	);
	results.push(
		judge(check, answer, contracts.get(check.operation), timeoutMs, performance.now() - started),
	);
}
if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');

if (results.every((result) => result.unreachable)) {
	cannot(
		masked(
			`the console at ${url.origin} ${results[0]?.problems[0]?.replace(/^The console /, '') ?? 'could not be reached'}`,
			secrets,
		),
	);
}
console.log(masked(table(results), secrets));
console.log('');
console.log(masked(summary(results, url.origin), secrets));
try {
	if (options.junit) writeFileSync(options.junit, masked(junit(results, url.origin), secrets));
	if (options.markdown) {
		writeFileSync(options.markdown, masked(markdown(results, url.origin, new Date()), secrets));
	}
} catch (error) {
	cannot(`cannot write the report (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
}
process.exit(results.every(({ verdict }) => verdict === 'conforms') ? 0 : 1);
