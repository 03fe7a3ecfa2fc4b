/**
 * People and access in a real Chromium on the built portal: search finds a person's page first,
 * the page lists exactly their views and roles, the access overview filters, answers "who is an
 * admin in production?" without JavaScript, and both fit a 390 px phone.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { usePortalInChromium } from '../support/portal-in-chromium.ts';
import { ROOT } from '../../support/processes.ts';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { resultLinks } from '../support/search-results.ts';

/** This file's preview port, in the range set aside for the people tests. */
const PORT = 47311;

const portal = usePortalInChromium({ port: PORT });
let views: ViewEntry[];

/** Every directory entry of the fixtures whose email is `email`, in any case. */
function entriesOf(email: string): { slug: string; role: string }[] {
	return views.flatMap(({ slug, view }) =>
		view.users
			.filter((user) => user.email.toLowerCase() === email.toLowerCase())
			.map((user) => ({ slug, role: user.role })),
	);
}

/** The names of everyone holding `role` in a view of `environment`, from the fixtures. */
function holders(environment: string, role: string): string[] {
	const names = new Map<string, string>();
	for (const { view } of views) {
		if (view.environment !== environment) continue;
		for (const user of view.users) {
			if (user.role === role && !names.has(user.email.toLowerCase())) {
				names.set(user.email.toLowerCase(), user.name);
			}
		}
	}
	return [...names.values()].sort();
}

beforeAll(async () => {
	views = await loadViews(path.join(ROOT, 'content/views'));
});

