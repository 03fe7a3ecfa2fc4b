/**
 * The run's shared build expects its mock on one port (`inject('mockPort')`), and several files
 * start a mock there (or check that nothing answers there). Files run two at a time, so a file holds
 * the port for as long as it uses it: a second file that asked for it meanwhile waits, where it
 * would otherwise find the first file's mock answering, or lose its own when the first one stops.
 * The hold is a folder made beside the system's temporary files (made or refused atomically),
 * naming its holder's process id; a holder that died without letting go is recognised and replaced.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** How long a file waits for the port: longer than any file that holds it runs. */
export const MOCK_PORT_WAIT_MS = 170_000;

/** The folder whose existence says the port is held. */
export function mockPortLockPath(port: number): string {
	return path.join(os.tmpdir(), `console-portal-mock-port-${String(port)}.lock`);
}

/** Whether a process with this id is still running (a signal 0 reaches it). */
function running(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		// EPERM: it runs under another user, so it is alive; ESRCH: no such process.
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** The holder's process id, or undefined while the folder has no holder file yet. */
async function holder(lock: string): Promise<number | undefined> {
	try {
		const pid = Number.parseInt(await readFile(path.join(lock, 'pid'), 'utf8'), 10);
		return Number.isInteger(pid) && pid > 0 ? pid : undefined;
	} catch (error) {
		// Made a moment ago and not written yet, or let go meanwhile: asked again on the next turn.
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
		throw error;
	}
}

/**
 * Waits until this process holds the shared mock port, and returns what lets it go. Throws, naming
 * the holder, when the port is not free within `timeoutMs`.
 */
export async function holdMockPort(
	port: number,
	timeoutMs = MOCK_PORT_WAIT_MS,
): Promise<() => Promise<void>> {
	const lock = mockPortLockPath(port);
	const deadline = Date.now() + timeoutMs;
	let unwritten = 0;
	for (;;) {
		try {
			await mkdir(lock);
			await writeFile(path.join(lock, 'pid'), String(process.pid));
			return () => rm(lock, { recursive: true, force: true });
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		}
		const pid = await holder(lock);
		unwritten = pid === undefined ? unwritten + 1 : 0;
		// A holder that died, or a folder left without a holder for two seconds, is stale.
		if ((pid !== undefined && !running(pid)) || unwritten > 20) {
			await rm(lock, { recursive: true, force: true });
			unwritten = 0;
			continue;
		}
		if (Date.now() > deadline) {
			throw new Error(
				`The shared mock port ${String(port)} stayed held by process ${String(pid ?? 'unknown')} for ${String(timeoutMs / 1000)} s (${lock})`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}
