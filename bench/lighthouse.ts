/**
 * `npm run bench:lighthouse`: Lighthouse scores (performance, accessibility, best practices, SEO)
 * for the overview, a view page, the reference and a guide, from the npm `lighthouse` package
 * driving Debian's Chromium through chrome-launcher, on the portal as `astro preview` serves it.
 * Desktop settings, one run per page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CHROMIUM_PATH } from '../support/browser.ts';
import { buildPortal } from '../support/build.ts';
import { servePortal } from '../support/preview.ts';
import { table, verdict, WORK_DIR, writeResult } from './lib/report.ts';
import { importChromeLauncher, importLighthouse, toolPackageJson } from './tools.ts';

const PAGES = [
	{ kind: 'overview', path: '/' },
	{ kind: 'view', path: '/views/production/' },
	{ kind: 'reference', path: '/reference/' },
	{ kind: 'guide', path: '/docs/getting-started/' },
] as const;
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const BUDGETED = ['performance', 'accessibility', 'best-practices'] as const;

/** One page's scores, 0–100, and the audits that cost points. */
export interface PageScores {
	kind: string;
	path: string;
	scores: Record<string, number | null>;
	/** Weighted audits scored below 1, with their category. */
	failing: string[];
}

/** Runs the Lighthouse benchmark and writes its result. */
export async function runLighthouseBench(): Promise<void> {
	const dist = path.join(WORK_DIR, 'dist-portal');
	const built = buildPortal(dist);
	if (built.status !== 0) throw new Error(`The portal build failed:\n${built.output}`);
	const { default: lighthouse, desktopConfig } = await importLighthouse();
	const chromeLauncher = await importChromeLauncher();
	const preview = await servePortal(dist);
	const chrome = await chromeLauncher.launch({
		chromePath: CHROMIUM_PATH,
		chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'],
	});
	const results: PageScores[] = [];
	try {
		for (const page of PAGES) {
			console.error(`bench:lighthouse: ${page.path}…`);
			const run = await lighthouse(
				`${preview.url}${page.path}`,
				{ port: chrome.port, output: 'json', logLevel: 'error' },
				desktopConfig,
			);
			if (!run) throw new Error(`Lighthouse returned nothing for ${page.path}`);
			const { lhr } = run;
			if (lhr.runtimeError) {
				throw new Error(`Lighthouse on ${page.path}: ${lhr.runtimeError.message}`);
			}
			const scores: Record<string, number | null> = {};
			const failing: string[] = [];
			for (const id of CATEGORIES) {
				const category = lhr.categories[id];
				scores[id] =
					category?.score === null || !category ? null : Math.round(category.score * 100);
				if (!category) continue;
				for (const ref of category.auditRefs) {
					const audit = lhr.audits[ref.id];
					if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
						failing.push(`${id}: ${audit.title} (${audit.displayValue ?? audit.score})`);
					}
				}
			}
			results.push({ kind: page.kind, path: page.path, scores, failing });
		}
	} finally {
		chrome.kill();
		await preview.server.stop();
	}
	const rows = results.map((result) => [
		`${result.kind} (${result.path})`,
		...CATEGORIES.map((id) => String(result.scores[id] ?? '–')),
		verdict(BUDGETED.every((id) => result.scores[id] === 100)),
	]);
	const failing = results.flatMap((result) =>
		result.failing.map((line) => `- ${result.kind}: ${line}`),
	);
	const markdown = [
		table(['page', ...CATEGORIES, 'budget: 100 in the first three'], rows),
		'',
		failing.length > 0 ? 'Audits that cost points:' : 'No weighted audit below full score.',
		...failing,
		'',
		`Lighthouse ${lighthouseVersion()}, desktop settings, ${CHROMIUM_PATH} with --headless=new --no-sandbox --disable-gpu, pages served by \`astro preview\` on 127.0.0.1 (no HTTP compression, no cache headers).`,
	].join('\n');
	await writeResult({ name: 'lighthouse', title: 'Lighthouse', markdown, data: { results } });
}

/** The Lighthouse version, as its package states it. */
function lighthouseVersion(): string {
	const file = toolPackageJson('lighthouse');
	const parsed = z
		.object({ version: z.string() })
		.safeParse(JSON.parse(readFileSync(file, 'utf8')));
	return parsed.success ? parsed.data.version : 'unknown';
}

if (import.meta.main) {
	runLighthouseBench().catch((error: unknown) => {
		console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
		process.exitCode = 1;
	});
}
