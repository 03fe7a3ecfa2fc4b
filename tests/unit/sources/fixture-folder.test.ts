/**
 * Reading a folder of view fixtures: which files count, in what order, what an empty or missing
 * folder says, and reading again, which parses only the files that changed.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	createFixtureReader,
	fixtureFiles,
	formatProblems,
	loadViews,
	readFixture,
	readFixtureFolder,
} from '../../../src/sources/fixtures.ts';
import type { View } from '../../../src/schemas/view.ts';
import { ROOT } from '../../../support/processes.ts';
import { newView, save } from '../../support/fixture-edits.ts';

const production = JSON.parse(
	await readFile(path.join(ROOT, 'content/views/production.json'), 'utf8'),
) as View;

let scratch: string;

beforeAll(async () => {
	scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-fixture-folder-'));
});

afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

/** A new empty folder under the scratch folder. */
function folder(name: string): Promise<string> {
	return mkdtemp(path.join(scratch, `${name}-`));
}

/** Three valid views of their own, each with its own keys, emails and name. */
function threeViews(): { slug: string; view: View }[] {
	return ['charlie', 'alpha', 'bravo'].map((slug, index) => ({
		slug,
		view: { ...newView(production, index + 1, `Quinn ${slug}`), environment: `qa-${slug}` },
	}));
}

describe('a fixture folder', () => {
	it('is read in file-name order, whatever order the files were written in', async () => {
		const dir = await folder('order');
		// Written out of order: charlie, alpha, bravo.
		for (const { slug, view } of threeViews()) {
			await writeFile(path.join(dir, `${slug}.json`), JSON.stringify(view));
		}
		expect((await fixtureFiles(dir)).map((file) => path.basename(file))).toEqual([
			'alpha.json',
			'bravo.json',
			'charlie.json',
		]);
		const views = await loadViews(dir);
		expect(views.map(({ slug, view }) => [slug, view.environment])).toEqual([
			['alpha', 'qa-alpha'],
			['bravo', 'qa-bravo'],
			['charlie', 'qa-charlie'],
		]);
		expect(views[0]?.file).toBe(path.join(dir, 'alpha.json'));
	});

	it('counts only the .json files, so a README or an editor backup beside them is ignored', async () => {
		const dir = await folder('others');
		const [first] = threeViews();
		await writeFile(path.join(dir, 'alpha.json'), JSON.stringify(first?.view));
		await writeFile(path.join(dir, 'README.md'), '# Views\n');
		await writeFile(path.join(dir, 'alpha.json~'), '{ not json');
		await writeFile(path.join(dir, 'json'), '{ not json');
		expect((await fixtureFiles(dir)).map((file) => path.basename(file))).toEqual(['alpha.json']);
		const result = await readFixtureFolder(dir);
		expect(result.ok).toBe(true);
		expect(result.views.map(({ slug }) => slug)).toEqual(['alpha']);
	});

	it('that is empty says a fixture was expected, naming the folder', async () => {
		const dir = await folder('empty');
		await writeFile(path.join(dir, 'notes.txt'), 'no views yet\n');
		expect(await readFixtureFolder(dir)).toEqual({
			ok: false,
			views: [],
			problems: [{ file: dir, field: '', message: 'expected at least one <slug>.json fixture' }],
		});
		await expect(loadViews(dir)).rejects.toThrow(
			`Invalid view fixtures (1 problem):\n  ${dir}: expected at least one <slug>.json fixture`,
		);
	});

	it('with a broken fixture makes loadViews throw one error listing the problem', async () => {
		const dir = await folder('broken');
		const [first] = threeViews();
		await writeFile(
			path.join(dir, 'alpha.json'),
			JSON.stringify({ ...first?.view, statusNote: ' ' }),
		);
		await expect(loadViews(dir)).rejects.toThrow(
			new Error(
				`Invalid view fixtures (1 problem):\n  ${path.join(dir, 'alpha.json')}: statusNote: expected a non-empty status note`,
			),
		);
	});
});

