/**
 * `npm run build` killed outright (SIGKILL, which it cannot pass on) takes Astro's build with it:
 * no build is left running, writing into a folder nobody waits for.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { bin, childEnv, ROOT } from '../../support/processes.ts';

/** The line Astro prints as a build's last. */
const BUILD_COMPLETE = '[build] Complete!';

const started: ChildProcess[] = [];
const leftover: number[] = [];
const building = (() => {
	const builds = path.join(ROOT, 'node_modules', '.cache', 'portal-builds');
	mkdirSync(builds, { recursive: true });
	return mkdtempSync(path.join(builds, 'stop-'));
})();

afterAll(() => {
	for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
	// Only if the test failed: the Astro process this test started and left.
	for (const pid of leftover) if (alive(pid)) process.kill(pid, 'SIGKILL');
	rmSync(building, { recursive: true, force: true });
});

/** Whether a process of ours with this id still runs (a zombie counts as gone). */
function alive(pid: number): boolean {
	const state = spawnSync('ps', ['-o', 'stat=', '-p', String(pid)], { encoding: 'utf8' });
	const stat = state.stdout.trim();
	return stat !== '' && !stat.startsWith('Z');
}

/** The processes whose parent is `pid`. */
function childrenOf(pid: number): number[] {
	const listed = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
	return listed.stdout
		.split('\n')
		.map((line) => Number(line.trim()))
		.filter((child) => child > 0);
}

/** Waits until `check` holds, polling, for up to `ms`; then says whether it held. */
async function within(ms: number, check: () => boolean): Promise<boolean> {
	const until = Date.now() + ms;
	while (Date.now() < until) {
		if (check()) return true;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	return check();
}

describe('npm run build', () => {
	it('leaves no Astro build running when it is killed outright', async () => {
		const script = spawn(
			bin('node'),
			[path.join(ROOT, 'scripts', 'build.ts'), '--outDir', path.join(building, 'dist')],
			{
				cwd: ROOT,
				env: childEnv({ PORTAL_BUILD_CACHE_DIR: path.join(building, 'cache'), NO_COLOR: '1' }),
				stdio: ['ignore', 'pipe', 'pipe'],
			},
		);
		started.push(script);
		let output = '';
		script.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
		script.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
		// The output ends when every process writing it has: the script, and Astro's, which inherits it.
		const ended = new Promise<void>((resolve) => script.stdout?.once('close', resolve));
		const scriptPid = script.pid ?? 0;
		// Astro's process, once it has started building (its build log has begun).
		let astro: number | undefined;
		const astroStarted = await within(120_000, () => {
			astro ??= childrenOf(scriptPid)[0];
			return astro !== undefined && output.includes('[build]');
		});
		expect(astroStarted, output).toBe(true);
		if (astro === undefined) throw new Error('No Astro process');
		leftover.push(astro);
		script.kill('SIGKILL');
		await ended;
		// Left running, Astro would have built on to its last line.
		expect(stripVTControlCharacters(output)).not.toContain(BUILD_COMPLETE);
		expect(alive(astro), `Astro's build (pid ${String(astro)}) still runs`).toBe(false);
	});
});
