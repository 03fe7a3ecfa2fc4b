/**
 * Reading the fixtures' history from git: each commit that touched a fixture with its author,
 * date, subject and short name, each version read through the view schema (an unreadable one
 * named by its fields), renames, tags, a shallow clone's boundary, and a folder outside any
 * repository, which has no history and says why.
 */
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	parseRawLog,
	readFixtureDigest,
	readFixtureHistory,
	type FixtureHistory,
} from '../../../src/sources/fixture-history.ts';
import type { View } from '../../../src/schemas/view.ts';
import { ROOT } from '../../../support/processes.ts';
import { createRepo, gitEnv, type ScriptedRepo } from '../../../support/git-repo.ts';

const production = JSON.parse(
	await readFile(path.join(ROOT, 'content/views/production.json'), 'utf8'),
) as View;

let scratch: string;
let repo: ScriptedRepo;
let views: string;
const hashes: string[] = [];

/** Writes a view as a fixture file of the repository's views folder. */
async function save(slug: string, view: View): Promise<void> {
	await writeFile(path.join(views, `${slug}.json`), `${JSON.stringify(view, null, '\t')}\n`);
}

beforeAll(async () => {
	scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-history-'));
	repo = await createRepo(path.join(scratch, 'repo'));
	views = path.join(repo.folder, 'content', 'views');
	await cp(path.join(ROOT, 'content/views/production.json'), path.join(views, 'production.json'));
	await writeFile(path.join(repo.folder, 'README.md'), 'A repository\n');
	hashes.push(
		repo.commit('Add the production view', { author: 'Ada', date: '2026-10-01T10:00:00Z' }),
	);
	const promoted = structuredClone(production);
	promoted.users[1]!.role = 'admin';
	promoted.users[4]!.role = 'deployer';
	await save('production', promoted);
	hashes.push(repo.commit('Promote Priya', { author: 'Bo', date: '2026-10-02T10:00:00+02:00' }));
	repo.tag('v1.0', 'First review');
	await writeFile(path.join(views, 'production.json'), '{ "environment": "production" }\n');
	hashes.push(repo.commit('Break the fixture', { author: 'Cy', date: '2026-10-03T10:00:00Z' }));
	await save('production', promoted);
	hashes.push(repo.commit('Mend it', { author: 'Di', date: '2026-10-03T12:00:00Z' }));
	await rename(path.join(views, 'production.json'), path.join(views, 'production-main.json'));
	hashes.push(repo.commit('Rename it', { author: 'Di', date: '2026-10-04T10:00:00Z' }));
	await writeFile(path.join(repo.folder, 'README.md'), 'Changed elsewhere\n');
	repo.commit('Touch no fixture', { author: 'Ed', date: '2026-10-05T10:00:00Z' });
	repo.tag('release/2026_10');
});

afterAll(async () => {
	await rm(scratch, { recursive: true, force: true });
});

/** The history, which must be available. */
function available(history: FixtureHistory): Extract<FixtureHistory, { available: true }> {
	if (!history.available) throw new Error(`No history: ${history.reason}`);
	return history;
}

