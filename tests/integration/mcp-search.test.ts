/**
 * The MCP server's `search` finds the pages the built site's search dialog finds. For each query
 * and filters, the built portal's own Pagefind index (`dist/pagefind`, its `pagefind.js` run in
 * this process as the dialog runs it in a page) and the server's `search` tool, spawned over
 * stdio with the settings the build was made with, must return the same page addresses. They are
 * compared as sets: both run Pagefind, but the server's records are plain text without the pages'
 * `data-pagefind-weight`, so the order of equal matches may differ. The built site's answer to
 * each query is checked to hold fewer pages than the tool returns at most, so the tool's answer is
 * the whole set.
 *
 * Left out, because the server cannot make the same text without rendering the guides with Astro:
 * words that only an Astro component inside a guide writes out. The server reads a guide's MDX and
 * writes such a component as "(shown on the page …)" (mcp/guide-text.ts), so:
 * "Production", "Edge" and "dr-eu-west" find /docs/versioning/ on the site only (its
 * ViewLabelsTable lists every view's labels), "Bearer" finds /docs/getting-started/ on the site
 * only (its MockSamples' code), "admin" and "breaking" find /docs/adding-a-view/ on the site only
 * (its FixtureErrorExample), and "Hosts" finds /docs/authentication/ on the site only (its
 * CodeBlock). The queries below avoid those words.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { pagefindFilters } from '../../src/shared/search.ts';
import { loadIndex, type PagefindIndex } from '../../mcp/pagefind.ts';
import { indexFiles } from '../support/pagefind-files.ts';
import { SEARCH_LIMIT, type SearchFilters } from '../../mcp/search-query.ts';
import { BUILT_AT_EPOCH } from '../global-setup.ts';
import { bin, childEnv, ROOT } from '../../support/processes.ts';

/** The queries compared: what a reader types, and the dialog's filters chosen with it. */
const QUERIES: readonly { what: string; query: string; filters?: SearchFilters }[] = [
	{ what: "a person's name", query: 'Okafor' },
	{ what: "another person's name, on one view only", query: 'Lindqvist' },
	{ what: 'an environment filter alone', query: '', filters: { environment: 'dr-eu-west' } },
	{
		what: 'an environment filter with a role word',
		query: 'operator',
		filters: { environment: 'production' },
	},
	{ what: 'a role filter alone', query: '', filters: { role: 'admin' } },
	{
		what: 'a role and an environment, as one access filter',
		query: '',
		filters: { environment: 'production', role: 'admin' },
	},
	{ what: 'a guide word', query: 'fixture', filters: { kind: 'guide' } },
	{ what: 'a guide word on any page', query: 'versioning' },
	{ what: 'a reference word', query: 'WWW-Authenticate' },
	{ what: 'a reference word from an example', query: 'Origin' },
	{ what: 'the reference pages, by kind', query: '', filters: { kind: 'reference' } },
	{ what: 'a word of the contract changes', query: 'HostNotAllowed' },
	{ what: "a word of the changelog's own prose", query: 'api-smart-diff' },
	{ what: 'a view label as a word', query: 'Edge', filters: { kind: 'view' } },
	{ what: 'an API label as a word', query: 'v5.8' },
	{ what: 'a configuration label filter', query: '', filters: { configuration: 'Edge' } },
	{ what: 'an API label filter', query: '', filters: { api: 'v5.8' } },
	{ what: "a word of a view's hosts line", query: 'database' },
	{ what: "a word of a view's status note", query: 'revenue' },
	{ what: "a word of a person page's summary", query: 'differs' },
];

let built: PagefindIndex;
let client: Client;
let transport: StdioClientTransport;

beforeAll(async () => {
	built = await loadIndex(await indexFiles(path.join(inject('distDir'), 'pagefind')));
	transport = new StdioClientTransport({
		command: bin('node'),
		args: ['mcp/cli.ts'],
		cwd: ROOT,
		// The settings the build was made with: the guides write the mock's address out.
		env: childEnv({
			MOCK_PORT: String(inject('mockPort')),
			PORTAL_PORT: String(inject('portalPort')),
			SOURCE_DATE_EPOCH: String(BUILT_AT_EPOCH),
		}) as Record<string, string>,
		stderr: 'ignore',
	});
	client = new Client({ name: 'console-portal-search-test', version: '1.0.0' });
	await client.connect(transport);
}, 120_000);

afterAll(async () => {
	const pid = transport?.pid;
	await client?.close().catch(() => undefined);
	if (pid) {
		try {
			process.kill(pid, 'SIGTERM');
		} catch {
			// Closing the client already ended it.
		}
	}
	await built?.destroy();
});

describe('the MCP search tool and the built site’s search dialog', () => {
	it.each(QUERIES)(
		'find the same pages for $what ($query)',
		async ({ query, filters = {} }) => {
			const choices = Object.fromEntries(
				Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
			);
			const site = await built.search(query || null, pagefindFilters(choices));
			const sitePages = (await site.hits(site.total)).map((hit) => hit.url);
			expect(sitePages.length, 'the site finds something').toBeGreaterThan(0);
			expect(sitePages.length, 'fewer pages than the tool returns at most').toBeLessThan(
				SEARCH_LIMIT,
			);

			const result = await client.callTool({ name: 'search', arguments: { query, ...filters } });
			expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
			const found = (result.structuredContent as { results: { href: string }[] }).results;
			expect(new Set(found.map((page) => page.href))).toEqual(new Set(sitePages));
			expect(found).toHaveLength(sitePages.length);
		},
		120_000,
	);
});
