/**
 * Reading the guides and the reference as a Starlight or Scalar reader expects, in a real
 * Chromium on the built portal: "On this page" lists and heading anchors, previous/next through
 * every guide, code samples in tabs that keyboards work and that remember the language, error
 * badges that look like errors, and the sidebar before the content in the tab order.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { usePortalInChromium, type KeptPageOptions } from '../support/portal-in-chromium.ts';

const portal = usePortalInChromium();

/** The guides as the source lists them; their order in the sidebar is checked below. */
/** Every guide, in the order of the sidebar (each guide's `order`). */
const GUIDES = [
	'/docs/getting-started/',
	'/docs/authentication/',
	'/docs/versioning/',
	'/docs/the-pages/',
	'/docs/people-and-access/',
	'/docs/mock-server/',
	'/docs/mock-as-a-service/',
	'/docs/checking-a-console/',
	'/docs/mcp-server/',
	'/docs/adding-a-view/',
	'/docs/developing/',
	'/docs/benchmarks/',
	'/docs/settings/',
	'/docs/problems/',
	'/docs/deploying/',
];
const SAMPLE_LABELS = [
	'curl',
	'Node (fetch)',
	'Python (requests)',
	'HTTPie',
	'Go',
	'Ruby',
	'PHP',
	'Java',
];

/**
 * The file's kept page on `route`, as a new context would open it (storage cleared, so no sample
 * language is remembered from another test), 1280 by 900 px unless told.
 */
function open(route: string, options: KeptPageOptions = {}): Promise<Page> {
	return portal.open(route, options);
}

