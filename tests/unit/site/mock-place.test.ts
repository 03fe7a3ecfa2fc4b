/**
 * Every place that names the mock follows PORTAL_MOCK_URL, from one place: the address samples and
 * published files write, try-it's first server, the pages' connect-src, the published contract's
 * servers, the samples in every language, a view's Markdown twin and llms.txt. Each row is a build's
 * settings as a team writes them, and what a reader of that build meets, written out by hand.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeSamples, usersSampleRequest } from '../../../src/site/code-samples.ts';
import { viewMarkdown } from '../../../src/site/markdown/view.ts';
import { llmsTxt } from '../../../src/site/markdown/llms-txt.ts';
import { mockWords } from '../../../src/site/mock-place.ts';
import { publicView } from '../../../src/site/public-view.ts';
import { composeContract, parseContract } from '../../../src/sources/contract.ts';
import { loadViews } from '../../../src/sources/fixtures.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import {
	mockConnectSources,
	mockIsLocal,
	shownMockUrl,
	tryItMockUrl,
	type MockPlace,
} from '../../../src/shared/urls.ts';
import { readFile } from 'node:fs/promises';
import { ROOT } from '../../../support/processes.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));
const contract = parseContract(
	await readFile(path.join(ROOT, 'openapi.yaml'), 'utf8'),
	'openapi.yaml',
);
const production = views.find(({ slug }) => slug === 'production');

/** The place a build's settings give, read as the build reads them. */
function placeOf(env: Record<string, string>): MockPlace {
	const { mockUrl, portalUrl, mockPort } = readSettings(env);
	return { mockUrl, portalUrl, mockPort };
}

interface Row {
	name: string;
	env: Record<string, string>;
	/** The mock's address as every sample and published file writes it. */
	shown: string;
	/** What try-it starts from before its script resolves a path. */
	tryIt: string;
	/** The pages' connect-src. */
	connect: string[];
	/** The published contract's servers' addresses, in order. */
	servers: string[];
	local: boolean;
}

const ROWS: Row[] = [
	{
		name: 'nothing set: the reader’s own local mock, as npm start serves it',
		env: {},
		shown: 'http://127.0.0.1:4010',
		tryIt: 'http://127.0.0.1:4010',
		connect: ["'self'", 'http://127.0.0.1:4010', 'http://localhost:4010'],
		servers: ['http://127.0.0.1:4010'],
		local: true,
	},
	{
		name: 'another MOCK_PORT: the local mock there',
		env: { MOCK_PORT: '5123' },
		shown: 'http://127.0.0.1:5123',
		tryIt: 'http://127.0.0.1:5123',
		connect: ["'self'", 'http://127.0.0.1:5123', 'http://localhost:5123'],
		servers: ['http://127.0.0.1:5123'],
		local: true,
	},
	{
		name: 'two names: the team’s mock on its own name',
		env: { PORTAL_MOCK_URL: 'https://mock.intranet.example/' },
		shown: 'https://mock.intranet.example',
		tryIt: 'https://mock.intranet.example',
		connect: [
			"'self'",
			'https://mock.intranet.example',
			'http://127.0.0.1:4010',
			'http://localhost:4010',
		],
		servers: ['https://mock.intranet.example', 'http://127.0.0.1:4010'],
		local: false,
	},
	{
		name: 'same origin: the portal’s own origin, resolved on PORTAL_URL where written out',
		env: { PORTAL_MOCK_URL: '/', PORTAL_URL: 'https://portal.intranet.example' },
		shown: 'https://portal.intranet.example',
		tryIt: '/',
		connect: ["'self'", 'http://127.0.0.1:4010', 'http://localhost:4010'],
		servers: ['https://portal.intranet.example', 'http://127.0.0.1:4010'],
		local: false,
	},
	{
		name: 'same origin under a path',
		env: { PORTAL_MOCK_URL: '/console-mock/', PORTAL_URL: 'http://portal.intranet.example:8080' },
		shown: 'http://portal.intranet.example:8080/console-mock',
		tryIt: '/console-mock',
		connect: ["'self'", 'http://127.0.0.1:4010', 'http://localhost:4010'],
		servers: ['http://portal.intranet.example:8080/console-mock', 'http://127.0.0.1:4010'],
		local: false,
	},
];

describe.each(ROWS)('$name', (row) => {
	const place = placeOf(row.env);

	it('writes the mock’s address out, starts try-it there, and says whose mock it is', () => {
		expect(shownMockUrl(place)).toBe(row.shown);
		expect(tryItMockUrl(place)).toBe(row.tryIt);
		expect(mockIsLocal(place)).toBe(row.local);
		expect(mockWords(place)).toMatchObject({ url: row.shown, local: row.local });
	});

	it('lets the pages connect to their own origin, the readers’ mock and a reader’s local mock only', () => {
		expect(mockConnectSources(place)).toEqual(row.connect);
	});

	it('publishes the readers’ mock as the contract’s first server, and a developer’s own after it', () => {
		const composed = composeContract(contract, views, {
			mockOrigin: shownMockUrl(place),
			localMock: mockWords(place).localUrl,
			file: 'openapi.yaml',
		});
		const servers = composed['servers'] as { url: string; description: string }[];
		expect(servers.map(({ url }) => url)).toEqual(row.servers);
		expect(servers.at(-1)?.description).toMatch(/^The local mock, started with `npm run mock`/);
		if (!row.local) {
			expect(servers[0]?.description).toBe(
				"The mock this portal calls, shared by its readers: every view's keys get its users, as on the local mock.",
			);
		}
	});

	it('calls the mock in all eight languages’ samples', () => {
		const samples = codeSamples(usersSampleRequest(shownMockUrl(place)));
		expect(samples.map(({ label }) => label)).toHaveLength(8);
		for (const sample of samples) {
			expect(sample.code, sample.label).toContain(`${row.shown}/api/v2/users`);
			if (!row.local) expect(sample.code, sample.label).not.toContain('127.0.0.1');
		}
	});

	it('names it in a view’s Markdown twin and in llms.txt', () => {
		const words = mockWords(place);
		const twin = viewMarkdown(publicView(production!), { environmentPage: 1, mock: words });
		expect(twin).toContain(`at \`${row.shown}\``);
		const llms = llmsTxt({
			guides: [],
			reference: { title: 'Console API', version: '2.0.0' },
			environments: [],
			mock: words,
			reviews: [],
		});
		expect(llms).toContain(`answers on \`${row.shown}\``);
		if (!row.local) {
			expect(twin).not.toContain('127.0.0.1');
			expect(llms).toContain('`npm run mock` runs the same mock on `http://127.0.0.1:4010`');
		}
	});
});
