/**
 * `npm run conform -- --base-url <console> [--junit <file>] [--markdown <file>]`: checks a real
 * console against the contract, with the keys in CONFORM_KEYS or CONFORM_KEYS_FILE (never on
 * the command line). The checks and reports are `lib/conform.ts`; the contract and the fixtures
 * (which name a key's holder) are read through src/sources/, as the mock reads them. Exits 0
 * when everything conforms, 1 when something does not, 2 when the run could not be made.
 */
import { closeSync, existsSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ask } from '../mock/forwarder/forward.ts';
import { readContract } from '../src/sources/contract.ts';
import { contractValidators } from '../src/sources/contract-validators.ts';
import { loadViews } from '../src/sources/fixtures.ts';
import { readSettings } from '../src/sources/settings.ts';
import {
	CONCURRENT_CHECKS,
	concurrently,
	conformChecks,
	consoleAddress,
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
const parsed = consoleAddress(given);
if (!parsed.ok) cannot(parsed.problem);
const { base, origin, host } = parsed.address;
const timeoutMs = Number(options['timeout-ms'] ?? '10000');
if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000) {
	cannot('--timeout-ms: expected a whole number of milliseconds from 1 to 600000');
}
const read = keysFrom(process.env, (file) => readFileSync(file, 'utf8'));
if (!read.ok) cannot(read.problem);

/**
 * Stops the run, before any request, when a report cannot be written where it is asked for: the
 * file is opened for appending, which changes nothing in one that exists, and removed if it did not.
 */
function writable(option: 'junit' | 'markdown'): void {
	const file = options[option];
	if (file === undefined) return;
	try {
		const existed = existsSync(file);
		closeSync(openSync(file, 'a'));
		if (!existed) unlinkSync(file);
	} catch (error) {
		const why = (error as NodeJS.ErrnoException).code ?? String(error);
		cannot(`--${option}: ${file} cannot be written (${why})`);
	}
}
writable('junit');
writable('markdown');

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
	`conform: ${checks.length} checks of ${origin} against ${reference.title} ${reference.version}…`,
);
let finished = 0;
const results: ConformResult[] = await concurrently(checks, CONCURRENT_CHECKS, async (check) => {
	const started = performance.now();
	const answer = await ask(
		{
			url: `${base}/api/v2/users`,
			method: check.method,
			headers: [['Host', host], ...check.headers],
		},
		timeoutMs,
	);
	finished += 1;
	if (process.stderr.isTTY)
		process.stderr.write(`\r\x1b[K[${finished}/${checks.length}] ${check.name}`);
	return judge(
		check,
		answer,
		contracts.get(check.operation),
		timeoutMs,
		performance.now() - started,
	);
});
if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');

if (results.every((result) => result.unreachable)) {
	cannot(
		masked(
			`the console at ${origin} ${results[0]?.problems[0]?.replace(/^The console /, '') ?? 'could not be reached'}`,
			secrets,
		),
	);
}
console.log(masked(table(results), secrets));
console.log('');
console.log(masked(summary(results, origin), secrets));

/** Writes a report, or stops the run naming where it could not. */
function write(option: 'junit' | 'markdown', text: string): void {
	const file = options[option];
	if (file === undefined) return;
	try {
		writeFileSync(file, masked(text, secrets));
	} catch (error) {
		const why = (error as NodeJS.ErrnoException).code ?? String(error);
		cannot(`--${option}: ${file} cannot be written (${why})`);
	}
}
write('junit', junit(results, origin));
write('markdown', markdown(results, origin, new Date()));
process.exit(results.every(({ verdict }) => verdict === 'conforms') ? 0 : 1);
