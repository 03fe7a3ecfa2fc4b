/**
 * Every figure README.md and the guides give from a benchmark's results is in the table they name:
 * each mention of `bench/results/<file>.md` is listed below with what the page says beside it,
 * and the test finds that table's row and column, and the figure in its cell, rounded as the page
 * rounds it. A benchmark that renames a column or drops a row, or a page that cites a file or a
 * figure no table holds, fails here.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../support/processes.ts';

/** One thing a page says from a benchmark's results, and the table cell that holds it. */
interface Citation {
	/** The page that says it: README.md or a guide, from the repository's root. */
	page: string;
	/** The results file the page names beside it, in bench/results/. */
	results: string;
	/** The page's words, as written, in the block (paragraph, list item, table row) naming `results`. */
	says: string;
	/**
	 * The row: each text begins one of its cells, in any order (a row's name may end in a commit,
	 * which the next run changes).
	 */
	row: readonly string[];
	/** The column's header, as the table writes it. */
	column: string;
	/** The figure as the page gives it (among `says`), when the cell holds it. */
	figure?: string;
	/** What the cell's number is multiplied by to be in the page's unit (0.001 for ms to s). */
	scale?: number;
	/** The code that writes the column's header, where the benchmark makes it from a number. */
	columnMadeBy?: string;
}

const RESULTS = 'bench/results';
const GUIDES = 'content/docs';

/** The rows of the build's page sizes that the pages say keep their size from 1,000 views on. */
const BOUNDED_KINDS = ['overview', 'a view (largest)', 'a person (largest)'];

/** The same size at 1,000 and 10,000 views, as `page` says it. */
function pagesAtScale(page: string): Citation[] {
	return BOUNDED_KINDS.flatMap((kind) =>
		['1,000 views', '10,000 views'].map((column) => ({
			page,
			results: 'build.md',
			says: 'the size it is at 1,000',
			row: [kind],
			column,
			columnMadeBy: "`${views.toLocaleString('en')} views`",
		})),
	);
}

/** The suite's time by project, as `page` says it. */
function testTimes(page: string, says: string): Citation[] {
	return [
		...['unit', 'integration', 'e2e', 'outside the files'].map((project) => ({
			page,
			results: 'test-times.md',
			says,
			row: [project],
			column: 'while they ran',
		})),
		{ page, results: 'test-times.md', says, row: ['tests/'], column: 'time' },
	];
}

const BENCHMARKS = `${GUIDES}/benchmarks.mdx`;
const MOCK_AS_A_SERVICE = `${GUIDES}/mock-as-a-service.mdx`;

