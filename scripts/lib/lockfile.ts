/**
 * Reading and completing package-lock.json files for `npm run lockfile:complete`
 * (`scripts/complete-lockfile.ts`): which optional platform packages npm left out, and the os,
 * cpu and libc each one is for.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { satisfies } from 'semver';
import { z } from 'zod';

const LOCK_FILE = path.resolve(import.meta.dirname, '..', '..', 'package-lock.json');

/** Every lock file of the project: the portal's, the benchmarks', StrykerJS's and the tests'. */
export const LOCK_FILES = [
	LOCK_FILE,
	path.resolve(import.meta.dirname, '..', '..', 'bench', 'tools', 'package-lock.json'),
	path.resolve(import.meta.dirname, '..', '..', 'tests', 'mutation', 'package-lock.json'),
	path.resolve(import.meta.dirname, '..', '..', 'tests', 'package-lock.json'),
];

const lockSchema = z.looseObject({
	packages: z.record(
		z.string(),
		z.looseObject({
			version: z.string().optional(),
			optionalDependencies: z.record(z.string(), z.string()).optional(),
		}),
	),
});

/** The platform a prebuilt package's name says it is for: os, cpu and, on Linux, the C library. */
export function platformOf(
	name: string,
): { os?: string[]; cpu?: string[]; libc?: string[] } | undefined {
	const os = /android/.test(name)
		? 'android'
		: /darwin/.test(name)
			? 'darwin'
			: /win32|windows/.test(name)
				? 'win32'
				: /freebsd/.test(name)
					? 'freebsd'
					: /linux/.test(name)
						? 'linux'
						: undefined;
	const cpu = /arm64|aarch64/.test(name)
		? 'arm64'
		: /wasm32/.test(name)
			? 'wasm32'
			: /x64/.test(name)
				? 'x64'
				: /ia32/.test(name)
					? 'ia32'
					: undefined;
	// npm reads `libc` on Linux only: without it, a glibc machine would take a musl build too.
	const libc =
		os !== 'linux'
			? undefined
			: /musl/.test(name)
				? 'musl'
				: /gnu/.test(name)
					? 'glibc'
					: undefined;
	if (!os && !cpu) return undefined;
	return {
		...(os ? { os: [os] } : {}),
		...(cpu ? { cpu: [cpu] } : {}),
		...(libc ? { libc: [libc] } : {}),
	};
}

/** One optional package the lock names but holds no entry for, and where its entry goes. */
export interface MissingOptional {
	/** `node_modules/<name>`, or beside its dependent when the top level holds another version. */
	path: string;
	name: string;
	version: string;
}

/**
 * The optional dependencies the lock names but holds no entry for. A package goes to the top
 * level unless that already holds (or will hold) another version of it; then it goes into the
 * `node_modules` of the package that needs it, where Node looks first.
 */
export function missingOptionals(lock: z.infer<typeof lockSchema>): MissingOptional[] {
	const placed = new Map<string, string>();
	const missing: MissingOptional[] = [];
	for (const [where, entry] of Object.entries(lock.packages)) {
		for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
			const top = `node_modules/${name}`;
			const nested = where ? `${where}/node_modules/${name}` : top;
			if (lock.packages[nested] || placed.has(nested)) continue;
			const atTop = lock.packages[top]?.version ?? placed.get(top);
			// The top-level copy serves this dependent when its version is in the asked range.
			if (atTop !== undefined && (atTop === version || satisfies(atTop, version))) continue;
			const path = atTop === undefined ? top : nested;
			placed.set(path, version);
			missing.push({ path, name, version });
		}
	}
	return missing;
}

/** Reads the project's lock file, checked for the shape used here but kept as written. */
export function readLock(file = LOCK_FILE): z.infer<typeof lockSchema> {
	const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
	lockSchema.parse(raw);
	return raw as z.infer<typeof lockSchema>;
}
