/**
 * The history pages and exports, built from a scripted repository (tests/support/history-repo.ts):
 * each shows exactly the scripted changes, in order, with author and short commit name; the tag
 * pages and the date file agree; and no key or configuration value any version ever held is
 * anywhere in the build, the search index included, but the current ones on their view's page.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { load } from 'cheerio';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../../support/build.ts';
import { makeHistoryRepo, type HistoryRepo } from '../support/history-repo.ts';
import { allNodes, linksOf, parseMarkdown, textOf } from '../support/markdown.ts';
import { sinceRows, type SinceData } from '../../src/shared/access-since.ts';
import type { View } from '../../src/schemas/view.ts';

let folder: string;
let dist: string;
let scripted: HistoryRepo;

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-history-build-'));
	scripted = await makeHistoryRepo(path.join(folder, 'repo'));
	dist = path.join(folder, 'dist');
	// Keys older than three days are flagged: the scripted history spans a week.
	const result = buildPortal(dist, scripted.views, { PORTAL_KEY_MAX_AGE_DAYS: '3' });
	if (result.status !== 0) throw new Error(`The build failed:\n${result.output}`);
}, 300_000);

afterAll(async () => {
	if (folder) await rm(folder, { recursive: true, force: true });
});

/** A built page, parsed. */
async function page(address: string) {
	return load(await readFile(path.join(dist, address, 'index.html'), 'utf8'));
}

/** The scripted commit made on a day (1 to 7): its short name and author. */
function made(day: number): { short: string; author: string; hash: string; date: string } {
	const commit = scripted.commits[day - 1];
	if (!commit) throw new Error(`No commit ${day}`);
	return commit;
}

/** "short author: text" for a change as the tests expect it. */
function line(day: number, text: string): string {
	return `${made(day).short} ${made(day).author}: ${text}`;
}

/** The users of a view as `name (email): Granted role` lines. */
function granted(view: View, day: number): string[] {
	return view.users.map((user) => line(day, `${user.name} <${user.email}> Granted ${user.role}`));
}

/** The scripted access changes, newest commit first, each commit's in the order they are told. */
function accessChanges(): string[] {
	return [
		...granted(scripted.staging, 7),
		line(6, 'Sam Okoye <sam.okoye@example.com> Granted viewer'),
		line(6, 'Rosa Jiménez <rosa.jimenez@example.com> Revoked (was viewer)'),
		line(4, 'Hannah Lindqvist <hannah.lindqvist@example.com> Key rotated (operator)'),
		line(3, 'Priya Raman <priya.raman@example.com> Role changed: deployer → admin'),
		line(3, 'Lukas Brandt <lukas.brandt@example.com> Role changed: admin → deployer'),
		line(2, 'Rosa Jiménez <rosa.jimenez@example.com> Granted viewer'),
		line(2, 'Owen Gallagher <owen.gallagher@example.com> Revoked (was viewer)'),
		...granted(scripted.production, 1),
	];
}

/** The rows of a page's table of changes, in the form `accessChanges` gives. */
function tableRows($: ReturnType<typeof load>): string[] {
	return $('table.changes tbody tr')
		.toArray()
		.map((row) => {
			const cells = $(row);
			const commit = cells.find('[data-commit]');
			const name = cells.find('th bdi').first().text();
			const email = cells.find('th .email').text();
			const author = commit.find('.author bdi').text();
			const change = cells.find('td.change').text().trim();
			return `${commit.find('code').text()} ${author}: ${name} <${email}> ${change}`;
		});
}

