/**
 * `npm run bench:history`: what the fixtures' history costs a build. Makes a generated view set
 * with a git history (BENCH_HISTORY_VIEWS views, 1,000 by default, and BENCH_HISTORY_COMMITS
 * commits, 500; `support/view-sets.ts`), then builds it twice, alternately BENCH_ROUNDS times
 * (median reported): from the repository, with its history, and from a copy of the views folder
 * outside git, without. Reports build time, pages and their sizes, the largest history page of
 * each kind, the exports, and how long reading and telling the history takes on its own.
 */
import { cp, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { buildPortal } from '../support/build.ts';
import { writeViewHistory } from '../support/view-sets.ts';
import { readFixtureHistory } from '../src/sources/fixture-history.ts';
import { buildHistory } from '../src/site/history.ts';
import { kb, mb, table, WORK_DIR, writeResult } from './lib/report.ts';

const env = z
	.object({
		BENCH_HISTORY_VIEWS: z.coerce.number().int().min(10).max(10_000).default(1000),
		BENCH_HISTORY_COMMITS: z.coerce.number().int().min(2).max(5000).default(500),
		BENCH_ROUNDS: z.coerce.number().int().min(1).max(9).default(1),
	})
	.parse(process.env);

/** The page kinds the history adds, by the paths of their files under dist. */
const HISTORY_KINDS: readonly [string, RegExp][] = [
	["a view's history", /^views\/[^/]+\/history\/(?:\d+\/)?index\.html$/],
	['access changes', /^access\/changes\/(?:\d+\/)?index\.html$/],
	['access changes, filtered', /^access\/changes\/[a-z]+\/[^/]+\/(?:\d+\/)?index\.html$/],
	['since a tag', /^access\/since\/[^/]+\/(?:\d+\/)?index\.html$/],
	['a person', /^people\/[^/]+\/index\.html$/],
];

/** The files the history adds or changes that are not pages. */
const EXPORTS = ['access-changes.csv', 'access-since.json', 'exports.json', 'access.csv'];

/** What one build measured. */
interface Measure {
	seconds: number;
	pages: number;
	distBytes: number;
	kinds: { kind: string; pages: number; largest: string; raw: number; gzip: number }[];
	exports: { file: string; raw: number }[];
}

/** A difference with its sign: `+1.2`, `-0.7`. */
function signed(value: number, digits: number): string {
	return `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
}

/** The median of some numbers. */
function median(values: readonly number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** Builds a views folder and measures the build. */
async function measureBuild(views: string, dist: string): Promise<Measure> {
	await rm(dist, { recursive: true, force: true });
	const started = performance.now();
	const result = buildPortal(dist, views, {}, 30 * 60_000);
	const seconds = (performance.now() - started) / 1000;
	if (result.status !== 0) throw new Error(`The build failed:\n${result.output.slice(-3000)}`);
	const files: string[] = [];
	let distBytes = 0;
	for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile()) continue;
		const file = path.join(entry.parentPath, entry.name);
		distBytes += (await stat(file)).size;
		files.push(path.relative(dist, file).split(path.sep).join('/'));
	}
	const pages = files.filter((file) => file.endsWith('.html'));
	const kinds = [];
	for (const [kind, pattern] of HISTORY_KINDS) {
		const matching = pages.filter((file) => pattern.test(file));
		let largest = { file: '', raw: 0, gzip: 0 };
		for (const file of matching) {
			const bytes = await readFile(path.join(dist, file));
			if (bytes.length > largest.raw) {
				largest = { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
			}
		}
		kinds.push({ kind, pages: matching.length, largest: largest.file, ...largest });
	}
	const exports = [];
	for (const file of EXPORTS) exports.push({ file, raw: (await stat(path.join(dist, file))).size });
	return { seconds, pages: pages.length, distBytes, kinds, exports };
}

const { BENCH_HISTORY_VIEWS: count, BENCH_HISTORY_COMMITS: commits, BENCH_ROUNDS: rounds } = env;
const folder = path.join(WORK_DIR, `history-${count}-${commits}`);
console.log(`Making ${count} views with ${commits} commits in ${folder}…`);
const madeAt = performance.now();
const made = await writeViewHistory(path.join(folder, 'repo'), count, commits);
const makeSeconds = (performance.now() - madeAt) / 1000;
// The copy lies in bench/.work, which the portal's repository ignores: a folder git does not track.
const copy = path.join(folder, 'copy', 'views');
await rm(path.dirname(copy), { recursive: true, force: true });
await cp(made.views, copy, { recursive: true });

const readAt = performance.now();
const reading = await readFixtureHistory(made.views);
const readSeconds = (performance.now() - readAt) / 1000;
if (!reading.available) throw new Error(`No history: ${reading.reason}`);
const toldAt = performance.now();
const told = buildHistory(reading.commits);
const toldSeconds = (performance.now() - toldAt) / 1000;

const sides = { with: [] as Measure[], without: [] as Measure[] };
for (let round = 1; round <= rounds; round++) {
	for (const side of ['with', 'without'] as const) {
		console.log(`Round ${round}: building ${side} history…`);
		const measure = await measureBuild(
			side === 'with' ? made.views : copy,
			path.join(folder, `dist-${side}`),
		);
		console.log(`  ${measure.seconds.toFixed(1)} s, ${measure.pages} pages`);
		sides[side].push(measure);
	}
}
const last = { with: sides.with.at(-1), without: sides.without.at(-1) };
if (!last.with || !last.without) throw new Error('No build was measured');
const seconds = {
	with: median(sides.with.map((measure) => measure.seconds)),
	without: median(sides.without.map((measure) => measure.seconds)),
};

const summary = table(
	['', 'with history', 'without history', 'difference'],
	[
		[
			'build time',
			`${seconds.with.toFixed(1)} s`,
			`${seconds.without.toFixed(1)} s`,
			`${signed(seconds.with - seconds.without, 1)} s (${signed((seconds.with / seconds.without - 1) * 100, 0)}%)`,
		],
		[
			'HTML pages',
			last.with.pages.toLocaleString('en'),
			last.without.pages.toLocaleString('en'),
			`+${(last.with.pages - last.without.pages).toLocaleString('en')}`,
		],
		[
			'dist size',
			mb(last.with.distBytes),
			mb(last.without.distBytes),
			`+${mb(last.with.distBytes - last.without.distBytes)}`,
		],
	],
);
const kindRows = last.with.kinds.map((measure, index) => {
	const without = last.without?.kinds[index];
	return [
		measure.kind,
		String(measure.pages),
		`${kb(measure.raw)} (${kb(measure.gzip)} gzip)`,
		String(without?.pages ?? 0),
		`${kb(without?.raw ?? 0)} (${kb(without?.gzip ?? 0)} gzip)`,
	];
});
const kinds = table(
	['page kind', 'pages with', 'largest with', 'pages without', 'largest without'],
	kindRows,
);
const exportRows = last.with.exports.map((measure, index) => [
	measure.file,
	kb(measure.raw),
	kb(last.without?.exports[index]?.raw ?? 0),
]);
const exportsTable = table(['export', 'with history', 'without history'], exportRows);
const history = table(
	['history', 'figure'],
	[
		['commits that touched a fixture', String(reading.commits.length)],
		['tags', String(reading.tags.length)],
		['changes told', told.entries.length.toLocaleString('en')],
		['reading it from git (one process)', `${readSeconds.toFixed(2)} s`],
		['telling it in words', `${toldSeconds.toFixed(2)} s`],
		['making the repository', `${makeSeconds.toFixed(0)} s`],
		[
			'changes made',
			Object.entries(made.made)
				.map(([kind, n]) => `${kind} ${n}`)
				.join(', '),
		],
	],
);

await writeResult({
	name: 'history',
	title: `Build with and without history: ${count.toLocaleString('en')} views, ${commits} commits`,
	markdown: [
		`Build time is the median of ${rounds} build${rounds === 1 ? '' : 's'} on each side, built alternately.`,
		summary,
		'Page kinds the history adds or changes (the largest page of each kind):',
		kinds,
		exportsTable,
		history,
	].join('\n\n'),
	data: { count, commits, rounds, seconds, sides, readSeconds, toldSeconds, made: made.made },
});
