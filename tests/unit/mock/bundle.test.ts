/**
 * The bundle `npm run mock` runs (mock/bundle.ts), on a checkout of two files made here: it is
 * made once, run as it is at the next start, and made anew after any edit to a file in it or to
 * the installed packages, so a developer never runs code older than their files.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockBundle } from '../../../mock/bundle.ts';
import { bin } from '../../../support/processes.ts';

let root: string;

/** Writes a file of the checkout. */
async function put(file: string, text: string): Promise<void> {
	await mkdir(path.dirname(path.join(root, file)), { recursive: true });
	await writeFile(path.join(root, file), text);
}

/** What a bundle prints when run. */
function run(bundle: string): string {
	const result = spawnSync(bin('node'), [bundle], { encoding: 'utf8' });
	expect(result.stderr).toBe('');
	return result.stdout.trim();
}

beforeEach(async () => {
	root = await mkdtemp(path.join(os.tmpdir(), 'console-portal-bundle-'));
	await put('app/part.ts', "export const word: string = 'one';\n");
	await put(
		'app/entry.ts',
		"import { word } from './part.ts';\nimport { EOL } from 'node:os';\nprocess.stdout.write(word + EOL);\n",
	);
});

afterEach(async () => {
	await rm(root, { recursive: true, force: true });
});

describe('the bundle npm run mock runs', () => {
	it('runs the code as written, and is reused as it is at the next start', async () => {
		const first = await mockBundle(root, 'app/entry.ts');
		expect(first).toBeDefined();
		if (!first) return;
		expect(path.dirname(first)).toBe(
			path.join(root, 'node_modules', '.cache', 'console-portal-mock'),
		);
		expect(run(first)).toBe('one');
		const made = (await stat(first)).mtimeMs;
		const second = await mockBundle(root, 'app/entry.ts');
		expect(second).toBe(first);
		expect((await stat(first)).mtimeMs).toBe(made);
	});

	it('is made anew after an edit to any file in it, and the old one removed', async () => {
		const first = await mockBundle(root, 'app/entry.ts');
		await put('app/part.ts', "export const word: string = 'two';\n");
		const second = await mockBundle(root, 'app/entry.ts');
		expect(second).toBeDefined();
		if (!first || !second) return;
		expect(second).not.toBe(first);
		expect(run(second)).toBe('two');
		expect(existsSync(first)).toBe(false);
	});

	it('is made anew when the installed packages change', async () => {
		const first = await mockBundle(root, 'app/entry.ts');
		await put('node_modules/.package-lock.json', '{"name":"app","lockfileVersion":3}\n');
		const second = await mockBundle(root, 'app/entry.ts');
		expect(second).toBeDefined();
		expect(second).not.toBe(first);
	});

	it("keeps npm start's bundle beside npm run mock's, so neither is made anew at each start of the other", async () => {
		await put(
			'app/other.ts',
			"import { word } from './part.ts';\nprocess.stdout.write(`${word}!`);\n",
		);
		const entry = await mockBundle(root, 'app/entry.ts');
		const other = await mockBundle(root, 'app/other.ts');
		expect(entry).toBeDefined();
		expect(other).toBeDefined();
		if (!entry || !other) return;
		expect(other).not.toBe(entry);
		expect(existsSync(entry)).toBe(true);
		const made = (await stat(entry)).mtimeMs;
		expect(await mockBundle(root, 'app/entry.ts')).toBe(entry);
		expect((await stat(entry)).mtimeMs).toBe(made);
		expect(await mockBundle(root, 'app/other.ts')).toBe(other);
		expect(run(other)).toBe('one!');
	});

	it('records exactly the files of ours that went into it', async () => {
		const bundle = await mockBundle(root, 'app/entry.ts');
		expect(bundle).toBeDefined();
		const records = path.join(
			path.dirname(bundle ?? ''),
			`${path.basename(bundle ?? '').split('-')[0]}.json`,
		);
		const record = JSON.parse(await readFile(records, 'utf8')) as { inputs: string[] };
		expect(record.inputs).toEqual([path.join('app', 'entry.ts'), path.join('app', 'part.ts')]);
	});

	it('is not made from code that does not compile, so the mock runs from its sources and says why once', async () => {
		await put('app/part.ts', 'export const word: string = ;\n');
		const said: string[] = [];
		expect(await mockBundle(root, 'app/entry.ts', (line) => said.push(line))).toBeUndefined();
		expect(said).toHaveLength(1);
		expect(said[0]).toMatch(
			/^The mock runs from its sources, more slowly: its bundle could not be made \(/,
		);
		expect(said[0]).toContain('part.ts');
		expect(said[0]).not.toContain('\n');
	});

	it("imports Node's built-ins with require(), which loads no namespace of all their exports", async () => {
		const bundle = await mockBundle(root, 'app/entry.ts');
		const text = await readFile(bundle ?? '', 'utf8');
		expect(text).toContain('require("node:os")');
		expect(text).not.toMatch(/^import .* from "(?:node:)?os";$/m);
	});
});