describe('on this page and heading anchors', () => {
	it.each(['/reference/', ...GUIDES])(
		'%s lists its sections, each link leading to a heading that links to itself',
		async (route) => {
			const page = await open(route);
			const toc = page.getByRole('navigation', { name: 'On this page' });
			const targets = await toc
				.locator('a')
				.evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
			expect(targets.length).toBeGreaterThan(0);
			// Each section is checked on its own, all at once.
			await Promise.all(
				targets.map(async (target) => {
					expect(target).toMatch(/^#[a-z0-9-]+$/);
					const heading = page.locator(`main :is(h2, h3)[id="${target.slice(1)}"]`);
					await expect(heading.count(), target).resolves.toBe(1);
					const anchor = page.locator(`main a.anchor-link[href="${target}"]`);
					await expect(anchor.isVisible(), target).resolves.toBe(true);
					const name = await page
						.getByRole('link', { name: `Section titled ${await heading.innerText()}`, exact: true })
						.count();
					expect(name, target).toBe(1);
				}),
			);
		},
	);

	it('lists each reference operation with its five sections, then try-it and the servers', async () => {
		const page = await open('/reference/');
		const toc = page.getByRole('navigation', { name: 'On this page' });
		const sections = ['Security', 'Parameters', 'Code samples', 'Response examples', 'Responses'];
		await expect(toc.locator('a').allTextContents()).resolves.toEqual([
			'GET /api/v2/users',
			...sections,
			'HEAD /api/v2/users',
			...sections,
			'OPTIONS /api/v2/users',
			...sections,
			'Try it',
			'Servers',
		]);
	});
});

describe('previous and next between guides', () => {
	it('the sidebar lists the guides in their order, then the API reference and its changelog', async () => {
		const page = await open(GUIDES[2] ?? '');
		const sidebar = page.getByRole('navigation', { name: 'Guides and reference' });
		const hrefs = await sidebar
			.locator('a')
			.evaluateAll((links) => links.map((link) => link.getAttribute('href')));
		expect(hrefs).toEqual([...GUIDES, '/reference/', '/reference/changes/']);
		await expect(sidebar.locator('[aria-current="page"]').getAttribute('href')).resolves.toBe(
			GUIDES[2],
		);
	});

	it('next leads from the first guide through every guide in sidebar order, and previous back', async () => {
		// Each step waits for the next page's HTML, where its pager is, not for its fonts and scripts.
		const parsed = { waitUntil: 'domcontentloaded' } as const;
		/** The guides a walk passes through, from `page`'s by its pager's `rel` links. */
		const walk = async (page: Page, rel: 'prev' | 'next'): Promise<string[]> => {
			const pager = page.getByRole('navigation', { name: 'Previous and next guides' });
			const passed = [new URL(page.url()).pathname];
			while ((await pager.locator(`a[rel="${rel}"]`).count()) > 0) {
				await pager.locator(`a[rel="${rel}"]`).click();
				await page.waitForURL((url) => !passed.includes(url.pathname), parsed);
				passed.push(new URL(page.url()).pathname);
			}
			return passed;
		};
		// Forward in the kept page, and back from the last guide, where forward ends, in a context
		// of its own: the two walks side by side.
		const backContext = await portal.browser.newContext({ viewport: { width: 1280, height: 900 } });
		try {
			const [forward, backward] = await Promise.all([
				open(GUIDES[0] ?? '').then(async (page) => {
					const pager = page.getByRole('navigation', { name: 'Previous and next guides' });
					await expect(pager.locator('a[rel="prev"]').count()).resolves.toBe(0);
					return walk(page, 'next');
				}),
				backContext.newPage().then(async (page) => {
					await page.goto(`${portal.url}${GUIDES.at(-1) ?? ''}`, parsed);
					const pager = page.getByRole('navigation', { name: 'Previous and next guides' });
					await expect(pager.locator('a[rel="next"]').count()).resolves.toBe(0);
					return walk(page, 'prev');
				}),
			]);
			expect(forward).toEqual(GUIDES);
			expect(backward).toEqual([...GUIDES].reverse());
		} finally {
			await backContext.close();
		}
	});
});

/** The label of the selected tab, and the label of each sample panel that shows. */
async function tabState(page: Page): Promise<{ selected: string[]; shown: string[] }> {
	const tabs = page.locator('code-tabs').first();
	return {
		selected: await tabs.locator('[role="tab"][aria-selected="true"]').allInnerTexts(),
		shown: await tabs
			.locator('.sample')
			.evaluateAll((panels) =>
				panels
					.filter((panel) => panel.checkVisibility())
					.map((panel) => (panel as HTMLElement).dataset['tabLabel'] ?? ''),
			),
	};
}

describe('code samples in tabs', () => {
	it('move by arrow keys, Home and End, with only the selected tab in the tab order', async () => {
		const page = await open('/reference/');
		const tabs = page.locator('code-tabs').first().getByRole('tab');
		await expect(tabs.allInnerTexts()).resolves.toEqual(SAMPLE_LABELS);
		await expect(tabState(page)).resolves.toEqual({ selected: ['curl'], shown: ['curl'] });
		await tabs.first().focus();
		const steps: [string, string][] = [
			['ArrowRight', 'Node (fetch)'],
			['End', 'Java'],
			['ArrowRight', 'curl'],
			['ArrowLeft', 'Java'],
			['Home', 'curl'],
			['ArrowRight', 'Node (fetch)'],
		];
		for (const [key, label] of steps) {
			await page.keyboard.press(key);
			await expect(tabState(page), key).resolves.toEqual({ selected: [label], shown: [label] });
			const focused = await page.evaluate(() => document.activeElement?.textContent);
			expect(focused, key).toBe(label);
		}
		await expect(
			tabs.evaluateAll((buttons) => buttons.map((button) => (button as HTMLElement).tabIndex)),
		).resolves.toEqual([-1, 0, -1, -1, -1, -1, -1, -1]);
		// Tab leaves the tab list for the selected panel's content: its copy button.
		await page.keyboard.press('Tab');
		await expect(
			page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
		).resolves.toBe('Copy the Node (fetch) sample');
	});

	it('remember the chosen language on another page', async () => {
		const page = await open('/reference/');
		const tabs = page.locator('code-tabs').first().getByRole('tab');
		await tabs.first().focus();
		await page.keyboard.press('End');
		await page.keyboard.press('ArrowLeft');
		await expect(tabState(page)).resolves.toEqual({ selected: ['PHP'], shown: ['PHP'] });
		await page.goto(`${portal.url}/docs/getting-started/`);
		await expect(tabState(page)).resolves.toEqual({ selected: ['PHP'], shown: ['PHP'] });
	});

	it('on a view page, fetch a language it does not hold, and open on it, in sight, on a phone', async () => {
		const page = await open('/views/production/', { width: 390, height: 800 });
		const tabs = page.locator('code-tabs').first();
		// Far below the first screen, the tabs' script is not loaded with the page: every sample
		// shows, one under the other, until the reader scrolls toward them.
		await expect(page.evaluate(() => customElements.get('code-tabs') === undefined)).resolves.toBe(
			true,
		);
		await expect(tabs.getByRole('tablist').isHidden()).resolves.toBe(true);
		await tabs.scrollIntoViewIfNeeded();
		await tabs.getByRole('tablist').waitFor();
		await expect(tabs.getByRole('tab').allInnerTexts()).resolves.toEqual(SAMPLE_LABELS);
		await tabs.getByRole('tab', { name: 'Java' }).click();
		const shown = tabs.locator('[role="tabpanel"]:not([hidden]) pre[data-sample="java"]');
		await shown.waitFor();
		await expect(shown.innerText()).resolves.toContain('public class Main {');
		await page.goto(`${portal.url}/reference/`);
		// On a phone the reference's tabs are below the first screen too: their script comes with them.
		await page.locator('code-tabs').first().scrollIntoViewIfNeeded();
		await page.waitForFunction(() => customElements.get('code-tabs') !== undefined);
		await expect(tabState(page)).resolves.toEqual({ selected: ['Java'], shown: ['Java'] });
		await page.goto(`${portal.url}/views/production/`);
		await tabs.scrollIntoViewIfNeeded();
		await shown.waitFor();
		await expect(tabState(page)).resolves.toEqual({ selected: ['Java'], shown: ['Java'] });
		// The row scrolls in one line, and the chosen tab, the last, is scrolled into it.
		const row = await tabs.getByRole('tablist').evaluate((list) => {
			const selected = list.querySelector('[aria-selected="true"]')?.getBoundingClientRect();
			const box = list.getBoundingClientRect();
			return {
				scrolls: list.scrollWidth > list.clientWidth,
				oneRow: new Set([...list.children].map((tab) => tab.getBoundingClientRect().top)).size,
				inSight: selected !== undefined && selected.right <= box.right + 1,
			};
		});
		expect(row).toEqual({ scrolls: true, oneRow: 1, inSight: true });
		await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBe(390);
	});

	it('show every sample, one under the other, without JavaScript', async () => {
		for (const route of ['/reference/', '/docs/getting-started/']) {
			const page = await open(route, { javaScriptEnabled: false });
			await expect(page.locator('[role="tablist"]').first().isVisible()).resolves.toBe(false);
			await expect(tabState(page).then(({ shown }) => shown)).resolves.toEqual(SAMPLE_LABELS);
			// The reference has three operations, each with its samples; the guide one set.
			const sets = route === '/reference/' ? 3 : 1;
			await expect(page.locator('.code-samples code-tabs h4').allInnerTexts()).resolves.toEqual(
				Array.from({ length: sets }, () => SAMPLE_LABELS).flat(),
			);
		}
	});

	it('show every sample, one under the other, and the search link when their scripts cannot load', async () => {
		// Offline, or a page kept across a deploy whose script files are gone: the page falls back to
		// what it shows without JavaScript instead of keeping room for tabs that never come.
		// The three pages, each in a context of its own, are read at once.
		const withoutTabs = ['/reference/', '/docs/getting-started/'].map(async (route) => {
			const context = await portal.browser.newContext({ viewport: { width: 1280, height: 900 } });
			await context.route(/\/_astro\/code-tabs\.[^/]+\.js$/, (request) => request.abort());
			const page = await context.newPage();
			await page.goto(`${portal.url}${route}`, { waitUntil: 'networkidle' });
			// The failed load takes the page's `js` class away once the browser reports it, which on a
			// busy machine can come after the network is idle: asked again until it does.
			await expect
				.poll(async () => (await tabState(page)).shown, { timeout: 15_000 })
				.toEqual(SAMPLE_LABELS);
			await expect(page.locator('.code-samples code-tabs h4').first().isVisible()).resolves.toBe(
				true,
			);
			await context.close();
		});
		const withoutBase = (async () => {
			const context = await portal.browser.newContext({ viewport: { width: 1280, height: 900 } });
			// The page's own script: its entry (BaseLayout's) and any chunk split from it (base.*.js).
			await context.route(/\/_astro\/(base|BaseLayout)\.[^/]+\.js$/, (request) => request.abort());
			const page = await context.newPage();
			await page.goto(`${portal.url}/views/production/`, { waitUntil: 'networkidle' });
			await expect
				.poll(() => page.locator('.search-fallback').isVisible(), { timeout: 15_000 })
				.toBe(true);
			await expect(page.locator('.search-open').isVisible()).resolves.toBe(false);
			await context.close();
		})();
		await Promise.all([...withoutTabs, withoutBase]);
	});

	it('indent with two spaces and show a tab two columns wide', async () => {
		const page = await open('/reference/');
		const samples = page.locator('pre[data-sample]');
		for (const text of await samples.allTextContents()) expect(text).not.toContain('\t');
		await expect(
			samples.evaluateAll((pres) => pres.map((pre) => getComputedStyle(pre).tabSize)),
		).resolves.toEqual(Array<string>(24).fill('2'));
	});
});

describe('response badges', () => {
	it.each(['light', 'dark'] as const)(
		'in %s, a 4xx status is red and a 5xx amber, unlike a green 200, with readable text',
		async (colorScheme) => {
			const page = await open('/reference/', { colorScheme });
			const get = page.locator('section.operation').first();
			const badge = (status: string) =>
				get
					.locator('.response h4 .status', { hasText: new RegExp(`^${status}$`) })
					.evaluate((element) => {
						const style = getComputedStyle(element);
						return { background: style.backgroundColor, color: style.color };
					});
			const ok = await badge('200');
			for (const status of ['400', '401', '500']) {
				const error = await badge(status);
				expect(error.background, status).not.toBe(ok.background);
				const red = colorScheme === 'light' ? 'rgb(179, 38, 30)' : 'rgb(242, 148, 140)';
				const amber = colorScheme === 'light' ? 'rgb(143, 79, 0)' : 'rgb(227, 166, 74)';
				expect(error.background, status).toBe(status.startsWith('5') ? amber : red);
				expect(error.color, status).toBe(
					colorScheme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(15, 18, 22)',
				);
			}
		},
	);
});

describe('page frame', () => {
	it('the reference breadcrumb leads home, not under Views', async () => {
		const page = await open('/reference/');
		await expect(page.locator('nav.breadcrumbs li').allInnerTexts()).resolves.toEqual([
			'Home',
			'API reference',
		]);
		await expect(page.locator('nav.breadcrumbs a').first().getAttribute('href')).resolves.toBe('/');
	});

	it('in a guide, a code block keeps its distance from the heading after it', async () => {
		const page = await open('/docs/mock-server/');
		const gaps = await page.locator('main .code').evaluateAll((blocks) =>
			blocks
				.filter((block) => block.nextElementSibling?.matches('.heading-wrapper, h2, h3'))
				.map((block) => {
					const next = block.nextElementSibling?.getBoundingClientRect().top ?? 0;
					return next - block.getBoundingClientRect().bottom;
				}),
		);
		expect(gaps.length).toBeGreaterThan(0);
		for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(24);
	});

	it.each(['/reference/', GUIDES[1] ?? ''])(
		'%s: Tab reaches the sidebar before the content, and the skip link goes straight to the content',
		async (route) => {
			const page = await open(route);
			const where = () =>
				page.evaluate(() => {
					const focused = document.activeElement;
					if (focused?.closest('.sidebar')) return 'sidebar';
					if (focused?.closest('main')) return 'main';
					return 'header';
				});
			let reached = 'header';
			for (let step = 0; step < 30 && reached === 'header'; step += 1) {
				await page.keyboard.press('Tab');
				reached = await where();
			}
			expect(reached).toBe('sidebar');
			await page.goto(`${portal.url}${route}`);
			await page.keyboard.press('Tab');
			await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
				'Skip to content',
			);
			await page.keyboard.press('Enter');
			await page.keyboard.press('Tab');
			await expect(where()).resolves.toBe('main');
		},
	);
});
