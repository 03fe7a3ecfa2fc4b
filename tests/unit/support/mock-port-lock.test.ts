import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../../../support/processes.ts';
import { holdMockPort, mockPortLockPath } from '../../support/mock-port-lock.ts';

/** A port number no real run uses as its mock port (the lock is only a folder name). */
const PORT = 70_000 + (process.pid % 10_000);

afterEach(async () => {
	await rm(mockPortLockPath(PORT), { recursive: true, force: true });
});

/** A process id that was running a moment ago and is no more. */
function deadPid(): number {
	const child = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], {
		encoding: 'utf8',
	});
	return Number(child.stdout.trim());
}

describe('the shared mock port, held by one test file at a time', () => {
	it('makes a second file wait until the first lets go, then lets it hold the port', async () => {
		const letGo = await holdMockPort(PORT);
		let second = false;
		const waiting = holdMockPort(PORT).then((letGoAgain) => {
			second = true;
			return letGoAgain;
		});
		await new Promise((resolve) => setTimeout(resolve, 400));
		expect(second).toBe(false);
		await letGo();
		const letGoAgain = await waiting;
		expect(second).toBe(true);
		await letGoAgain();
		await expect(stat(mockPortLockPath(PORT))).rejects.toThrow(/ENOENT/);
	});

	it('takes the port from a holder that died without letting go', async () => {
		await mkdir(mockPortLockPath(PORT));
		await writeFile(path.join(mockPortLockPath(PORT), 'pid'), String(deadPid()));
		const letGo = await holdMockPort(PORT, 2000);
		await letGo();
	});

	it('gives up after its time, naming the process that holds the port', async () => {
		await mkdir(mockPortLockPath(PORT));
		await writeFile(path.join(mockPortLockPath(PORT), 'pid'), String(process.ppid));
		await expect(holdMockPort(PORT, 300)).rejects.toThrow(
			`The shared mock port ${String(PORT)} stayed held by process ${String(process.ppid)} for 0.3 s`,
		);
	});
});

/** The test files that start the mock on the run's shared port (the one the shared build expects). */
async function filesStartingTheSharedMock(): Promise<string[]> {
	const entries = await readdir(path.join(ROOT, 'tests'), { recursive: true });
	const found: string[] = [];
	for (const entry of entries.filter((name) => name.endsWith('.test.ts'))) {
		const text = await readFile(path.join(ROOT, 'tests', entry), 'utf8');
		if (!text.includes("'mock/cli.ts'")) continue;
		const names = [...text.matchAll(/const (\w+) = inject\('mockPort'\)/g)].map(([, name]) => name);
		const shared = [...names, "inject\\('mockPort'\\)"].join('|');
		if (new RegExp(`MOCK_PORT: String\\((${shared})\\)`).test(text)) found.push(entry);
	}
	return found.sort();
}

describe('the test files that start a mock on the shared port', () => {
	it('are the ones known to, and each holds the port while it runs', async () => {
		const files = await filesStartingTheSharedMock();
		expect(files).toEqual([
			'e2e/csp.test.ts',
			'e2e/reference-at-a-glance.test.ts',
			'e2e/try-it-edges.test.ts',
			'e2e/try-it-request.test.ts',
			'e2e/try-it.test.ts',
			'integration/samples.test.ts',
		]);
		for (const file of files) {
			const text = await readFile(path.join(ROOT, 'tests', file), 'utf8');
			expect(text, file).toMatch(/await holdMockPort\(/);
			expect(text, file).toMatch(/await letGoOfPort\?\.\(\)/);
		}
	});
});
