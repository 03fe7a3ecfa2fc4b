/**
 * The contract's reading kept from one start to the next: an unchanged contract's document and
 * model come from it, while an edited contract, a broken one, a change to the code that reads
 * contracts, a damaged cache and one that cannot be written all read as they would without it.
 * A reading taken from the cache is seen by planting another title in the cache file: a start
 * that took it from the file shows it. `readContract` remembers a reading by the file's name in a
 * process, so each start here names the same file another way, as a new process reads it afresh,
 * and opens the cache anew, for the code as it is then.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractError, readContract, type Contract } from '../../../src/sources/contract.ts';
import {
	checkoutContractCache,
	CONTRACT_CACHE_FOLDER,
	openContractCache,
	type ContractCacheOptions,
} from '../../../src/sources/contract-cache.ts';
import { ROOT } from '../../../support/processes.ts';

const contractText = await readFile(path.join(ROOT, 'openapi.yaml'), 'utf8');

let scratch: string;

beforeAll(async () => {
	scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-contract-cache-'));
});

afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

/** A folder with a copy of openapi.yaml, a cache folder and a copy of a code file it depends on. */
async function setUp(name: string): Promise<{ contract: string; cache: ContractCacheOptions }> {
	const dir = await mkdtemp(path.join(scratch, `${name}-`));
	const contract = path.join(dir, 'openapi.yaml');
	await writeFile(contract, contractText);
	const code = path.join(dir, 'openapi.ts');
	await writeFile(code, await readFile(path.join(ROOT, 'src/sources/openapi.ts')));
	return { contract, cache: { folder: path.join(dir, 'cache'), code: [code] } };
}

let starts = 0;
/** The contract file named anew, so that no reading of this process is reused. */
function namedAnew(contract: string): string {
	starts += 1;
	// path.join would make them one name again.
	return `${path.dirname(contract)}${`${path.sep}.`.repeat(starts)}${path.sep}openapi.yaml`;
}

/** A start's reading of the contract: the cache opened for the code as it is now. */
function start(contract: string, cache?: ContractCacheOptions): Promise<Contract> {
	const named = namedAnew(contract);
	return readContract(named, cache && openContractCache(named, cache));
}

/** The one cache file of a cache folder. */
async function cacheFile(cache: ContractCacheOptions): Promise<string> {
	const names = await readdir(cache.folder);
	expect(names).toHaveLength(1);
	return path.join(cache.folder, names[0] ?? '');
}

/** Writes another title into the cached reading. */
async function plant(cache: ContractCacheOptions, title: string): Promise<void> {
	const file = await cacheFile(cache);
	const kept = deserialize(await readFile(file)) as { reference: { title: string } };
	kept.reference.title = title;
	await writeFile(file, serialize(kept));
}

