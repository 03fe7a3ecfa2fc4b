/**
 * The fixture reader on a views folder holding one hostile entry beside the real fixtures: each
 * is refused with one problem line naming its path, the read ends (a named pipe never holds it),
 * and the real fixtures are still read.
 */
import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	formatProblems,
	readFixtureFolder,
	type FixtureResult,
} from '../../../src/sources/fixtures.ts';
import { copyFixtures } from '../../../support/fixtures.ts';
import { ROOT } from '../../../support/processes.ts';
import {
	BYTE_ORDER_MARK,
	CONTENT_CASES,
	FILE_SYSTEM_CASES,
	HOSTILE_FIXTURES,
	latin1View,
	problemLine,
	type HostileCase,
} from '../../support/hostile-fixtures.ts';

/** The slugs of the real fixtures, each of which is still read beside a hostile entry. */
const REAL_SLUGS = (await readdir(path.join(ROOT, 'content/views'))).map((name) =>
	path.basename(name, '.json'),
);

let scratch: string;

beforeAll(async () => {
	scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-hostile-'));
});

afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

/** A copy of the real fixtures with the case's entry beside them, read once. */
async function readWith(hostile: HostileCase): Promise<{ folder: string; result: FixtureResult }> {
	const folder = path.join(await mkdtemp(path.join(scratch, 'case-')), 'views');
	await copyFixtures(folder);
	const undo = await hostile.make(folder);
	try {
		return { folder, result: await readFixtureFolder(folder) };
	} finally {
		await undo();
	}
}

describe('a views folder with a hostile entry beside the real fixtures', () => {
	it.each([...FILE_SYSTEM_CASES, ...CONTENT_CASES])(
		'refuses $name in one line naming it, and reads the rest',
		async (hostile) => {
			const { folder, result } = await readWith(hostile);
			expect(result.ok).toBe(false);
			const lines = formatProblems(result.ok ? [] : result.problems).split('\n');
			expect(lines).toEqual(['Invalid view fixtures (1 problem):', problemLine(folder, hostile)]);
			expect(result.views.map(({ slug }) => slug)).toEqual(expect.arrayContaining(REAL_SLUGS));
		},
		10_000,
	);

	it('accepts a fixture that starts with a UTF-8 byte-order mark', async () => {
		const bytes = await readFile(path.join(HOSTILE_FIXTURES, BYTE_ORDER_MARK));
		expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
		const { result } = await readWith({
			name: 'a byte-order mark',
			file: BYTE_ORDER_MARK,
			make: async (folder) => {
				await copyFile(
					path.join(HOSTILE_FIXTURES, BYTE_ORDER_MARK),
					path.join(folder, BYTE_ORDER_MARK),
				);
				return async () => {};
			},
			line: () => '',
		});
		expect(result.ok ? [] : formatProblems(result.problems)).toEqual([]);
		expect(result.views.find(({ slug }) => slug === 'byte-order-mark')?.view.environment).toBe(
			'hostile-byte-order-mark',
		);
	});

	it('names the byte that is not UTF-8 by its offset', async () => {
		const { bytes, offset } = await latin1View();
		expect(bytes[offset]).toBe(0xe9);
		expect(bytes.subarray(0, offset).toString('utf8')).toMatch(/"name":"Quinn hostile-latin-1$/);
		const latin1 = CONTENT_CASES.find(({ file }) => file === 'latin-1.json');
		expect(latin1?.line('')).toContain(`offset ${offset} `);
	});
});