const CITATIONS: readonly Citation[] = [
	...pagesAtScale(`${GUIDES}/the-pages.mdx`),
	...pagesAtScale(BENCHMARKS),
	...[
		{
			// The median of this checkout's builds, in its own table.
			row: ['10000', 'yes'],
			column: 'peak RSS (process tree)',
			figure: '1.45',
			says: 'together peaks at 1.45 GB',
		},
		{
			row: ['10000', 'baseline'],
			column: 'peak RSS (process tree)',
			figure: '1.77',
			says: 'against 1.77 GB when the published',
		},
		{
			row: ['10000'],
			column: 'peak RSS (Pagefind’s service)',
			figure: '0.3',
			says: "Pagefind's part is 0.3 GB",
		},
	].map(({ row, column, figure, says }) => ({
		page: BENCHMARKS,
		results: 'build.md',
		says,
		row,
		column,
		figure,
		scale: 0.001,
	})),
	// The mock's start beside its peers, and beside a bare server.
	...["Scalar's mock server", 'Mockoon CLI'].map((peer) => ({
		page: BENCHMARKS,
		results: 'mock-in-start.md',
		says: "against Scalar's mock and Mockoon",
		row: [peer],
		column: 'first 200 (median)',
	})),
	{
		page: BENCHMARKS,
		results: 'mock.md',
		says: 'a bare `node:http` server',
		row: ['bare node:http server'],
		column: 'start (median)',
	},
	{
		page: BENCHMARKS,
		results: 'mock-profile.md',
		says: 'where its start spends its time',
		row: ['zod'],
		column: 'self',
	},
	{
		page: MOCK_AS_A_SERVICE,
		results: 'mock-in-start.md',
		says: "`npm start`'s mock reached its first 200 in 0.65",
		row: ['npm start, after'],
		column: 'over the faster peer (median of rounds)',
		figure: '0.65',
	},
	{
		page: MOCK_AS_A_SERVICE,
		results: 'mock-in-start.md',
		says: '(10.4 before, when it waited for the build',
		row: ['npm start, before'],
		column: 'over the faster peer (median of rounds)',
		figure: '10.4',
	},
	{
		page: MOCK_AS_A_SERVICE,
		results: 'mock.md',
		says: '`npm run mock` reached its first 200 in 2.20 times its time',
		row: ['our mock through npm'],
		column: 'over the bare server (median of rounds)',
		figure: '2.20',
	},
	{
		page: MOCK_AS_A_SERVICE,
		results: 'mock.md',
		says: '(`node mock/cli.ts`: 1.59;',
		row: ['our mock through node'],
		column: 'over the bare server (median of rounds)',
		figure: '1.59',
	},
	{
		page: MOCK_AS_A_SERVICE,
		results: 'mock-profile.md',
		says: "Where a start's time goes",
		row: ['zod'],
		column: 'self',
	},
	// The validating proxy beside a bare forwarding proxy and the console asked directly.
	...[`${GUIDES}/checking-a-console.mdx`, BENCHMARKS].flatMap((page) =>
		['console, directly', 'bare forwarder', 'ours'].map((path) => ({
			page,
			results: 'proxy.md',
			says: page === BENCHMARKS ? 'The validating proxy' : 'beside a bare forwarding proxy',
			row: ['GET with a key', path],
			column: 'requests/s',
		})),
	),
	// The MCP server's calls in a row, against their aim.
	...['search, the 8 words in turn', 'search, each question different', 'list_views'].flatMap(
		(call) =>
			[`${GUIDES}/mcp-server.mdx`, BENCHMARKS].map((page) => ({
				page,
				results: 'mcp.md',
				says: page === BENCHMARKS ? 'The MCP server' : 'against an aim of at most 10 ms a call',
				row: ['this checkout', call],
				column: 'at most 10 ms',
				columnMadeBy: '`at most ${SEARCH_AIM_MS} ms`',
			})),
	),
	// Mutation testing: every module's mutants, and the set's score.
	...[BENCHMARKS, `${GUIDES}/developing.mdx`].map((page) => ({
		page,
		results: 'mutation.md',
		says: page === BENCHMARKS ? 'every mutant' : 'tests every mutant',
		row: ['**the set**'],
		column: 'mutants',
	})),
	...testTimes(BENCHMARKS, 'by project and by file'),
	...testTimes(BENCHMARKS, 'prints its time by project'),
	...testTimes(`${GUIDES}/developing.mdx`, "prints that run's time by stage and its slowest files"),
	// The web image's start with a team's settings: 0.2 s at 8 views, 0.1 s at 10,000.
	...(
		[
			['8', '0.2'],
			['10,000', '0.1'],
		] as const
	).map(([views, figure]) => ({
		page: BENCHMARKS,
		results: 'web-start.md',
		says: 'add 0.1 to 0.2 s to it, at 10,000 views as at 8',
		row: [views],
		column: 'start time added',
		figure,
		scale: 0.001,
	})),
	{
		page: BENCHMARKS,
		results: 'image-store.md',
		says: 'the local Debian base stored (76.8 MB on disk)',
		row: ['before'],
		column: 'store on disk (du)',
		figure: '76.8',
	},
	...['build 1', 'build 2', 'build 3'].flatMap((build) => [
		{
			page: BENCHMARKS,
			results: 'image-store.md',
			says: 'store stays at 212.9 MB from the first build on',
			row: [build],
			column: 'store on disk (du)',
			figure: '212.9',
		},
		{
			page: BENCHMARKS,
			results: 'image-store.md',
			says: 'leaves no untagged image',
			row: [build],
			column: 'untagged',
		},
	]),
	// The commands table: what each benchmark writes.
	...['Unclassified', 'share unclassified'].flatMap((row) =>
		['api-smart-diff as shipped', 'the portal’s rules'].map((column) => ({
			page: BENCHMARKS,
			results: 'contract-changes.md',
			says: 'changes per class, the share left unclassified',
			row: [row],
			column,
		})),
	),
	...[
		'build 3.1',
		'build 3.2',
		'mock start 3.1',
		'mock start 3.2',
		'load average (1 min) before → after',
	].map((column) => ({
		page: BENCHMARKS,
		results: 'contract-versions.md',
		says: 'with the load average of each round',
		row: ['1'],
		column,
	})),
];

