/**
 * The reference at a glance (issue 26), in Chromium on the built portal: the endpoint card in the
 * first screen, each operation's samples and 200 example beside its schemas, try-it on the
 * reference with a view picker that reads the chosen view's keys from that view's page, and
 * try-it beside the directory on a wide screen's view page.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { usePortalInChromium, type KeptPageOptions } from '../support/portal-in-chromium.ts';
import { viewName } from '../../src/shared/views.ts';
import { loadViews } from '../../src/sources/fixtures.ts';
import { bin, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';
import { holdMockPort } from '../support/mock-port-lock.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));
const MOCK_URL = `http://127.0.0.1:${inject('mockPort')}`;
const portal = usePortalInChromium();
let mock: Started | undefined;
let letGoOfPort: (() => Promise<void>) | undefined;

afterAll(async () => {
	await mock?.stop();
	await letGoOfPort?.();
});

/**
 * Opens a route in the file's kept page, as a new context would, at a size (1280 × 800 by default).
 */
function open(route: string, options: KeptPageOptions = {}): Promise<Page> {
	return portal.open(route, { height: 800, ...options });
}

/** An element's box on the page, failing when it has none (not rendered). */
async function box(page: Page, selector: string) {
	const found = await page.locator(selector).first().boundingBox();
	if (!found) throw new Error(`${selector} is not rendered`);
	return found;
}

describe('the reference at 1280 px', () => {
	it('shows the method and path, the mock address, the key and the downloads above the fold', async () => {
		const page = await open('/reference/');
		const card = page.getByRole('region', { name: 'The endpoint at a glance' });
		await expect(
			card.locator('.endpoint').evaluate((line) => line.textContent?.replace(/\s+/g, ' ').trim()),
		).resolves.toBe('GET HEAD OPTIONS /api/v2/users');
		const endpoint = await box(page, '.endpoint-card .endpoint');
		expect(endpoint.y + endpoint.height).toBeLessThan(800);
		await expect(card.locator('#endpoint-server').innerText()).resolves.toBe(MOCK_URL);
		await expect(card.innerText()).resolves.toContain('Authorization: Bearer <key>');
		await expect(
			card.locator('a[download]').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
		).resolves.toEqual(['/openapi.yaml', '/openapi.json']);
		const tryIt = card.getByRole('link', { name: 'Try it' });
		const button = await tryIt.boundingBox();
		expect((button?.y ?? 800) + (button?.height ?? 0)).toBeLessThan(800);
		await tryIt.click();
		await expect(page.evaluate(() => location.hash)).resolves.toBe('#try-it');
		// The contract's prose waits in a disclosure.
		await expect(page.locator('details.about').getAttribute('open')).resolves.toBeNull();
	});

	it('shows a sample and the open 200 example beside the operation, in one screen with its schema', async () => {
		const page = await open('/reference/');
		await page.locator('#get-api-v2-users').evaluate((heading) => heading.scrollIntoView());
		const get = 'section.operation:first-of-type';
		const sample = await box(page, `${get} .code-samples pre`);
		const example = await box(page, `${get} .response-examples [data-tab-label="200"] pre`);
		const schema = await box(page, `${get} .schema-explorer`);
		for (const shown of [sample, example]) {
			// In the window together with the start of the schema: no scrolling past the schema.
			expect(shown.y).toBeGreaterThanOrEqual(0);
			expect(shown.y).toBeLessThan(800 - 40);
			expect(schema.y).toBeLessThan(800);
			// Beside the left column, not under it.
			expect(shown.x).toBeGreaterThan(schema.x + schema.width);
		}
		await expect(
			page.locator(`${get} .response-examples [role="tab"][aria-selected="true"]`).innerText(),
		).resolves.toBe('200');
	});

	it('a status tab shows its example and leaves the chosen sample language alone', async () => {
		const page = await open('/reference/');
		const get = page.locator('section.operation').first();
		await get.locator('.response-examples').getByRole('tab', { name: '401' }).click();
		const shown = await get
			.locator('.response-examples > [data-tab-label]')
			.evaluateAll((panels) =>
				panels.filter((panel) => panel.checkVisibility()).map((panel) => panel.dataset['tabLabel']),
			);
		expect(shown).toEqual(['401']);
		// OPTIONS has no 401 example and keeps its first tab; the samples keep their language.
		await expect(
			page.locator('.response-examples [role="tab"][aria-selected="true"]').allInnerTexts(),
		).resolves.toEqual(['401', '403']);
		await expect(
			get.locator('.code-samples [role="tab"][aria-selected="true"]').innerText(),
		).resolves.toBe('curl');
		await expect(
			page.evaluate(() => localStorage.getItem('console-portal:sample-language')),
		).resolves.toBeNull();
	});

	it('colours each status line by its family', async () => {
		const page = await open('/reference/');
		const lines = page
			.locator('section.operation')
			.first()
			.locator('details.response:not(.shared-headers) > summary');
		await expect(
			lines.evaluateAll((all) =>
				all.map((line) => `${line.parentElement?.id} ${line.parentElement?.className}`),
			),
		).resolves.toEqual(
			['200 success', '400 client-error', '401 client-error', '403 client-error']
				.concat(['404 client-error', '422 client-error', '500 server-error', '503 server-error'])
				.map((row) => `get-api-v2-users-${row.replace(' ', ' response tone-')}`),
		);
		const colours = await lines.evaluateAll((all) =>
			all.map((line) => getComputedStyle(line).borderLeftColor),
		);
		// Green, red, amber: three different colours, the same within a family.
		expect(new Set(colours).size).toBe(3);
		expect(colours[1]).toBe(colours[5]);
		expect(colours[6]).toBe(colours[7]);
	});

	it('puts the CORS headers every response carries after the 200 body', async () => {
		const page = await open('/reference/');
		const order = await page
			.locator('section.operation')
			.first()
			.evaluate((operation) => {
				const body = operation.querySelector('#get-api-v2-users-200 .schema-explorer');
				const cors = [...operation.querySelectorAll('th code')].find(
					(code) => code.textContent === 'Access-Control-Allow-Origin',
				);
				return body && cors ? body.compareDocumentPosition(cors) : 0;
			});
		// Node.DOCUMENT_POSITION_FOLLOWING: the CORS table comes after the body's schema.
		expect(order & 4).toBe(4);
	});

	it('shows every status example one under the other without JavaScript', async () => {
		const page = await open('/reference/', { javaScriptEnabled: false });
		const panels = page
			.locator('section.operation')
			.first()
			.locator('.response-examples > [data-tab-label]');
		// One panel per status tab, each shown: the tabs are in the HTML, hidden until scripts run.
		const tabs = await page
			.locator('section.operation')
			.first()
			.locator('.response-examples [role="tab"]')
			.count();
		expect(tabs).toBeGreaterThanOrEqual(7);
		await expect(
			panels.evaluateAll((shown) => shown.filter((panel) => panel.checkVisibility()).length),
		).resolves.toBe(tabs);
		await expect(
			page.locator('section.operation').first().locator('.response-examples details[open]').count(),
		).resolves.toBeGreaterThanOrEqual(1);
	});
});