describe('the access changes', () => {
	it('lists exactly the scripted access changes, newest first, with author and commit', async () => {
		const $ = await page('access/changes');
		expect(tableRows($)).toEqual(accessChanges());
		expect($('main').text()).not.toMatch(/history unavailable|shallow/i);
	});

	it('dates each change at its commit and names the commit in full', async () => {
		const $ = await page('access/changes');
		const first = $('table.changes tbody tr').first();
		expect(first.find('time').attr('datetime')).toBe(made(7).date);
		expect(first.find('[data-commit]').attr('data-commit')).toBe(made(7).hash);
	});

	it('filters by environment, role and kind, one page each, as links', async () => {
		const all = accessChanges();
		const staging = await page('access/changes/environments/staging-us-east');
		expect(tableRows(staging)).toEqual(granted(scripted.staging, 7));
		const production = await page('access/changes/environments/production');
		expect(tableRows(production)).toEqual(all.slice(8));
		const rotated = await page('access/changes/kinds/key-rotated');
		expect(tableRows(rotated)).toEqual([all[10]]);
		const changed = await page('access/changes/kinds/role-changed');
		expect(tableRows(changed)).toEqual([all[11], all[12]]);
		const revoked = await page('access/changes/kinds/revoked');
		expect(tableRows(revoked)).toEqual([all[9], all[14]]);
		const admin = await page('access/changes/roles/admin');
		expect(tableRows(admin)).toEqual(
			all.filter((row) => / Granted admin$|admin →|→ admin$/.test(row)),
		);
		const links = (await page('access/changes'))('nav[aria-label="Filter access changes"] a')
			.toArray()
			.map((link) => link.attribs['href']);
		expect(links).toEqual(
			expect.arrayContaining([
				'/access/changes/environments/staging-us-east/',
				'/access/changes/roles/admin/',
				'/access/changes/kinds/key-rotated/',
			]),
		);
	});
});

describe("a view's history", () => {
	it('lists each commit to the view, newest first, renames included, each change in words', async () => {
		const $ = await page('views/production-main/history');
		const commits = $('section.history-commit')
			.toArray()
			.map((section) => {
				const each = $(section);
				const commit = each.find('[data-commit]');
				return {
					commit: `${commit.find('code').text()} ${commit.find('.author bdi').text()}`,
					changes: each
						.find('ul.history-changes li')
						.toArray()
						.map((item) => $(item).text().replace(/\s+/g, ' ').trim()),
				};
			});
		const by = (day: number) => `${made(day).short} ${made(day).author}`;
		expect(commits).toEqual([
			{
				commit: by(6),
				changes: [
					'Sam Okoye (sam.okoye@example.com): Granted viewer',
					'Rosa Jiménez (rosa.jimenez@example.com): Revoked (was viewer)',
				],
			},
			{ commit: by(5), changes: ['File renamed: production.json → production-main.json'] },
			{
				commit: by(4),
				changes: [
					'Configuration member jwt_secret rotated',
					'Hannah Lindqvist (hannah.lindqvist@example.com): Key rotated (operator)',
				],
			},
			{
				commit: by(3),
				changes: [
					'Priya Raman (priya.raman@example.com): Role changed: deployer → admin',
					'Lukas Brandt (lukas.brandt@example.com): Role changed: admin → deployer',
				],
			},
			{
				commit: by(2),
				changes: [
					'Rosa Jiménez (rosa.jimenez@example.com): Granted viewer',
					'Owen Gallagher (owen.gallagher@example.com): Revoked (was viewer)',
				],
			},
			{
				commit: by(1),
				changes: [
					'View added as production',
					...scripted.production.users.map(
						(user) => `${user.name} (${user.email}): Granted ${user.role}`,
					),
				],
			},
		]);
	});

	it('is linked from the view page', async () => {
		const $ = await page('views/production-main');
		expect($('a[href="/views/production-main/history/"]').length).toBe(1);
	});

	it('has a Markdown twin with the same commits and changes, in the same order', async () => {
		const $ = await page('views/production-main/history');
		const fromPage = $('.history-commit')
			.toArray()
			.map((element) => {
				const each = $(element);
				return [
					each.find('[data-commit] code').text(),
					...each
						.find('ul.history-changes li')
						.toArray()
						.map((item) => $(item).text().replace(/\s+/g, ' ').trim()),
				];
			});
		const twin = await readFile(path.join(dist, 'views/production-main/history.md'), 'utf8');
		expect(twin).toMatch(/^# History of /);
		// Each commit: its date as a heading, its short name in code, then its changes as a list.
		const fromTwin = twin
			.split(/^## /m)
			.slice(1)
			.map((section) => [
				/`([0-9a-f]{7,})`/.exec(section)?.[1] ?? '',
				...section
					.split('\n')
					.filter((line) => /^[-*] /.test(line))
					.map((line) => line.slice(2).replace(/\\(.)/g, '$1')),
			]);
		expect(fromTwin).toEqual(fromPage);
		expect(fromTwin.length).toBe(6);
		expect($('head link[rel="alternate"][type="text/markdown"]').attr('href')).toBe(
			'/views/production-main/history.md',
		);
	});
});

describe("a person's page", () => {
	it("lists the person's own changes, newest first, under any spelling of their email", async () => {
		const $ = await page('people/priya.raman');
		expect(tableRows($)).toEqual([
			line(7, 'Priya Raman <Priya.Raman@example.com> Granted deployer'),
			line(3, 'Priya Raman <priya.raman@example.com> Role changed: deployer → admin'),
			line(1, 'Priya Raman <priya.raman@example.com> Granted deployer'),
		]);
	});
});

/**
 * The rows of a since table as `change | name email | environment | role | then → now`, the email
 * in lower case (the page gives the spelling the person's page chose).
 */
function sinceTable($: ReturnType<typeof load>): string[] {
	return $('table.since-rows tbody tr')
		.toArray()
		.map((row) => {
			const cells = $(row);
			const text = (selector: string) => cells.find(selector).first().text().trim();
			const person = `${text('th bdi')} ${text('th .email').toLowerCase()}`;
			const rest = cells
				.find('td')
				.toArray()
				.map((cell) => $(cell).text().replace(/\s+/g, ' ').trim());
			return [rest[0], person, ...rest.slice(1)].join(' | ');
		});
}

/** The staging view's people as since rows: each gained their role there. */
function stagingGained(): string[] {
	const order = ['admin', 'deployer', 'operator', 'viewer'];
	return [...scripted.staging.users]
		.sort(
			(a, b) =>
				order.indexOf(a.role) - order.indexOf(b.role) ||
				a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }),
		)
		.map(
			(user) =>
				`gained | ${user.name} ${user.email.toLowerCase()} | staging-us-east | ${user.role} | 0 → 1`,
		);
}

