/**
 * `npm run bench:weight`: page weight per page kind (overview, view, reference, guide) of the
 * portal and of a Starlight site generated from the same content, in one run. For each page:
 * gzip and brotli bytes of the HTML, the linked CSS and the eagerly loaded JS (module scripts in
 * the page and their static imports, never dynamic ones), and the requests Chromium makes before
 * any interaction (page load until the network is idle).
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { init, parse } from 'es-module-lexer';
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { buildPortal } from '../support/build.ts';
import { servePortal } from '../support/preview.ts';
import { buildStarlightSite } from './lib/starlight-site.ts';
import { kb, table, verdict, WORK_DIR, writeResult } from './lib/report.ts';
import { toolPackageJson } from './tools.ts';

/** The page kinds compared, and their path in both sites. */
export const PAGE_KINDS = [
	{ kind: 'overview', path: '/' },
	{ kind: 'view', path: '/views/production/' },
	{ kind: 'reference', path: '/reference/' },
	{ kind: 'guide', path: '/docs/getting-started/' },
] as const;

/** The view-page budgets, in gzip bytes (issue 36: HTML 4.9 KB and eager JS 3.4 KB, with room). */
export const BUDGETS = { html: 4.9 * 1024, js: 3.4 * 1024, css: 6 * 1024 } as const;

/** The reference's budgets before interaction: eager JS in gzip bytes, and requests (issue 36). */
export const REFERENCE_BUDGETS = { js: 5 * 1024, requests: 12 } as const;

/** Compressed sizes of some bytes. */
export interface Compressed {
	raw: number;
	gzip: number;
	brotli: number;
}

/** The weight of one page. */
export interface PageWeight {
	kind: string;
	path: string;
	html: Compressed;
	css: Compressed;
	js: Compressed;
	cssFiles: string[];
	jsFiles: string[];
	/** Requests Chromium made from navigation until the network was idle. */
	requests: number;
	requestUrls: string[];
}

/** gzip (level 9) and brotli (quality 11) sizes, as precompressed static files would be served. */
function compressed(bytes: Buffer): Compressed {
	return {
		raw: bytes.length,
		gzip: gzipSync(bytes, { level: 9 }).length,
		brotli: brotliCompressSync(bytes, {
			params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
		}).length,
	};
}

/** The sum of compressed sizes of several files, each compressed on its own. */
function sum(parts: readonly Compressed[]): Compressed {
	return parts.reduce(
		(total, part) => ({
			raw: total.raw + part.raw,
			gzip: total.gzip + part.gzip,
			brotli: total.brotli + part.brotli,
		}),
		{ raw: 0, gzip: 0, brotli: 0 },
	);
}

/** The file under `dist` a same-site URL refers to, seen from a page at `pagePath`. */
function fileOf(dist: string, pagePath: string, url: string): string | undefined {
	const resolved = new URL(url, `http://site${pagePath}`);
	if (resolved.host !== 'site') return undefined;
	return path.join(dist, decodeURIComponent(resolved.pathname));
}

/** The static imports of a module, resolved to site paths; dynamic imports are left out. */
function staticImports(source: string, modulePath: string): string[] {
	const [imports] = parse(source);
	return imports
		.flatMap((entry) =>
			(entry.type === 'static' || entry.type === 'reexport-star') && entry.specifier
				? [new URL(entry.specifier, `http://site${modulePath}`)]
				: [],
		)
		.filter((url) => url.host === 'site')
		.map((url) => url.pathname);
}

/** Every element of a parsed page, in document order. */
function* elementsOf(node: Root | Element): Generator<Element> {
	for (const child of node.children) {
		if (child.type !== 'element') continue;
		yield child;
		yield* elementsOf(child);
	}
}

/** An element's attribute as written, or undefined when the element has none. */
function attribute(element: Element, name: string): string | undefined {
	const value = element.properties[name];
	if (value === undefined || value === null || value === false) return undefined;
	return Array.isArray(value) ? value.join(' ') : String(value);
}

/** Whether an element's space-separated attribute (such as `rel`) holds a word. */
function hasWord(element: Element, name: string, word: string): boolean {
	return (attribute(element, name) ?? '').split(/\s+/).includes(word);
}

