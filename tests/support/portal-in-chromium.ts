/**
 * The set-up every browser test on built pages shares: the built portal served by `astro preview`
 * on 127.0.0.1, and Debian's Chromium to open it, started once per test file before its tests and
 * stopped after them, whatever happened. The Chromium is the e2e project's shared one
 * (tests/chromium-setup.ts), connected to rather than launched, when the project gives one; so is
 * the preview of the run's build, for a file that asks for no build or port of its own. Tests that
 * neither watch nor route requests open their routes in the file's kept pages (`open`), one per
 * set of context options, set back between tests to what a new context holds: a page and a
 * context less per test, and what the page loads already in the context's cache.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { connectOrLaunchChromium } from '../../support/browser.ts';
import { servePortal, type Preview } from '../../support/preview.ts';

/** The preview and the browser of one test file, readable once its tests run. */
export interface PortalInChromium {
	/** The preview's origin, e.g. `http://127.0.0.1:41234`, without a trailing slash. */
	readonly url: string;
	/** The file's Chromium, for a test that needs a context of its own. */
	readonly browser: Browser;
	/**
	 * The file's kept page for `options`, opened on `route` as a new one would be (`keptPage`);
	 * the next call with the same context options takes the page over, so never close it.
	 * `prepare` runs on each context made for these options, before its page opens (a listener, an
	 * init script); a file gives the same one each time for the same options. `beforeLoad` runs on
	 * the page, once set back, before it opens `route` (a listener that must hear the load).
	 */
	open(
		route: string,
		options?: KeptPageOptions,
		prepare?: (context: BrowserContext) => Promise<void>,
		beforeLoad?: (page: Page) => void,
	): Promise<Page>;
}

/** What a kept page is opened with: its window, and the options a context fixes. */
export interface KeptPageOptions {
	/** The window's width in pixels; 1280 by default. */
	width?: number;
	/** The window's height in pixels; 900 by default. */
	height?: number;
	/** The colour scheme the page's media queries see; light by default. */
	colorScheme?: 'light' | 'dark';
	/** False for a page read without JavaScript. */
	javaScriptEnabled?: boolean;
	/** A touch screen's (with `isMobile`, a phone's). */
	hasTouch?: boolean;
	/** A phone's meta viewport and touch events. */
	isMobile?: boolean;
	/** What the page may do without asking, e.g. `clipboard-read`. */
	permissions?: string[];
	/** True for a page whose Content-Security-Policy is not applied (a test of the page's own code). */
	bypassCSP?: boolean;
}

/** Where the portal comes from and where it is served. */
export interface PortalInChromiumOptions {
	/**
	 * The built portal to serve, asked for when the file's set-up runs (after the file's own
	 * `beforeAll` hooks registered before this call, e.g. one that builds it); the build of the
	 * test run (`inject('distDir')`) by default.
	 */
	distDir?: () => string;
	/** The preview's port; a free one by default. */
	port?: number;
	/**
	 * The shared Chromium's address to connect to, or undefined to launch one for the file; the
	 * e2e project's (`inject('chromiumEndpoint')`) by default.
	 */
	chromiumEndpoint?: () => string | undefined;
	/**
	 * The address of a preview of the run's build already serving, used when neither `distDir`
	 * nor `port` is given, or undefined to start one for the file; the e2e project's
	 * (`inject('previewUrl')`) by default.
	 */
	previewUrl?: () => string | undefined;
}

/** The preview and the browser of one test file, with the steps that start and stop them. */
export interface PortalSession extends PortalInChromium {
	/** Serves the portal, then connects to the shared Chromium or launches one. */
	start(): Promise<void>;
	/**
	 * Closes Chromium (or the file's connection to the shared one) and stops the file's own preview
	 * by its process group (never the shared one), each even when the other fails or `start` stopped half-way; then fails with
	 * every error there was.
	 */
	stop(): Promise<void>;
}

/** A preview and a browser that start and stop when told; `usePortalInChromium` tells them. */
export function portalSession(options: PortalInChromiumOptions = {}): PortalSession {
	let preview: Preview | undefined;
	/** The shared preview's address, when the file uses it rather than a preview of its own. */
	let shared: string | undefined;
	let browser: Browser | undefined;
	/** The file's kept pages, one per set of context options. */
	const kept = new Map<string, KeptPage>();

	/** A started part, or a clear error when a test file reads it outside its tests. */
	const started = <T>(part: T | undefined, name: string): T => {
		if (part === undefined) {
			throw new Error(`The ${name} is not started: read it inside a test or a later hook`);
		}
		return part;
	};
	return {
		get url() {
			return shared ?? started(preview, 'preview').url;
		},
		get browser() {
			return started(browser, 'browser');
		},
		open(route, pageOptions = {}, prepare, beforeLoad) {
			const url = shared ?? started(preview, 'preview').url;
			return keptPage(
				started(browser, 'browser'),
				kept,
				url,
				route,
				pageOptions,
				prepare,
				beforeLoad,
			);
		},
		async start() {
			if (options.distDir === undefined && options.port === undefined) {
				shared = options.previewUrl ? options.previewUrl() : inject('previewUrl');
			}
			if (shared === undefined) {
				preview = await servePortal(options.distDir?.() ?? inject('distDir'), options.port);
			}
			browser = await connectOrLaunchChromium(
				options.chromiumEndpoint ? options.chromiumEndpoint() : inject('chromiumEndpoint'),
			);
		},
		async stop() {
			const outcomes = await Promise.allSettled([browser?.close(), preview?.server.stop()]);
			const failures: unknown[] = [];
			for (const outcome of outcomes)
				if (outcome.status === 'rejected') failures.push(outcome.reason);
			if (failures.length > 0) {
				throw new AggregateError(failures, 'Closing Chromium or stopping the preview failed');
			}
		},
	};
}

