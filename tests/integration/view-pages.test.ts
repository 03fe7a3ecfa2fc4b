import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load, type CheerioAPI } from 'cheerio';
import { describe, expect, inject, it } from 'vitest';
import { loadViews } from '../../src/sources/fixtures.ts';
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
			expect(curl).toBe(
				`curl \\\n  -H "Authorization: Bearer ${key}" \\\n  ${view.baseUrl}/api/v2/users`,
			);
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

	it("says when each view was updated, counted from the build's one instant", async () => {
		// The tests' build describes 2026-11-24T00:00:00Z (SOURCE_DATE_EPOCH in global-setup.ts).
		const $ = await page('.');
		const said = (slug: string) =>
			text($(`a[href="/views/${slug}/"]`).first().closest('li').find('.facts').text());
		expect(said('production')).toContain('updated 2026-11-18, 6 days before this build');
		expect(said('dr-eu-west-failover')).toContain('updated 2026-11-03, 21 days before this build');
	});

	it('has a favicon file and noindex, like every page', async () => {
		const $ = await page('.');
		expect($('meta[name="robots"]').attr('content')).toBe('noindex');
		expect(await readFile(path.join(distDir, 'favicon.svg'), 'utf8')).toContain('<svg');
	});
});

describe('a broken fixture fails the build', () => {
	it('two views that would share a name, naming both files', async () => {
		const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-names-'));
		try {
			const result = buildPortal(
				path.join(folder, 'dist'),
				path.join(ROOT, 'tests/fixtures/duplicate-names/views'),
			);
			expect(result.status).not.toBe(0);
			expect(result.output).toContain(
				'tests/fixtures/duplicate-names/views/dr-eu-west.json: name: expected a name no other view has, but tests/fixtures/duplicate-names/views/dr-eu-west-failover.json and this view are both named "dr-eu-west · DR"',
			);
		} finally {
			await rm(folder, { recursive: true, force: true });
		}
	});

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

/** Every built HTML page, as its route (`views/production/index.html`) and its parsed HTML. */
async function everyPage(): Promise<{ route: string; $: CheerioAPI }[]> {
	const files = (await readdir(distDir, { recursive: true })).filter((file) =>
		file.endsWith('.html'),
	);
	return Promise.all(
		files.sort().map(async (route) => ({
			route,
			$: load(await readFile(path.join(distDir, route), 'utf8')),
		})),
	);
}

describe('every view has one name of its own, used alike everywhere', () => {
	it('gives each view page its own title and heading, the view’s name', async () => {
		const shown = await Promise.all(
			views.map(async ({ slug }) => {
				const $ = await page(`views/${slug}`);
				return { slug, title: $('title').text(), heading: text($('h1').text()) };
			}),
		);
		expect(shown.sort((a, b) => a.slug.localeCompare(b.slug))).toEqual([
			{
				slug: 'dr-eu-west',
				title: 'dr-eu-west · DR · Console Portal',
				heading: 'dr-eu-west · DR',
			},
			{
				slug: 'dr-eu-west-failover',
				title: 'dr-eu-west · DR failover · Console Portal',
				heading: 'dr-eu-west · DR failover',
			},
			{
				slug: 'production',
				title: 'production · Production · Console Portal',
				heading: 'production · Production',
			},
			{
				slug: 'production-edge',
				title: 'production · Edge · Console Portal',
				heading: 'production · Edge',
			},
			{
				slug: 'production-unlabelled',
				title: 'production · unlabelled · Console Portal',
				heading: 'production · unlabelled',
			},
			{
				slug: 'staging-us-east',
				title: 'staging-us-east · Staging · Console Portal',
				heading: 'staging-us-east · Staging',
			},
			{
				slug: 'staging-us-east-edge',
				title: 'staging-us-east · Edge · Console Portal',
				heading: 'staging-us-east · Edge',
			},
			{
				slug: 'staging-us-east-preview',
				title: 'staging-us-east · preview · Console Portal',
				heading: 'staging-us-east · preview',
			},
		]);
	});

	it('gives no two pages of the portal the same title', async () => {
		const routesByTitle = new Map<string, string[]>();
		for (const { route, $ } of await everyPage()) {
			const title = $('title').text();
			routesByTitle.set(title, [...(routesByTitle.get(title) ?? []), route]);
		}
		const shared = [...routesByTitle].filter(([, routes]) => routes.length > 1);
		expect(shared.map(([title, routes]) => `${title}: ${routes.join(', ')}`)).toEqual([]);
		expect(routesByTitle.size).toBeGreaterThan(views.length);
	});

	it('never lets one link text lead to two different views, on any page', async () => {
		const targets = new Map<string, Set<string>>();
		for (const { $ } of await everyPage()) {
			$('a[href^="/views/"]').each((_, link) => {
				// The view, not the place in it: a review flag links to a row of the view's directory.
				const href = ($(link).attr('href') ?? '').split('#')[0] ?? '';
				// The name alone: without the sidebar's API label and the pager's "Next view" caption.
				const name = $(link).clone();
				name.find($(link).closest('.view-pager').length > 0 ? 'small, span' : 'small').remove();
				const label = text(name.text());
				const seen = targets.get(label) ?? new Set<string>();
				seen.add(href);
				targets.set(label, seen);
			});
		}
		const ambiguous = [...targets].filter(([, hrefs]) => hrefs.size > 1);
		expect(ambiguous.map(([label, hrefs]) => `${label} → ${[...hrefs].join(', ')}`)).toEqual([]);
		expect(targets.size).toBeGreaterThanOrEqual(views.length);
	});

	it('names the view alike in breadcrumb, sidebar, pager, overview and search metadata', async () => {
		const $ = await page('views/staging-us-east-edge');
		expect(text($('.breadcrumbs [aria-current="page"]').text())).toBe('staging-us-east · Edge');
		const sidebarLink = $('.view-index a[aria-current="page"]');
		expect(text(sidebarLink.clone().children('small').remove().end().text())).toBe(
			'staging-us-east · Edge',
		);
		expect(sidebarLink.children('small').text()).toBe('v3.1');
		expect(text($('[data-pagefind-meta="title"]').text())).toBe('staging-us-east · Edge');
		expect(text($('.view-pager a[rel="prev"]').text())).toBe(
			'Previous view staging-us-east · preview',
		);
		expect($('.view-pager a[rel="prev"]').attr('href')).toBe('/views/staging-us-east-preview/');
		const overview = await page('.');
		expect(text(overview('a[href="/views/staging-us-east-edge/"]').text())).toBe(
			'staging-us-east · Edge',
		);
	});
});
