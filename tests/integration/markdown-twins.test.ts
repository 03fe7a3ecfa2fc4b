/**
 * The pages for AI assistants and terminals, as the build writes them: /llms.txt in the
 * llmstxt.org format, a Markdown twin beside every page of every kind (named in the page's head),
 * every link in them leading to a file of the build, and no key or configuration value of any
 * fixture in any of them.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { load } from 'cheerio';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { ROLES } from '../../src/schemas/view.ts';
import { loadViews, type ViewEntry } from '../../src/sources/fixtures.ts';
import { readSettings } from '../../src/sources/settings.ts';
import { buildPeople } from '../../src/site/people.ts';
import { ROLE_DIFFERS, SEVERAL_NAMES } from '../../src/site/review-flags.ts';
import { linksOf, llmsTxtProblems, secretValues } from '../support/markdown.ts';

const distDir = inject('distDir');
let views: ViewEntry[];
let guides: string[];
/** Every file of the build, relative to it with `/`. */
let files: Set<string>;
/** llms.txt and every twin, by path relative to dist, with their text. */
const texts = new Map<string, string>();

beforeAll(async () => {
	const settings = readSettings({});
	views = await loadViews(settings.viewsDir);
	guides = (await readdir(settings.docsDir))
		.filter((name) => name.endsWith('.mdx'))
		.map((name) => name.replace(/\.mdx$/, ''));
	const entries = await readdir(distDir, { recursive: true, withFileTypes: true });
	files = new Set(
		entries
			.filter((entry) => entry.isFile())
			.map((entry) =>
				path.relative(distDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
			),
	);
	for (const file of files) {
		if (file === 'llms.txt' || file.endsWith('.md')) {
			texts.set(file, await readFile(path.join(distDir, file), 'utf8'));
		}
	}
});

/** The file of the build a root-relative link leads to, or undefined if it names none. */
function fileOf(href: string): string | undefined {
	const pathname = decodeURIComponent(href.split('#')[0] ?? '');
	const file = pathname.endsWith('/') ? `${pathname}index.html` : pathname;
	return files.has(file.slice(1)) ? file.slice(1) : undefined;
}

describe('llms.txt', () => {
	it('is at the root, in the llmstxt.org format', () => {
		const text = texts.get('llms.txt');
		expect(text).toBeDefined();
		expect(text).toMatch(/^# Console Portal\n\n> /);
		expect(llmsTxtProblems(text ?? '')).toEqual([]);
	});

	it('links every guide, the reference and every environment’s list of views, as twins', () => {
		const links = linksOf(texts.get('llms.txt') ?? '');
		const environments = [...new Set(views.map(({ view }) => view.environment))];
		expect(environments.length).toBeGreaterThan(1);
		expect(links).toEqual(
			expect.arrayContaining([
				...guides.map((guide) => `/docs/${guide}.md`),
				'/reference.md',
				...environments.map((environment) => `/environments/${environment}.md`),
			]),
		);
	});
});

describe('the Markdown twins', () => {
	it('exist for every page kind: overview, views, environments, guides, reference and its changelog, people, access, history, review flags, access since', () => {
		const environments = [...new Set(views.map(({ view }) => view.environment))];
		const expected = [
			'index.md',
			...views.map(({ slug }) => `views/${slug}.md`),
			...environments.map((environment) => `environments/${environment}.md`),
			'docs.md',
			...guides.map((guide) => `docs/${guide}.md`),
			'reference.md',
			'reference/changes.md',
			...buildPeople(views).map(({ slug }) => `people/${slug}.md`),
			'access.md',
			...environments.flatMap((environment) => [
				`access/environments/${environment}.md`,
				...ROLES.map((role) => `access/environments/${environment}/${role}.md`),
			]),
			...ROLES.map((role) => `access/roles/${role}.md`),
			...views.map(({ slug }) => `views/${slug}/history.md`),
			'access/changes.md',
			...[SEVERAL_NAMES.id, ROLE_DIFFERS.id].map((flag) => `access/flags/${flag}.md`),
			'access/review/keys.md',
			'access/review/views.md',
			'access/since.md',
			// The access changes filtered one way, each filter of the build's history.
			...[...files]
				.filter((file) => /^access\/changes\/\w+\/[^/]+\/index\.html$/.test(file))
				.map((file) => `${path.posix.dirname(file)}.md`),
		];
		// The build's history has access changes in every environment, role and kind filtered here.
		for (const filter of ['environments', 'roles', 'kinds']) {
			expect(expected, filter).toContainEqual(expect.stringMatching(`^access/changes/${filter}/`));
		}
		const missing = expected.filter((file) => !texts.has(file));
		expect(missing).toEqual([]);
		for (const file of expected) expect(texts.get(file), file).toMatch(/^# \S/);
	});

	it('are named in the head of their page, every page but compare and 404, and of no other', async () => {
		const pages = [...files].filter((file) => file.endsWith('.html'));
		const named = new Set<string>();
		const without: string[] = [];
		for (const page of pages) {
			const $ = load(await readFile(path.join(distDir, page), 'utf8'));
			const link = $('head link[rel="alternate"][type="text/markdown"]');
			if (link.length === 0) {
				without.push(page);
				continue;
			}
			expect(link.length, page).toBe(1);
			const href = link.attr('href') ?? '';
			const twin = `${page === 'index.html' ? '/index' : `/${path.posix.dirname(page)}`}.md`;
			expect(href, page).toBe(twin);
			expect(fileOf(href), page).toBe(twin.slice(1));
			named.add(twin.slice(1));
		}
		expect(without.filter((page) => !/^(compare\/|404\.html$)/.test(page))).toEqual([]);
		expect(without).toContain('404.html');
		expect(without).toContain('compare/index.html');
		// Every twin is some page's.
		const orphans = [...texts.keys()].filter((file) => file !== 'llms.txt' && !named.has(file));
		expect(orphans).toEqual([]);
	});

	it('lead from the access overview and llms.txt to what changed and to every review page', () => {
		const reviews = [
			'/access/changes.md',
			'/access/since.md',
			...[SEVERAL_NAMES.id, ROLE_DIFFERS.id].map((flag) => `/access/flags/${flag}.md`),
			'/access/review/keys.md',
			'/access/review/views.md',
		];
		expect(linksOf(texts.get('access.md') ?? '')).toEqual(expect.arrayContaining(reviews));
		expect(linksOf(texts.get('llms.txt') ?? '')).toEqual(expect.arrayContaining(reviews));
	});

	it('link only to files of the build, and to sections their pages have', async () => {
		const broken: string[] = [];
		for (const [file, text] of texts) {
			for (const href of linksOf(text)) {
				// Other sites, and emails (a Markdown reader makes a bare address a mailto: link).
				if (/^(https?:\/\/|mailto:)/.test(href)) continue;
				if (!href.startsWith('/')) {
					broken.push(`${file}: ${href} is not root-relative`);
					continue;
				}
				const target = fileOf(href);
				if (!target) {
					broken.push(`${file}: ${href}`);
					continue;
				}
				const fragment = href.split('#')[1];
				if (fragment && target.endsWith('.html')) {
					const $ = load(await readFile(path.join(distDir, target), 'utf8'));
					if ($(`[id="${fragment}"]`).length !== 1) broken.push(`${file}: ${href} (no such id)`);
				}
			}
		}
		expect(broken).toEqual([]);
		// The check reads links: the twins hold hundreds, the view twins' to HTML sections among them.
		const all = [...texts.values()].flatMap(linksOf);
		expect(all.length).toBeGreaterThan(500);
		expect(all).toContain('/views/production/#directory-heading');
	});

	it('hold no key and no configuration value of any fixture, nor does llms.txt', async () => {
		const secrets = secretValues(views);
		expect(secrets.length).toBe(views.length * 18);
		expect(texts.size).toBeGreaterThan(views.length);
		/** Where a text holds a secret value. */
		const leaks = (file: string, text: string): string[] =>
			secrets.filter(({ value }) => text.includes(value)).map(({ where }) => `${file}: ${where}`);
		expect([...texts].flatMap(([file, text]) => leaks(file, text))).toEqual([]);
		// The same scan over the view page in HTML, which shows them, finds each of its 18.
		const page = await readFile(path.join(distDir, 'views/production/index.html'), 'utf8');
		expect(leaks('views/production/index.html', page)).toHaveLength(18);
	});

	it('give each view’s example request with <API_KEY> in place of the key', () => {
		for (const { slug, view } of views) {
			const text = texts.get(`views/${slug}.md`) ?? '';
			expect(text, slug).toContain(
				`curl \\\n  -H "Authorization: Bearer <API_KEY>" \\\n  ${view.baseUrl}/api/v2/users`,
			);
			for (const user of view.users) expect(text, slug).toContain(user.email);
		}
	});
});
