/**
 * The conformance run wired to sockets, as `../forwarder/forward.ts` is the proxy's: it reads the
 * contract and the fixtures (which name a key's holder) through src/sources/, as the mock reads
 * them, compiles the contract's validators once (src/sources/contract-validators.ts), asks the
 * console each check's request with the proxy's client (`ask`; a QUERY with its body, a stream
 * of JSON lines or server-sent events asked for by `Accept`), judges
 * each answer (`decide.ts`), prints the table and writes the reports asked for (`reports.ts`),
 * every output masked. `scripts/conform.ts` reads the command line and turns the outcome into an exit code.
 */
import { closeSync, existsSync, openSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { ask } from '../forwarder/forward.ts';
import { readContract } from '../../src/sources/contract.ts';
import { contractValidators } from '../../src/sources/contract-validators.ts';
import { loadViews } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import {
	CONCURRENT_CHECKS,
	concurrently,
	conformChecks,
	consoleAddress,
	judge,
	keysFrom,
	masked,
	nameKey,
	queryOf,
	streamsOf,
	type ConformResult,
} from './decide.ts';
import { junit, markdown, summary, table } from './reports.ts';

/** A run that could not be made, in one line: the entry exits 2 with it. */
export class ConformError extends Error {
	override name = 'ConformError';
}

/** What a run is asked, as the command line says it. */
export interface ConformOptions {
	/** `--base-url`: the console's address. */
	baseUrl: string | undefined;
	/** `--timeout-ms`, as given; 10 s when not. */
	timeoutMs: string | undefined;
	/** Where to write the JUnit and Markdown reports, when asked. */
	junit: string | undefined;
	markdown: string | undefined;
}

/** An error's message, as a reader of the settings or the contract words it. */
function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** An error's first line, for a one-line problem. */
function firstLine(error: unknown): string {
	return messageOf(error).split('\n', 1)[0] ?? '';
}

/**
 * Checks, before any request, that a report can be written where it is asked for: the file is
 * opened for appending, which changes nothing in one that exists, and removed if it did not.
 */
function writable(option: 'junit' | 'markdown', file: string | undefined): void {
	if (file === undefined) return;
	try {
		const existed = existsSync(file);
		closeSync(openSync(file, 'a'));
		if (!existed) unlinkSync(file);
	} catch (error) {
		const why = (error as NodeJS.ErrnoException).code ?? firstLine(error);
		throw new ConformError(`--${option}: ${file} cannot be written (${why})`, { cause: error });
	}
}

/** Writes a report, or says where it could not. */
function write(option: 'junit' | 'markdown', file: string | undefined, text: string): void {
	if (file === undefined) return;
	try {
		writeFileSync(file, text);
	} catch (error) {
		const why = (error as NodeJS.ErrnoException).code ?? firstLine(error);
		throw new ConformError(`--${option}: ${file} cannot be written (${why})`, { cause: error });
	}
}

/**
 * Runs every check of a console, with the keys in `env` (CONFORM_KEYS or CONFORM_KEYS_FILE):
 * prints the table and the summary, writes the reports, and says whether the console conforms.
 * A run that cannot be made (no address, no keys, no contract, a report that cannot be written,
 * a console never reached) throws a ConformError before or instead of any verdict.
 */
export async function runConform(
	options: ConformOptions,
	env: NodeJS.ProcessEnv,
): Promise<{ conforms: boolean }> {
	if (!options.baseUrl) {
		throw new ConformError(
			'--base-url <console> is required, e.g. --base-url https://console.intranet.example',
		);
	}
	const parsed = consoleAddress(options.baseUrl);
	if (!parsed.ok) throw new ConformError(parsed.problem);
	const { base, origin, host } = parsed.address;
	const timeoutMs = Number(options.timeoutMs ?? '10000');
	if (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > 600_000) {
		throw new ConformError(
			'--timeout-ms: expected a whole number of milliseconds from 1 to 600000',
		);
	}
	const read = keysFrom(env, (file) => readFileSync(file, 'utf8'));
	if (!read.ok) throw new ConformError(read.problem);
	writable('junit', options.junit);
	writable('markdown', options.markdown);

	let settings;
	try {
		settings = readSettings();
	} catch (error) {
		throw new ConformError(messageOf(error), { cause: error });
	}
	const { reference } = await readContract(settings.openApiFile).catch((error: unknown) => {
		throw new ConformError(messageOf(error), { cause: error });
	});
	const contracts = contractValidators(reference);
	const views = await loadViews(settings.viewsDir).catch((error: unknown) => {
		// The fixtures only name a key's holder: without them each key is named by its last four
		// characters, and the run goes on; the reason is said once.
		console.error(
			`conform: the fixtures could not be read (${firstLine(error)}); keys are named by their last four characters`,
		);
		return [];
	});
	const holders = new Map(
		views.flatMap(({ slug, view }) =>
			view.users.map((user) => [user.apiKey, `${user.name} (${slug})`] as const),
		),
	);
	const secrets = read.keys;
	const checks = conformChecks(
		read.keys.map((key) => nameKey(key, holders)),
		queryOf(reference.operations),
		streamsOf(contracts),
	);

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
				body: check.body,
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
		const why = results[0]?.problems[0]?.replace(/^The console /, '') ?? 'cannot be reached';
		throw new ConformError(masked(`the console at ${origin} ${why}`, secrets));
	}
	console.log(masked(table(results), secrets));
	console.log('');
	console.log(masked(summary(results, origin), secrets));
	write('junit', options.junit, masked(junit(results, origin), secrets));
	write('markdown', options.markdown, masked(markdown(results, origin, new Date()), secrets));
	return { conforms: results.every(({ verdict }) => verdict === 'conforms') };
}