/** Measures the HTML, CSS and eager JS of one built page, from the files in `dist`. */
export async function staticWeight(
	dist: string,
	pagePath: string,
): Promise<Omit<PageWeight, 'kind' | 'requests' | 'requestUrls'>> {
	const htmlBytes = await readFile(path.join(dist, pagePath, 'index.html'));
	const elements = [...elementsOf(fromHtml(htmlBytes.toString('utf8')))];
	const sitePath = (url: string): string => new URL(url, `http://site${pagePath}`).pathname;
	const links = elements.filter((element) => element.tagName === 'link');
	const scripts = elements.filter((element) => element.tagName === 'script');
	const cssFiles = links
		.filter((link) => hasWord(link, 'rel', 'stylesheet'))
		.flatMap((link) => attribute(link, 'href') ?? [])
		.map(sitePath);
	const queue: string[] = [];
	// A modulepreload is fetched at load as a script is, whatever else its rel says.
	for (const element of elements) {
		const url =
			element.tagName === 'script'
				? attribute(element, 'src')
				: element.tagName === 'link' && hasWord(element, 'rel', 'modulepreload')
					? attribute(element, 'href')
					: undefined;
		if (url !== undefined) queue.push(sitePath(url));
	}
	for (const script of scripts) {
		if (attribute(script, 'type') !== 'module' || attribute(script, 'src') !== undefined) continue;
		const text = script.children
			.map((child) => (child.type === 'text' ? child.value : ''))
			.join('');
		queue.push(...staticImports(text, pagePath));
	}
	const jsFiles = new Set<string>();
	const jsParts: Compressed[] = [];
	while (queue.length > 0) {
		const next = queue.shift() ?? '';
		if (jsFiles.has(next)) continue;
		const file = fileOf(dist, '/', next);
		if (!file || !existsSync(file)) continue;
		jsFiles.add(next);
		const source = await readFile(file);
		jsParts.push(compressed(source));
		queue.push(...staticImports(source.toString('utf8'), next));
	}
	const cssParts = await Promise.all(
		cssFiles.map(async (href) => compressed(await readFile(path.join(dist, href)))),
	);
	return {
		path: pagePath,
		html: compressed(htmlBytes),
		css: sum(cssParts),
		js: sum(jsParts),
		cssFiles,
		jsFiles: [...jsFiles],
	};
}

/** Loads a page in a fresh Chromium context and lists the requests until the network is idle. */
export async function requestsBeforeInteraction(browser: Browser, url: string): Promise<string[]> {
	const context = await browser.newContext();
	try {
		const page = await context.newPage();
		const urls: string[] = [];
		page.on('request', (request) => urls.push(request.url()));
		await page.goto(url, { waitUntil: 'networkidle', timeout: 60_000 });
		return urls.map((requested) => requested.replace(new URL(url).origin, ''));
	} finally {
		await context.close();
	}
}

/** Measures every page kind of a built site. */
async function siteWeights(browser: Browser, dist: string): Promise<PageWeight[]> {
	const preview = await servePortal(dist);
	try {
		const weights: PageWeight[] = [];
		for (const { kind, path: pagePath } of PAGE_KINDS) {
			const measured = await staticWeight(dist, pagePath);
			const requestUrls = await requestsBeforeInteraction(browser, `${preview.url}${pagePath}`);
			weights.push({ kind, ...measured, requests: requestUrls.length, requestUrls });
		}
		return weights;
	} finally {
		await preview.server.stop();
	}
}

/** A ratio as a cell: how many times the portal's figure Starlight's is. */
function ratio(portal: number, starlight: number): string {
	return portal === 0 ? (starlight === 0 ? '–' : '∞') : `${(starlight / portal).toFixed(1)}×`;
}

