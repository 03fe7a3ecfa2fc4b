/**
 * `npm run build`: `astro build` with the flags given (`--outDir <folder>`; `--help` is Astro's),
 * then the search index in this small process once Astro's has exited
 * (`src/integrations/search-index.ts`). Indexed inside Astro's process, as a bare `astro build`
 * still does, Pagefind's service ran beside everything Astro kept from rendering: at 10,000 views
 * with 80,000 people's pages, 1.4 GB of Astro's beside Pagefind's 3.0 GB. Run after, the build's
 * peak is the larger of the two, not their sum.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);

/** Runs `astro build` with `args` and `env` added; resolves to its exit code. */
function astroBuild(env: NodeJS.ProcessEnv): Promise<number> {
	const child = spawn(path.join(ROOT, 'node_modules', '.bin', 'astro'), ['build', ...args], {
		cwd: process.cwd(),
		env: { ...process.env, ...env },
		stdio: 'inherit',
	});
	// While Astro runs, a Ctrl-C reaches its process too (the terminal's process group) and this
	// one waits for it to end; a SIGTERM (a caller stopping the build) is passed on to it.
	const ignore = (): void => {};
	const passOn = (): void => void child.kill('SIGTERM');
	process.on('SIGINT', ignore);
	process.on('SIGTERM', passOn);
	return new Promise((resolve) => {
		const done = (code: number): void => {
			process.off('SIGINT', ignore);
			process.off('SIGTERM', passOn);
			resolve(code);
		};
		child.once('error', (error) => {
			console.error(`✖ astro build could not start: ${error.message}`);
			done(1);
		});
		child.once('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
	});
}

const { SEARCH_INDEX_AFTER, outDirOf, unsearchedAddresses, writeSearchIndex } =
	await import('../src/integrations/search-index.ts');
if (args.some((arg) => ['--help', '-h', '--version', '-v'].includes(arg))) {
	process.exit(await astroBuild({}));
}
const code = await astroBuild({ [SEARCH_INDEX_AFTER]: '1' });
if (code !== 0) process.exit(code);

const { mockPlace } = await import('../src/site/mock-place.ts');
try {
	const started = performance.now();
	const { pages } = await writeSearchIndex(
		outDirOf(args, process.cwd()),
		unsearchedAddresses(mockPlace()),
	);
	const seconds = ((performance.now() - started) / 1000).toFixed(1);
	console.log(`Indexed ${pages} pages for search in ${seconds} s`);
} catch (error) {
	console.error(`✖ ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
}
