/**
 * The built access.csv and people pages: the export parses as CSV with exactly the fixtures' rows,
 * a script reads it with Python's csv module exactly as /access/ and the README show, and neither
 * it nor any person or access page holds a key or a configuration secret.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load } from 'cheerio';
import { parse } from 'csv-parse/sync';
import { describe, expect, inject, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { CONFIG_MEMBERS } from '../../src/schemas/view.ts';
import { childEnv, ROOT } from '../../support/processes.ts';

/** Debian's python3, as the samples test runs it; the PATH's may be another. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

/**
 * Runs a Python script as a reader would after downloading access.csv: from a folder holding the
 * built export and nothing else, with stdin closed.
 */
async function runBesideExport(script: string): Promise<{ status: number | null; output: string }> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-access-csv-'));
	try {
		await copyFile(path.join(inject('distDir'), 'access.csv'), path.join(folder, 'access.csv'));
		await writeFile(path.join(folder, 'read_access.py'), script);
		const result = spawnSync(PYTHON, ['read_access.py'], {
			cwd: folder,
			env: childEnv({ PYTHONIOENCODING: 'utf-8' }),
			encoding: 'utf8',
			input: '',
			timeout: 30_000,
		});
		return { status: result.status, output: `${result.stdout}${result.stderr}` };
	} finally {
		await rm(folder, { recursive: true, force: true });
	}
}

const views = await loadViews(path.join(ROOT, 'content/views'));

/** Every secret value of a fixture: the nine config members, the redis password, every key. */
function secretValues({ view }: ViewEntry): string[] {
	return [
		...CONFIG_MEMBERS.map((member) => view.config[member]),
		new URL(view.config.redis_url).password,
		...view.users.map((user) => user.apiKey),
	];
}

/** Every HTML file under a folder of the build. */
async function htmlUnder(folder: string): Promise<string[]> {
	const names = await readdir(folder, { recursive: true });
	return names.filter((name) => name.endsWith('.html')).map((name) => path.join(folder, name));
}

describe('access.csv', () => {
	it('parses as CSV, a header then exactly one row per person per view of the fixtures', async () => {
		const text = await readFile(path.join(inject('distDir'), 'access.csv'), 'utf8');
		const [header, ...rows] = parse(text, { bom: true });
		expect(header).toEqual([
			'Name',
			'Email',
			'Environment',
			'Configuration label',
			'View',
			'View slug',
			'Role',
		]);
		const names: Record<string, string> = {
			production: 'production · Production',
			'production-edge': 'production · Edge',
			'production-unlabelled': 'production · unlabelled',
			'staging-us-east': 'staging-us-east · Staging',
			'staging-us-east-edge': 'staging-us-east · Edge',
			'staging-us-east-preview': 'staging-us-east · preview',
			'dr-eu-west': 'dr-eu-west · DR',
			'dr-eu-west-failover': 'dr-eu-west · DR failover',
		};
		expect(Object.keys(names).sort()).toEqual(views.map(({ slug }) => slug).sort());
		const expected = views.flatMap(({ slug, view }) =>
			view.users.map((user) => [
				user.name,
				user.email,
				view.environment,
				view.configuration ?? '',
				names[slug] ?? '',
				slug,
				user.role,
			]),
		);
		const key = (row: readonly string[]): string => row.join('\u0000');
		expect(rows.map(key).sort()).toEqual(expected.map(key).sort());
		expect(rows).toHaveLength(views.length * 8);
	});

	it('is read by Python’s csv module with the script /access/ and the people-and-access guide show', async () => {
		const dist = inject('distDir');
		const $ = load(await readFile(path.join(dist, 'access/index.html'), 'utf8'));
		const shown = $('pre[data-reads="access.csv"]');
		expect(shown).toHaveLength(1);
		expect(shown.attr('data-language')).toBe('python');
		const script = shown.text();
		expect(script).toContain("encoding='utf-8-sig'");
		expect(script).toContain('csv.DictReader');
		// The people-and-access guide shows the same script (the loop below checks it is this one).
		const guide = load(
			await readFile(path.join(dist, 'docs/people-and-access/index.html'), 'utf8'),
		);
		expect(guide('pre[data-reads="access.csv"]')).toHaveLength(1);
		// And every other page that shows a script reading the export shows this one.
		for (const file of await htmlUnder(dist)) {
			const page = load(await readFile(file, 'utf8'));
			page('pre[data-reads="access.csv"]').each((_index, element) => {
				expect(page(element).text(), file).toBe(script);
			});
		}
		const { status, output } = await runBesideExport(script);
		expect(output.startsWith('\ufeff'), output).toBe(false);
		expect(status, output).toBe(0);
		const expected = views.flatMap(({ slug, view }) =>
			view.users.map((user) => `${user.name}\t${slug}\t${user.role}`),
		);
		expect(
			output
				.split('\n')
				.filter((line) => line !== '')
				.sort(),
		).toEqual(expected.sort());
	});

	it('needs the encoding the script names: read as plain UTF-8, the byte-order mark hides the first column', async () => {
		const dist = inject('distDir');
		const $ = load(await readFile(path.join(dist, 'access/index.html'), 'utf8'));
		const script = $('pre[data-reads="access.csv"]').text();
		const plain = script.replace("encoding='utf-8-sig'", "encoding='utf-8'");
		expect(plain).not.toBe(script);
		const { status, output } = await runBesideExport(plain);
		expect(status).not.toBe(0);
		expect(output).toContain("KeyError: 'Name'");
	});

	it('holds no secret of any fixture, nor does any person or access page', async () => {
		const dist = inject('distDir');
		const files = [
			path.join(dist, 'access.csv'),
			...(await htmlUnder(path.join(dist, 'people'))),
			...(await htmlUnder(path.join(dist, 'access'))),
		];
		expect(files.length).toBeGreaterThan(60);
		const secrets = views.flatMap(secretValues);
		expect(secrets.length).toBe(views.length * 18);
		const leaks: string[] = [];
		for (const file of files) {
			const text = await readFile(file, 'utf8');
			for (const secret of secrets) if (text.includes(secret)) leaks.push(`${file}: ${secret}`);
		}
		expect(leaks).toEqual([]);
		// The check can fail: a view page shows every key of its directory.
		const viewPage = await readFile(path.join(dist, 'views/production/index.html'), 'utf8');
		expect(secrets.filter((secret) => viewPage.includes(secret)).length).toBeGreaterThan(7);
	});
});
