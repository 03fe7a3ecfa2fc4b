/**
 * What Prism loads in the mock: faker's English data only, not every locale, and no Postman
 * collection reader, so the mock starts without either.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bin, ROOT } from '../../../support/processes.ts';

/** Imports the mock's Prism adapter and Prism in a fresh Node; lists the faker locales loaded. */
const SCRIPT = `
import { createRequire } from 'node:module';
await import('./mock/answers.ts');
const { createInstance } = await import('@stoplight/prism-http');
const { faker } = createRequire(import.meta.url)('./mock/faker-english.cjs');
const loaded = [...new Set(Object.keys(createRequire(import.meta.url).cache)
	.filter((file) => file.includes('@faker-js/faker/dist/cjs/locale'))
	.map((file) => file.split('/dist/cjs/')[1].split('/').slice(0, 2).join('/')))].sort();
console.log(JSON.stringify({ loaded, prism: typeof createInstance, locale: faker.locale, name: typeof faker.name.firstName() }));
`;

describe("Prism's faker", () => {
	it('is the English one, and no other locale is loaded', () => {
		const result = spawnSync(bin('node'), ['--input-type=module', '-e', SCRIPT], {
			cwd: ROOT,
			encoding: 'utf8',
		});
		expect(result.stderr).toBe('');
		const report = JSON.parse(result.stdout) as { loaded: string[]; locale: string; name: string };
		expect(report).toEqual({
			loaded: ['locale/en.js', 'locales/en'],
			prism: 'function',
			locale: 'en',
			name: 'string',
		});
	});
});

/** Reads the contract as the mock does in a fresh Node; lists what it loaded of Postman's reader. */
const OPERATIONS_SCRIPT = `
import { createRequire } from 'node:module';
const { loadState } = await import('./mock/state.ts');
const state = await loadState({ viewsDir: 'content/views', contractFile: 'openapi.yaml', mockOrigin: 'http://127.0.0.1:1' });
const loaded = Object.keys(createRequire(import.meta.url).cache)
	.filter((file) => file.includes('/node_modules/') && /postman/.test(file))
	.map((file) => file.split('node_modules/')[1]);
console.log(JSON.stringify({ loaded, operations: state.operations.map((op) => op.method + ' ' + op.path) }));
`;

describe("Prism's reading of the contract", () => {
	it('reads the OpenAPI contract without loading the Postman collection reader', () => {
		const result = spawnSync(bin('node'), ['--input-type=module', '-e', OPERATIONS_SCRIPT], {
			cwd: ROOT,
			encoding: 'utf8',
		});
		expect(result.stderr).toBe('');
		expect(JSON.parse(result.stdout)).toEqual({
			loaded: [],
			operations: ['get /api/v2/users'],
		});
	});
});
