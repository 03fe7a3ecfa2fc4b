/**
 * The build's ceiling: a bare Astro site, with the portal's Astro and no integration, that makes
 * the same pages and files as a build of the portal did, route by route (one `getStaticPaths`
 * route for each of the portal's routes, with as many pages, each of trivial content). Its CPU per
 * view is Astro's own floor for that many pages, beside which `bench:build` sets the portal's.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** One route of the portal's `src/pages/`, and how to know its files in a build's dist. */
export interface RouteKind {
	/** The route's file, from `src/pages/`, e.g. `views/[slug].astro`. */
	route: string;
	/** Whether the route renders an HTML page (`.astro`), not an endpoint writing a file. */
	page: boolean;
	/** The extension of the files an endpoint writes (`md`, `json`), `html` for a page. */
	extension: string;
	/** Matches `/` and a file's path in dist (`/views/production/index.html`). */
	pattern: RegExp;
	/** How many characters of the route are fixed: the route most fixed wins where two match. */
	fixed: number;
	/** How many rest parameters (`[...page]`) it has: the fewer win where two match as fixed. */
	rests: number;
}

/** A parameter of a route's segment: `[slug]` or `[...page]`. */
const PARAM = /(\[[^\]]+\])/;

/** Escapes a fixed text for a regular expression. */
function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A route of `src/pages/` (its path from there) as a kind of file in dist. */
export function routeKind(route: string): RouteKind {
	const page = route.endsWith('.astro');
	let base = page ? route.slice(0, -'.astro'.length) : route.replace(/\.[jt]s$/, '');
	let suffix = '';
	if (page) {
		base = base.replace(/(^|\/)index$/, '');
		if (/^(404|500)$/.test(base)) base = `${base}.html`;
		else suffix = '/index.html';
	}
	let fixed = suffix.length;
	let rests = 0;
	const source = base
		.split('/')
		.filter(Boolean)
		.map((segment) => {
			const rest = /^\[\.\.\.[^\]]+\](.*)$/.exec(segment);
			if (rest) {
				rests += 1;
				fixed += (rest[1] ?? '').length;
				// A rest parameter may be empty, and then takes its slash with it.
				return `(?:/.+)?${escape(rest[1] ?? '')}`;
			}
			fixed += segment.replace(/\[[^\]]+\]/g, '').length + 1;
			return `/${segment
				.split(PARAM)
				.map((part) => (PARAM.test(part) ? '[^/]+' : escape(part)))
				.join('')}`;
		})
		.join('');
	const last = base.split('/').at(-1) ?? '';
	const extension = page ? 'html' : (/\.(\w+)$/.exec(last)?.[1] ?? 'txt');
	return {
		route,
		page,
		extension,
		pattern: new RegExp(`^${source}${escape(suffix)}$`),
		fixed,
		rests,
	};
}

/** The route of `kinds` a dist file (its path from dist, with `/`) came from, or undefined. */
export function kindOf(file: string, kinds: readonly RouteKind[]): RouteKind | undefined {
	const matching = kinds.filter(({ pattern }) => pattern.test(`/${file}`));
	return matching.sort((a, b) => b.fixed - a.fixed || a.rests - b.rests)[0];
}

/** Every route file under a `src/pages/` folder, by its path from there. */
export async function routesOf(pagesFolder: string): Promise<string[]> {
	const entries = await readdir(pagesFolder, { withFileTypes: true, recursive: true });
	return entries
		.filter((entry) => entry.isFile() && /\.(astro|[jt]s)$/.test(entry.name))
		.map((entry) =>
			path.relative(pagesFolder, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
		)
		.filter((route) => !route.split('/').some((part) => part.startsWith('_')))
		.sort();
}

/** How many files of a build each route made, and the files no route made (assets, the search index). */
export interface RouteCounts {
	/** Each route's files, in the order of `src/pages/`'s routes; a route with none is left out. */
	byRoute: { kind: RouteKind; files: number }[];
	/** Files of dist that no route made: `_astro/`, `pagefind/`, `public/`'s, an integration's. */
	other: number;
}

/** Counts a dist folder's files by the route that made each. */
export async function countByRoute(
	dist: string,
	kinds: readonly RouteKind[],
): Promise<RouteCounts> {
	const counts = new Map<RouteKind, number>();
	let other = 0;
	for (const entry of await readdir(dist, { withFileTypes: true, recursive: true })) {
		if (!entry.isFile()) continue;
		const file = path
			.relative(dist, path.join(entry.parentPath, entry.name))
			.split(path.sep)
			.join('/');
		const kind = /^(_astro|pagefind)\//.test(file) ? undefined : kindOf(file, kinds);
		if (kind) counts.set(kind, (counts.get(kind) ?? 0) + 1);
		else other += 1;
	}
	return {
		byRoute: kinds.flatMap((kind) => {
			const files = counts.get(kind) ?? 0;
			return files > 0 ? [{ kind, files }] : [];
		}),
		other,
	};
}

/** The paths `n` = 0 … count − 1, as a route's `getStaticPaths` gives them. */
function staticPaths(count: number): string {
	return `export function getStaticPaths() {\n\treturn Array.from({ length: ${count} }, (_, n) => ({ params: { n: String(n) } }));\n}\n`;
}

/**
 * The bare site's files (path from its root, then text): one route `k<i>/[n]` for each of the
 * portal's routes, a page where it rendered a page and an endpoint with the same extension where
 * it wrote a file, each making as many files as the portal's did, of trivial content.
 */
export function ceilingSite(counts: RouteCounts): Map<string, string> {
	const files = new Map<string, string>([
		[
			'astro.config.mjs',
			// The portal's output shape (a folder per page, four pages in flight) and nothing else.
			"export default { trailingSlash: 'always', build: { format: 'directory', concurrency: 4 }, devToolbar: { enabled: false } };\n",
		],
		['package.json', '{ "name": "bench-build-ceiling", "private": true, "type": "module" }\n'],
	]);
	counts.byRoute.forEach(({ kind, files: count }, index) => {
		const note = `// ${kind.route}: ${count} files\n`;
		if (kind.page) {
			files.set(
				`src/pages/k${index}/[n].astro`,
				`---\n${note}${staticPaths(count)}const { n } = Astro.params;\n---\n<html lang="en"><head><title>{n}</title></head><body><p>{n}</p></body></html>\n`,
			);
		} else {
			files.set(
				`src/pages/k${index}/[n].${kind.extension}.js`,
				`${note}${staticPaths(count)}export function GET({ params }) {\n\treturn new Response(params.n);\n}\n`,
			);
		}
	});
	return files;
}
