/**
 * `npm run bench:people`: the size of the people and access pages as views grow. For generated
 * sets of 200, 1,000 and 10,000 views (BENCH_SIZES overrides), builds the portal and measures,
 * raw and gzipped, the largest person page, the largest page of one person's views in one
 * environment, every access page kind, access.csv and one view page. Everything but access.csv
 * (one row per person per view, by design) should stay the same size from 1,000 views on.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { z } from 'zod';
import { buildViewSet, setPaths } from './lib/build-measure.ts';
import { kb, table, writeResult } from './lib/report.ts';

const envSchema = z.object({
	BENCH_SIZES: z
		.string()
		.default('200,1000,10000')
		.transform((text) => text.split(',').map((size) => Number(size.trim())))
		.pipe(
			z.array(z.number().int().min(1).max(20_000), {
				error: 'BENCH_SIZES: expected view counts separated by commas, e.g. 200,1000',
			}),
		),
});

/** The largest of a set of files, raw and gzipped, and how many there are. */
interface Largest {
	file: string;
	pages: number;
	raw: number;
	gzip: number;
}

/** The largest HTML file under `folder` whose path (relative, split on `/`) has `depth` parts. */
async function largest(folder: string, depth?: number): Promise<Largest> {
	let best: Largest = { file: '–', pages: 0, raw: 0, gzip: 0 };
	if (!existsSync(folder)) return best;
	let pages = 0;
	for (const name of await readdir(folder, { recursive: true })) {
		if (!name.endsWith('.html')) continue;
		if (depth !== undefined && name.split(path.sep).length !== depth) continue;
		pages += 1;
		const bytes = await readFile(path.join(folder, name));
		if (bytes.length > best.raw) {
			best = { file: name, pages: 0, raw: bytes.length, gzip: gzipSync(bytes).length };
		}
	}
	return { ...best, pages };
}

/** One file, raw and gzipped. */
async function one(file: string): Promise<Largest> {
	const bytes = await readFile(file);
	return { file: path.basename(file), pages: 1, raw: bytes.length, gzip: gzipSync(bytes).length };
}

/** Measures the people and access pages of a built portal. */
async function measure(dist: string): Promise<Record<string, Largest>> {
	return {
		'person page': await largest(path.join(dist, 'people'), 2),
		"person's views in one environment": await largest(path.join(dist, 'people'), 3),
		"person's views, page 2+": await largest(path.join(dist, 'people'), 4),
		'/access/': await one(path.join(dist, 'access/index.html')),
		'/access/environments/<env>/': await largest(path.join(dist, 'access/environments'), 2),
		'/access/environments/<env>/<role>/': await largest(path.join(dist, 'access/environments'), 3),
		'/access/roles/<role>/': await largest(path.join(dist, 'access/roles')),
		'/access.csv': await one(path.join(dist, 'access.csv')),
		'/views/<slug>/': await largest(path.join(dist, 'views')),
	};
}

const { BENCH_SIZES } = envSchema.parse(process.env);
const results: { views: number; pages: Record<string, Largest> }[] = [];
for (const count of BENCH_SIZES) {
	console.error(`bench:people: building ${count} views…`);
	const build = await buildViewSet(count);
	if (!build.ok) throw new Error(`The ${count}-view build failed: ${build.failure ?? ''}`);
	results.push({ views: count, pages: await measure(setPaths(count).dist) });
	await rm(setPaths(count).dist, { recursive: true, force: true });
}

const kinds = Object.keys(results[0]?.pages ?? {});
const rows = kinds.map((kind) => [
	kind,
	...results.flatMap(({ pages }) => {
		const page = pages[kind];
		return page && page.pages > 0
			? [`${kb(page.raw)} / ${kb(page.gzip)} (${page.pages.toLocaleString('en')})`]
			: ['–'];
	}),
]);
await writeResult({
	name: 'people-pages',
	title: 'People and access pages by number of views',
	markdown: [
		table(
			[
				'page (largest of its kind)',
				...results.map(({ views }) => `${views} views: raw / gzip (pages)`),
			],
			rows,
		),
		'',
		'A person page lists at most five views per environment and links to the rest, fifty to a page; the access pages list people, never views. access.csv has one row per person per view, so it alone grows with views.',
	].join('\n'),
	data: results,
});
