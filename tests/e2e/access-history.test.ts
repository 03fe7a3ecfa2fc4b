/**
 * The since page in Chromium: the date field computes who gained and lost a role since a day
 * from /access-since.json and puts the day in the address; without JavaScript the field stays
 * hidden and the page says the tags' pages are there instead.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { usePortalInChromium } from '../support/portal-in-chromium.ts';
import { sinceRows, type SinceData } from '../../src/shared/access-since.ts';

const portal = usePortalInChromium();
const data = JSON.parse(
	await readFile(path.join(inject('distDir'), 'access-since.json'), 'utf8'),
) as SinceData;

/** A day between the first and the last commit of the fixtures' history, if there are two. */
const first = data.commits[0]?.[0] ?? '2026-01-01T00:00:00.000Z';
const day = new Date(Date.parse(first) + 86_400_000).toISOString().slice(0, 10);

describe('the since page', () => {
	it('shows, for a picked day, the rows the date file gives, and keeps the day in the address', async () => {
		const page = await portal.browser.newPage();
		await page.goto(`${portal.url}/access/since/`, { waitUntil: 'networkidle' });
		await page.fill('#since-date', day);
		await page.getByRole('button', { name: 'Compare with today' }).click();
		await page.getByText(`Since the start of ${day} (UTC)`).waitFor();
		const shown = await page
			.locator('table.since-rows tbody tr')
			.evaluateAll((rows) =>
				rows.map((row) =>
					[...row.querySelectorAll('td, th')].map((cell) =>
						(cell.querySelector('a, bdi')?.textContent ?? cell.textContent ?? '').trim(),
					),
				),
			);
		const expected = sinceRows(data, Date.parse(`${day}T00:00:00Z`)).map((row) => [
			row.change,
			row.name,
			row.environment,
			row.role,
			`${row.then} → ${row.now}`,
		]);
		expect(expected.length).toBeGreaterThan(0);
		expect(shown).toEqual(expected);
		expect(new URL(page.url()).searchParams.get('date')).toBe(day);
		await page.close();
	});

	it('without JavaScript hides the date field and points to the tag pages', async () => {
		const context = await portal.browser.newContext({ javaScriptEnabled: false });
		const page = await context.newPage();
		await page.goto(`${portal.url}/access/since/`);
		expect(await page.locator('form.since-form').isVisible()).toBe(false);
		await expect
			.poll(() => page.getByText('each tag above has a page of its own').isVisible())
			.toBe(true);
		await context.close();
	});
});