describe('a fixture folder read again', () => {
	it('parses again only the files whose stamp changed, and forgets removed ones', async () => {
		const dir = await folder('again');
		const [alpha, bravo] = threeViews();
		await writeFile(path.join(dir, 'alpha.json'), JSON.stringify(alpha?.view));
		await writeFile(path.join(dir, 'bravo.json'), JSON.stringify(bravo?.view));
		const reader = createFixtureReader(dir);
		const first = await reader.read();
		expect([...first.stamps.keys()].sort()).toEqual([
			path.join(dir, 'alpha.json'),
			path.join(dir, 'bravo.json'),
		]);
		for (const [file, stamp] of first.stamps) {
			const info = await stat(file, { bigint: true });
			expect(stamp).toBe(`${info.ino}:${info.size}:${info.mtimeNs}`);
		}
		const changed = { ...bravo?.view, statusNote: 'Bravo, edited.' };
		await save(path.join(dir, 'bravo.json'), JSON.stringify(changed));
		const second = await reader.read();
		const [alphaBefore, bravoBefore] = first.result.views;
		const [alphaAfter, bravoAfter] = second.result.views;
		// The same object: alpha's file was not parsed again. Bravo's was.
		expect(alphaAfter).toBe(alphaBefore);
		expect(bravoAfter).not.toBe(bravoBefore);
		expect(bravoAfter?.view.statusNote).toBe('Bravo, edited.');
		expect(second.stamps.get(path.join(dir, 'alpha.json'))).toBe(
			first.stamps.get(path.join(dir, 'alpha.json')),
		);
		expect(second.stamps.get(path.join(dir, 'bravo.json'))).not.toBe(
			first.stamps.get(path.join(dir, 'bravo.json')),
		);

		// A file removed and written back with the same text is a new file, parsed anew.
		await rm(path.join(dir, 'alpha.json'));
		expect((await reader.read()).result.views.map(({ slug }) => slug)).toEqual(['bravo']);
		await writeFile(path.join(dir, 'alpha.json'), JSON.stringify(alpha?.view));
		const third = await reader.read();
		expect(third.result.views[0]?.slug).toBe('alpha');
		expect(third.result.views[0]).not.toBe(alphaBefore);
	});

	it('keeps a broken file’s problem until the file changes, then reads it again', async () => {
		const dir = await folder('mend');
		const [alpha] = threeViews();
		const file = path.join(dir, 'alpha.json');
		await writeFile(file, '{ "environment": ');
		const reader = createFixtureReader(dir);
		const broken = await reader.read();
		expect(broken.result.ok ? [] : broken.result.problems).toEqual([
			{
				file,
				field: '',
				message:
					'expected valid JSON, but line 1, column 18 has the end of the file where a value belongs',
			},
		]);
		expect((await reader.read()).result).toEqual(broken.result);
		await save(file, JSON.stringify(alpha?.view));
		expect((await reader.read()).result.ok).toBe(true);
	});

	it('reads a named pipe, removed, as gone, and follows the folder after it', async () => {
		const dir = await folder('pipe');
		const [alpha, bravo] = threeViews();
		await writeFile(path.join(dir, 'alpha.json'), JSON.stringify(alpha?.view));
		execFileSync('mkfifo', [path.join(dir, 'pipe.json')]);
		const reader = createFixtureReader(dir);
		const withPipe = await reader.read();
		expect(withPipe.result.ok ? [] : withPipe.result.problems).toEqual([
			{
				file: path.join(dir, 'pipe.json'),
				field: '',
				message: 'expected a regular file, but this is a named pipe (FIFO)',
			},
		]);
		await rm(path.join(dir, 'pipe.json'));
		await writeFile(path.join(dir, 'bravo.json'), JSON.stringify(bravo?.view));
		const after = await reader.read();
		expect(after.result.ok).toBe(true);
		expect(after.result.views.map(({ slug }) => slug)).toEqual(['alpha', 'bravo']);
	});

	it('that cannot be read says so, naming the folder', async () => {
		const dir = path.join(scratch, 'no-such-folder');
		expect(await createFixtureReader(dir).read()).toEqual({
			result: {
				ok: false,
				views: [],
				problems: [
					{
						file: dir,
						field: '',
						message: `cannot be read (ENOENT: no such file or directory, realpath '${dir}')`,
					},
				],
			},
			stamps: new Map(),
		});
	});

	it('that is a file says it cannot be read', async () => {
		const file = path.join(scratch, 'not-a-folder');
		await writeFile(file, '');
		const { result } = await createFixtureReader(file).read();
		expect(result.ok ? [] : result.problems).toEqual([
			{ file, field: '', message: `cannot be read (ENOTDIR: not a directory, scandir '${file}')` },
		]);
	});

	it('that is empty gives no stamps', async () => {
		const dir = await folder('none');
		expect((await createFixtureReader(dir).read()).stamps).toEqual(new Map());
	});

	it('reached through a link is read, links inside it too', async () => {
		const dir = await folder('linked');
		const [alpha, bravo] = threeViews();
		await mkdir(path.join(dir, 'shared'));
		await writeFile(path.join(dir, 'shared', 'alpha.txt'), JSON.stringify(alpha?.view));
		await symlink('shared/alpha.txt', path.join(dir, 'alpha.json'));
		await writeFile(path.join(dir, 'bravo.json'), JSON.stringify(bravo?.view));
		const link = `${dir}-link`;
		await symlink(dir, link);
		const result = await readFixtureFolder(link);
		expect(result.ok ? [] : formatProblems(result.problems)).toEqual([]);
		expect(result.views.map(({ slug, file }) => [slug, file])).toEqual([
			['alpha', path.join(link, 'alpha.json')],
			['bravo', path.join(link, 'bravo.json')],
		]);
	});
});

describe('one fixture file, as looked at', () => {
	it('that cannot be opened any more says so', () => {
		const file = path.join(scratch, 'views-gone', 'alpha.json');
		expect(readFixture(file, { stamp: 'x', file })).toEqual({
			problems: [
				{
					file,
					field: '',
					message: `cannot be read (ENOENT: no such file or directory, open '${file}')`,
				},
			],
		});
	});

	it('that is refused and badly named gives both problems', () => {
		const file = 'views/Bad Pipe.json';
		expect(
			readFixture(file, {
				stamp: 'x',
				problem: 'expected a regular file, but this is a socket',
			}),
		).toEqual({
			problems: [
				{
					file,
					field: '',
					message: 'expected a file name that is a lowercase slug, like staging-us-east.json',
				},
				{ file, field: '', message: 'expected a regular file, but this is a socket' },
			],
		});
	});

	it('that is readable is parsed and validated', async () => {
		const dir = await folder('one');
		const [alpha] = threeViews();
		const file = path.join(dir, 'alpha.json');
		await writeFile(file, `\ufeff${JSON.stringify(alpha?.view)}`);
		const parsed = readFixture(file, { stamp: 'x', file });
		expect(parsed.problems).toEqual([]);
		expect(parsed.view?.view).toEqual(alpha?.view);
		expect(parsed.view?.slug).toBe('alpha');
	});
});