describe('try-it on the reference, with the mock running', () => {
	beforeAll(async () => {
		letGoOfPort = await holdMockPort(inject('mockPort'));
		mock = start(bin('node'), ['mock/cli.ts'], {
			env: { MOCK_PORT: String(inject('mockPort')) },
		});
		await waitForUrl(`${MOCK_URL}/api/v2/users`, mock);
	});

	it('holds no key of any view in its HTML', async () => {
		const html = await readFile(path.join(inject('distDir'), 'reference/index.html'), 'utf8');
		for (const { view } of views) {
			for (const user of view.users) expect(html).not.toContain(user.apiKey);
		}
	});

	it("picks an environment and a view, reads that view's keys from its page, and checks the answer", async () => {
		// A context of its own, whose every request is fetched and seen.
		const context = await portal.browser.newContext({ viewport: { width: 1280, height: 800 } });
		const page = await context.newPage();
		await page.goto(`${portal.url}/reference/`);
		const fetched: string[] = [];
		page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
		const target = views.at(-1);
		if (!target) throw new Error('no view fixture');
		// Try-it loads its behaviour, and the picker its views, when the reader reaches it.
		await page.locator('try-it').scrollIntoViewIfNeeded();
		await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
		await page.getByLabel('Environment').selectOption(target.view.environment);
		await page.getByLabel('View', { exact: true }).selectOption(target.slug);
		const key = page.getByLabel('Key', { exact: true });
		await expect
			.poll(() => key.locator('option').allInnerTexts())
			.toEqual([...target.view.users.map(({ name, role }) => `${name} (${role})`), 'Another key…']);
		expect(fetched).toContain(`/views/${target.slug}/`);
		const person = target.view.users[2];
		if (!person) throw new Error('fixture without users');
		await key.selectOption({ label: `${person.name} (${person.role})` });
		await page.getByRole('button', { name: 'Send' }).click();
		await expect
			.poll(() => page.locator('try-it [data-summary]').innerText(), { timeout: 15_000 })
			.toMatch(/^200 OK/);
		await expect(page.locator('try-it [data-verdict]').innerText()).resolves.toBe(
			"The body matches the contract's 200 application/json schema.",
		);
		await expect(page.locator('try-it [data-whose]').innerText()).resolves.toBe(
			`These are the users of this view, ${viewName(target.view)}.`,
		);
		await expect(page.locator('#try-it-curl').innerText()).resolves.toContain(person.apiKey);
		await context.close();
	});
});

describe('a view page', () => {
	it('shows try-it beside the directory from 90rem, under it at 1280 px and on a phone', async () => {
		const [first] = views;
		if (!first) throw new Error('no view fixture');
		const wide = await open(`/views/${first.slug}/`, { width: 1440, height: 900 });
		const directory = await box(wide, '.directory');
		const tryIt = await box(wide, 'try-it');
		expect(tryIt.x).toBeGreaterThanOrEqual(directory.x + directory.width);
		expect(tryIt.y).toBeLessThan(directory.y + directory.height);
		// The directory is whole: its table does not scroll in its box.
		await expect(
			wide.locator('.directory').evaluate((table) => {
				const scroller = table.parentElement;
				return scroller ? scroller.scrollWidth - scroller.clientWidth : -1;
			}),
		).resolves.toBe(0);
		for (const width of [1280, 390]) {
			const narrow = await open(`/views/${first.slug}/`, { width, height: 800 });
			const under = await box(narrow, 'try-it');
			const above = await box(narrow, '.directory');
			expect(under.y, `at ${width} px`).toBeGreaterThan(above.y + above.height);
		}
	});
});
