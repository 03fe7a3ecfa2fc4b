/**
 * The set-up every browser test on built pages shares: the built portal served by `astro preview`
 * on 127.0.0.1, and Debian's Chromium to open it, started once per test file before its tests and
 * stopped after them, whatever happened. The Chromium is the e2e project's shared one
 * (tests/chromium-setup.ts), connected to rather than launched, when the project gives one; so is
 * the preview of the run's build, for a file that asks for no build or port of its own.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { connectOrLaunchChromium } from '../../support/browser.ts';
import { servePortal, type Preview } from '../../support/preview.ts';

/** The preview and the browser of one test file, readable once its tests run. */
export interface PortalInChromium {
	/** The preview's origin, e.g. `http://127.0.0.1:41234`, without a trailing slash. */
	readonly url: string;
	/** The file's Chromium; each test opens its own page or context in it. */
	readonly browser: Browser;
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
 * Opens a route of the portal in a fresh context of its own, at a width (844 px high), and waits
 * for what its scripts load near the window (`settled`) and for what the compare page's script
 * draws; close the context after.
 */
export async function openAtWidth(
	portal: PortalInChromium,
	route: string,
	width: number,
	options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
	const context = await portal.browser.newContext({
		viewport: { width, height: 844 },
		...options,
	});
	const page = await context.newPage();
	await page.goto(`${portal.url}${route}`);
	if (options.javaScriptEnabled !== false) await settled(page);
	if (route.startsWith('/compare/') && options.javaScriptEnabled !== false) {
		await page.locator('[data-output] table').first().waitFor();
	}
	return { context, page };
}
