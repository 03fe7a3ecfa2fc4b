/**
 * `npm run conform -- --base-url <console> [--junit <file>] [--markdown <file>] [--timeout-ms <ms>]`:
 * checks a real console against the contract, with the keys in CONFORM_KEYS or CONFORM_KEYS_FILE
 * (never on the command line). The run is mock/conform/ (run.ts wires it, decide.ts judges,
 * reports.ts writes); this entry reads the arguments and exits 0 when everything conforms, 1 when
 * something does not, 2 when the run could not be made.
 */
import { parseArgs } from 'node:util';
import { ConformError, runConform } from '../mock/conform/run.ts';

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

try {
	const { conforms } = await runConform(
		{
			baseUrl: options['base-url'],
			timeoutMs: options['timeout-ms'],
			junit: options.junit,
			markdown: options.markdown,
		},
		process.env,
	);
	process.exit(conforms ? 0 : 1);
} catch (error) {
	if (!(error instanceof ConformError)) throw error;
	cannot(error.message);
}
