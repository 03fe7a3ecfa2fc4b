/**
 * bench:build's ceiling: the bare Astro site makes as many pages and files, route by route, as the
 * portal's build made, and the table sets the portal's CPU per view beside the bare site's.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
	ceilingSite,
	countByRoute,
	kindOf,
	routeKind,
	routesOf,
} from '../../../bench/lib/build-ceiling.ts';
import {
	CEILING_ROW,
	ceilingTable,
	groupMemoryOf,
	type BuildMeasure,
	type CeilingMeasure,
	type TimedBuild,
} from '../../../bench/lib/build-measure.ts';
import { ROOT } from '../../../support/processes.ts';

const scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-build-ceiling-test-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

const ROUTES = [
	'404.astro',
	'index.astro',
	'openapi-[version].json.ts',
	'views/[slug].astro',
	'views/[slug].md.ts',
	'views/[slug]/[...history].md.ts',
	'access/changes/[...page].astro',
	'access/changes/people/[person]/[...page].astro',
].map(routeKind);

/** The route a dist file is counted under. */
const routeOf = (file: string): string | undefined => kindOf(file, ROUTES)?.route;

describe('a file of the portal’s dist', () => {
	it('is counted under the route that made it, a page or an endpoint', () => {
		expect(routeOf('index.html')).toBe('index.astro');
		expect(routeOf('404.html')).toBe('404.astro');
		expect(routeOf('openapi-3.1.json')).toBe('openapi-[version].json.ts');
		expect(routeOf('views/production/index.html')).toBe('views/[slug].astro');
		expect(routeOf('views/production.md')).toBe('views/[slug].md.ts');
		expect(routeOf('views/production/history.md')).toBe('views/[slug]/[...history].md.ts');
		expect(routeOf('access/changes/2/index.html')).toBe('access/changes/[...page].astro');
	});

	it('is counted under the route with the most fixed path where two could have made it', () => {
		expect(routeOf('access/changes/people/ada-okafor/index.html')).toBe(
			'access/changes/people/[person]/[...page].astro',
		);
		expect(routeOf('access/changes/people/ada-okafor/3/index.html')).toBe(
			'access/changes/people/[person]/[...page].astro',
		);
	});

	it('that no route made (an asset, a public file) is counted apart', async () => {
		const dist = path.join(scratch, 'dist');
		const files = [
			'index.html',
			'views/production/index.html',
			'views/staging-us-east/index.html',
			'views/production.md',
			'_astro/page.js',
			'pagefind/index.json',
			'favicon.svg',
		];
		for (const file of files) {
			await mkdir(path.dirname(path.join(dist, file)), { recursive: true });
			await writeFile(path.join(dist, file), 'x');
		}
		const counts = await countByRoute(dist, ROUTES);
		expect(counts.byRoute.map(({ kind, files: count }) => [kind.route, count])).toEqual([
			['index.astro', 1],
			['views/[slug].astro', 2],
			['views/[slug].md.ts', 1],
		]);
		expect(counts.other).toBe(3);
	});

	it('comes from one of the routes of src/pages/, each of which is read', async () => {
		const routes = await routesOf(path.join(ROOT, 'src', 'pages'));
		expect(routes).toContain('views/[slug].astro');
		expect(routes.length).toBeGreaterThan(30);
		const kinds = routes.map(routeKind);
		expect(kindOf('views/production/index.html', kinds)?.route).toBe('views/[slug].astro');
		expect(kindOf('people/ada-okafor/index.html', kinds)?.route).toBe(
			'people/[person]/index.astro',
		);
	});
});

describe('the bare Astro site', () => {
	const counts = {
		byRoute: [
			{ kind: routeKind('views/[slug].astro'), files: 300 },
			{ kind: routeKind('views/[slug].md.ts'), files: 300 },
		],
		other: 12,
	};
	const site = ceilingSite(counts);

	it('has one route a portal route, a page for a page and an endpoint of the same extension for a file', () => {
		expect([...site.keys()].filter((file) => file.startsWith('src/pages/'))).toEqual([
			'src/pages/k0/[n].astro',
			'src/pages/k1/[n].md.js',
		]);
	});

	it('makes as many pages through each route as the portal did', () => {
		for (const file of ['src/pages/k0/[n].astro', 'src/pages/k1/[n].md.js'])
			expect(site.get(file)).toContain('Array.from({ length: 300 }');
	});

	it('uses no integration: its configuration names none', () => {
		expect(site.get('astro.config.mjs')).not.toMatch(/integrations|csp/);
	});
});

