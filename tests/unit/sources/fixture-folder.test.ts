/** Reading a folder of view fixtures: which files count, in what order, and what an empty folder says. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureFiles, loadViews, readFixtureFolder } from '../../../src/sources/fixtures.ts';
import type { View } from '../../../src/schemas/view.ts';
import { ROOT } from '../../../support/processes.ts';
import { newView } from '../../support/fixture-edits.ts';

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
