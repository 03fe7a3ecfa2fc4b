import { describe, expect, it } from 'vitest';
import { missingOptionals, readLock } from '../../scripts/complete-lockfile.ts';

describe('package-lock.json', () => {
	it('names every optional platform package, so `npm ci` accepts it on a fresh machine', () => {
		const missing = missingOptionals(readLock()).map(([name, version]) => `${name}@${version}`);
		expect(missing, 'run `npm run lockfile:complete` after npm install').toEqual([]);
	});
});
