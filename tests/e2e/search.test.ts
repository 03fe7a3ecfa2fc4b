/**
 * Search in a real Chromium on the built portal: it loads nothing until opened, finds views by
 * name, email, slug and filter, ranks a view first for its own name, shows readable excerpts,
 * is driven by the keyboard, and never finds a secret value.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { usePortalInChromium } from '../support/portal-in-chromium.ts';
import { ROOT } from '../../support/processes.ts';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { resultLinks } from '../support/search-results.ts';
import { CONFIG_MEMBERS, ROLES, type Role } from '../../src/schemas/view.ts';
import { personSlug } from '../../src/shared/person-key.ts';
import { accessHref, personHref, viewHref } from '../../src/shared/urls.ts';

const portal = usePortalInChromium();
let views: ViewEntry[];

/** Every secret value of a fixture: the nine config members, the redis password, every key. */
function secretValues({ view }: ViewEntry): string[] {
	return [
		...CONFIG_MEMBERS.map((member) => view.config[member]),
		new URL(view.config.redis_url).password,
		...view.users.map((user) => user.apiKey),
	];
}

/** The person pages of everyone in an environment's views, holding a role there if one is given. */
function peopleIn(environment: string, role?: Role): string[] {
	const emails = views
		.filter(({ view }) => view.environment === environment)
		.flatMap(({ view }) => view.users)
		.filter((user) => role === undefined || user.role === role)
		.map((user) => personHref(personSlug(user.email)));
	return [...new Set(emails)];
}

/** The environments of the fixtures, each once. */
function environments(): string[] {
	return [...new Set(views.map(({ view }) => view.environment))];
}

/** Sets the dialog's filters, each to a value or back to "Any" (''). */
async function choose(page: Page, filters: Record<string, string>): Promise<void> {
	for (const [name, value] of Object.entries(filters)) {
		await page.selectOption(`select[name="${name}"]`, value);
	}
}

/** The status line, once it says something. */
async function statusLine(page: Page): Promise<string> {
	const status = page.locator('.search-status');
	await expect.poll(async () => (await status.textContent()) ?? '').not.toBe('');
	return (await status.textContent()) ?? '';
}

/** Opens a route in the file's kept page (1280 by 720 px) with search ready to type into. */
async function openSearch(route: string): Promise<Page> {
	const page = await portal.open(route, { height: 720 });
	await page.keyboard.press('/');
	await page.locator('#search-query').waitFor();
	return page;
}

beforeAll(async () => {
	views = await loadViews(path.join(ROOT, 'content/views'));
});

