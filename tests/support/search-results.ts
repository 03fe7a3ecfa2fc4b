/** Reading the search dialog's results in a browser test. */
import type { Page } from 'playwright-core';

/** The results' links, once the status line says how many there are. */
export async function resultLinks(page: Page): Promise<string[]> {
	await page
		.locator('.search-status')
		.filter({ hasText: /result/ })
		.waitFor();
	return page
		.locator('.search-results a')
		.evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
}