/** A page a file keeps for its tests, in a context of its own. */
interface KeptPage {
	context: BrowserContext;
	page: Page;
}

/**
 * Sets a kept page back to a new context's state (see `keptPage`), or says it cannot: the page left
 * is closed, on another origin, or went away while its storage was being cleared.
 */
async function reset(
	{ context, page }: KeptPage,
	origin: string,
	contextOptions: Omit<KeptPageOptions, 'width' | 'height'>,
): Promise<boolean> {
	if (page.isClosed() || !page.url().startsWith(`${origin}/`)) return false;
	try {
		if (contextOptions.javaScriptEnabled !== false) {
			await page.evaluate(() => {
				localStorage.clear();
				sessionStorage.clear();
			});
		}
	} catch {
		// The page was navigating away as the test ended: a new context holds nothing either.
		return false;
	}
	await Promise.all([
		context.clearCookies(),
		page.emulateMedia({ media: 'screen', colorScheme: contextOptions.colorScheme ?? 'light' }),
		page.goto('about:blank'),
		// Requests a test routed, should it have ended before taking its route away.
		page.unrouteAll({ behavior: 'ignoreErrors' }),
		context.unrouteAll({ behavior: 'ignoreErrors' }),
		// Tabs the test opened beside it, with their own session storage.
		...context.pages().flatMap((other) => (other === page ? [] : [other.close()])),
	]);
	return true;
}

/**
 * Opens `route` of the portal at `origin` in the page kept for `options`' context options, in the
 * state a page of a new context would be in: the page a test left is blanked first (a route
 * differing only by its #fragment is then a new document, not a scroll), its origin's local and
 * session storage and the context's cookies are cleared, print and colour-scheme emulation are set
 * back, and the window is sized. When the page left is on another origin, or closed, the context
 * is replaced, and `prepare` runs on the new context. `beforeLoad` runs on the page just before it
 * opens `route`. Waits for the page's load, as `page.goto` does; a test that watches requests from
 * before the first one or routes them opens a context of its own.
 */
export async function keptPage(
	browser: Browser,
	kept: Map<string, KeptPage>,
	origin: string,
	route: string,
	options: KeptPageOptions,
	prepare?: (context: BrowserContext) => Promise<void>,
	beforeLoad?: (page: Page) => void,
): Promise<Page> {
	const { width = 1280, height = 900, ...contextOptions } = options;
	const key = JSON.stringify(contextOptions);
	let entry = kept.get(key);
	if (entry !== undefined && !(await reset(entry, origin, contextOptions))) {
		kept.delete(key);
		await entry.context.close();
		entry = undefined;
	}
	if (entry === undefined) {
		const context = await browser.newContext({ viewport: { width, height }, ...contextOptions });
		await prepare?.(context);
		entry = { context, page: await context.newPage() };
		kept.set(key, entry);
	}
	const { page } = entry;
	const size = page.viewportSize();
	if (size?.width !== width || size.height !== height)
		await page.setViewportSize({ width, height });
	beforeLoad?.(page);
	await page.goto(`${origin}${route}`);
	return page;
}

/**
 * The set-up of a browser test file: serves the portal and launches Chromium in `beforeAll`, and
 * closes Chromium and stops the preview by its process group in `afterAll`, whatever happened.
 */
export function usePortalInChromium(options: PortalInChromiumOptions = {}): PortalInChromium {
	const session = portalSession(options);
	beforeAll(() => session.start());
	afterAll(() => session.stop());
	return session;
}

/**
 * Waits, after a page's load, for what its scripts load when the reader comes near it (base.ts's
 * `whenNear`, the try-it panel's own observer, both a screen's height either side of the window,
 * NEAR_MARGIN): every sample tabs and try-it panel that near defined, every such panel wired
 * (`data-ready`), and the fonts.
 * This is what waiting for the network to be quiet for 500 ms waited for, without the 500 ms; a
 * page whose scripts could not load (base.ts then drops the `js` class) counts as settled.
 */
export async function settled(page: Page): Promise<void> {
	await page.waitForFunction(() => {
		if (!document.documentElement.classList.contains('js')) return true;
		const height = window.innerHeight;
		const within = (element: Element, margin: number): boolean => {
			const box = element.getBoundingClientRect();
			return box.bottom > -margin && box.top < height + margin;
		};
		return [...document.querySelectorAll('code-tabs, try-it')].every((element) => {
			if (!within(element, height)) return true;
			if (customElements.get(element.localName) === undefined) return false;
			return (
				element.localName !== 'try-it' ||
				element.hasAttribute('data-ready') ||
				element.querySelector('form') === null
			);
		});
	});
	await page.evaluate(() => document.fonts.ready.then(() => undefined));
}

/**
 * Opens a route of the portal in the file's kept page for `options` (`PortalInChromium.open`), at a
 * width (844 px high), and waits for what its scripts load near the window (`settled`) and for what
 * the compare page's script draws.
 */
export async function openAtWidth(
	portal: PortalInChromium,
	route: string,
	width: number,
	options: Omit<KeptPageOptions, 'width' | 'height'> = {},
): Promise<Page> {
	const page = await portal.open(route, { width, height: 844, ...options });
	if (options.javaScriptEnabled !== false) await settled(page);
	if (route.startsWith('/compare/') && options.javaScriptEnabled !== false) {
		await page.locator('[data-output] table').first().waitFor();
	}
	return page;
}