/** The body rows of the first table of a Markdown twin in the build, each row's cells' text. */
async function twinTable(file: string): Promise<string[][]> {
	const tree = parseMarkdown(await readFile(path.join(dist, file), 'utf8'));
	const table = allNodes(tree).find((node) => node.type === 'table');
	return (table?.children ?? []).slice(1).map((row) => (row.children ?? []).map(textOf));
}

describe('since a tag', () => {
	it('gives each tag a page with the net difference between it and today', async () => {
		const v1 = await page('access/since/v1.0');
		expect(sinceTable(v1)).toEqual([
			'gained | Sam Okoye sam.okoye@example.com | production | viewer | 0 → 1',
			'lost | Rosa Jiménez rosa.jimenez@example.com | production | viewer | 1 → 0',
			...stagingGained(),
		]);
		expect(v1('.since-commit code').text()).toBe(made(3).short);
		const v2 = await page('access/since/v2.0');
		expect(sinceTable(v2)).toEqual(stagingGained());
	});

	it('lists the tags, newest first, on the since page, with a date field for any other day', async () => {
		const $ = await page('access/since');
		expect(
			$('table.since-tags tbody th a')
				.toArray()
				.map((link) => [$(link).text(), link.attribs['href']]),
		).toEqual([
			['v2.0', '/access/since/v2.0/'],
			['v1.0', '/access/since/v1.0/'],
		]);
		expect($('access-since[data-src="/access-since.json"] input[type="date"]').length).toBe(1);
	});

	it('has Markdown twins: the since page links each tag’s, which holds the rows of its page', async () => {
		const since = await readFile(path.join(dist, 'access/since.md'), 'utf8');
		expect(linksOf(since).filter((href) => href.startsWith('/access/since/'))).toEqual([
			'/access/since/v2.0.md',
			'/access/since/v1.0.md',
			'/access/since/',
		]);
		for (const tag of ['v1.0', 'v2.0']) {
			const rows = (await twinTable(`access/since/${tag}.md`)).map(([change, person, ...rest]) =>
				[
					change,
					(person ?? '').replace(/ \((.*)\)$/, (_, email: string) => ` ${email.toLowerCase()}`),
					...rest,
				].join(' | '),
			);
			expect(rows, tag).toEqual(sinceTable(await page(`access/since/${tag}`)));
		}
		expect((await page('access/since/v1.0'))('head link[type="text/markdown"]').attr('href')).toBe(
			'/access/since/v1.0.md',
		);
	});

	it("gives, for the tag's date, the same rows from /access-since.json as the tag's page", async () => {
		const data = JSON.parse(
			await readFile(path.join(dist, 'access-since.json'), 'utf8'),
		) as SinceData;
		const rows = sinceRows(data, Date.parse(made(3).date)).map(
			(row) =>
				`${row.change} | ${row.name} ${row.email.toLowerCase()} | ${row.environment} | ${row.role} | ${row.then} → ${row.now}`,
		);
		expect(rows).toEqual(sinceTable(await page('access/since/v1.0')));
		expect(data.commits.map(([, short]) => short)).toEqual(
			[1, 2, 3, 6, 7].map((day) => made(day).short),
		);
	});
});

