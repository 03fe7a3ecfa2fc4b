/**
 * The reference of the project's own contract, now OpenAPI 3.2, in Chromium on the built portal:
 * its navigation nested by tag, a `dataValue` example shown as data, and a response closed on its
 * summary.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { usePortalInChromium } from '../support/portal-in-chromium.ts';

const portal = usePortalInChromium();

/** Opens the reference in a fresh context at 1280 × 800. */
async function openReference(): Promise<Page> {
	const context = await portal.browser.newContext({ viewport: { width: 1280, height: 800 } });
	const page = await context.newPage();
	await page.goto(`${portal.url}/reference/`);
	return page;
}

describe('the reference of the 3.2 contract', () => {
	it('says the contract is OpenAPI 3.2 and nests its navigation: Users and Browser checks under the console’s API', async () => {
		const page = await openReference();
		try {
			await expect(page.locator('.endpoint-card').innerText()).resolves.toContain('OpenAPI 3.2.0');
			const nav = page.getByRole('navigation', { name: 'Operations by tag' });
			const console = nav.locator('li[data-tag="Console"]');
			const directory = console.locator('li[data-tag="Directory"]');
			const browser = console.locator('li[data-tag="Browser"]');
			await expect(console.locator('> .tag-title').innerText()).resolves.toBe("The console's API");
			await expect(directory.locator('> .tag-title').innerText()).resolves.toBe('Users');
			await expect(browser.locator('> .tag-title').innerText()).resolves.toBe('Browser checks');
			// Nested: the child tags stand indented under their parent, as a reader sees a tree.
			const parentBox = await console.locator('> .tag-title').boundingBox();
			const childBox = await directory.locator('> .tag-title').boundingBox();
			expect(childBox?.x ?? 0).toBeGreaterThan(parentBox?.x ?? Infinity);
			expect(childBox?.y ?? 0).toBeGreaterThan(parentBox?.y ?? Infinity);
			await expect(browser.innerText()).resolves.toContain('OPTIONS /api/v2/users');
			await directory.getByRole('link', { name: /GET \/api\/v2\/users/ }).click();
			await page.waitForURL(/#get-api-v2-users$/);
			const heading = await page.locator('#get-api-v2-users').boundingBox();
			expect(heading?.y ?? -1).toBeGreaterThanOrEqual(0);
			expect(heading?.y ?? 800).toBeLessThan(800);
		} finally {
			await page.context().close();
		}
	});

	it('shows a 401 example written as dataValue as its data, named as such', async () => {
		const page = await openReference();
		try {
			const tabs = page.getByRole('tablist', { name: 'Response status of GET' });
			await tabs.getByRole('tab', { name: '401' }).click();
			const panel = page.locator('.example-panel:visible').filter({ hasText: 'missing-key' });
			await expect(panel.count()).resolves.toBe(1);
			const open = panel.locator('details[open]');
			await expect(open.locator('summary').innerText()).resolves.toBe(
				'missing-key: No bearer credentials',
			);
			await expect(open.locator('.form').innerText()).resolves.toBe(
				'dataValue: the data, before it is serialised',
			);
			const shown = JSON.parse(await open.locator('pre').innerText()) as unknown;
			expect(shown).toMatchObject({
				type: 'https://portal.example/problems/missing-key',
				status: 401,
			});
		} finally {
			await page.context().close();
		}
	});

	it('closes a response on its summary, and opens it on its description', async () => {
		const page = await openReference();
		try {
			const response = page.locator('#get-api-v2-users-401');
			await expect(response.getAttribute('open')).resolves.toBeNull();
			const line = response.locator('> summary');
			await expect(line.locator('.what').innerText()).resolves.toBe('No usable directory key');
			const description = response.getByText('The request carries no usable directory key');
			await expect(description.isVisible()).resolves.toBe(false);
			await line.click();
			await description.waitFor({ state: 'visible' });
			await expect(page.locator('#get-api-v2-users-200 > summary .what').innerText()).resolves.toBe(
				"The directory's users",
			);
		} finally {
			await page.context().close();
		}
	});
});
