/**
 * `npm run conform -- --base-url <console> [--junit <file>] [--markdown <file>] [--timeout-ms <ms>]`
 * (`--help` lists the flags, each also an environment variable): checks a real console against the
 * contract, with the keys in CONFORM_KEYS or CONFORM_KEYS_FILE (never on the command line). The run
 * is mock/conform/ (run.ts wires it, decide.ts judges, reports.ts writes); this entry reads the
 * arguments and exits 0 when everything conforms, 1 when something does not, 2 when the run could
 * not be made.
 */
import { takeCommandLine } from '../src/sources/command-line.ts';
import { SETTINGS } from '../src/sources/settings.ts';

// Each flag given is in its variable from here on: the variable is read whichever set it.
takeCommandLine('conform');

/** Stops the run that could not be made, with one line. */
function cannot(message: string): never {
	console.error(`conform: ${message}`);
	process.exit(2);
}

/** A variable's value, as its setting reads it: an empty one is as good as none. */
function variable(
	name: 'CONFORM_BASE_URL' | 'CONFORM_JUNIT' | 'CONFORM_MARKDOWN',
): string | undefined {
	return process.env[name] || undefined;
}

const timeout = SETTINGS.CONFORM_TIMEOUT_MS.schema.safeParse(
	process.env['CONFORM_TIMEOUT_MS'] || undefined,
);
if (!timeout.success) cannot(timeout.error.issues.map((issue) => issue.message).join('; '));

const { ConformError, runConform } = await import('../mock/conform/run.ts');
try {
	const { conforms } = await runConform(
		{
			baseUrl: variable('CONFORM_BASE_URL'),
			timeoutMs: timeout.data,
			junit: variable('CONFORM_JUNIT'),
			markdown: variable('CONFORM_MARKDOWN'),
		},
		process.env,
	);
	process.exit(conforms ? 0 : 1);
} catch (error) {
	if (!(error instanceof ConformError)) throw error;
	cannot(error.message);
}
