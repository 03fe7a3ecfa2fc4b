/**
 * `npm run lockfile:complete`: the npm registry this project installs from lacks the prebuilt
 * binaries of other platforms (Astro's compiler binding, Pagefind), so npm leaves them out of
 * package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds each missing
 * optional platform package as an entry with its os and cpu, which npm ci skips on other machines.
 * Run it after every `npm install` that changes the lock; it completes the portal's lock, the
 * benchmarks' (`bench/tools/package-lock.json`), StrykerJS's (`tests/mutation/package-lock.json`)
 * and the tests' (`tests/package-lock.json`), or the lock files named on its command line.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { LOCK_FILES, missingOptionals, platformOf, readLock } from './lib/lockfile.ts';

const files = process.argv.length > 2 ? process.argv.slice(2) : LOCK_FILES;
for (const file of files) {
	const lock = readLock(file);
	const added: string[] = [];
	for (const { path: where, name, version } of missingOptionals(lock)) {
		const platform = platformOf(name);
		if (!platform) {
			console.error(`${name}@${version}: cannot tell its platform from its name; add it by hand`);
			process.exitCode = 1;
			continue;
		}
		// No `integrity`: this registry does not hold these packages, so their hashes cannot be
		// read here; npm checks each one against the registry's own hash where it installs it.
		lock.packages[where] = { version, optional: true, ...platform };
		added.push(`${name}@${version}`);
	}
	// Entries this script added before (no `resolved`, no `integrity`) get today's platform
	// fields too, so a rule learnt later (such as `libc`) reaches them.
	for (const [where, entry] of Object.entries(lock.packages)) {
		if (!where || entry['resolved'] !== undefined || entry['integrity'] !== undefined) continue;
		const platform = platformOf(where.slice(where.lastIndexOf('node_modules/') + 13));
		if (entry['optional'] === true && platform) Object.assign(entry, platform);
	}
	writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
	const shown = path.relative(process.cwd(), file);
	console.log(added.length ? `${shown}: added ${added.join(', ')}` : `${shown} is complete`);
}
