/**
 * `npm run lockfile:complete`: the npm registry this project installs from lacks the prebuilt
 * binaries of other platforms (Astro's compiler binding, Pagefind), so npm leaves them out of
 * package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds each missing
 * optional platform package as an entry with its os and cpu, which npm ci skips on other machines.
 * Run it after every `npm install` that changes the lock; it completes the portal's lock and the
 * benchmarks' (`bench/tools/package-lock.json`), or the lock files named on its command line.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const LOCK_FILE = path.resolve(import.meta.dirname, '..', 'package-lock.json');

/** Every lock file of the project: the portal's and the benchmarks'. */
export const LOCK_FILES = [
	LOCK_FILE,
	path.resolve(import.meta.dirname, '..', 'bench', 'tools', 'package-lock.json'),
];

const lockSchema = z.looseObject({
	packages: z.record(
		z.string(),
		z.looseObject({ optionalDependencies: z.record(z.string(), z.string()).optional() }),
	),
});

/** The platform a prebuilt package's name says it is for. */
export function platformOf(name: string): { os?: string[]; cpu?: string[] } | undefined {
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
	if (!os && !cpu) return undefined;
	return { ...(os ? { os: [os] } : {}), ...(cpu ? { cpu: [cpu] } : {}) };
}

/** The optional dependencies the lock names but holds no entry for. */
export function missingOptionals(lock: z.infer<typeof lockSchema>): [string, string][] {
	const missing = new Map<string, string>();
	for (const [where, entry] of Object.entries(lock.packages)) {
		for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
			const nested = where ? `${where}/node_modules/${name}` : `node_modules/${name}`;
			if (!lock.packages[nested] && !lock.packages[`node_modules/${name}`])
				missing.set(name, version);
		}
	}
	return [...missing];
}

/** Reads the project's lock file, checked for the shape used here but kept as written. */
export function readLock(file = LOCK_FILE): z.infer<typeof lockSchema> {
	const raw: unknown = JSON.parse(readFileSync(file, 'utf8'));
	lockSchema.parse(raw);
	return raw as z.infer<typeof lockSchema>;
}

if (import.meta.main) {
	const files = process.argv.length > 2 ? process.argv.slice(2) : LOCK_FILES;
	for (const file of files) {
		const lock = readLock(file);
		const added: string[] = [];
		for (const [name, version] of missingOptionals(lock)) {
			const platform = platformOf(name);
			if (!platform) {
				console.error(`${name}@${version}: cannot tell its platform from its name; add it by hand`);
				process.exitCode = 1;
				continue;
			}
			lock.packages[`node_modules/${name}`] = { version, optional: true, ...platform };
			added.push(`${name}@${version}`);
		}
		writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
		const shown = path.relative(process.cwd(), file);
		console.log(added.length ? `${shown}: added ${added.join(', ')}` : `${shown} is complete`);
	}
}
