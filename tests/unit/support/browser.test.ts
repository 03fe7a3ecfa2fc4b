/** The e2e project's shared Chromium is stopped by its process when closing it does not end it. */
import { spawn, type ChildProcess } from 'node:child_process';
import type { BrowserServer } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { stopChromiumServer } from '../../../support/browser.ts';

let child: ChildProcess | undefined;

/** A process standing in for Chromium: the leader of a process group of its own, as Playwright starts it. */
function standIn(): ChildProcess {
	child = spawn('sleep', ['60'], { detached: true, stdio: 'ignore' });
	return child;
}

/** How the stand-in ended: its signal, once it exited. */
function ended(stand: ChildProcess): Promise<NodeJS.Signals | null> {
	if (stand.exitCode !== null || stand.signalCode !== null) {
		return Promise.resolve(stand.signalCode);
	}
	return new Promise((resolve) => stand.once('exit', (_code, signal) => resolve(signal)));
}

afterEach(() => {
	if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
		process.kill(-child.pid, 'SIGKILL');
	}
});

describe('stopping the shared Chromium', () => {
	it('kills its process group when closing it hangs past the grace time', async () => {
		const stand = standIn();
		const server = {
			process: () => stand,
			close: () => new Promise<void>(() => {}),
		} as unknown as BrowserServer;
		await stopChromiumServer(server, 100);
		await expect(ended(stand)).resolves.toBe('SIGKILL');
	});

	it('leaves the process alone when closing it ended it in time', async () => {
		const stand = standIn();
		let closed = false;
		const server = {
			process: () => stand,
			close: () => {
				closed = true;
				return Promise.resolve();
			},
		} as unknown as BrowserServer;
		await stopChromiumServer(server, 100);
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(closed).toBe(true);
		expect(stand.exitCode).toBeNull();
		expect(stand.signalCode).toBeNull();
	});
});