/** A table of a results file: the heading above it, its header, its rows, each cell trimmed. */
interface Table {
	heading: string;
	header: string[];
	rows: string[][];
}

/** The cells of one line of a Markdown table. */
function cells(line: string): string[] {
	return line
		.trim()
		.replace(/^\||\|$/g, '')
		.split('|')
		.map((cell) => cell.trim());
}

/** Every table of a Markdown text, with the heading it is under. */
export function tablesOf(text: string): Table[] {
	const tables: Table[] = [];
	let heading = '';
	let current: Table | undefined;
	for (const line of text.split('\n')) {
		if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '');
		if (!line.trimStart().startsWith('|')) {
			current = undefined;
			continue;
		}
		if (!current) {
			current = { heading, header: cells(line), rows: [] };
			tables.push(current);
		} else if (!/^\|?[\s|:-]+\|?$/.test(line.trim())) current.rows.push(cells(line));
	}
	return tables;
}

/** A page's blocks: its paragraphs, list items and table rows, each with its lines joined. */
function blocksOf(text: string): string[] {
	return text.split(/\n\s*\n|\n(?=\s*- |\s*\|)/).map((block) => block.replace(/\s+/g, ' ').trim());
}

/** The first number in a cell (`10.38x`, `212.9 MB`, `1,295 ms`), or undefined. */
function numberIn(cell: string): number | undefined {
	const match = /-?\d[\d,]*(?:\.\d+)?/.exec(cell);
	return match ? Number(match[0].replace(/,/g, '')) : undefined;
}

/**
 * Whether a table's cell is the row label a citation names: the whole cell, its start before a
 * space (`our mock (3b9a2f2)` for `our mock`), or, for a folder (`tests/`), a path in it; so that
 * `overview` is not `overview's twin`.
 */
function cellIs(cell: string, label: string): boolean {
	return (
		cell === label ||
		cell.startsWith(`${label} `) ||
		(label.endsWith('/') && cell.startsWith(label))
	);
}

/** What is wrong with one citation, given its page's text and its results file's text. */
export function citationProblems(citation: Citation, page: string, results: string): string[] {
	const where = `${citation.page} citing ${citation.results}`;
	const blocks = blocksOf(page).filter((block) => block.includes(`${RESULTS}/${citation.results}`));
	if (blocks.length === 0) return [`${where}: the page no longer names the file`];
	const problems: string[] = [];
	if (!blocks.some((block) => block.includes(citation.says))) {
		problems.push(`${where}: no block naming the file says "${citation.says}"`);
	}
	if (citation.figure !== undefined && !citation.says.includes(citation.figure)) {
		problems.push(`${where}: "${citation.says}" does not give the figure ${citation.figure}`);
	}
	const tables = tablesOf(results).filter((table) => table.header.includes(citation.column));
	if (tables.length === 0)
		return [...problems, `${where}: no table has a column "${citation.column}"`];
	const matches = tables.flatMap((table) =>
		table.rows
			.filter((row) => citation.row.every((label) => row.some((cell) => cellIs(cell, label))))
			.map((row) => row[table.header.indexOf(citation.column)] ?? ''),
	);
	if (matches.length === 0) {
		return [
			...problems,
			`${where}: no row ${JSON.stringify(citation.row)} in a table with the column "${citation.column}"`,
		];
	}
	if (citation.figure !== undefined) {
		const decimals = citation.figure.split('.')[1]?.length ?? 0;
		const wanted = Number(citation.figure);
		const found = matches.map((cell) => {
			const value = numberIn(cell);
			return value === undefined
				? undefined
				: Number((value * (citation.scale ?? 1)).toFixed(decimals));
		});
		if (!found.includes(wanted)) {
			problems.push(
				`${where}: row ${JSON.stringify(citation.row)}, column "${citation.column}" holds ${matches.join(', ')}, not ${citation.figure}`,
			);
		}
	}
	return problems;
}

