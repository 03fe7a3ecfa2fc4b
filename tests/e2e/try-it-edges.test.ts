/**
 * Try-it without rough edges, in Chromium on the built portal, at 1280 px in the light and the dark
 * theme and at 390 px: on /reference/ the request as curl carries the key picked from the start and
 * runs as shown, and what is sent there reaches "Recent requests"; on a view page the curl keeps
 * each key and address whole and the status pill stays on one line; sample tabs that scroll
 * sideways fade where there is more and the keyboard brings every tab into sight; and the note
 * without JavaScript reads as a sentence. (A team portal's command for a reader's own mock, which
 * needs a team's build, is checked on team-mock.test.ts's.)
 */
import { spawnSync } from 'node:child_process';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { usePortalInChromium, type KeptPageOptions } from '../support/portal-in-chromium.ts';
import { bin, start, waitForUrl, type Started } from '../../support/processes.ts';
import { holdMockPort } from '../support/mock-port-lock.ts';

const MOCK_PORT = inject('mockPort');
const MOCK_URL = `http://127.0.0.1:${MOCK_PORT}`;

/** The screens every edge is checked on. */
const SCREENS = [
	{ screen: '1280 px, light', width: 1280, colorScheme: 'light' },
	{ screen: '1280 px, dark', width: 1280, colorScheme: 'dark' },
	{ screen: '390 px', width: 390, colorScheme: 'light' },
] as const;

/** A screen: its width and its system theme. */
interface Screen {
	screen: string;
	width: number;
	colorScheme: 'light' | 'dark';
}

const portal = usePortalInChromium();
let mock: Started | undefined;
let letGoOfPort: (() => Promise<void>) | undefined;

beforeAll(async () => {
	letGoOfPort = await holdMockPort(MOCK_PORT);
	mock = start(bin('node'), ['mock/cli.ts'], {
		env: { MOCK_PORT: String(MOCK_PORT), MOCK_LOG: 'off' },
	});
	await waitForUrl(`${MOCK_URL}/api/v2/users`, mock);
});

afterAll(async () => {
	await mock?.stop();
	await letGoOfPort?.();
});

/** The uncaught errors of the pages of each kept context, since its last `open`. */
const pageErrors = new Map<string, string[]>();

/**
 * Opens a route on a screen in the file's kept page for it, as a new context would, and gives the
 * uncaught errors its page throws from then on.
 */
async function open(
	route: string,
	{ width, colorScheme }: Screen,
	options: Pick<KeptPageOptions, 'javaScriptEnabled'> = {},
): Promise<{ page: Page; errors: string[] }> {
	const key = `${colorScheme} ${String(options.javaScriptEnabled ?? true)}`;
	const errors: string[] = [];
	pageErrors.set(key, errors);
	const page = await portal.open(
		route,
		{ width, height: 900, colorScheme, ...options },
		(context) => {
			context.on('weberror', (error) => pageErrors.get(key)?.push(error.error().message));
			return Promise.resolve();
		},
	);
	return { page, errors };
}

/** Brings the try-it panel near and waits until it is whole, its request options open. */
async function openPanel(page: Page): Promise<void> {
	await page.locator('try-it').scrollIntoViewIfNeeded();
	await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
	await page.getByText('Headers, query and mock controls').click();
}

/** Presses Send and waits until the panel says how it went. */
async function send(page: Page): Promise<string> {
	// The last answer's summary goes first, so the wait below cannot end on it.
	await page.evaluate(() => {
		const previous = document.querySelector('try-it [data-summary]');
		if (previous) previous.textContent = '';
	});
	await page.getByRole('button', { name: 'Send', exact: true }).click();
	await page.waitForFunction(() => {
		const text = document.querySelector('try-it [data-summary]')?.textContent ?? '';
		return text !== '' && text !== 'Sending…';
	});
	return page.locator('try-it [data-summary]').innerText();
}

/** How many lines the text of an element takes on screen, and how many it has. */
function lines(element: Locator): Promise<{ shown: number; written: number }> {
	return element.evaluate((node) => {
		const range = document.createRange();
		range.selectNodeContents(node);
		const tops = new Set([...range.getClientRects()].map(({ top }) => Math.round(top)));
		return { shown: tops.size, written: (node.textContent ?? '').split('\n').length };
	});
}

