import { describe, expect, it } from 'vitest';
import path from 'node:path';
import {
	LOCK_FILES,
	missingOptionals,
	platformOf,
	readLock,
} from '../../../scripts/lib/lockfile.ts';

describe.each(
	LOCK_FILES.map((file) => [path.relative(path.join(import.meta.dirname, '../..'), file), file]),
)('%s', (_name, file) => {
	it('names every optional platform package, so `npm ci` accepts it on a fresh machine', () => {
		const missing = missingOptionals(readLock(file)).map(
			({ name, version }) => `${name}@${version}`,
		);
		expect(missing, 'run `npm run lockfile:complete` after npm install').toEqual([]);
	});
});

describe('platformOf', () => {
	it.each([
		[
			'@astrojs/compiler-binding-linux-arm64-musl',
			{ os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
		],
		['@astrojs/compiler-binding-linux-x64-gnu', { os: ['linux'], cpu: ['x64'], libc: ['glibc'] }],
		['@astrojs/compiler-binding-darwin-arm64', { os: ['darwin'], cpu: ['arm64'] }],
		['@pagefind/windows-x64', { os: ['win32'], cpu: ['x64'] }],
		['@astrojs/compiler-binding-wasm32-wasi', { cpu: ['wasm32'] }],
	])('reads %s as %j', (name, platform) => {
		expect(platformOf(name)).toEqual(platform);
	});

	it('does not guess for a name that names no platform', () => {
		expect(platformOf('left-pad')).toBeUndefined();
	});
});

describe('missingOptionals', () => {
	it('puts a second version of a binding beside the package that needs it, not over the first', () => {
		const lock = {
			packages: {
				'': { optionalDependencies: { '@x/bind-darwin-arm64': '1.0.0' } },
				'node_modules/old-tool': { optionalDependencies: { '@x/bind-darwin-arm64': '0.9.0' } },
				'node_modules/other-tool': { optionalDependencies: { '@x/bind-darwin-arm64': '1.0.0' } },
				'node_modules/present': { optionalDependencies: { '@x/bind-linux-x64-gnu': '1.0.0' } },
				'node_modules/@x/bind-linux-x64-gnu': { version: '1.0.0' },
			},
		};
		expect(missingOptionals(lock)).toEqual([
			{ path: 'node_modules/@x/bind-darwin-arm64', name: '@x/bind-darwin-arm64', version: '1.0.0' },
			{
				path: 'node_modules/old-tool/node_modules/@x/bind-darwin-arm64',
				name: '@x/bind-darwin-arm64',
				version: '0.9.0',
			},
		]);
	});
});