describe('people and access', () => {
	it.each(['priya.raman@example.com', 'Kenji Watanabe'])(
		'ranks the person page first when searched by %s, then the views they are in',
		async (query) => {
			const page = await portal.open('/docs/', { height: 720 });
			await page.keyboard.press('/');
			await page.fill('#search-query', query);
			const links = await resultLinks(page);
			const email = query.includes('@') ? query : 'kenji.watanabe@example.com';
			expect(links[0]).toBe(`/people/${email.split('@')[0] ?? ''}/`);
			const expected = entriesOf(email).map(({ slug }) => `/views/${slug}/`);
			expect(expected.length).toBeGreaterThan(0);
			expect(links.slice(1, 1 + expected.length).sort()).toEqual(expected.sort());
		},
	);

	it('filters search by role: the people who are an admin somewhere, and the page of admins', async () => {
		const page = await portal.open('/', { height: 720 });
		await page.keyboard.press('/');
		await page.locator('select[name="role"]').waitFor();
		await page.selectOption('select[name="role"]', 'admin');
		const admins = new Set(
			views.flatMap(({ view }) =>
				view.users
					.filter((user) => user.role === 'admin')
					.map((user) => `/people/${user.email.toLowerCase().split('@')[0] ?? ''}/`),
			),
		);
		await expect
			.poll(async () => (await resultLinks(page)).sort())
			.toEqual(['/access/roles/admin/', ...admins].sort());
	});

	it('lists exactly the views and roles of a person in three views, and says their role differs', async () => {
		const page = await portal.open('/people/priya.raman/', { height: 720 });
		expect((await page.locator('h1').textContent())?.trim()).toBe('Priya Raman');
		const rows = await page.locator('table.person-views tbody tr').evaluateAll((trs) =>
			trs.map((tr) => {
				const href = tr.querySelector('a')?.getAttribute('href') ?? '';
				const role = tr.querySelector('.role')?.textContent?.trim() ?? '';
				return `${href} ${role}`;
			}),
		);
		const expected = entriesOf('priya.raman@example.com').map(
			({ slug, role }) => `/views/${slug}/ ${role}`,
		);
		expect(expected).toHaveLength(3);
		expect(rows.sort()).toEqual(expected.sort());
		await expect(page.locator('.role-differs').textContent()).resolves.toContain(
			'Their role differs between views.',
		);
		// No key of any view appears on the page.
		const html = await page.content();
		const keys = views.flatMap(({ view }) => view.users.map((user) => user.apiKey));
		expect(keys.filter((key) => html.includes(key))).toEqual([]);
	});

	it('gives a person named differently in one view the common name, and lists the other', async () => {
		const page = await portal.open('/people/amara.okafor/', { height: 720 });
		expect((await page.locator('h1').textContent())?.trim()).toBe('Amara Okafor');
		await expect(page.locator('.other-names').textContent()).resolves.toContain('“A. Okafor”');
	});

	it('reaches a person page from a name in a view’s directory', async () => {
		const page = await portal.open('/views/staging-us-east/', { height: 720 });
		await page.locator('.directory a', { hasText: 'Priya Raman' }).click();
		await page.waitForURL(`${portal.url}/people/priya.raman/`);
	});

	it('filters the access overview by environment, then role, each a page of its own', async () => {
		const page = await portal.open('/', { height: 720 });
		await page.locator('.site-nav a', { hasText: 'Access' }).click();
		await page.waitForURL(`${portal.url}/access/`);
		const facet = (label: string) =>
			page
				.getByRole('navigation', { name: 'Filter access', exact: true })
				.locator('.facet', { hasText: label });
		await facet('Environment').getByRole('link', { name: 'production', exact: true }).click();
		await page.waitForURL(`${portal.url}/access/environments/production/`);
		const everyone = await page.locator('table.access-people tbody th').allTextContents();
		const inProduction = new Set(
			views
				.filter(({ view }) => view.environment === 'production')
				.flatMap(({ view }) => view.users.map((user) => user.email.toLowerCase())),
		);
		expect(everyone).toHaveLength(inProduction.size);
		await facet('Role').getByRole('link', { name: 'admin', exact: true }).click();
		await page.waitForURL(`${portal.url}/access/environments/production/admin/`);
		const names = await page.locator('table.access-holders tbody th').allTextContents();
		expect(names.map((name) => name.trim()).sort()).toEqual(holders('production', 'admin'));
		// The role stays chosen when the environment changes.
		await facet('Environment').getByRole('link', { name: 'staging-us-east', exact: true }).click();
		await page.waitForURL(`${portal.url}/access/environments/staging-us-east/admin/`);
		const staging = await page.locator('table.access-holders tbody th').allTextContents();
		expect(staging.map((name) => name.trim()).sort()).toEqual(holders('staging-us-east', 'admin'));
	});

	it('answers "who is an admin in production?" without JavaScript, in one look and in one click', async () => {
		const page = await portal.open('/access/', { javaScriptEnabled: false, height: 720 });
		const cell = page.locator('tr[data-environment="production"] td[data-label="admin"]');
		const named = await cell.locator('li').allTextContents();
		expect(named.map((name) => name.trim()).sort()).toEqual(holders('production', 'admin'));
		await cell.locator('a.cell-all').click();
		await page.waitForURL(`${portal.url}/access/environments/production/admin/`);
		await expect(page.locator('h1').textContent()).resolves.toBe('Who is admin in production');
		const names = await page.locator('table.access-holders tbody th').allTextContents();
		expect(names.map((name) => name.trim()).sort()).toEqual(holders('production', 'admin'));
	});

	it.each([
		'/people/priya.raman/',
		'/access/',
		'/access/roles/admin/',
		'/access/environments/production/admin/',
	])('fits a 390 px phone: %s', async (route) => {
		const page = await portal.open(route, { width: 390, height: 844 });
		const overflow = await page.evaluate(
			() => document.documentElement.scrollWidth - document.documentElement.clientWidth,
		);
		expect(overflow).toBe(0);
		// Every role on the page is within the screen's width, none scrolled out of sight.
		const outside = await page
			.locator('main .role, main td[data-label], main th[data-label]')
			.evaluateAll(
				(nodes) => nodes.filter((node) => node.getBoundingClientRect().right > 390).length,
			);
		expect(outside).toBe(0);
	});

	it('matches Priya by email in any case on the compare page: unchanged from staging to production', async () => {
		const page = await portal.open('/compare/?a=staging-us-east&b=production', { height: 720 });
		await page.locator('[data-output] table').first().waitFor();
		await expect(
			page.locator('[data-output] p', { hasText: /^From / }).textContent(),
		).resolves.toBe(
			'From staging-us-east · Staging to production · Production: 7 added, 7 removed, 0 with another role, 1 unchanged (matched by email).',
		);
		await expect(
			page.locator('tr', { hasText: /priya\.raman@example\.com/i }).count(),
		).resolves.toBe(0);
	});
});
