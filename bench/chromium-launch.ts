/**
 * `node bench/chromium-launch.ts`: what it costs a browser test file to launch its own Chromium,
 * against connecting to one Chromium the e2e project starts once (tests/e2e-setup.ts). Runs
 * BENCH_ROUNDS rounds (5 by default); each round, side by side, times a file's set-up and
 * tear-down done three ways, up to a first page open on about:blank: launching Chromium
 * (support/browser.ts, as each file did), connecting to a Chromium server started once with the
 * same executable and flags (`chromium.launchServer`, then `chromium.connect`), and a new context
 * in a browser already open. Prints the median and range of each and the server's own start.
 */
import { chromium, type Browser } from 'playwright-core';
import { z } from 'zod';
import { chromiumLaunchOptions, launchChromium } from '../support/browser.ts';
import { median, runLine, table } from './lib/report.ts';

const env = z
	.object({ BENCH_ROUNDS: z.coerce.number().int().min(1).max(21).default(5) })
	.parse(process.env);

/** Opens a context and a page on about:blank in a browser, then closes the context. */
async function openPage(browser: Browser): Promise<void> {
	const context = await browser.newContext();
	const page = await context.newPage();
	await page.goto('about:blank');
	await context.close();
}

/** How long a step took, in milliseconds. */
async function timed(step: () => Promise<void>): Promise<number> {
	const started = performance.now();
	await step();
	return performance.now() - started;
}

const serverStarted = performance.now();
const server = await chromium.launchServer(chromiumLaunchOptions());
const serverMs = performance.now() - serverStarted;
const open = await chromium.connect(server.wsEndpoint());
const ways = {
	'launch Chromium, open a page, close it': async () => {
		const browser = await launchChromium();
		await openPage(browser);
		await browser.close();
	},
	'connect to the shared Chromium, open a page, disconnect': async () => {
		const browser = await chromium.connect(server.wsEndpoint());
		await openPage(browser);
		await browser.close();
	},
	'a new context in a browser already open': () => openPage(open),
};
const times = new Map<string, number[]>(Object.keys(ways).map((way) => [way, []]));
try {
	for (let round = 0; round < env.BENCH_ROUNDS; round++) {
		for (const [way, step] of Object.entries(ways)) times.get(way)?.push(await timed(step));
	}
} finally {
	await open.close();
	await server.close();
}

const ms = (value: number): string => `${Math.round(value)} ms`;
const launchMedian = median(times.get('launch Chromium, open a page, close it') ?? []);
console.log(runLine());
console.log(`${env.BENCH_ROUNDS} rounds, the three ways side by side in each round.\n`);
console.log(
	table(
		['a test file’s browser', 'median', 'range', 'of a launch'],
		[...times].map(([way, values]) => [
			way,
			ms(median(values)),
			`${ms(Math.min(...values))} – ${ms(Math.max(...values))}`,
			`${((median(values) / launchMedian) * 100).toFixed(0)} %`,
		]),
	),
);
console.log(
	`\nThe shared Chromium's own start (chromium.launchServer), once per run: ${ms(serverMs)}.`,
);