describe('the exports', () => {
	it('access-changes.csv holds one row per scripted change, newest first, with date, commit and author', async () => {
		const text = await readFile(path.join(dist, 'access-changes.csv'), 'utf8');
		const records: string[][] = parse(text, { bom: true });
		const [header, ...rows] = records;
		expect(header).toEqual([
			'Date',
			'Commit',
			'Author',
			'Subject',
			'Environment',
			'View slug',
			'View',
			'Person',
			'Email',
			'Kind',
			'Field',
			'From',
			'To',
		]);
		const row = (day: number, slug: string, rest: string[]): string[] => [
			made(day).date,
			made(day).short,
			made(day).author,
			scripted.commits[day - 1]?.subject ?? '',
			slug === 'staging-us-east' ? 'staging-us-east' : 'production',
			slug,
			slug === 'staging-us-east' ? 'staging-us-east · Staging' : 'production · Production',
			...rest,
		];
		const grants = (day: number, slug: string, view: View) =>
			view.users.map((user) =>
				row(day, slug, [user.name, user.email, 'granted', '', '', user.role]),
			);
		expect(rows).toEqual([
			row(7, 'staging-us-east', ['', '', 'view added', '', '', 'staging-us-east']),
			...grants(7, 'staging-us-east', scripted.staging),
			row(6, 'production-main', [
				'Sam Okoye',
				'sam.okoye@example.com',
				'granted',
				'',
				'',
				'viewer',
			]),
			row(6, 'production-main', [
				'Rosa Jiménez',
				'rosa.jimenez@example.com',
				'revoked',
				'',
				'viewer',
				'',
			]),
			row(5, 'production-main', ['', '', 'view renamed', '', 'production', 'production-main']),
			row(4, 'production', ['', '', 'configuration rotated', 'jwt_secret', '', '']),
			row(4, 'production', [
				'Hannah Lindqvist',
				'hannah.lindqvist@example.com',
				'key rotated',
				'',
				'',
				'',
			]),
			row(3, 'production', [
				'Priya Raman',
				'priya.raman@example.com',
				'role changed',
				'',
				'deployer',
				'admin',
			]),
			row(3, 'production', [
				'Lukas Brandt',
				'lukas.brandt@example.com',
				'role changed',
				'',
				'admin',
				'deployer',
			]),
			row(2, 'production', [
				'Rosa Jiménez',
				'rosa.jimenez@example.com',
				'granted',
				'',
				'',
				'viewer',
			]),
			row(2, 'production', [
				'Owen Gallagher',
				'owen.gallagher@example.com',
				'revoked',
				'',
				'viewer',
				'',
			]),
			row(1, 'production', ['', '', 'view added', '', '', 'production']),
			...grants(1, 'production', scripted.production),
		]);
	});

	it('exports.json names the commit built from, the fixtures digest and each export digest', async () => {
		const manifest = JSON.parse(await readFile(path.join(dist, 'exports.json'), 'utf8')) as {
			commit: { hash: string };
			fixtures: { files: number; sha256: string };
			exports: {
				file: string;
				sha256: string;
				commit: string;
				uncommitted: boolean;
				fixtures: string;
			}[];
		};
		const digest = execFileSync('sh', ['-c', 'LC_ALL=C sha256sum *.json | sha256sum'], {
			cwd: scripted.views,
			encoding: 'utf8',
		}).split(' ')[0];
		expect(manifest.commit.hash).toBe(made(7).hash);
		expect(manifest.fixtures).toMatchObject({ files: 2, sha256: digest });
		expect(manifest.exports.map(({ file }) => file)).toEqual([
			'/access.csv',
			'/access-changes.csv',
			'/access-since.json',
		]);
		for (const entry of manifest.exports) {
			const bytes = await readFile(path.join(dist, entry.file));
			expect(entry.sha256, entry.file).toBe(createHash('sha256').update(bytes).digest('hex'));
			expect(entry).toMatchObject({ commit: made(7).hash, uncommitted: false, fixtures: digest });
		}
	});
});