/** Runs a command in a POSIX shell as shown, printing only the status it gets. */
function statusOf(command: string): string {
	const run = spawnSync('sh', ['-c', `${command} -s -o /dev/null -w '%{http_code}'`], {
		encoding: 'utf8',
		timeout: 15_000,
	});
	return `${run.stdout}${run.stderr}`;
}

describe.each(SCREENS)('try-it at $screen', (screen) => {
	it('on /reference/, the request as curl carries the key picked from the start and gets 200 as shown; what is sent reaches Recent requests', async () => {
		const { page, errors } = await open('/reference/', screen);
		await openPanel(page);
		const status = page.locator('try-it-views [role="status"]');
		await expect.poll(() => status.innerText()).toMatch(/^The keys of /);
		const key = page.locator('try-it select[name="key"]');
		const picked = await key.inputValue();
		expect(picked).toMatch(/^ick-/);
		const preview = await page.locator('#try-it-preview').innerText();
		expect(preview).toContain(`Authorization: Bearer ${picked}`);
		expect(statusOf(preview)).toBe('200');
		// The panel now names the picked view, and each key choice its person.
		const view = await page.locator('try-it select[name="view"]').inputValue();
		await expect(page.locator('try-it').getAttribute('data-view')).resolves.toBe(view);
		const person = await key.locator('option:checked').getAttribute('data-person');
		expect(person).toMatch(/^[a-z0-9._-]+$/);
		expect(await send(page)).toMatch(/^200 OK/);
		const rows = page.locator('try-it [data-history-list] li');
		await expect.poll(() => rows.count()).toBe(1);
		const label = (await key.locator('option:checked').innerText()).trim();
		await expect(rows.first().innerText()).resolves.toContain(label);
		await expect(
			rows
				.first()
				.getByRole('button', { name: /^Send again/ })
				.count(),
		).resolves.toBe(1);
		expect(errors).toEqual([]);
	});

	it('on a view page, the curl keeps each key and address on one line and the status pill never wraps', async () => {
		const { page, errors } = await open('/views/production/', screen);
		await openPanel(page);
		expect(await send(page)).toMatch(/^\d{3} /);
		for (const id of ['#try-it-preview', '#try-it-curl']) {
			const code = page.locator(id);
			const { shown, written } = await lines(code);
			expect(written).toBe(3);
			expect(shown, `${id} is drawn on as many lines as it has`).toBe(written);
			const pre = code.locator('xpath=..');
			const room = await pre.evaluate((box) => ({
				scrolls: box.scrollWidth > box.clientWidth,
				focusable: box.tabIndex === 0,
			}));
			// At 1280 px the column has room for the whole command; where it has not, it scrolls,
			// and the keyboard can scroll it.
			if (screen.width === 1280) expect(room.scrolls).toBe(false);
			else if (room.scrolls) expect(room.focusable).toBe(true);
		}
		const badge = page.locator('try-it [data-badge]');
		await expect(lines(badge)).resolves.toMatchObject({ shown: 1 });
		// A longer status line too: `503 Service Unavailable · 12 ms · 3.3 KiB`.
		await page.getByLabel('Status', { exact: true }).selectOption('503');
		expect(await send(page)).toMatch(/^503 Service Unavailable/);
		await expect(badge.innerText()).resolves.toMatch(
			/^503 Service Unavailable · (?:\d+ ms|[\d.]+ s) · /,
		);
		await expect(lines(badge)).resolves.toMatchObject({ shown: 1 });
		const [column, panel] = [
			await page.locator('main').boundingBox(),
			await page.locator('try-it').boundingBox(),
		];
		if (!column || !panel) throw new Error('no box for main or try-it');
		// Room: at least 30rem at 1280 px; on a phone the width of the page.
		if (screen.width === 1280) expect(panel.width).toBeGreaterThanOrEqual(480);
		else expect(panel.width).toBeGreaterThan(column.width - 40);
		expect(errors).toEqual([]);
	});

	it.each(['/views/production/', '/reference/'])(
		'on %s, sample tabs that scroll sideways fade where there is more, and the keyboard brings each tab into sight',
		async (route) => {
			const { page, errors } = await open(route, screen);
			// A view page's tabs load when they come near the screen.
			await page.locator('code-tabs').first().scrollIntoViewIfNeeded();
			const tabs = page.locator('code-tabs:defined').first();
			const row = tabs.locator('[role="tablist"]');
			await row.waitFor({ state: 'visible' });
			const state = (): Promise<{ overflows: boolean; more: string; mask: string }> =>
				row.evaluate((list) => ({
					overflows: list.scrollWidth > list.clientWidth + 1,
					more: list.getAttribute('data-more') ?? '',
					mask: getComputedStyle(list).maskImage,
				}));
			const first = await state();
			if (screen.width === 390) expect(first.overflows).toBe(true);
			expect(first.more).toBe(first.overflows ? 'end' : '');
			expect(first.mask === 'none').toBe(!first.overflows);
			if (first.overflows) {
				// The edge with more to see is faded to the page's background.
				const shot = await sharp(await row.screenshot())
					.raw()
					.toBuffer({ resolveWithObject: true });
				const { width, height, channels } = shot.info;
				const pixel = (x: number, y: number): number[] => [
					...shot.data.subarray((y * width + x) * channels, (y * width + x) * channels + 3),
				];
				const background = await page.evaluate(
					() => getComputedStyle(document.body).backgroundColor,
				);
				const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
				const edge = Array.from({ length: height - 4 }, (_, y) => pixel(width - 1, y + 1));
				const furthest = Math.max(
					...edge.map(([pr = 0, pg = 0, pb = 0]) =>
						Math.max(Math.abs(pr - (r ?? 0)), Math.abs(pg - (g ?? 0)), Math.abs(pb - (b ?? 0))),
					),
				);
				expect(furthest, 'the right edge is faded into the background').toBeLessThan(24);
			}
			// Every tab is reached from the keyboard, and shown whole in the row when it is.
			const selected = tabs.locator('[role="tab"][aria-selected="true"]');
			await selected.focus();
			const inSight = (): Promise<boolean> =>
				tabs.locator('[role="tab"]:focus').evaluate((tab) => {
					const list = tab.parentElement?.getBoundingClientRect();
					const box = tab.getBoundingClientRect();
					return list !== undefined && box.left >= list.left - 1 && box.right <= list.right + 1;
				});
			await page.keyboard.press('End');
			await expect(
				tabs
					.locator('[role="tab"]')
					.last()
					.evaluate((tab) => tab === document.activeElement),
			).resolves.toBe(true);
			expect(await inSight()).toBe(true);
			if (first.overflows) expect((await state()).more).toBe('start');
			await page.keyboard.press('Home');
			expect(await inSight()).toBe(true);
			if (first.overflows) expect((await state()).more).toBe('end');
			expect(errors).toEqual([]);
		},
	);

	it('without JavaScript, the note says to run the curl command "… instead", each word apart', async () => {
		for (const [route, words] of [
			[
				'/views/production/',
				'Run the curl command of the example request instead, against the mock at',
			],
			['/reference/', 'Run the curl command of a code sample instead, against the mock at'],
		] as const) {
			const { page } = await open(route, screen, { javaScriptEnabled: false });
			const note = (await page.locator('try-it [data-no-script]').innerText()).replace(/\s+/g, ' ');
			expect(note).toContain(words);
		}
	});
});

describe('a view page from 1440 px', () => {
	it('shows try-it beside the directory, in a column of 30rem, with the directory whole', async () => {
		const { page } = await open('/views/production/', {
			screen: '1440 px, light',
			width: 1440,
			colorScheme: 'light',
		});
		const directory = await page.locator('.directory').boundingBox();
		const panel = await page.locator('try-it').boundingBox();
		if (!directory || !panel) throw new Error('no box for the directory or try-it');
		expect(panel.x).toBeGreaterThanOrEqual(directory.x + directory.width);
		expect(panel.y).toBeLessThan(directory.y + directory.height);
		expect(panel.width).toBeGreaterThanOrEqual(480);
		await expect(
			page.locator('.directory').evaluate((table) => {
				const scroller = table.parentElement;
				return scroller ? scroller.scrollWidth - scroller.clientWidth : -1;
			}),
		).resolves.toBe(0);
	});
});
