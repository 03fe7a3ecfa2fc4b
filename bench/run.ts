/**
 * `npm run bench`: every benchmark, one after another, each in its own process so one failing
 * does not stop the rest; then `bench/results/README.md` and `summary.json` gather their results.
 * Build scale runs first so search can reuse its 100- and 1,000-view builds.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { childEnv, ROOT } from '../support/processes.ts';
import { machine, RESULTS_DIR, runFacts, runLine } from './lib/report.ts';

const BENCHMARKS = [
	{ name: 'build', script: 'bench/build.ts' },
	{ name: 'search', script: 'bench/search.ts' },
	{ name: 'weight', script: 'bench/weight.ts' },
	{ name: 'lighthouse', script: 'bench/lighthouse.ts' },
	{ name: 'mock', script: 'bench/mock.ts' },
	{ name: 'mock-reload', script: 'bench/mock-reload.ts' },
	{ name: 'proxy', script: 'bench/proxy.ts' },
] as const;

/** Runs one benchmark script with the pinned Node; resolves with its exit code and duration. */
function runScript(script: string): Promise<{ code: number | null; seconds: number }> {
	const started = performance.now();
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [script], {
			cwd: ROOT,
			env: childEnv({ BENCH_REUSE_BUILDS: '1' }),
			stdio: 'inherit',
		});
		child.on('error', reject);
		child.on('exit', (code) => resolve({ code, seconds: (performance.now() - started) / 1000 }));
	});
}

/** Runs every benchmark and gathers the results. */
async function main(): Promise<void> {
	const outcomes: { name: string; code: number | null; seconds: number }[] = [];
	for (const { name, script } of BENCHMARKS) {
		console.error(`\n== bench:${name} ==`);
		outcomes.push({ name, ...(await runScript(script)) });
	}
	const sections: string[] = [];
	const summary: Record<string, unknown> = {};
	for (const { name } of BENCHMARKS) {
		const markdown = path.join(RESULTS_DIR, `${name}.md`);
		const json = path.join(RESULTS_DIR, `${name}.json`);
		if (existsSync(markdown))
			sections.push((await readFile(markdown, 'utf8')).replace(/^# /, '## '));
		if (existsSync(json)) summary[name] = JSON.parse(await readFile(json, 'utf8')) as unknown;
	}
	const facts = runFacts();
	const m = machine();
	const runs = outcomes
		.map(
			({ name, code, seconds }) =>
				`bench:${name} ${code === 0 ? 'ok' : `FAILED (exit ${code ?? 'signal'})`} in ${seconds.toFixed(0)} s`,
		)
		.join(', ');
	await writeFile(
		path.join(RESULTS_DIR, 'README.md'),
		`# Benchmark results\n\n${runLine(facts, m)}\n\n${runs}.\n\n${sections.join('\n')}`,
	);
	await writeFile(
		path.join(RESULTS_DIR, 'summary.json'),
		`${JSON.stringify({ ...facts, machine: m, runs: outcomes, results: summary }, null, '\t')}\n`,
	);
	console.log(`\n${runs}\nResults in bench/results/.`);
	if (outcomes.some(({ code }) => code !== 0)) process.exitCode = 1;
}

await main();
