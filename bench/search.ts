/**
 * `npm run bench:search`: search in Chromium at 100 and 1,000 generated views. For each set: the
 * bytes fetched for search before it is opened, then the time from typing a query to results on
 * screen and the bytes fetched meanwhile, for the first query (search just opened, nothing
 * loaded) and for the next. BENCH_REUSE_BUILDS=1 uses the builds `bench:build` left behind.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../support/browser.ts';
import { servePortal } from '../support/preview.ts';
import { buildViewSet, setPaths } from './lib/build-measure.ts';
import { kb, table, verdict, writeResult } from './lib/report.ts';

const SIZES = [100, 1000] as const;
const QUERIES = { first: 'watanabe', next: 'okafor' } as const;

const envSchema = z.object({ BENCH_REUSE_BUILDS: z.enum(['0', '1']).default('0') });

/** What one set measured. */
export interface SearchMeasure {
	views: number;
	/** Bytes of search code and index fetched from page load until the network was idle. */
	bytesBeforeOpen: number;
	first: { query: string; ms: number; bytes: number; results: number };
	next: { query: string; ms: number; bytes: number; results: number };
}

/** Counts the bytes a page receives (body and headers), split into phases by `take`. */
function byteCounter(page: Page): { take: () => Promise<{ all: number; search: number }> } {
	let pending: Promise<{ all: number; search: number }>[] = [];
	page.on('requestfinished', (request) => {
		const search = /\/pagefind\/|search-dialog/.test(request.url());
		pending.push(
			request.sizes().then(({ responseBodySize, responseHeadersSize }) => {
				const bytes = responseBodySize + responseHeadersSize;
				return { all: bytes, search: search ? bytes : 0 };
			}),
		);
	});
	return {
		take: async () => {
			const taken = await Promise.all(pending);
			pending = [];
			return taken.reduce(
				(sum, part) => ({ all: sum.all + part.all, search: sum.search + part.search }),
				{ all: 0, search: 0 },
			);
		},
	};
}

/** Types a query into the open dialog and waits for the results list to fill, in the page. */
async function timeQuery(page: Page, query: string): Promise<{ ms: number; results: number }> {
	return page.evaluate(async (text) => {
		const input = document.querySelector<HTMLInputElement>('#search-query');
		const list = document.querySelector('.search-results');
		if (!input || !list) throw new Error('The search dialog is not open');
		const done = new Promise<{ ms: number; results: number }>((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`No results for "${text}" in 30 s`)), 30_000);
			const observer = new MutationObserver(() => {
				const items = list.querySelectorAll('li');
				if (items.length === 0) return;
				observer.disconnect();
				clearTimeout(timer);
				// The results are in the DOM; wait for the frame that paints them.
				requestAnimationFrame(() =>
					resolve({ ms: performance.now() - started, results: items.length }),
				);
			});
			observer.observe(list, { childList: true });
		});
		list.replaceChildren();
		const started = performance.now();
		input.value = text;
		input.dispatchEvent(new Event('input', { bubbles: true }));
		return done;
	}, query);
}

/** Measures search on one built set. */
async function measureSet(browser: Browser, views: number, dist: string): Promise<SearchMeasure> {
	const preview = await servePortal(dist);
	const context = await browser.newContext();
	try {
		const page = await context.newPage();
		const bytes = byteCounter(page);
		await page.goto(`${preview.url}/`, { waitUntil: 'networkidle' });
		const bytesBeforeOpen = (await bytes.take()).search;
		await page.click('.search-open');
		await page.waitForSelector('#search-query');
		const first = await timeQuery(page, QUERIES.first);
		await page.waitForLoadState('networkidle');
		const firstBytes = (await bytes.take()).all;
		const next = await timeQuery(page, QUERIES.next);
		await page.waitForLoadState('networkidle');
		const nextBytes = (await bytes.take()).all;
		return {
			views,
			bytesBeforeOpen,
			first: { query: QUERIES.first, ...first, bytes: firstBytes },
			next: { query: QUERIES.next, ...next, bytes: nextBytes },
		};
	} finally {
		await context.close();
		await preview.server.stop();
	}
}

/** Runs the search benchmark and writes its result. */
export async function runSearchBench(): Promise<void> {
	const { BENCH_REUSE_BUILDS } = envSchema.parse(process.env);
	const measures: SearchMeasure[] = [];
	const browser = await launchChromium();
	try {
		for (const views of SIZES) {
			const { dist } = setPaths(views);
			if (BENCH_REUSE_BUILDS !== '1' || !existsSync(dist)) {
				console.error(`bench:search: building ${views} views…`);
				const built = await buildViewSet(views);
				if (!built.ok) throw new Error(`The ${views}-view build failed: ${built.failure ?? ''}`);
			}
			console.error(`bench:search: ${views} views…`);
			measures.push(await measureSet(browser, views, dist));
		}
	} finally {
		await browser.close();
	}
	const rows = measures.flatMap((m) => [
		[
			String(m.views),
			'first',
			m.first.query,
			`${m.first.ms.toFixed(0)} ms`,
			kb(m.first.bytes),
			String(m.first.results),
		],
		[
			String(m.views),
			'next',
			m.next.query,
			`${m.next.ms.toFixed(0)} ms`,
			kb(m.next.bytes),
			String(m.next.results),
		],
	]);
	const before = Math.max(...measures.map((m) => m.bytesBeforeOpen));
	const markdown = [
		table(
			['views', 'query', 'text', 'typing to results on screen', 'bytes fetched', 'results shown'],
			rows,
		),
		'',
		`Search bytes before search is opened (budget 0): ${measures.map((m) => `${kb(m.bytesBeforeOpen)} at ${m.views} views`).join(', ')}: ${verdict(before === 0)}.`,
		'',
		'Headless Chromium, the overview page served by `astro preview` (no HTTP compression; Pagefind’s index files are compressed already). The first query is typed right after the dialog opens, so it includes loading Pagefind, its WebAssembly and index chunks; the time includes the dialog’s 120 ms typing pause. Bytes are response bodies and headers received from opening search (first) or typing (next) until the network is idle.',
	].join('\n');
	await writeResult({ name: 'search', title: 'Search in Chromium', markdown, data: { measures } });
}

if (import.meta.main) {
	runSearchBench().catch((error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
		process.exitCode = 1;
	});
}
