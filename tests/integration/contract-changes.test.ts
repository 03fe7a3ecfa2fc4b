/**
 * The contract's changelog, built from a scripted repository (tests/support/contract-repo.ts): a
 * copy of openapi.yaml added, then a documentation, a non-breaking and a breaking change, then a
 * commit of examples only and one of a description only, each by its own author.
 * /reference/changes/ and its Markdown twin list exactly those commits, newest first, with
 * author, date, subject and short name, each change classified; the examples and the description
 * count as documentation, each commit of documentation only is one line that opens, and every
 * class is explained on the page. A shallow clone builds too, and the page says plainly where
 * history stops (a copy without .git, where there is none, is history-unavailable.test.ts's
 * build). The versioning guide, the reference page and the sidebar link to it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load } from 'cheerio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortalAsync } from '../../support/build.ts';
import { gitEnv } from '../../support/git-repo.ts';
import { makeContractRepo, type ContractRepo } from '../support/contract-repo.ts';

let folder: string;
let scripted: ContractRepo;
const dists = { full: '', shallow: '' };

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-contract-changes-'));
	// Two of the views: the changelog, the guide and the reference are the same whatever the
	// views, and two make fewer pages than all eight.
	scripted = await makeContractRepo(path.join(folder, 'repo'), {
		documentation: true,
		views: ['production.json', 'staging-us-east.json'],
	});
	const clone = path.join(folder, 'shallow');
	execFileSync(
		'git',
		['clone', '--quiet', '--depth', '4', `file://${scripted.repo.folder}`, clone],
		{
			env: gitEnv(),
		},
	);
	// The two builds side by side, each a process of its own (support/build.ts gives each its own
	// folders): one after another, the file spent two builds' time in this hook.
	const builds = {
		full: { top: scripted.repo.folder, views: path.join(scripted.repo.folder, 'content', 'views') },
		shallow: { top: clone, views: path.join(clone, 'content', 'views') },
	};
	const results = await Promise.all(
		(Object.entries(builds) as [keyof typeof builds, { top: string; views: string }][]).map(
			async ([name, { top, views }]) => {
				dists[name] = path.join(folder, `dist-${name}`);
				const result = await buildPortalAsync(dists[name], views, {
					PORTAL_OPENAPI: path.join(top, 'openapi.yaml'),
				});
				return { name, result };
			},
		),
	);
	for (const { name, result } of results) {
		if (result.status !== 0) throw new Error(`The ${name} build failed:\n${result.output}`);
	}
}, 600_000);

afterAll(async () => {
	if (folder) await rm(folder, { recursive: true, force: true });
});

/** A page of one of the builds, parsed. */
async function page(build: keyof typeof dists, address: string) {
	return load(await readFile(path.join(dists[build], address, 'index.html'), 'utf8'));
}

/** The main text of a page, its spaces made one. */
function text($: ReturnType<typeof load>): string {
	return $('main').text().replace(/\s+/g, ' ');
}

/** Each commit of the page as `short author · subject`, then its changes as `class: description`. */
function commits($: ReturnType<typeof load>): string[][] {
	return $('section.history-commit')
		.toArray()
		.map((section) => {
			const each = $(section);
			const commit = each.find('[data-commit]');
			return [
				`${commit.find('code').text()} ${commit.find('.author bdi').text()} · ${commit.find('.subject').text()}`,
				...each
					.find('li[data-class]')
					.toArray()
					.map(
						(change) =>
							`${$(change).attr('data-class') ?? ''}: ${$(change).find('.change-class').text().trim()} ${$(change).find('.description').text()}`,
					),
			];
		});
}

/** The scripted commit made on a day (1 to 6). */
function made(day: number) {
	const commit = scripted.commits[day - 1];
	if (!commit) throw new Error(`No commit ${day}`);
	return commit;
}

/** "short author · subject" for a scripted commit. */
function head(day: number): string {
	return `${made(day).short} ${made(day).author} · ${made(day).subject}`;
}