/** README.md and every guide, by path from the repository's root. */
async function citingPages(): Promise<Map<string, string>> {
	const guides = (await readdir(path.join(ROOT, GUIDES))).filter((file) => file.endsWith('.mdx'));
	const pages = ['README.md', ...guides.map((file) => `${GUIDES}/${file}`)];
	return new Map(
		await Promise.all(
			pages.map(
				async (page) => [page, await readFile(path.join(ROOT, page), 'utf8')] as [string, string],
			),
		),
	);
}

const pages = await citingPages();
const results = new Map<string, string>();
for (const file of await readdir(path.join(ROOT, RESULTS))) {
	if (file.endsWith('.md'))
		results.set(file, await readFile(path.join(ROOT, RESULTS, file), 'utf8'));
}

describe('the figures the README and the guides cite from bench/results/', () => {
	it('are each in the table, row and column the page cites, as the page rounds them', () => {
		const problems = CITATIONS.flatMap((citation) =>
			citationProblems(
				citation,
				pages.get(citation.page) ?? '',
				results.get(citation.results) ?? '',
			),
		);
		expect(problems).toEqual([]);
	});

	it('name only results files that exist, each listed here with what the page says of it', () => {
		const named = [...pages].flatMap(([page, text]) =>
			[...text.matchAll(/bench\/results\/([\w.-]+\.md)\b/g)].map(([, file]) => `${page} ${file}`),
		);
		const missing = named.filter((pair) => !results.has(pair.split(' ')[1] ?? ''));
		expect(missing).toEqual([]);
		const listed = new Set(CITATIONS.map(({ page, results: file }) => `${page} ${file}`));
		expect([...new Set(named)].filter((pair) => !listed.has(pair))).toEqual([]);
	});
});

/** Where the benchmarks' code lives: bench/, its lib/, and the mutation run's entry. */
const WRITERS = [
	...(await readdir(path.join(ROOT, 'bench'))).map((file) => `bench/${file}`),
	...(await readdir(path.join(ROOT, 'bench', 'lib'))).map((file) => `bench/lib/${file}`),
	'tests/mutation/run.ts',
].filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'));

const sources = new Map(
	await Promise.all(
		WRITERS.map(
			async (file) => [file, await readFile(path.join(ROOT, file), 'utf8')] as [string, string],
		),
	),
);

/** A script's code with the code of every module of bench/lib it imports, however deep. */
function codeOf(file: string, seen = new Set<string>()): string {
	if (seen.has(file)) return '';
	seen.add(file);
	const text = sources.get(file) ?? '';
	const imported = [...text.matchAll(/from '((?:\.\.?\/)+(?:bench\/)?(?:lib\/)?[\w-]+\.ts)'/g)]
		.map(([, relative]) => path.posix.join(path.posix.dirname(file), relative ?? ''))
		.filter((module) => sources.has(module));
	return [text, ...imported.map((module) => codeOf(module, seen))].join('\n');
}

/** The scripts that write a results file: through writeResult by its name, or by its file name. */
export function writersOf(results: string, code: ReadonlyMap<string, string>): string[] {
	const name = results.replace(/\.md$/, '');
	return [...code]
		.filter(
			([, text]) =>
				new RegExp(`writeResult\\(\\{\\s*name: '${name}'`).test(text) ||
				text.includes(`${name}.md'`) ||
				text.includes(`/${name}.md\``),
		)
		.map(([file]) => file);
}

