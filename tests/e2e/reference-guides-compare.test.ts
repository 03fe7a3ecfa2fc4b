/** The reference page, a guide and the compare page in a real Chromium on the built portal. */
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { usePortalInChromium } from '../support/portal-in-chromium.ts';
import { ROOT } from '../../support/processes.ts';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { CONFIG_MEMBERS } from '../../src/schemas/view.ts';
import { viewName } from '../../src/shared/views.ts';

const portal = usePortalInChromium();
let views: ViewEntry[];
let page: Page;

beforeAll(async () => {
	views = await loadViews(path.join(ROOT, 'content/views'));
});

describe('reference page', () => {
	beforeAll(async () => {
		page = await portal.open('/reference/', { height: 720 });
	});

	it('shows the method, path, bearer security and key shape from openapi.yaml', async () => {
		const headings = await page.locator('h2', { hasText: '/api/v2/users' }).allTextContents();
		expect(headings.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([
			expect.stringMatching(/^GET \/api\/v2\/users/),
			expect.stringMatching(/^HEAD \/api\/v2\/users/),
			expect.stringMatching(/^OPTIONS \/api\/v2\/users/),
		]);
		const main = (await page.locator('main').textContent()) ?? '';
		expect(main).toContain('http bearer');
		expect(main).toContain('Authorization: Bearer <key>');
		expect(main).toContain('ick-<8 lowercase hex>-<4 letters or digits>');
	});

	it('shows every response with its schema, headers and examples', async () => {
		const get = page.locator('section.operation').first();
		// Each response is named by its status and operation, unique on a page of three operations.
		const names = await get
			.locator('details.response:not(.shared-headers) h4')
			.evaluateAll((all) =>
				all.map((heading) => heading.textContent?.replace(/\s+/g, ' ').split(':')[0]?.trim()),
			);
		expect(names).toEqual(
			['200', '400', '401', '403', '404', '422', '500', '503'].map(
				(status) => `${status} of GET /api/v2/users`,
			),
		);
		const fields = await get.locator('.schema-explorer .field-name').allTextContents();
		expect(fields).toEqual(expect.arrayContaining(['users', 'email', 'role', 'detail']));
		await expect(get.locator('th code', { hasText: 'WWW-Authenticate' }).count()).resolves.toBe(2);
		// Every response carries the CORS headers alike: the page lists them once, after the responses.
		await expect(
			get.locator('th code', { hasText: 'Access-Control-Allow-Origin' }).count(),
		).resolves.toBe(1);
		// The problem schema is explored once; the other problems link to it.
		await expect(get.locator('.schema-explorer#schema-problem').count()).resolves.toBe(1);
		const exampleNames = await get.locator('.response-examples summary code').allTextContents();
		expect(exampleNames).toEqual(
			expect.arrayContaining([
				'missing-key',
				'invalid-key',
				'wrong-shape',
				'console-key',
				'invalid-request',
				'mock-failure',
			]),
		);
	});

	it('offers the first per-view examples, the first open, and sends the reader to the published contract for all', async () => {
		const examples = page.locator('section.operation').first().locator('[data-tab-label="200"]');
		await expect(examples.locator('.media').textContent()).resolves.toMatch(
			new RegExp(`${views.length} examples, one per view, named by its slug; the first 3 here`),
		);
		// The contract lists the examples in slug order.
		const slugs = views.map(({ slug }) => slug).sort();
		await expect(examples.locator('summary code').allTextContents()).resolves.toEqual(
			slugs.slice(0, 3),
		);
		await expect(
			examples.locator('details').evaluateAll((all) => all.map((one) => one.hasAttribute('open'))),
		).resolves.toEqual([true, false, false]);
		await expect(examples.locator('a[href="/openapi.json"]').count()).resolves.toBe(1);
		await expect(examples.locator('a[href="/"]').textContent()).resolves.toBe("view's page");
	});

	it('offers samples in eight languages that call the mock it was built for', async () => {
		const mock = `http://127.0.0.1:${inject('mockPort')}`;
		const samples = await page
			.locator('section.operation')
			.first()
			.locator('.code-samples pre')
			.allTextContents();
		expect(samples).toHaveLength(8);
		const key = '${API_KEY:?export a key from a view page first}';
		expect(samples[0]).toBe(
			`curl \\\n  -H "Authorization: Bearer ${key}" \\\n  ${mock}/api/v2/users`,
		);
		expect(samples[1]).toBe(
			[
				'if (!process.env.API_KEY) {',
				"  console.error('API_KEY: export a key from a view page first');",
				'  process.exit(1);',
				'}',
				`const response = await fetch('${mock}/api/v2/users', {`,
				"  method: 'GET',",
				"  headers: { 'Authorization': `Bearer ${process.env.API_KEY}` },",
				'});',
				'console.log(response.status, JSON.stringify(await response.json(), null, 2));',
			].join('\n'),
		);
		expect(samples[2]).toContain(`    "${mock}/api/v2/users",`);
		expect(samples[3]).toBe(
			`http --ignore-stdin GET ${mock}/api/v2/users "Authorization:Bearer ${key}"`,
		);
		// Three operations, eight languages each.
		await expect(page.locator('.code-samples pre').count()).resolves.toBe(24);
	});
});

describe('a guide', () => {
	it('Versioning gives each API label one row, with its views and the one v2 path', async () => {
		page = await portal.open('/docs/versioning/', { height: 720 });
		await expect(page.locator('h1').textContent()).resolves.toBe('Versioning');
		await expect(page.locator('nav.breadcrumbs').textContent()).resolves.toContain('Guides');
		const rows = page.locator('article table tbody tr');
		const labels = [...new Set(views.map(({ view }) => view.apiVersion ?? 'none'))];
		await expect(rows.count()).resolves.toBe(labels.length);
		for (const { slug, view } of views) {
			const row = rows.filter({ has: page.locator(`a[href="/views/${slug}/"]`) });
			await expect(row.locator('th').textContent()).resolves.toBe(view.apiVersion ?? 'none');
			await expect(row.locator('td').last().textContent()).resolves.toBe('/api/v2/users');
		}
	});
});

describe('compare page', () => {
	it('shows two views side by side from the address, secrets only as same or differs', async () => {
		const [a, b] = views;
		if (!a || !b) throw new Error('Two fixtures are needed');
		page = await portal.open(`/compare/?a=${a.slug}&b=${b.slug}`, { height: 720 });
		await page.locator('[data-output] table').first().waitFor();
		const text = (await page.locator('view-compare').textContent()) ?? '';
		expect(text).toContain(new URL(a.view.baseUrl).hostname);
		expect(text).toContain(new URL(b.view.baseUrl).hostname);
		expect(text).toContain(new URL(b.view.config.database_url).pathname.slice(1));
		const secretRows = await page
			.locator('table', { hasText: 'secrets' })
			.locator('tbody tr')
			.allTextContents();
		expect(secretRows).toHaveLength(CONFIG_MEMBERS.length);
		for (const row of secretRows) expect(row).toMatch(/(same|differs)$/);
		const html = await page.content();
		for (const { view } of [a, b]) {
			for (const member of CONFIG_MEMBERS) expect(html).not.toContain(view.config[member]);
			for (const user of view.users) expect(html).not.toContain(user.apiKey);
		}
	});

	it('lists directory changes between two views and follows a new pick into the address', async () => {
		const [a, , c] = views;
		if (!a || !c) throw new Error('Three fixtures are needed');
		page = await portal.open(`/compare/?a=${a.slug}&b=${a.slug}`, { height: 720 });
		await page.locator('[data-output] table').first().waitFor();
		await expect(page.locator('[role="status"]').textContent()).resolves.toContain('same view');
		await page.selectOption('select[name="env-b"]', c.view.environment);
		await page.selectOption('select[name="b"]', c.slug);
		await page.locator('[role="status"]', { hasText: `with ${viewName(c.view)}.` }).waitFor();
		expect(new URL(page.url()).searchParams.get('a')).toBe(a.slug);
		expect(new URL(page.url()).searchParams.get('b')).toBe(c.slug);
		const added = c.view.users.filter(
			(user) => !a.view.users.some((other) => other.email === user.email),
		);
		const changes = await page.locator('tr', { hasText: 'added' }).allTextContents();
		expect(changes).toHaveLength(added.length);
		for (const user of added) expect(changes.join('\n')).toContain(user.email);
	});

	it('shows a person in both directories once: unchanged, or with the role changed', async () => {
		// The fixtures overlap on purpose: Amara Okafor is an admin in both views, and Priya Raman
		// a deployer in production and an operator in production-edge, each with a key per view.
		page = await portal.open('/compare/?a=production&b=production-edge', { height: 720 });
		await page.locator('[data-output] table').first().waitFor();
		await expect(
			page.locator('[data-output] p', { hasText: /^From / }).textContent(),
		).resolves.toBe(
			'From production · Production to production · Edge: 6 added, 6 removed, 1 with another role, 1 unchanged (matched by email).',
		);
		await expect(
			page.locator('tr', { hasText: 'role changed' }).locator('td, th').allTextContents(),
		).resolves.toEqual([
			'Priya Raman',
			'priya.raman@example.com',
			'deployer',
			'operator',
			'role changed',
		]);
		await expect(page.locator('tr', { hasText: 'amara.okafor@example.com' }).count()).resolves.toBe(
			0,
		);
	});

	it('opens on two different views, each header and the summary naming its own', async () => {
		page = await portal.open('/compare/', { height: 720 });
		await page.locator('[data-output] table').first().waitFor();
		await expect(
			page.locator('[data-output] table').first().locator('thead th').allTextContents(),
		).resolves.toEqual(['Fact', 'dr-eu-west · DR', 'dr-eu-west · DR failover', 'Same?']);
		await expect(page.locator('[data-output] p').nth(1).textContent()).resolves.toMatch(
			/^From dr-eu-west · DR to dr-eu-west · DR failover: /,
		);
		await expect(page.locator('[role="status"]').textContent()).resolves.toBe(
			'Compared dr-eu-west · DR with dr-eu-west · DR failover.',
		);
	});

	it('names a slug in the address that no view has, and compares nothing in its place', async () => {
		page = await portal.browser.newPage();
		const fetched: string[] = [];
		page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
		await page.goto(`${portal.url}/compare/?a=production-edge&b=nope`);
		await expect
			.poll(() => page.locator('[role="status"]').textContent())
			.toBe(
				'The address asks for view B "nope", but no view has that slug. Pick view B from the list.',
			);
		await expect(page.locator('select[name="a"]').inputValue()).resolves.toBe('production-edge');
		await expect(page.locator('select[name="b"] option:checked').textContent()).resolves.toBe(
			'nope (no such view)',
		);
		await expect(page.locator('[data-output]').textContent()).resolves.toBe('');
		// Only the two views asked for are looked up: nothing is compared in place of "nope".
		expect(fetched.filter((url) => /^\/compare\/[^/]+\.json$/.test(url)).sort()).toEqual([
			'/compare/nope.json',
			'/compare/production-edge.json',
		]);
		expect(new URL(page.url()).searchParams.get('b')).toBe('nope');
		await page.selectOption('select[name="env-b"]', 'production');
		await page.selectOption('select[name="b"]', 'production');
		await page
			.locator('[role="status"]', {
				hasText: 'Compared production · Edge with production · Production.',
			})
			.waitFor();
		expect(new URL(page.url()).searchParams.get('b')).toBe('production');
	});

	it('without JavaScript, shows two views side by side, each picked in its own frame', async () => {
		const noScript = await portal.open('/compare/', { javaScriptEnabled: false, height: 720 });
		await expect(noScript.locator('.compare-form').isVisible()).resolves.toBe(false);
		await expect(
			noScript
				.locator('.compare-frames iframe')
				.evaluateAll((frames) =>
					frames.map((frame): [string | null, string | null] => [
						frame.getAttribute('title'),
						frame.getAttribute('src'),
					]),
				),
		).resolves.toEqual([
			['View A', '/compare/side/start/a/'],
			['View B', '/compare/side/start/b/'],
		]);
		const sideA = noScript.frameLocator('iframe[title="View A"]');
		const sideB = noScript.frameLocator('iframe[title="View B"]');
		// What a side shows: the view its address targets, alone, or else the list of views.
		const shown = (side: typeof sideA) => side.locator('h1, h2').filter({ visible: true });
		await expect(shown(sideA).allTextContents()).resolves.toEqual(['dr-eu-west · DR']);
		await expect(shown(sideB).allTextContents()).resolves.toEqual(['dr-eu-west · DR failover']);
		// Side B: every environment, then production's views, then production · Edge.
		await sideB.getByRole('link', { name: 'Other views of dr-eu-west' }).click();
		await sideB.getByRole('link', { name: 'All environments' }).click();
		// Read the list once the environments page has loaded, not while the frame navigates.
		await sideB.getByRole('link', { name: 'staging-us-east', exact: true }).waitFor();
		await expect(sideB.locator('li a').allTextContents()).resolves.toEqual([
			'dr-eu-west',
			'production',
			'staging-us-east',
		]);
		await sideB.getByRole('link', { name: 'production', exact: true }).click();
		await sideB.locator('#views').getByRole('link', { name: 'production · Edge' }).click();
		await expect(shown(sideB).allTextContents()).resolves.toEqual(['production · Edge']);
		await sideA.getByRole('link', { name: 'Other views of dr-eu-west' }).click();
		await sideA.getByRole('link', { name: 'All environments' }).click();
		await sideA.getByRole('link', { name: 'production', exact: true }).click();
		// Picked from the list: until the page's stylesheet has loaded (late on a loaded machine),
		// every view's card shows, each with a link of the same name.
		await sideA.locator('#views').getByRole('link', { name: 'production · Production' }).click();
		await expect(shown(sideA).allTextContents()).resolves.toEqual(['production · Production']);
		// Back to the list, then the same view again: the side keeps working without a reload.
		await sideA.getByRole('link', { name: 'Other views of production' }).click();
		await expect(shown(sideA).allTextContents()).resolves.toEqual(['production']);
		await sideA.locator('#views').getByRole('link', { name: 'production · Production' }).click();
		await expect(shown(sideA).allTextContents()).resolves.toEqual(['production · Production']);
		// Focus follows the pick to the view shown, not left on a link that was hidden.
		await expect(sideA.locator(':focus').getAttribute('id')).resolves.toBe('view-production');
		// The overlap the fixtures carry: Priya Raman is a deployer in one and an operator in the other.
		const role = (side: typeof sideA) =>
			side
				.locator('.side-card:target tr', { hasText: 'priya.raman@example.com' })
				.locator('td')
				.last()
				.textContent();
		await expect(role(sideA)).resolves.toBe('deployer');
		await expect(role(sideB)).resolves.toBe('operator');
		// Both sides list the same facts in the same order, so their rows line up.
		const labels = (side: typeof sideA) =>
			side.locator('.side-card:target .side-facts th').allTextContents();
		await expect(labels(sideA)).resolves.toEqual(await labels(sideB));
		await expect(
			sideA.locator('.side-card:target .side-facts').first().locator('tr').count(),
		).resolves.toBe(12);
		// Secrets appear only as numbers: no view's secret or key is on any side page.
		const sidePages = [
			'/compare/side/',
			'/compare/side/start/a/',
			'/compare/side/start/b/',
			...[...new Set(views.map(({ view }) => view.environment))].map(
				(environment) => `/compare/side/environments/${environment}/`,
			),
		];
		for (const address of sidePages) {
			const response = await noScript.context().request.get(`${portal.url}${address}`);
			expect(response.status(), address).toBe(200);
			const html = await response.text();
			for (const { view } of views) {
				for (const member of CONFIG_MEMBERS) expect(html).not.toContain(view.config[member]);
				for (const user of view.users) expect(html).not.toContain(user.apiKey);
			}
		}
		// The environments are still linked below, for a reader who wants a view's own page.
		const environments = [...new Set(views.map(({ view }) => view.environment))].sort();
		await expect(
			noScript
				.locator('.compare-fallback > ul a')
				.evaluateAll((links) => links.map((link) => link.getAttribute('href'))),
		).resolves.toEqual(environments.map((environment) => `/environments/${environment}/`));
	});

	it('without JavaScript, opens at its heading on a phone and a desktop: the frames do not scroll the page', async () => {
		// The phone and the desktop, each in a context of its own, at once.
		await Promise.all(
			[390, 1280].map(async (width) => {
				const context = await portal.browser.newContext({
					javaScriptEnabled: false,
					viewport: { width, height: 800 },
				});
				const noScript = await context.newPage();
				await noScript.goto(`${portal.url}/compare/`);
				for (const title of ['View A', 'View B']) {
					await noScript
						.frameLocator(`iframe[title="${title}"]`)
						.locator('.side-card h2')
						.waitFor();
				}
				const heading = await noScript.getByRole('heading', { level: 1 }).boundingBox();
				expect(heading?.y, `${width} px`).toBeGreaterThanOrEqual(0);
				expect(heading?.y, `${width} px`).toBeLessThan(400);
				await context.close();
			}),
		);
	});

	it('with JavaScript, compares in one table and loads no frame', async () => {
		page = await portal.browser.newPage();
		const fetched: string[] = [];
		page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
		await page.goto(`${portal.url}/compare/`);
		await page.locator('[data-output] table').first().waitFor();
		await expect(page.locator('iframe').count()).resolves.toBe(0);
		expect(fetched.filter((url) => url.startsWith('/compare/side/'))).toEqual([]);
	});

	it('lists only the views of the picked environment, fetched when it is picked', async () => {
		page = await portal.browser.newPage();
		const fetched: string[] = [];
		page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
		await page.goto(`${portal.url}/compare/?a=production&b=production-edge`);
		await page.locator('[data-output] table').first().waitFor();
		const production = views.filter(({ view }) => view.environment === 'production');
		await expect(
			page
				.locator('select[name="b"] option')
				.evaluateAll((options) =>
					options.map((option) => (option as HTMLOptionElement).value).sort(),
				),
		).resolves.toEqual(production.map(({ slug }) => slug).sort());
		expect(fetched.filter((url) => url.startsWith('/compare/environments/'))).toEqual([
			'/compare/environments/production.json',
		]);
		await page.selectOption('select[name="env-b"]', 'staging-us-east');
		await page.locator('[role="status"]', { hasText: 'with staging-us-east' }).waitFor();
		expect(new URL(page.url()).searchParams.get('b')).toMatch(/^staging-us-east/);
		expect(fetched).toContain('/compare/environments/staging-us-east.json');
	});
});