/** Runs the page-weight benchmark and writes its result. */
export async function runWeightBench(): Promise<void> {
	await init();
	const portalDist = path.join(WORK_DIR, 'dist-portal');
	console.error('bench:weight: building the portal…');
	const built = buildPortal(portalDist);
	if (built.status !== 0) throw new Error(`The portal build failed:\n${built.output}`);
	console.error('bench:weight: generating and building the Starlight site…');
	const starlightDist = await buildStarlightSite();
	const browser = await launchChromium();
	let portal: PageWeight[];
	let starlight: PageWeight[];
	try {
		portal = await siteWeights(browser, portalDist);
		starlight = await siteWeights(browser, starlightDist);
	} finally {
		await browser.close();
	}
	const figures: { label: string; of: (weight: PageWeight) => number; bytes: boolean }[] = [
		{ label: 'HTML gzip', of: (w) => w.html.gzip, bytes: true },
		{ label: 'HTML brotli', of: (w) => w.html.brotli, bytes: true },
		{ label: 'CSS gzip', of: (w) => w.css.gzip, bytes: true },
		{ label: 'CSS brotli', of: (w) => w.css.brotli, bytes: true },
		{ label: 'eager JS gzip', of: (w) => w.js.gzip, bytes: true },
		{ label: 'eager JS brotli', of: (w) => w.js.brotli, bytes: true },
		{ label: 'requests before interaction', of: (w) => w.requests, bytes: false },
	];
	const rows: string[][] = [];
	for (const { kind } of PAGE_KINDS) {
		const ours = portal.find((weight) => weight.kind === kind);
		const theirs = starlight.find((weight) => weight.kind === kind);
		if (!ours || !theirs) continue;
		for (const figure of figures) {
			const a = figure.of(ours);
			const b = figure.of(theirs);
			const show = (value: number): string => (figure.bytes ? kb(value) : String(value));
			rows.push([kind, figure.label, show(a), show(b), ratio(a, b)]);
		}
	}
	const view = portal.find((weight) => weight.kind === 'view');
	const budgetRows = view
		? [
				[
					'view HTML gzip',
					`≤ ${kb(BUDGETS.html)}`,
					kb(view.html.gzip),
					verdict(view.html.gzip <= BUDGETS.html),
				],
				[
					'view eager JS gzip',
					`≤ ${kb(BUDGETS.js)}`,
					kb(view.js.gzip),
					verdict(view.js.gzip <= BUDGETS.js),
				],
				[
					'view CSS gzip',
					`≤ ${kb(BUDGETS.css)}`,
					kb(view.css.gzip),
					verdict(view.css.gzip <= BUDGETS.css),
				],
			]
		: [];
	const reference = portal.find((weight) => weight.kind === 'reference');
	if (reference) {
		budgetRows.push(
			[
				'reference eager JS gzip',
				`≤ ${kb(REFERENCE_BUDGETS.js)}`,
				kb(reference.js.gzip),
				verdict(reference.js.gzip <= REFERENCE_BUDGETS.js),
			],
			[
				'reference requests before interaction',
				`≤ ${REFERENCE_BUDGETS.requests}`,
				String(reference.requests),
				verdict(reference.requests <= REFERENCE_BUDGETS.requests),
			],
		);
	}
	const files = (weights: PageWeight[], site: string): string[] =>
		weights.map(
			(w) =>
				`- ${site} ${w.kind} (${w.path}): CSS ${w.cssFiles.join(', ') || 'none'}; eager JS ${w.jsFiles.join(', ') || 'none'}; requests ${w.requestUrls.join(', ')}`,
		);
	const markdown = [
		table(['page', 'figure', 'portal', 'Starlight', 'Starlight / portal'], rows),
		'',
		table(['budget', 'target', 'portal', ''], budgetRows),
		'',
		'Sizes are of the built files, each compressed on its own (gzip -9, brotli 11). Inline scripts and styles count as HTML. Eager JS is every `<script src>`, `modulepreload` and the static imports of module scripts, followed through; dynamic `import()` is left out. Requests are counted in Chromium from navigation until the network is idle, in a fresh context, with no interaction.',
		'',
		`The Starlight site (@astrojs/starlight ${await starlightVersion()}) is generated by \`bench/lib/starlight-site.ts\` from the same fixtures, openapi.yaml and guide, into bench/tools/.work/starlight and built with the benchmarks' own Astro.`,
		'',
		'<details><summary>Files and requests per page</summary>',
		'',
		...files(portal, 'portal'),
		...files(starlight, 'Starlight'),
		'',
		'</details>',
	].join('\n');
	await writeResult({
		name: 'weight',
		title: 'Page weight: portal and Starlight',
		markdown,
		data: { portal, starlight, budgets: BUDGETS, referenceBudgets: REFERENCE_BUDGETS },
	});
}

/** The installed Starlight version. */
async function starlightVersion(): Promise<string> {
	const text = await readFile(toolPackageJson('@astrojs/starlight'), 'utf8');
	const parsed: unknown = JSON.parse(text);
	return typeof parsed === 'object' && parsed !== null && 'version' in parsed
		? String(parsed.version)
		: 'unknown';
}

if (import.meta.main) {
	runWeightBench().catch((error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
		process.exitCode = 1;
	});
}
