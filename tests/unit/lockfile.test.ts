import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { LOCK_FILES, missingOptionals, readLock } from '../../scripts/complete-lockfile.ts';

describe.each(
	LOCK_FILES.map((file) => [path.relative(path.join(import.meta.dirname, '../..'), file), file]),
)('%s', (_name, file) => {
	it('names every optional platform package, so `npm ci` accepts it on a fresh machine', () => {
		const missing = missingOptionals(readLock(file)).map(([name, version]) => `${name}@${version}`);
		expect(missing, 'run `npm run lockfile:complete` after npm install').toEqual([]);
	});
});
