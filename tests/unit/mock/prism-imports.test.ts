/**
 * What Prism loads in the mock: faker's English data only, not every locale, and only once it is
 * read; no Postman collection reader; no allOf merger until Prism's validation calls it; and no
 * node-fetch until Prism's forwarder or callbacks call it. The mock starts without them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, ROOT } from '../../../support/processes.ts';

/**
 * Imports the mock's Prism adapter and Prism in a fresh Node, reads Prism's faker, and lists the
 * faker locales loaded.
 */
const SCRIPT = `
import { createRequire } from 'node:module';
await import('./mock/prism.ts');
const { createInstance } = await import('@stoplight/prism-http');
const { faker } = createRequire(import.meta.url)('./mock/faker-english.cjs');
const read = { locale: faker.locale, name: typeof faker.name.firstName() };
const loaded = [...new Set(Object.keys(createRequire(import.meta.url).cache)
	.filter((file) => file.includes('@faker-js/faker/dist/cjs/locale'))
	.map((file) => file.split('/dist/cjs/')[1].split('/').slice(0, 2).join('/')))].sort();
console.log(JSON.stringify({ loaded, prism: typeof createInstance, ...read }));
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
const { operations } = await state.prism();
console.log(JSON.stringify({ loaded, operations: operations.map((op) => op.method + ' ' + op.path) }));
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
			operations: ['get /api/v2/users', 'head /api/v2/users', 'options /api/v2/users'],
		});
	});
});

/**
 * Starts answering as the mock does in a fresh Node, then asks for a generated answer; lists what
 * of faker and of the allOf merger (Prism's request validation) was loaded before and after, and
 * what the generated body holds.
 */
const LAZY_SCRIPT = `
import { createRequire } from 'node:module';
const { loadState } = await import('./mock/state.ts');
const { createMemory } = await import('./mock/decide.ts');
const loaded = () => [...new Set(Object.keys(createRequire(import.meta.url).cache)
	.filter((file) => file.includes('/node_modules/') && /@faker-js|json-schema-merge-allof|node-fetch|isomorphic-fetch|whatwg-url/.test(file))
	.map((file) => file.split('node_modules/').at(-1).split('/').slice(0, 2).join('/')))].sort();
const state = await loadState({ viewsDir: 'content/views', contractFile: 'openapi.yaml', mockOrigin: 'http://127.0.0.1:1' });
const memory = createMemory();
const slug = state.views[0].slug;
const kept = await memory.answerer.users(state, 200, slug);
const atStart = loaded();
const generated = await memory.answerer.users(state, 200, undefined, { dynamic: true, spelled: 'dynamic=true' });
const users = JSON.parse(generated.body).users;
const afterGenerating = loaded();
const fetched = await createRequire(import.meta.url)('./mock/node-fetch-later.cjs').default('/relative').catch((error) => error.message);
console.log(JSON.stringify({ atStart, kept: kept.status, generated: generated.status, users: Array.isArray(users), afterGenerating, fetched, afterFetching: loaded() }));
`;

describe('what Prism loads only when it is needed', () => {
	// The contract's x-faker hints (a person's name, an email at example.com) make a generated
	// directory use faker: it is loaded then, never to start, and the merger never.
	it('loads neither faker, the allOf merger nor node-fetch to start, faker only to generate a directory, node-fetch only to fetch', () => {
		const result = spawnSync(bin('node'), ['--input-type=module', '-e', LAZY_SCRIPT], {
			cwd: ROOT,
			encoding: 'utf8',
		});
		expect(result.stderr).toBe('');
		expect(JSON.parse(result.stdout)).toEqual({
			atStart: [],
			kept: 200,
			generated: 200,
			users: true,
			afterGenerating: ['@faker-js/faker'],
			// node-fetch's own refusal: the stand-in hands the call to it.
			fetched: 'Only absolute URLs are supported',
			afterFetching: ['@faker-js/faker', 'node-fetch/lib', 'whatwg-url/lib'],
		});
	});
});

/**
 * Reads the sources as the mock does in a fresh Node, with the contract's cache in the folder
 * CONTRACT_CACHE; lists what it loaded of Redocly, which only a reading of the contract needs.
 */
const CACHED_SCRIPT = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({
	load(url, context, nextLoad) {
		const name = /node_modules\\/(@redocly\\/[^/]+)\\//.exec(url)?.[1];
		if (name) loaded.add(name);
		return nextLoad(url, context);
	},
});
const { loadState } = await import('./mock/state.ts');
const { checkoutContractCache } = await import('./src/sources/contract-cache.ts');
const contractCache = { ...checkoutContractCache(), folder: process.env.CONTRACT_CACHE };
const state = await loadState({ viewsDir: 'content/views', contractFile: 'openapi.yaml', mockOrigin: 'http://127.0.0.1:1', contractCache });
const { operations } = await state.prism();
console.log(JSON.stringify({ loaded: [...loaded].sort(), title: state.reference.title, operations: operations.length }));
`;

describe("the mock's start with the contract unchanged", () => {
	it('takes the contract from the cache the start before kept, and loads no Redocly', async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-contract-cache-'));
		try {
			const run = (): { loaded: string[]; title: string; operations: number } => {
				const result = spawnSync(bin('node'), ['--input-type=module', '-e', CACHED_SCRIPT], {
					cwd: ROOT,
					encoding: 'utf8',
					env: { ...process.env, CONTRACT_CACHE: folder },
				});
				expect(result.stderr).toBe('');
				return JSON.parse(result.stdout) as { loaded: string[]; title: string; operations: number };
			};
			const first = run();
			expect(first.loaded).toContain('@redocly/openapi-core');
			expect(await readdir(folder)).toHaveLength(1);
			const second = run();
			expect(second).toEqual({ ...first, loaded: [] });
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});
});