describe('the contract cache', () => {
	it('gives a start with the contract unchanged the reading kept by the start before', async () => {
		const { contract, cache } = await setUp('unchanged');
		const first = await start(contract, cache);
		expect(first.reference.title).toBe('Console user directory API');
		await plant(cache, 'Planted in the cache');
		const second = await start(contract, cache);
		expect(second.reference.title).toBe('Planted in the cache');
		expect(second.document).toEqual(first.document);
	});

	it('gives the same document and model as a reading without it, undefined fields and all', async () => {
		const { contract, cache } = await setUp('same');
		const without = await start(contract);
		await start(contract, cache);
		const cached = await start(contract, cache);
		expect(isDeepStrictEqual(cached.document, without.document)).toBe(true);
		expect(isDeepStrictEqual(cached.reference, without.reference)).toBe(true);
	});

	it('reads an edited contract again, and keeps the edit in place of the reading before', async () => {
		const { contract, cache } = await setUp('edited');
		await start(contract, cache);
		await plant(cache, 'Planted in the cache');
		await writeFile(
			contract,
			contractText.replace('Console user directory API', 'Edited user directory API'),
		);
		expect((await start(contract, cache)).reference.title).toBe('Edited user directory API');
		expect((await start(contract, cache)).reference.title).toBe('Edited user directory API');
		await plant(cache, 'Planted again');
		expect((await start(contract, cache)).reference.title).toBe('Planted again');
	});

	it('refuses a broken contract with the message it gives without a cache, each time', async () => {
		const { contract, cache } = await setUp('broken');
		await start(contract, cache);
		await writeFile(contract, contractText.replace(/^openapi: .*$/m, 'openapi: [3.1.0'));
		const without = await start(contract).catch((error: unknown) => error);
		expect(without).toBeInstanceOf(ContractError);
		for (let again = 0; again < 2; again += 1) {
			const cached = await start(contract, cache).catch((error: unknown) => error);
			expect(cached).toBeInstanceOf(ContractError);
			// Each start names the file its own way (start()), and the message names it so.
			const unnamed = (error: unknown): string =>
				(error as Error).message.replace(/^.*?openapi\.yaml/, 'openapi.yaml');
			expect(unnamed(cached)).toMatch(/^openapi\.yaml: expected valid YAML/);
			expect(unnamed(cached)).toBe(unnamed(without));
		}
	});

	it('reads the contract again after a change to the code that reads it, and keeps one file', async () => {
		const { contract, cache } = await setUp('code');
		await start(contract, cache);
		await plant(cache, 'Planted in the cache');
		const [code = ''] = cache.code;
		await writeFile(code, `${await readFile(code, 'utf8')}\n// changed\n`);
		expect((await start(contract, cache)).reference.title).toBe('Console user directory API');
		expect(await readdir(cache.folder)).toHaveLength(1);
	});

	it('keeps nothing for the new code from a process whose code changed on disk while it ran', async () => {
		const { contract, cache } = await setUp('running');
		await start(contract, cache);
		const [before] = await readdir(cache.folder);
		// A running mock: its cache opened at its start, then its code edited, then the contract.
		const named = namedAnew(contract);
		const running = openContractCache(named, cache);
		const [code = ''] = cache.code;
		await writeFile(code, `${await readFile(code, 'utf8')}\n// edited while running\n`);
		await writeFile(contract, contractText.replace('Console user directory API', 'Edited'));
		expect((await readContract(named, running)).reference.title).toBe('Edited');
		expect(await readdir(cache.folder)).toEqual([before]);
		// The next start, with the new code, reads the contract itself, and keeps that.
		expect((await start(contract, cache)).reference.title).toBe('Edited');
		expect(await readdir(cache.folder)).toHaveLength(1);
		expect(await readdir(cache.folder)).not.toEqual([before]);
	});

	it('reads as if there were none from a damaged cache file', async () => {
		const { contract, cache } = await setUp('damaged');
		await start(contract, cache);
		await writeFile(await cacheFile(cache), 'not a reading');
		expect((await start(contract, cache)).reference.title).toBe('Console user directory API');
		await plant(cache, 'Planted after the damage was mended');
		expect((await start(contract, cache)).reference.title).toBe(
			'Planted after the damage was mended',
		);
	});

	it('reads the contract again from a cache file whose model is not in the shape the pages read', async () => {
		const { contract, cache } = await setUp('misshapen');
		await start(contract, cache);
		const file = await cacheFile(cache);
		const kept = deserialize(await readFile(file)) as { reference: Record<string, unknown> };
		kept.reference = { ...kept.reference, title: 'Planted without operations', operations: 'none' };
		await writeFile(file, serialize(kept));
		const read = await start(contract, cache);
		expect(read.reference.title).toBe('Console user directory API');
		expect(read.reference.operations.length).toBeGreaterThan(0);
	});

	it('reads the contract with a cache folder that cannot be written, and without its code', async () => {
		const { contract, cache } = await setUp('unwritable');
		await writeFile(cache.folder, 'a file where the folder would be');
		expect((await start(contract, cache)).reference.title).toBe('Console user directory API');
		expect((await start(contract, cache)).reference.title).toBe('Console user directory API');
		const gone = { ...cache, code: [path.join(scratch, 'no-such-file.ts')] };
		expect((await start(contract, gone)).reference.title).toBe('Console user directory API');
		expect((await start(contract, { ...cache, code: [] })).reference.title).toBe(
			'Console user directory API',
		);
	});

	it("is kept in a checkout's node_modules/.cache, by the code that reads a contract", async () => {
		const root = path.join(scratch, 'checkout');
		await mkdir(root);
		const options = checkoutContractCache(root);
		expect(options.folder).toBe(path.join(root, CONTRACT_CACHE_FOLDER));
		expect(CONTRACT_CACHE_FOLDER).toBe(
			path.join('node_modules', '.cache', 'console-portal-contract'),
		);
		expect(options.code).toEqual(
			expect.arrayContaining([
				path.join(root, 'src', 'sources', 'contract.ts'),
				path.join(root, 'src', 'sources', 'openapi.ts'),
				path.join(root, 'src', 'sources', 'contract-cache.ts'),
				path.join(root, 'src', 'shared', 'curl.ts'),
				path.join(root, 'src', 'shared', 'urls.ts'),
				path.join(root, 'node_modules', '.package-lock.json'),
			]),
		);
	});
});
