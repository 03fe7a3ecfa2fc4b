import { mkdtemp, readFile, rm, writeFile, cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load, type CheerioAPI } from 'cheerio';
import { describe, expect, inject, it } from 'vitest';
import { loadViews } from '../../src/schemas/fixtures.ts';
import { CONFIG_MEMBERS } from '../../src/schemas/view.ts';
import { buildPortal } from '../../support/build.ts';
import { ROOT } from '../../support/processes.ts';

const distDir = inject('distDir');
const views = await loadViews(path.join(ROOT, 'content/views'));

async function page(route: string): Promise<CheerioAPI> {
	return load(await readFile(path.join(distDir, route, 'index.html'), 'utf8'));
}

/** Text with runs of white space folded, as a reader sees it. */
const text = (value: string): string => value.replace(/\s+/g, ' ').trim();

describe('each view page shows every fact of its fixture', () => {
	describe.each(views)('/views/$slug/', ({ slug, view }) => {
		it('shows the environment, configuration and API labels and the last-updated time', async () => {
			const $ = await page(`views/${slug}`);
			expect(text($('h1').text())).toContain(view.environment);
			expect($('[data-field="environment"]').text()).toBe(view.environment);
			expect(text($('[data-field="configuration"]').text())).toBe(view.configuration ?? 'none');
			expect(text($('[data-field="apiVersion"]').text())).toBe(view.apiVersion ?? 'none');
			expect($('time[data-field="lastUpdated"]').attr('datetime')).toBe(view.lastUpdated);
		});

		it("shows the configuration block as the fixture's formatted JSON", async () => {
			const $ = await page(`views/${slug}`);
			const shown = JSON.parse($('#config-json').text()) as Record<string, string>;
			expect(shown).toEqual(view.config);
			expect(Object.keys(shown)).toEqual([...CONFIG_MEMBERS]);
			expect($('#config-json').text()).toBe(JSON.stringify(view.config, null, 2));
		});

		it('lists the eight directory users in a table with name, email, role and full key', async () => {
			const $ = await page(`views/${slug}`);
			const headers = $('table.directory thead th')
				.map((_, cell) => text($(cell).text()))
				.get();
			expect(headers).toEqual(['Name', 'Email', 'Role', 'API key']);
			const rows = $('table.directory tbody tr')
				.toArray()
				.map((row) =>
					$(row)
						.children('th, td')
						.toArray()
						.map((cell) => text($(cell).text()).replace(/ Copy$/, '')),
				);
			expect(rows).toEqual(
				view.users.map((user) => [user.name, user.email, user.role, user.apiKey]),
			);
		});

		it('sets the status note apart as page content', async () => {
			const $ = await page(`views/${slug}`);
			expect(text($('.status-note p').text())).toBe(view.statusNote);
		});

		it('gives the example request as a curl command with a directory key', async () => {
			const $ = await page(`views/${slug}`);
			const curl = $('#curl-command').text();
			const key = /Bearer (\S+)"/.exec(curl)?.[1] ?? '';
			expect(view.users.map(({ apiKey }) => apiKey)).toContain(key);
			expect(curl).toBe(`curl -H "Authorization: Bearer ${key}" ${view.baseUrl}/api/v2/users`);
		});

		it('ends with the generated-at time and "Internal use only"', async () => {
			const $ = await page(`views/${slug}`);
			const footer = $('body > footer');
			expect(footer.find('time').attr('datetime')).toBe(view.generatedAt);
			expect(text(footer.text())).toContain('Internal use only');
		});

		it('is marked noindex, has a favicon and copy buttons for config, keys and curl', async () => {
			const $ = await page(`views/${slug}`);
			expect($('meta[name="robots"]').attr('content')).toBe('noindex');
			expect($('link[rel="icon"]').attr('href')).toBe('/favicon.svg');
			const targets = $('copy-button')
				.map((_, element) => $(element).attr('data-target'))
				.get();
			expect(targets).toEqual(
				expect.arrayContaining([
					'config-json',
					'curl-command',
					...view.users.map((_, i) => `key-${i}`),
				]),
			);
		});
	});
});

describe('the overview', () => {
	it('lists every view with its labels, last-updated time and a link', async () => {
		const $ = await page('.');
		for (const { slug, view } of views) {
			const link = $(`a[href="/views/${slug}/"]`);
			expect(link.length, `link to ${slug}`).toBeGreaterThan(0);
			expect($(`time[datetime="${view.lastUpdated}"]`).length, `time of ${slug}`).toBeGreaterThan(
				0,
			);
			const body = text($('main').text());
			expect(body).toContain(view.environment);
			if (view.configuration) expect(body).toContain(view.configuration);
			if (view.apiVersion) expect(body).toContain(view.apiVersion);
		}
	});

	it('has a favicon file and noindex, like every page', async () => {
		const $ = await page('.');
		expect($('meta[name="robots"]').attr('content')).toBe('noindex');
		expect(await readFile(path.join(distDir, 'favicon.svg'), 'utf8')).toContain('<svg');
	});
});

describe('a broken fixture fails the build', () => {
	it('naming the file, the field and the expectation', async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-broken-'));
		try {
			const viewsDir = path.join(folder, 'views');
			await cp(path.join(ROOT, 'content/views'), viewsDir, { recursive: true });
			const broken = JSON.parse(await readFile(path.join(viewsDir, 'dr-eu-west.json'), 'utf8')) as {
				users: { apiKey: string }[];
			};
			const user = broken.users[3];
			if (user) user.apiKey = 'ick-NOTHEX00-abcd';
			await writeFile(path.join(viewsDir, 'dr-eu-west.json'), JSON.stringify(broken, null, 2));
			const result = buildPortal(path.join(folder, 'dist'), viewsDir);
			expect(result.status).not.toBe(0);
			expect(result.output).toContain(
				`${path.join(viewsDir, 'dr-eu-west.json')}: users[3].apiKey: expected a key shaped ick-<8 lowercase hex>-<4 letters or digits>`,
			);
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});
});
