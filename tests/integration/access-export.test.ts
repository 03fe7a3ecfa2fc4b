/**
 * The built access.csv and people pages: the export parses as CSV with exactly the fixtures' rows,
 * and neither it nor any person or access page holds a key or a configuration secret.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, inject, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { CONFIG_MEMBERS } from '../../src/schemas/view.ts';
import { ROOT } from '../../support/processes.ts';

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