describe('search', () => {
	it('fetches no search code or index until the reader opens search', async () => {
		const page = await portal.browser.newPage();
		const fetched: string[] = [];
		page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
		await page.goto(`${portal.url}/views/production/`);
		await page.waitForLoadState('networkidle');
		expect(fetched.filter((url) => /pagefind|search-dialog/.test(url))).toEqual([]);
		await page.keyboard.press('Control+k');
		await page.locator('.search-filters select').first().waitFor();
		expect(fetched.some((url) => url.endsWith('/pagefind/pagefind.js'))).toBe(true);
		await page.close();
	});

	it('finds a view by a user name, after their person page, and shows the view labels in the result', async () => {
		const page = await openSearch('/docs/');
		await page.fill('#search-query', 'Kenji Watanabe');
		const links = await resultLinks(page);
		expect(links.slice(0, 2)).toEqual(['/people/kenji.watanabe/', '/views/production/']);
		expect(links.filter((link) => link.startsWith('/views/'))).toEqual(['/views/production/']);
		await expect
			.poll(() => page.locator('.search-results li').nth(1).locator('.search-labels').textContent())
			.toBe('production · Production · v5.8');
	});

	it('finds the view of every user by email', async () => {
		const page = await openSearch('/');
		for (const { slug, view } of views) {
			const user = view.users[5];
			if (!user) throw new Error(`${slug} has no sixth user`);
			await page.fill('#search-query', '');
			await page.fill('#search-query', user.email);
			await expect.poll(() => resultLinks(page)).toContain(`/views/${slug}/`);
		}
	});

	it('filters by environment, page kind and API label without a query', async () => {
		const page = await openSearch('/');
		await page.selectOption('select[name="kind"]', 'view');
		await page.selectOption('select[name="environment"]', 'dr-eu-west');
		const expected = views
			.filter(({ view }) => view.environment === 'dr-eu-west')
			.map(({ slug }) => `/views/${slug}/`);
		await expect.poll(async () => (await resultLinks(page)).sort()).toEqual(expected.sort());
		await page.selectOption('select[name="environment"]', '');
		await page.selectOption('select[name="kind"]', '');
		await page.selectOption('select[name="kind"]', 'reference');
		await expect
			.poll(async () => (await resultLinks(page)).sort())
			.toEqual(['/reference/', '/reference/changes/']);
		await page.selectOption('select[name="kind"]', 'view');
		await page.selectOption('select[name="api"]', 'v5.8');
		const withLabel = views
			.filter(({ view }) => view.apiVersion === 'v5.8')
			.map(({ slug }) => `/views/${slug}/`);
		await expect.poll(async () => (await resultLinks(page)).sort()).toEqual(withLabel.sort());
	});

	it('moves through the results with the arrow keys, back to the query, and opens one with Enter', async () => {
		const page = await openSearch('/docs/');
		const input = page.locator('#search-query');
		await input.fill('production-edge');
		const links = await resultLinks(page);
		expect(links.length).toBeGreaterThan(1);
		const options = page.locator('.search-results [role="option"]');
		await expect.poll(() => input.getAttribute('aria-expanded')).toBe('true');
		expect(await input.getAttribute('aria-activedescendant')).toBeNull();

		await page.keyboard.press('ArrowDown');
		const first = await options.nth(0).getAttribute('id');
		expect(first).toBeTruthy();
		expect(await input.getAttribute('aria-activedescendant')).toBe(first);
		expect(await options.nth(0).getAttribute('aria-selected')).toBe('true');
		await page.keyboard.press('ArrowDown');
		expect(await input.getAttribute('aria-activedescendant')).toBe(
			await options.nth(1).getAttribute('id'),
		);
		expect(await options.nth(0).getAttribute('aria-selected')).toBe('false');
		// The query field keeps the focus throughout, so the reader can go on typing.
		expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-query');
		await page.keyboard.press('ArrowUp');
		await page.keyboard.press('ArrowUp');
		expect(await input.getAttribute('aria-activedescendant')).toBeNull();
		expect(await page.locator('.search-results [aria-selected="true"]').count()).toBe(0);

		await page.keyboard.press('ArrowDown');
		await Promise.all([
			page.waitForURL(`${portal.url}/views/production-edge/`),
			page.keyboard.press('Enter'),
		]);
		expect(new URL(page.url()).pathname).toBe('/views/production-edge/');
	});

	it.each(['production-edge', 'dr-eu-west-failover'])(
		'ranks the view first when searched by its slug %s',
		async (slug) => {
			const page = await openSearch('/');
			await page.fill('#search-query', slug);
			expect((await resultLinks(page))[0]).toBe(`/views/${slug}/`);
		},
	);

	it.each(['production-edge', 'staging-us-east-edge'])(
		'ranks the view first when searched by its heading (%s)',
		async (slug) => {
			const page = await portal.open(`/views/${slug}/`, { height: 720 });
			const heading = (await page.locator('h1').textContent()) ?? '';
			expect(heading.trim()).not.toBe('');
			await page.keyboard.press('/');
			await page.fill('#search-query', heading);
			expect((await resultLinks(page))[0]).toBe(`/views/${slug}/`);
		},
	);

	it('shows excerpts as sentences, without the hidden labels run together', async () => {
		const page = await openSearch('/');
		const excerpts = (): Promise<string[]> => page.locator('.search-excerpt').allTextContents();
		for (const query of ['staging-us-east', 'production', 'dr-eu-west', 'Kenji Watanabe']) {
			await page.fill('#search-query', query);
			// Wait for this query's results, not the previous one's.
			await expect
				.poll(async () => (await excerpts())[0] ?? '', { timeout: 10_000 })
				.toContain(query);
			for (const excerpt of await excerpts()) {
				expect(excerpt).not.toMatch(
					/view(staging|production|dr-)|Environment\S|Configuration[A-Z]|API label\S|Hostsconsole/,
				);
			}
		}
		await page.fill('#search-query', 'production-edge');
		// The view's own result, wherever it ranks.
		const viewExcerpt = page
			.locator('.search-results li')
			.filter({ has: page.locator('a[href="/views/production-edge/"]') })
			.locator('.search-excerpt');
		await expect
			.poll(async () => (await viewExcerpt.allTextContents())[0], { timeout: 10_000 })
			.toBe(
				'Console view production-edge. production · Edge. Hosts console 203.0.113.61:7443 database console_production_edge on db.production-edge.example:5432 cache cache.production-edge.example:6379. Status note. Edge traffic billed $1.37M this month, up 8.9% year over year; the new',
			);
		// A match deep in the page: the excerpt starts at it, not at the host names before it.
		await page.fill('#search-query', 'billed');
		const billed = page
			.locator('.search-results li')
			.filter({ has: page.locator('a[href="/views/production-edge/"]') })
			.locator('.search-excerpt');
		await expect
			.poll(async () => (await billed.allTextContents())[0], { timeout: 10_000 })
			.toMatch(/^… note\. Edge traffic billed \$1\.37M/);
	});

	it("narrows a query's results by page kind and environment", async () => {
		const page = await openSearch('/');
		await page.fill('#search-query', 'edge');
		const all = await resultLinks(page);
		expect(all.some((link) => !link.startsWith('/views/'))).toBe(true);
		await page.selectOption('select[name="kind"]', 'view');
		await expect
			.poll(async () => (await resultLinks(page)).sort())
			.toEqual(['/views/production-edge/', '/views/staging-us-east-edge/']);
		await page.selectOption('select[name="environment"]', 'production');
		await expect.poll(() => resultLinks(page)).toEqual(['/views/production-edge/']);
	});

	it('finds no view page and shows no excerpt for any secret value of any fixture', async () => {
		const page = await openSearch('/');
		const secrets = views.flatMap(secretValues);
		expect(secrets.length).toBeGreaterThan(100);
		// Pagefind splits a query into words, so a key or URL also matches the guides that explain
		// the key prefix or URL shape. What must never happen: a view page found by its secret, or
		// any result whose indexed text holds the secret.
		// A string, so the test runner's transform leaves the browser's dynamic import alone.
		const leaks = await page.evaluate<string[]>(`(async (queries) => {
			const pagefind = await import('/pagefind/pagefind.js');
			await pagefind.init();
			const leaks = [];
			for (const query of queries) {
				const { results } = await pagefind.search(query);
				for (const result of results) {
					const { url, content } = await result.data();
					if (url.startsWith('/views/') || content.includes(query)) leaks.push(query + ' → ' + url);
				}
			}
			return leaks;
		})(${JSON.stringify(secrets)})`);
		expect(leaks).toEqual([]);
		// The same search through the dialog, as a reader would type it.
		const first = views[0];
		if (!first) throw new Error('No fixtures');
		await page.fill('#search-query', first.view.config.cloud_secret_key);
		const links = await resultLinks(page);
		expect(links.filter((link) => link.startsWith('/views/'))).toEqual([]);
	});

	it('writes no secret value into any file of the search index', async () => {
		const folder = path.join(inject('distDir'), 'pagefind');
		const names = (await readdir(folder, { recursive: true })).filter((name) =>
			/\.pf_(fragment|index|filter)$/.test(name),
		);
		expect(names.length).toBeGreaterThan(10);
		const text = (
			await Promise.all(
				names.map(async (name) => gunzipSync(await readFile(path.join(folder, name))).toString()),
			)
		).join('\n');
		expect(text).toContain('Kenji Watanabe');
		const leaked = views.flatMap(secretValues).filter((secret) => text.includes(secret));
		expect(leaked).toEqual([]);
	});
});

