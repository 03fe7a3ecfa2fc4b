import { existsSync } from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { pinning, prefixedCommand } from '../../../bench/lib/load.ts';

describe('where the mock benchmark runs a loaded server and its load generator', () => {
	it('puts the server on core 0 and autocannon on core 1 where the machine has both and taskset', () => {
		const canPin = os.availableParallelism() >= 2 && existsSync('/usr/bin/taskset');
		expect(pinning({})).toEqual(
			canPin
				? { server: ['/usr/bin/taskset', '-c', '0'], load: ['/usr/bin/taskset', '-c', '1'] }
				: { server: [], load: [] },
		);
	});

	it('pins nothing when BENCH_PIN=0 asks it not to', () => {
		expect(pinning({ BENCH_PIN: '0' })).toEqual({ server: [], load: [] });
	});

	it('runs a command through the prefix, its own arguments after the file', () => {
		expect(prefixedCommand(['/usr/bin/taskset', '-c', '0'], '/bin/node', ['mock/cli.ts'])).toEqual({
			file: '/usr/bin/taskset',
			args: ['-c', '0', '/bin/node', 'mock/cli.ts'],
		});
	});

	it('runs the command as it is with no prefix', () => {
		expect(prefixedCommand([], '/bin/node', ['mock/cli.ts'])).toEqual({
			file: '/bin/node',
			args: ['mock/cli.ts'],
		});
	});
});
