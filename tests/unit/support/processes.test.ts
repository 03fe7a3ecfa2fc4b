/** A server a test starts and waits for is stopped when it never answers, not left running. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freePort, startAndWait, type Started } from '../../../support/processes.ts';

let folder: string;
let started: Started | undefined;

beforeEach(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-processes-'));
});

afterEach(async () => {
	await started?.stop();
	started = undefined;
	await rm(folder, { recursive: true, force: true });
});

/** Whether a process id still names a running process. */
function running(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
		throw error;
	}
}

describe('starting a server and waiting for it', () => {
	it('stops a process that never answers, and says what it printed', async () => {
		const port = await freePort();
		const pidFile = path.join(folder, 'pid');
		const waiting = startAndWait(
			'sh',
			['-c', `echo $$ > '${pidFile}'; echo listening nowhere; exec sleep 60`],
			`http://127.0.0.1:${port}/`,
			{},
			1000,
		);
		await expect(waiting).rejects.toThrow(/did not answer within 1000 ms:\nlistening nowhere/);
		const pid = Number(await readFile(pidFile, 'utf8'));
		expect(running(pid)).toBe(false);
	});

	it('gives the running process once its address answers', async () => {
		const port = await freePort();
		started = await startAndWait(
			process.execPath,
			[
				'-e',
				`require('node:http').createServer((q, a) => a.end('ok')).listen(${port}, '127.0.0.1')`,
			],
			`http://127.0.0.1:${port}/`,
		);
		expect(started.child.exitCode).toBeNull();
		expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
	});
});