describe('the fixtures history from git', () => {
	it('lists each commit that touched a fixture, oldest first, with author, date, subject and short name', async () => {
		const history = available(await readFixtureHistory(views));
		expect(
			history.commits.map(({ hash, author, date, subject }) => [hash, author, date, subject]),
		).toEqual([
			[hashes[0], 'Ada', '2026-10-01T10:00:00.000Z', 'Add the production view'],
			[hashes[1], 'Bo', '2026-10-02T08:00:00.000Z', 'Promote Priya'],
			[hashes[2], 'Cy', '2026-10-03T10:00:00.000Z', 'Break the fixture'],
			[hashes[3], 'Di', '2026-10-03T12:00:00.000Z', 'Mend it'],
			[hashes[4], 'Di', '2026-10-04T10:00:00.000Z', 'Rename it'],
		]);
		for (const commit of history.commits) {
			expect(commit.hash.startsWith(commit.short)).toBe(true);
			expect(commit.short.length).toBeGreaterThanOrEqual(7);
			expect(commit.short.length).toBeLessThan(40);
		}
		expect(history.shallow).toBe(false);
		expect(history.start).toBe('2026-10-01T10:00:00.000Z');
		expect(history.dirty).toBe(false);
		expect(history.head.subject).toBe('Touch no fixture');
	});

	it('reads each version through the view schema, naming the fields of one it refuses', async () => {
		const history = available(await readFixtureHistory(views));
		const [added, promoted, broken, mended, renamed] = history.commits.map(({ files }) => files);
		expect(added).toMatchObject([{ status: 'added', toSlug: 'production', before: undefined }]);
		expect(added?.[0]?.after).toEqual({ readable: true, view: production });
		const after = promoted?.[0]?.after;
		expect(after?.readable && after.view.users.map(({ role }) => role)).toEqual([
			'admin',
			'admin',
			'operator',
			'viewer',
			'deployer',
			'deployer',
			'operator',
			'viewer',
		]);
		expect(broken?.[0]?.after).toMatchObject({ readable: false });
		const fields = broken?.[0]?.after?.readable === false ? broken[0].after.fields : [];
		expect(fields).toEqual(expect.arrayContaining(['lastUpdated', 'baseUrl', 'config', 'users']));
		expect(mended).toMatchObject([{ status: 'modified', before: { readable: false } }]);
		expect(renamed).toMatchObject([
			{ status: 'renamed', fromSlug: 'production', toSlug: 'production-main' },
		]);
	});

	it('gives each tag with its commit and the fixtures at it', async () => {
		const history = available(await readFixtureHistory(views));
		expect(history.tags.map(({ name, commit }) => [name, commit.subject])).toEqual([
			['release/2026_10', 'Touch no fixture'],
			['v1.0', 'Promote Priya'],
		]);
		const [atTag] = history.tags[1]?.fixtures ?? [];
		expect(atTag?.slug).toBe('production');
		expect(atTag?.version.readable && atTag.version.view.users[1]?.role).toBe('admin');
		expect(history.tags[0]?.fixtures.map(({ slug }) => slug)).toEqual(['production-main']);
	});

	it('says when the fixtures differ from the commit checked out', async () => {
		await writeFile(path.join(views, 'new-view.json'), '{}\n');
		try {
			expect(available(await readFixtureHistory(views)).dirty).toBe(true);
		} finally {
			await rm(path.join(views, 'new-view.json'));
		}
	});

	it('in a shallow clone, marks where history stops and dates its start there', async () => {
		const clone = path.join(scratch, 'shallow');
		execFileSync('git', ['clone', '--quiet', '--depth', '2', `file://${repo.folder}`, clone], {
			env: gitEnv(),
		});
		const history = available(await readFixtureHistory(path.join(clone, 'content/views')));
		expect(history.shallow).toBe(true);
		expect(history.start).toBe('2026-10-04T10:00:00.000Z');
		expect(history.commits.map(({ subject, boundary }) => [subject, boundary])).toEqual([
			['Rename it', true],
		]);
	});

	it('outside any repository there is no history, and the reason says so', async () => {
		const copy = path.join(scratch, 'copy');
		await cp(views, copy, { recursive: true });
		const history = await readFixtureHistory(copy);
		expect(history).toEqual({
			available: false,
			reason:
				'the views folder is not in a git repository (a copy without .git, or an unpacked archive)',
		});
	});

	it('a folder the repository does not track has no history, though the repository has one', async () => {
		const untracked = path.join(repo.folder, 'elsewhere');
		await cp(views, untracked, { recursive: true });
		try {
			expect(await readFixtureHistory(untracked)).toEqual({
				available: false,
				reason: "the repository the views folder lies in does not track the folder's fixtures",
			});
		} finally {
			await rm(untracked, { recursive: true, force: true });
		}
	});

	it('a repository without a commit has no history either', async () => {
		const empty = await createRepo(path.join(scratch, 'empty'));
		await cp(views, path.join(empty.folder, 'views'), { recursive: true });
		expect(await readFixtureHistory(path.join(empty.folder, 'views'))).toEqual({
			available: false,
			reason: 'the repository has no commit yet',
		});
	});
});

describe('git log --raw -z as parsed', () => {
	it('reads headers and file changes, a rename with both paths, and a subject that starts with a colon', () => {
		const zero = '0'.repeat(40);
		const a = 'a'.repeat(40);
		const b = 'b'.repeat(40);
		const output = [
			`${'1'.repeat(40)}\0${'1'.repeat(7)}\0${'2026-10-01T10:00:00+00:00'}\0Ada\0\0: odd subject\0`,
			`\n:000000 100644 ${zero} ${a} A\0views/one.json\0`,
			`:100644 100644 ${a} ${b} R087\0views/one.json\0views/two.json\0`,
			`${'2'.repeat(40)}\0${'2'.repeat(7)}\0${'2026-10-02T10:00:00+00:00'}\0Bo\0${'1'.repeat(40)}\0Remove\0`,
			`\n:100644 000000 ${b} ${zero} D\0views/two.json\0`,
		].join('');
		expect(parseRawLog(output)).toEqual([
			{
				hash: '1'.repeat(40),
				short: '1'.repeat(7),
				date: '2026-10-01T10:00:00.000Z',
				author: 'Ada',
				subject: ': odd subject',
				parents: [],
				files: [
					{
						status: 'added',
						fromPath: undefined,
						toPath: 'views/one.json',
						fromBlob: undefined,
						toBlob: a,
					},
					{
						status: 'renamed',
						fromPath: 'views/one.json',
						toPath: 'views/two.json',
						fromBlob: a,
						toBlob: b,
					},
				],
			},
			{
				hash: '2'.repeat(40),
				short: '2'.repeat(7),
				date: '2026-10-02T10:00:00.000Z',
				author: 'Bo',
				subject: 'Remove',
				parents: ['1'.repeat(40)],
				files: [
					{
						status: 'removed',
						fromPath: 'views/two.json',
						toPath: undefined,
						fromBlob: b,
						toBlob: undefined,
					},
				],
			},
		]);
	});
});

describe('the fixtures digest', () => {
	it('is what sha256sum of the fixtures, piped to sha256sum, gives', async () => {
		const folder = path.join(ROOT, 'content/views');
		const expected = execFileSync('sh', ['-c', 'LC_ALL=C sha256sum *.json | sha256sum'], {
			cwd: folder,
			encoding: 'utf8',
		}).split(' ')[0];
		const digest = await readFixtureDigest(folder);
		expect(digest.sha256).toBe(expected);
		expect(digest.files).toBe(8);
	});
});