/** Whether a benchmark's code (its script and the modules it imports) writes a cited column. */
export function writesColumn(citation: Citation, code: string): boolean {
	const header = citation.columnMadeBy ?? citation.column;
	return (
		code.includes(citation.columnMadeBy ?? `'${header}'`) ||
		code.includes(`| ${header} |`) ||
		code.includes(`\`${header}\``)
	);
}

describe('the tables the README and the guides cite', () => {
	const cited = [...new Set(CITATIONS.map(({ results: file }) => file))];

	it('are each written by a benchmark, which rewrites them when it runs', () => {
		const unwritten = cited.filter((file) => writersOf(file, sources).length === 0);
		expect(unwritten).toEqual([]);
	});

	it('have the columns the pages cite in the code of the benchmark that writes them', () => {
		const problems = CITATIONS.flatMap((citation) => {
			const code = writersOf(citation.results, sources)
				.map((file) => codeOf(file))
				.join('\n');
			return writesColumn(citation, code)
				? []
				: [`${citation.results}: its benchmark no longer writes the column "${citation.column}"`];
		});
		expect([...new Set(problems)]).toEqual([]);
	});

	it('are found unwritten when no benchmark writes them, a hand-made results file', () => {
		const without = new Map([...sources].filter(([file]) => file !== 'bench/mock-profile.ts'));
		expect(writersOf('mock-profile.md', sources)).toEqual(['bench/mock-profile.ts']);
		expect(writersOf('mock-profile.md', without)).toEqual([]);
		expect(writersOf('build.md', sources)).toEqual(['bench/lib/build-measure.ts']);
	});

	it('are found without a cited column when the benchmark’s code renames it', () => {
		const proxy = CITATIONS.find(({ results: file }) => file === 'proxy.md');
		if (!proxy) throw new Error('no citation of the proxy');
		const code = codeOf('bench/proxy.ts');
		expect(writesColumn(proxy, code)).toBe(true);
		expect(writesColumn(proxy, code.replaceAll("'requests/s'", "'req/s'"))).toBe(false);
	});
});

describe('a citation that no longer holds', () => {
	const [citation] = pagesAtScale(BENCHMARKS);
	if (!citation) throw new Error('no citation of the build');
	const page = pages.get(BENCHMARKS) ?? '';
	const build = results.get('build.md') ?? '';

	it('is found when the benchmark renames the column the page cites', () => {
		const renamed = build.replaceAll('| 1,000 views', '| 1000 views');
		expect(citationProblems(citation, page, build)).toEqual([]);
		expect(citationProblems(citation, page, renamed)).toEqual([
			`${BENCHMARKS} citing build.md: no table has a column "1,000 views"`,
		]);
	});

	it('is found when the benchmark drops the row the page cites', () => {
		const dropped = build
			.split('\n')
			.filter((line) => !line.startsWith('| overview '))
			.join('\n');
		expect(citationProblems(citation, page, dropped)).toEqual([
			`${BENCHMARKS} citing build.md: no row ["overview"] in a table with the column "1,000 views"`,
		]);
	});

	it('is found when the page gives a figure its cell does not hold', () => {
		const image = results.get('image-store.md') ?? '';
		const store = CITATIONS.find(({ figure }) => figure === '76.8');
		if (!store) throw new Error('no citation of the image store');
		expect(citationProblems(store, page, image)).toEqual([]);
		expect(citationProblems(store, page, image.replace('| 76.8 MB ', '| 80.1 MB '))).toEqual([
			`${BENCHMARKS} citing image-store.md: row ["before"], column "store on disk (du)" holds 80.1 MB, not 76.8`,
		]);
	});

	it('is found when the page no longer says what it cited', () => {
		const reworded = page.replace(/is the\s+size it is at 1,000/, 'is about as big as at 1,000');
		expect(citationProblems(citation, reworded, build)).toEqual([
			`${BENCHMARKS} citing build.md: no block naming the file says "${citation.says}"`,
		]);
	});
});