describe('the review flags from history', () => {
	it('flag the keys older than the limit at the last commit, each with its rule, and no still directory', async () => {
		const $ = await page('access');
		const keys = $('[data-flag="keys"]');
		expect(keys.find('h3').text()).toBe('Keys not rotated for more than 3 days');
		expect(keys.find('.rule').text()).toContain('PORTAL_KEY_MAX_AGE_DAYS sets the limit');
		expect(keys.find('a[href="/access/review/keys/"]').length).toBe(1);
		const all = await page('access/review/keys');
		const rows = all('table.flagged tbody tr')
			.toArray()
			.map((row) =>
				all(row)
					.find('th, td')
					.toArray()
					.map((cell) => all(cell).text().trim())
					.join(' | '),
			);
		const since = '1 Oct 2026, 09:00 UTC';
		expect(rows).toEqual(
			[
				'the view itself (config.api_key)',
				'Amara Okafor',
				'Fatima Zahra Idrissi',
				'Kenji Watanabe',
				'Lukas Brandt',
				'Mateo Alvarez',
				'Priya Raman',
			].map((who) => `${who} | production · Production | ${since} | 6`),
		);
		// The twin names the same keys, by whose they are, never by their value.
		expect(
			(await twinTable('access/review/keys.md')).map((cells) =>
				cells.join(' | ').replace(/ \(\S+@example\.com\)/, ''),
			),
		).toEqual(rows);
		const views = $('[data-flag="views"]');
		expect(views.text()).toContain('0 views are that still.');
		expect(views.find('table').length).toBe(0);
	});
});

/** Every file of the build, with its text (a search index fragment unzipped). */
async function builtFiles(): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile()) continue;
		const file = path.relative(dist, path.join(entry.parentPath, entry.name));
		const bytes = await readFile(path.join(dist, file));
		const text = /\.pf_(fragment|index|meta|filter)$/.test(file)
			? gunzipSync(bytes).toString('utf8')
			: bytes.toString('utf8');
		files.set(file.split(path.sep).join('/'), text);
	}
	return files;
}

describe('secrets', () => {
	it('no key or configuration value any version held is anywhere but its current view page', async () => {
		const files = await builtFiles();
		expect(files.size).toBeGreaterThan(100);
		expect(
			[...files.keys()].filter((file) => file.includes('.pf_fragment')).length,
		).toBeGreaterThan(5);
		const allowed = (file: string, secret: string): boolean =>
			[...scripted.current].some(
				([slug, current]) => file === `views/${slug}/index.html` && current.has(secret),
			);
		// Two fixtures of 18 values each, and four rotated: Rosa's, Hannah's and Sam's keys, the JWT secret.
		expect(scripted.secrets.size).toBe(40);
		const leaks: string[] = [];
		for (const [file, text] of files) {
			for (const secret of scripted.secrets) {
				if (text.includes(secret) && !allowed(file, secret)) leaks.push(`${file}: ${secret}`);
			}
		}
		expect(leaks).toEqual([]);
		// The scan can fail: the current view pages show their keys.
		const viewPage = files.get('views/production-main/index.html') ?? '';
		expect(
			[...(scripted.current.get('production-main') ?? [])].filter((secret) =>
				viewPage.includes(secret),
			).length,
		).toBeGreaterThan(8);
	});
});
