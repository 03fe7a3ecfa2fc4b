/**
 * The project's own lint rules (eslint-rules.js): a catch that names no error and says nothing is
 * refused, and so is an import that closes a circle, even when one side imports only types.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localRules } from '../../../eslint-rules.js';

let folder: string;

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-lint-rules-'));
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

/** Writes the files into a folder of their own and lints them with the local rules alone. */
async function lint(name: string, files: Record<string, string>): Promise<string[]> {
	const root = path.join(folder, name);
	await mkdir(root);
	for (const [file, text] of Object.entries(files)) await writeFile(path.join(root, file), text);
	const eslint = new ESLint({
		cwd: root,
		overrideConfigFile: true,
		overrideConfig: [
			{
				files: ['**/*.ts'],
				languageOptions: { parser: tseslint.parser },
				plugins: { local: localRules },
				rules: { 'local/explained-catch': 'error', 'local/no-import-cycle': 'error' },
			},
		],
	});
	const results = await eslint.lintFiles(['**/*.ts']);
	return results.flatMap((result) =>
		result.messages.map(
			(message) => `${path.relative(root, result.filePath)}:${message.line} ${message.message}`,
		),
	);
}

describe('the local lint rules', () => {
	it('refuse a catch that names no error and says nothing, and take one that says why', async () => {
		const found = await lint('catches', {
			'silent.ts': 'try {\n\tJSON.parse("");\n} catch {\n\tvoid 0;\n}\n',
			'said.ts': 'try {\n\tJSON.parse("");\n} catch {\n\t// Not JSON: read as none.\n}\n',
			'named.ts': 'try {\n\tJSON.parse("");\n} catch (error) {\n\tthrow error;\n}\n',
		});
		expect(found).toEqual([
			'silent.ts:3 This catch names no error and says nothing: handle a named error (catch (error) { … }), or say in a comment inside it why nothing is lost.',
		]);
	});

	it('refuse an import that closes a circle, when the way back imports only types', async () => {
		const found = await lint('cycle', {
			'contract.ts':
				"import type { Cache } from './cache.ts';\nexport const read = (cache: Cache): number => cache.size;\n",
			'cache.ts':
				"import { read } from './contract.ts';\nexport interface Cache { size: number }\nexport const twice = (cache: Cache): number => read(cache) * 2;\n",
			'mapping.ts': 'export const isMapping = (value: unknown): boolean => value !== null;\n',
			'below.ts': "import { isMapping } from './mapping.ts';\nexport const ok = isMapping({});\n",
		});
		expect(found.sort()).toEqual([
			'cache.ts:1 Imports run in a circle: cache.ts → contract.ts → cache.ts. Move what both need to a module below them, which both import.',
			'contract.ts:1 Imports run in a circle: contract.ts → cache.ts → contract.ts. Move what both need to a module below them, which both import.',
		]);
	});

	it('follow dynamic imports and exports from other modules into a circle of three', async () => {
		const found = await lint('three', {
			'a.ts': "export * from './b.ts';\n",
			'b.ts': "export const b = async (): Promise<unknown> => import('./c.ts');\n",
			'c.ts': "export { b } from './a.ts';\n",
		});
		expect(found).toHaveLength(3);
		expect(found[0]).toContain('a.ts → b.ts → c.ts → a.ts');
	});
});