describe('search answers access questions', () => {
	it('finds, for each environment and role, who holds that role there and its access page', async () => {
		const page = await openSearch('/');
		const combinations = environments().flatMap((environment) =>
			ROLES.map((role) => ({ environment, role })),
		);
		expect(combinations.length).toBe(12);
		for (const { environment, role } of combinations) {
			await choose(page, { environment, role });
			const expected = [accessHref(environment, role), ...peopleIn(environment, role)];
			// Each view gives each role to two people: someone holds every role everywhere.
			expect(expected.length, `${role} in ${environment}`).toBeGreaterThan(1);
			await expect
				.poll(async () => (await resultLinks(page)).sort(), { timeout: 10_000 })
				.toEqual(expected.sort());
		}
	});

	it('never finds someone who holds the role elsewhere and another role in the environment', async () => {
		const page = await openSearch('/');
		// Amara Okafor is admin in production and viewer in dr-eu-west, never viewer in production.
		await page.fill('#search-query', 'Amara Okafor');
		await choose(page, { environment: 'production', role: 'viewer' });
		await expect
			.poll(() => statusLine(page), { timeout: 10_000 })
			.toBe('No results for "Amara Okafor"');
		await choose(page, { role: 'admin' });
		await expect.poll(() => resultLinks(page)).toEqual(['/people/amara.okafor/']);
		await choose(page, { environment: 'dr-eu-west', role: 'viewer' });
		await expect.poll(() => resultLinks(page)).toEqual(['/people/amara.okafor/']);
		// Priya Raman is deployer in one production view and operator in another: both find her.
		await page.fill('#search-query', 'Priya Raman');
		for (const role of ['deployer', 'operator']) {
			await choose(page, { environment: 'production', role });
			await expect.poll(() => resultLinks(page)).toEqual(['/people/priya.raman/']);
		}
	});

	it("finds a person by name in an environment: their page, then the environment's views they are in", async () => {
		const page = await openSearch('/');
		await page.fill('#search-query', 'Amara Okafor');
		const theirViews = (environment: string) =>
			views
				.filter(
					({ view }) =>
						view.environment === environment &&
						view.users.some(({ email }) => email === 'amara.okafor@example.com'),
				)
				.map(({ slug }) => viewHref(slug));
		expect(theirViews('production')).toHaveLength(2);
		await choose(page, { environment: 'production' });
		await expect
			.poll(async () => {
				const [first, ...others] = await resultLinks(page);
				return [first, ...others.sort()];
			})
			.toEqual(['/people/amara.okafor/', ...theirViews('production').sort()]);
		await choose(page, { environment: 'staging-us-east' });
		await expect
			.poll(() => statusLine(page), { timeout: 10_000 })
			.toBe('No results for "Amara Okafor"');
	});

	it('finds by environment alone its views, the people in them, and its access page', async () => {
		const page = await openSearch('/');
		for (const environment of environments()) {
			await choose(page, { environment });
			const expected = [
				...views
					.filter(({ view }) => view.environment === environment)
					.map(({ slug }) => viewHref(slug)),
				accessHref(environment),
				...peopleIn(environment),
			];
			await expect
				.poll(() => statusLine(page), { timeout: 10_000 })
				.toBe(`${expected.length} results`);
			// The dialog lists the first 20.
			const links = await resultLinks(page);
			expect(links).toHaveLength(Math.min(expected.length, 20));
			expect(expected).toEqual(expect.arrayContaining(links));
		}
	});

	it('finds by role alone everyone holding it in some view, and its access page', async () => {
		const page = await openSearch('/');
		for (const role of ROLES) {
			await choose(page, { role });
			const holders = environments().flatMap((environment) => peopleIn(environment, role));
			const expected = [accessHref(undefined, role), ...new Set(holders)];
			expect(expected.length).toBeLessThanOrEqual(20);
			await expect
				.poll(async () => (await resultLinks(page)).sort(), { timeout: 10_000 })
				.toEqual(expected.sort());
		}
	});

	it.each([
		[
			{ kind: 'view', role: 'admin' },
			'Role does not apply to view pages; it is on person and access pages.',
		],
		[
			{ kind: 'guide', environment: 'production' },
			'Environment does not apply to guide pages; it is on view, person and access pages.',
		],
		[
			{ configuration: 'Edge', role: 'admin' },
			'No page carries Configuration label and Role together; Configuration label is on view pages, Role on person and access pages.',
		],
	])('says a filter cannot apply instead of finding nothing (%o)', async (filters, note) => {
		const page = await openSearch('/');
		await page.fill('#search-query', 'production');
		await expect.poll(async () => (await resultLinks(page)).length).toBeGreaterThan(0);
		await choose(page, filters);
		await expect.poll(() => statusLine(page)).toBe(note);
		expect(await page.locator('.search-status').getAttribute('class')).toContain('search-note');
		expect(await page.locator('.search-status').getAttribute('role')).toBe('status');
		expect(await page.locator('.search-results a').count()).toBe(0);
	});
});
