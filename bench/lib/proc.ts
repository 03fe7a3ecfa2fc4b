/**
 * What the benchmarks read of a running server's process tree from /proc: its processes and
 * their resident memory.
 */
import { readFileSync } from 'node:fs';

/** A process and its children, all the way down (a cluster's workers), from /proc. */
export function processTree(pid: number): number[] {
	let children: number[] = [];
	try {
		children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
			.trim()
			.split(/\s+/)
			.filter(Boolean)
			.map(Number);
	} catch {
		// Gone since it was listed.
	}
	return [pid, ...children.flatMap(processTree)];
}

/** The resident memory of a process and its children in MiB, from /proc. */
export function rssMiB(pid: number | undefined): number {
	if (pid === undefined) return NaN;
	let kib = 0;
	for (const each of processTree(pid)) {
		try {
			const status = readFileSync(`/proc/${each}/status`, 'utf8');
			kib += Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
		} catch {
			// Gone since it was listed.
		}
	}
	return kib / 1024;
}