describe('the contract changelog', () => {
	it('lists exactly the scripted commits, newest first, each change classified', async () => {
		const $ = await page('full', 'reference/changes');
		const [described, examples, ...rest] = commits($);
		expect(described).toEqual([
			head(6),
			'annotation: Documentation [Replaced] annotation (description)',
		]);
		// The CORS header's example is told at each answer that sends the header, and the
		// preflight's Origin example once: documentation each, however many answers there are.
		expect(examples?.[0]).toBe(head(5));
		const exampleChanges = examples?.slice(1) ?? [];
		expect(exampleChanges.length).toBeGreaterThan(2);
		expect(new Set(exampleChanges.map((change) => change.split(': ')[0]))).toEqual(
			new Set(['annotation']),
		);
		expect(exampleChanges).toContain('annotation: Documentation [Replaced] example');
		expect(rest).toEqual([
			[
				head(4),
				'breaking: Breaking [Removed] required status from users[].email in Response 200 content (application/json)',
			],
			[head(3), 'non-breaking: Non-breaking [Added] Response 429'],
			[head(2), 'annotation: Documentation [Replaced] annotation (summary)'],
			[head(1)],
		]);
		expect(
			$('.change-counts')
				.toArray()
				.map((each) => $(each).text().trim()),
		).toEqual([
			'1 documentation change',
			`${exampleChanges.length} documentation changes (and 1 change inside components, told where used)`,
			'1 breaking (and 1 change inside components, told where used)',
			'1 non-breaking',
			'1 documentation change',
			'The contract was added.',
		]);
		expect(text($)).not.toMatch(/history unavailable|shallow/i);
	});

	it('folds each commit of documentation only into one line that opens, and no other', async () => {
		const $ = await page('full', 'reference/changes');
		const sections = $('section.history-commit').toArray();
		expect(
			sections.map((section) => {
				const details = $(section).children('details');
				return [
					details.length,
					details.attr('open') ?? 'closed',
					details.children('summary').length,
					$(section).find('li[data-class]').length === details.find('li[data-class]').length,
				];
			}),
		).toEqual([
			[1, 'closed', 1, true],
			[1, 'closed', 1, true],
			[0, 'closed', 0, false],
			[0, 'closed', 0, false],
			[1, 'closed', 1, true],
			[0, 'closed', 0, true],
		]);
	});

	it('explains every class of change it shows, and every class there is', async () => {
		const $ = await page('full', 'reference/changes');
		const explained = new Map(
			$('dl.change-classes > div')
				.toArray()
				.map((each) => [$(each).find('dt').text().trim(), $(each).find('dd').text().trim()]),
		);
		expect([...explained.keys()]).toEqual([
			'Breaking',
			'Non-breaking',
			'Deprecated',
			'Documentation',
			'Unclassified',
		]);
		for (const meaning of explained.values()) expect(meaning.length).toBeGreaterThan(40);
		const shown = new Set(
			$('section.history-commit .change-class')
				.toArray()
				.map((each) => $(each).text().trim()),
		);
		expect([...shown].sort()).toEqual(['Breaking', 'Documentation', 'Non-breaking']);
		for (const label of shown) expect(explained.has(label), label).toBe(true);
		expect(explained.get('Documentation')).toMatch(
			/^Changes only what readers see, not what the API does: descriptions, summaries, titles, examples/,
		);
	});

	it('dates each commit and names it in full', async () => {
		const $ = await page('full', 'reference/changes');
		const sections = $('section.history-commit').toArray();
		expect(sections.map((section) => $(section).find('time').first().attr('datetime'))).toEqual(
			[6, 5, 4, 3, 2, 1].map((day) => made(day).date),
		);
		expect(sections.map((section) => $(section).find('[data-commit]').attr('data-commit'))).toEqual(
			[6, 5, 4, 3, 2, 1].map((day) => made(day).hash),
		);
	});

	it('has a Markdown twin with the same commits and classes', async () => {
		const twin = await readFile(path.join(dists.full, 'reference', 'changes.md'), 'utf8');
		const lines = twin
			.split('\n')
			.filter((line) => /^`[0-9a-f]+`|^- \*\*/.test(line))
			// The first five are the classes, explained.
			.slice(5);
		const oneLine = (day: number): RegExp =>
			new RegExp(
				`^\`${made(day).short}\` .+ by ${made(day).author}\\. \\d+ documentation\n\n- \\*\\*Documentation\\*\\* only, \\d+ changes?: [^\n]+\n\n## `,
				'm',
			);
		expect(twin).toMatch(oneLine(6));
		expect(twin).toMatch(oneLine(5));
		expect(lines.slice(0, 4)).toEqual([
			`\`${made(6).short}\` ${made(6).subject} — by ${made(6).author}. 1 documentation`,
			'- **Documentation** only, 1 change: \\[Replaced] annotation (description) (`paths › /api/v2/users › get › description`)',
			expect.stringMatching(new RegExp(`^\`${made(5).short}\``)),
			expect.stringMatching(
				/^- \*\*Documentation\*\* only, \d+ changes: \\\[Replaced] example \(`/,
			),
		]);
		expect(lines.slice(4)).toEqual([
			`\`${made(4).short}\` ${made(4).subject} — by ${made(4).author}. 1 breaking`,
			'- **Breaking** \\[Removed] required status from `users[].email` in Response 200 content (application/json) (`paths › /api/v2/users › get › responses › 200 › content › application/json › schema › properties › users › items › required › 1`)',
			`\`${made(3).short}\` ${made(3).subject} — by ${made(3).author}. 1 non-breaking`,
			'- **Non-breaking** \\[Added] Response 429 (`paths › /api/v2/users › get › responses › 429`)',
			`\`${made(2).short}\` ${made(2).subject} — by ${made(2).author}. 1 documentation`,
			'- **Documentation** only, 1 change: \\[Replaced] annotation (summary) (`paths › /api/v2/users › get › summary`)',
			`\`${made(1).short}\` ${made(1).subject} — by ${made(1).author}. The contract was added.`,
		]);
		const $ = await page('full', 'reference/changes');
		expect($('link[rel="alternate"][type="text/markdown"]').attr('href')).toBe(
			'/reference/changes.md',
		);
	});

	it('is linked from the versioning guide, the reference page and the sidebar', async () => {
		for (const address of ['docs/versioning', 'reference']) {
			const $ = await page('full', address);
			expect($('main a[href="/reference/changes/"]').length, address).toBeGreaterThan(0);
		}
		const $ = await page('full', 'reference/changes');
		expect($('nav.side-index a[aria-current="page"]').attr('href')).toBe('/reference/changes/');
		expect($('nav.site-nav a[aria-current="page"]').text().trim()).toBe('Reference');
	});
});

describe('without the whole history', () => {
	it('in a shallow clone, says where history starts and lists only what it holds', async () => {
		const $ = await page('shallow', 'reference/changes');
		expect($('[data-history="shallow"]').length).toBe(1);
		expect(text($)).toContain('History from 2026-09-03 on; the clone is shallow.');
		const listed = commits($);
		expect(listed.map((each) => each[0])).toEqual([head(6), head(5), head(4), head(3)]);
		expect(listed.slice(2)).toEqual([
			[
				head(4),
				'breaking: Breaking [Removed] required status from users[].email in Response 200 content (application/json)',
			],
			[head(3)],
		]);
		expect($('section.history-commit').last().attr('data-kind')).toBe('start');
	});
});