/** What any timed build measured, at a CPU time: the fields a portal's and a bare build share. */
function timed(cpuSeconds: number): TimedBuild {
	return {
		ok: true,
		seconds: cpuSeconds / 2,
		cpuSeconds,
		peakTreeBytes: 0,
		peakPagefindBytes: 0,
		peakRestBytes: 0,
		load: [1, 1],
	};
}

/** A measure of a build, as bench:build takes it. */
function measure(views: number, cpuSeconds: number): BuildMeasure {
	return {
		...timed(cpuSeconds),
		views,
		distBytes: 0,
		searchIndexBytes: 0,
		viewPageBytes: 0,
		pageKinds: [],
		largest: { file: '', raw: 0 },
	};
}

/** A measure of the bare site's build beside the portal's at `views`. */
function ceiling(views: number, cpuSeconds: number): CeilingMeasure {
	return { ...timed(cpuSeconds), views, routeFiles: views * 31, files: views * 31 };
}

/** The rows of the first Markdown table of a text, keyed by their first two cells. */
function rowsOf(text: string): { header: string[]; rows: Map<string, string[]> } {
	const lines = text.split('\n').filter((line) => line.startsWith('|'));
	const cells = (line: string): string[] =>
		line
			.replace(/^\||\|$/g, '')
			.split('|')
			.map((cell) => cell.trim());
	const [header = '', , ...rows] = lines;
	return {
		header: cells(header),
		rows: new Map(rows.map((line) => [`${cells(line)[0]} ${cells(line)[1]}`, cells(line)])),
	};
}

describe("bench:build's table of Astro's own floor", () => {
	// The portal: 6 s of CPU at 100 views, 18 s at 300 (60 ms a view more); the bare site 1 s and 2 s.
	const markdown = ceilingTable(
		[measure(100, 6), measure(300, 18)],
		[ceiling(100, 1), ceiling(300, 2)],
	);
	const { header, rows } = rowsOf(markdown);

	it('has the portal and the bare site at each size, with CPU per view and its marginal', () => {
		expect(header).toEqual([
			'views',
			'site',
			'pages and files',
			'build time',
			'CPU',
			'CPU per view',
			'marginal CPU per view',
			'over the bare site (CPU per view)',
			'over the bare site (marginal)',
		]);
		expect([...rows.keys()]).toEqual([
			'100 this checkout',
			`100 ${CEILING_ROW}`,
			'300 this checkout',
			`300 ${CEILING_ROW}`,
		]);
	});

	it('gives the portal’s CPU per view over the bare site’s, and its marginal over the bare site’s', () => {
		const column = (name: string): number => header.indexOf(name);
		const ours = rows.get('300 this checkout') ?? [];
		const bare = rows.get(`300 ${CEILING_ROW}`) ?? [];
		expect(ours[column('CPU per view')]).toBe('60.0 ms');
		expect(bare[column('CPU per view')]).toBe('6.7 ms');
		expect(ours[column('marginal CPU per view')]).toBe('60.0 ms (100→300)');
		expect(bare[column('marginal CPU per view')]).toBe('5.0 ms (100→300)');
		expect(ours[column('over the bare site (CPU per view)')]).toBe('9.00×');
		expect(ours[column('over the bare site (marginal)')]).toBe('12.00×');
		expect(ours[column('pages and files')]).toBe('9,300');
	});

	it('says a bare site that failed to build, and gives no ratio for it', () => {
		const failed = { ...ceiling(300, 2), ok: false, failure: 'stopped after 25 min' };
		const text = ceilingTable([measure(100, 6), measure(300, 18)], [ceiling(100, 1), failed]);
		const { header: names, rows: failedRows } = rowsOf(text);
		expect([...failedRows.keys()]).toContain(`300 ${CEILING_ROW}: failed, stopped after 25 min`);
		expect(
			failedRows.get('300 this checkout')?.[names.indexOf('over the bare site (CPU per view)')],
		).toBe('–');
	});
});

describe("a build's memory, read from ps", () => {
	it("counts Pagefind's service apart from Astro's process, and both in the tree", () => {
		const lines = [
			'   54 npm run build',
			'1500000 node /work/main/node_modules/.bin/astro build --outDir dist',
			' 3000000 /work/main/node_modules/@pagefind/linux-x64/bin/pagefind_extended --service',
			'',
		].join('\n');
		expect(groupMemoryOf(lines)).toEqual({
			total: (54 + 1_500_000 + 3_000_000) * 1024,
			pagefind: 3_000_000 * 1024,
		});
	});

	it('takes a page whose folder is named pagefind for Astro, not for the service', () => {
		expect(groupMemoryOf('2048 node astro build --outDir /tmp/pagefind-site').pagefind).toBe(0);
	});
});
