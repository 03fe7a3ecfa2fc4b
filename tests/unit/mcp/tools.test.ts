/** The MCP server's tools as an assistant uses them: what each answers, and the line a bad input gets. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadViews, type ViewEntry } from '../../../src/sources/fixtures.ts';
import { readSettings } from '../../../src/sources/settings.ts';
import { callMock, REDACTED } from '../../../mcp/call-mock.ts';
import { checkAnswer } from '../../../mcp/check-answer.ts';
import { createPortalReader, ToolInputError, type PortalSnapshot } from '../../../mcp/portal.ts';
import { indexRecords, loadIndex } from '../../../mcp/pagefind.ts';
import { searchRecords } from '../../../mcp/search.ts';
import { searchPortal, type SearchFilters } from '../../../mcp/search-query.ts';
import { listViews, whoHolds } from '../../../mcp/directory.ts';
import { accessChanges, readPage } from '../../../mcp/pages.ts';
import { viewMarkdown } from '../../../src/site/markdown/view.ts';
import { publicView } from '../../../src/site/public-view.ts';
import type { View } from '../../../src/schemas/view.ts';
import { createRepo } from '../../../support/git-repo.ts';
import { ROOT } from '../../../support/processes.ts';
import { makeHistoryRepo, type HistoryRepo } from '../../support/history-repo.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));
const settings = readSettings({
	...process.env,
	PORTAL_VIEWS_DIR: path.join(ROOT, 'content/views'),
});
const portal: PortalSnapshot = await createPortalReader(settings).snapshot();

/** A fixture by slug. */
function fixture(slug: string): ViewEntry {
	const entry = views.find((view) => view.slug === slug);
	if (!entry) throw new Error(`expected the ${slug} fixture`);
	return entry;
}

/** The message a call fails with: a ToolInputError of one line. */
function failure(call: () => unknown): string {
	try {
		call();
	} catch (error) {
		expect(error).toBeInstanceOf(ToolInputError);
		const message = (error as Error).message;
		expect(message).not.toContain('\n');
		return message;
	}
	throw new Error('expected the call to fail');
}

describe('who_holds', () => {
	it('names exactly the production admins of the fixtures, one row per view', () => {
		const expected = views
			.filter(({ view }) => view.environment === 'production')
			.flatMap(({ slug, view }) =>
				view.users.filter((user) => user.role === 'admin').map((user) => `${slug} ${user.email}`),
			)
			.sort();
		const rows = whoHolds(portal, { role: 'admin', environment: 'production' });
		expect(rows.map((row) => `${row.slug} ${row.email}`).sort()).toEqual(expected);
		expect(expected.length).toBeGreaterThan(0);
	});

	it('gives every role one person holds across views, their email matched in any case', () => {
		const email = fixture('production').view.users[0]!.email;
		const expected = views.flatMap(({ slug, view }) =>
			view.users
				.filter((user) => user.email.toLowerCase() === email.toLowerCase())
				.map((user) => `${slug} ${user.role}`),
		);
		const rows = whoHolds(portal, { email: email.toUpperCase() });
		expect(rows.map((row) => `${row.slug} ${row.role}`).sort()).toEqual(expected.sort());
	});

	it('says in one line which role, environment or person it does not know', () => {
		expect(failure(() => whoHolds(portal, { role: 'boss' }))).toMatch(
			/^role "boss": expected one of admin, deployer, operator, viewer$/,
		);
		expect(failure(() => whoHolds(portal, { role: 'admin', environment: 'moon' }))).toMatch(
			/^environment "moon": no view is in it; expected one of .*production/,
		);
		expect(failure(() => whoHolds(portal, { email: 'nobody@example.com' }))).toMatch(
			/^email "nobody@example.com"/,
		);
		expect(failure(() => whoHolds(portal, {}))).toMatch(/^role or email/);
	});
});

describe('list_views', () => {
	it("lists one environment's views with their labels and last-updated times", () => {
		const listed = listViews(portal, 'production');
		const expected = views.filter(({ view }) => view.environment === 'production');
		expect(listed.map((view) => view.slug).sort()).toEqual(expected.map(({ slug }) => slug).sort());
		for (const row of listed) {
			const { view } = fixture(row.slug);
			expect(row).toMatchObject({
				lastUpdated: view.lastUpdated,
				configuration: view.configuration ?? null,
				apiVersion: view.apiVersion ?? null,
				href: `/views/${row.slug}/`,
			});
		}
		expect(listViews(portal)).toHaveLength(views.length);
		expect(failure(() => listViews(portal, 'moon'))).toMatch(/^environment "moon"/);
	});
});

describe('read_page, the lists and access pages', () => {
	it('reads an environment’s views, who has access there, who holds a role, and the guides', () => {
		const production = views.filter(({ view }) => view.environment === 'production');
		const list = readPage(portal, '/environments/production/');
		for (const { slug } of production) expect(list, slug).toContain(`/views/${slug}.md`);
		const admins = production.flatMap(({ view }) =>
			view.users.filter((user) => user.role === 'admin').map((user) => user.name),
		);
		const role = readPage(portal, '/access/environments/production/admin.md');
		expect(role).toMatch(/^# Who is admin in production\n/);
		for (const name of admins) expect(role, name).toContain(name);
		expect(readPage(portal, '/access/roles/admin/')).toMatch(/^# Who is admin, by environment\n/);
		expect(readPage(portal, '/access/environments/production/')).toMatch(
			/^# Who has access in production\n/,
		);
		const guides = readPage(portal, '/docs/');
		for (const guide of portal.guides) expect(guides, guide.id).toContain(guide.title);
	});

	it('names where to look instead for a page made from the history, and a wrong environment or role', () => {
		expect(failure(() => readPage(portal, '/access/changes/'))).toMatch(
			/^address "\/access\/changes\/": its twin is made from the git history .*; the access_changes tool lists these changes/,
		);
		expect(failure(() => readPage(portal, '/views/production/history/'))).toMatch(/access_changes/);
		expect(failure(() => readPage(portal, '/environments/moon/'))).toMatch(
			/^address "\/environments\/moon\/": no view is in the environment "moon"; expected one of /,
		);
		expect(failure(() => readPage(portal, '/access/roles/root/'))).toMatch(
			/^role "root": expected one of admin/,
		);
	});
});

describe('read_page, an access list of more than one page', () => {
	// 150 admins of production, each a person of their own, as a large organisation has: the
	// lists of admins then run over two pages of 100, as the portal's pages do.
	const admin = portal.people.find((person) =>
		person.memberships.some((m) => m.environment === 'production' && m.role === 'admin'),
	);
	if (!admin) throw new Error('expected a production admin among the fixtures');
	const many = Array.from({ length: 150 }, (_, index) => {
		const n = String(index + 1).padStart(3, '0');
		return {
			...admin,
			key: `admin-${n}@example.com`,
			slug: `admin-${n}`,
			name: `Admin Number ${n}`,
			email: `admin-${n}@example.com`,
			memberships: admin.memberships.filter(
				(m) => m.environment === 'production' && m.role === 'admin',
			),
		};
	});
	const large: PortalSnapshot = { ...portal, people: many };

	it('gives the second page of a role, an environment, and a role in an environment, as their twins are paged', () => {
		for (const address of [
			'/access/roles/admin/2/',
			'/access/environments/production/2/',
			'/access/environments/production/admin/2/',
			'/access/environments/production/admin/2.md',
		]) {
			const page = readPage(large, address);
			expect(page, address).toMatch(
				/^# Who (is admin|has access in production)[^\n]*, page 2 of 2\n/,
			);
			expect(page, address).toContain('Admin Number 101');
			expect(page, address).toContain('Admin Number 150');
			expect(page, address).not.toContain('Admin Number 100');
		}
		const first = readPage(large, '/access/roles/admin/');
		expect(first).toMatch(/, page 1 of 2\n/);
		expect(first).toContain('Admin Number 100');
		expect(first).not.toContain('Admin Number 101');
	});

	it('names a page the list does not have, and its last page', () => {
		expect(failure(() => readPage(large, '/access/roles/admin/3/'))).toBe(
			'address "/access/roles/admin/3/": the list has no page 3; expected a page from 1 to 2',
		);
		expect(failure(() => readPage(portal, '/access/environments/production/2/'))).toBe(
			'address "/access/environments/production/2/": the list has no page 2; expected a page from 1 to 1',
		);
	});
});

describe('read_page', () => {
	it("gives a view page's Markdown twin, by its page, its .md or its full address", () => {
		const twin = readPage(portal, '/views/production/');
		expect(twin).toBe(
			viewMarkdown(publicView(fixture('production')), { environmentPage: 1, mock: portal.mock }),
		);
		expect(readPage(portal, '/views/production.md')).toBe(twin);
		expect(readPage(portal, 'http://127.0.0.1:4321/views/production/#config-heading')).toBe(twin);
		expect(twin).toContain('/views/production/#config-heading');
	});

	it('reads the overview, a person, the reference, a guide and llms.txt', () => {
		expect(readPage(portal, '/')).toMatch(/^# /);
		const person = portal.people[0]!;
		expect(readPage(portal, `/people/${person.slug}/`)).toContain(person.email);
		expect(readPage(portal, '/reference/')).toContain('/api/v2/users');
		// As the build's twin says it, for the project's 3.2 contract, which has a 3.1 equivalent.
		expect(readPage(portal, '/reference/')).toContain('`npx prism mock openapi-3.1.json`');
		expect(readPage(portal, '/docs/mock-server/')).toMatch(/^# The mock server/);
		expect(readPage(portal, '/llms.txt')).toMatch(/^# Console Portal/);
	});

	it('says which page it does not know', () => {
		expect(failure(() => readPage(portal, '/views/nope/'))).toMatch(/^view "nope": no such view/);
		expect(failure(() => readPage(portal, '/compare/'))).toMatch(
			/^address "\/compare\/": expected one of/,
		);
	});

	it('reads no address of another origin, not even as the home page', () => {
		for (const address of [
			'http://198.51.100.7/',
			'http://198.51.100.7/views/production/',
			'https://127.0.0.1:4321/',
			'http://127.0.0.1:4322/',
			'//portal.example/',
			'\\\\portal.example\\',
			'file:///etc/passwd',
			'javascript:alert(1)',
			'http://[::1',
		]) {
			expect(
				failure(() => readPage(portal, address)),
				address,
			).toMatch(
				/^address ".*": not the portal's; read_page reads the portal's pages, by their path \(\/views\/<slug>\/\) or on its origin \(http:\/\/127\.0\.0\.1:4321, http:\/\/localhost:4321\)$/,
			);
		}
		expect(readPage(portal, 'HTTP://LOCALHOST:4321/')).toBe(readPage(portal, '/'));
		expect(readPage(portal, 'views/production/')).toBe(readPage(portal, '/views/production/'));
	});
});

describe('search, with Pagefind as the dialog runs it', () => {
	const index = indexRecords(searchRecords(portal)).then(loadIndex);
	const search = async (query: string, filters: SearchFilters = {}) =>
		searchPortal(await index, query, filters);

	it('finds a person by name, with their page and an excerpt marking the match', async () => {
		const person = portal.people.find((candidate) => candidate.name.includes(' '))!;
		const first = person.name.split(' ')[0]!;
		const results = await search(first.toLowerCase());
		const hit = results.find((result) => result.href === `/people/${person.slug}/`);
		expect(hit?.kind).toBe('person');
		expect(hit?.title).toBe(person.name);
		expect(hit?.excerpt).toContain(`**${first}**`);
	});

	it('an environment and a role together find who holds that role there, as the dialog does', async () => {
		const results = await search('', { kind: 'person', environment: 'production', role: 'admin' });
		const admins = new Set(
			whoHolds(portal, { role: 'admin', environment: 'production' }).map((row) => row.person),
		);
		expect(new Set(results.map((result) => result.href))).toEqual(admins);
	});

	it('filters views by configuration and API label', async () => {
		const { view } = fixture('production');
		const results = await search('', { kind: 'view', api: view.apiVersion });
		const expected = views.filter((entry) => entry.view.apiVersion === view.apiVersion);
		expect(results.map((result) => result.href).sort()).toEqual(
			expected.map(({ slug }) => `/views/${slug}/`).sort(),
		);
		const edge = await search('production', { kind: 'view', configuration: 'Edge' });
		expect(edge.length).toBeGreaterThan(0);
		expect(edge.every((result) => result.labels.includes('Edge'))).toBe(true);
	});

	it('refuses filters no page carries together with the dialog’s own line', async () => {
		await expect(search('x', { kind: 'guide', role: 'admin' })).rejects.toThrow(
			'filters: Role does not apply to guide pages; it is on person and access pages.',
		);
		await expect(search('  ')).rejects.toThrow(/^query: expected words to find/);
	});

	it('finds guides and the reference; never a key', async () => {
		expect((await search('prefer', { kind: 'guide' })).length).toBeGreaterThan(0);
		expect((await search('users', { kind: 'reference' }))[0]?.href).toBe('/reference/');
		const key = fixture('production').view.users[0]!.apiKey;
		// Pagefind finds pages by a key's parts (its prefix), but no page holds the key.
		expect(JSON.stringify(await search(key))).not.toContain(key);
	});
});

describe('check_answer', () => {
	const example = portal.reference.operations[0]!.responses.find((r) => r.status === '200')!
		.bodies[0]!.examples[0]!.value;

	it("passes a view's own 200 answer and names each violation by its JSON path", () => {
		const good = checkAnswer(portal.reference, {
			status: 200,
			headers: { 'Content-Type': 'application/json' },
			body: JSON.stringify(example),
		});
		expect(good).toMatchObject({ conforms: true, verdict: 'matches' });
		const bad = structuredClone(example) as { users: { role: string }[] };
		bad.users[3]!.role = 'boss';
		const broken = checkAnswer(portal.reference, {
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(bad),
		});
		expect(broken.conforms).toBe(false);
		expect(broken.violations).toEqual([
			'/users/3/role: must be one of admin, deployer, operator, viewer',
		]);
	});

	it('names a header the contract requires for the status', () => {
		const check = checkAnswer(portal.reference, {
			status: 401,
			headers: { 'content-type': 'application/problem+json' },
			body: '{"type":"about:blank","title":"Unauthorized","status":401,"detail":"no key"}',
		});
		expect(check.violations).toEqual([
			"WWW-Authenticate: is required on the contract's 401 answer but missing",
		]);
		expect(check.conforms).toBe(false);
	});

	it('says a body that is not JSON breaks the contract, as the proxy says, and a status out of range is bad input', () => {
		const garbled = checkAnswer(portal.reference, {
			status: 200,
			headers: { 'content-type': 'application/json' },
			body: '{users',
		});
		expect(garbled).toMatchObject({
			conforms: false,
			verdict: 'breaks',
			headline:
				"The body is not JSON, so it cannot match the contract's 200 application/json schema.",
		});
		expect(failure(() => checkAnswer(portal.reference, { status: 42 }))).toMatch(/^status 42/);
	});
});

describe('call_mock', () => {
	const entry = fixture('production');
	const user = entry.view.users[2]!;
	const mocks = { portal: ['http://127.0.0.1:5999', 'http://127.0.0.1:1'], listed: [] };

	it("sends the person's key to the mock and never returns it, even when the mock echoes it", async () => {
		let sent: Headers | undefined;
		let url = '';
		const echo: typeof fetch = (input, init) => {
			url = input instanceof URL ? input.href : typeof input === 'string' ? input : input.url;
			sent = new Headers(init?.headers);
			const secret = `${user.apiKey} ${entry.view.config.jwt_secret}`;
			return Promise.resolve(
				new Response(JSON.stringify({ echoed: secret }), {
					status: 200,
					headers: { 'content-type': 'application/json', 'x-echo': secret },
				}),
			);
		};
		const answer = await callMock(
			views,
			{
				slug: 'production',
				email: user.email,
				method: 'GET',
				baseUrl: 'http://127.0.0.1:5999',
				prefer: 'code=200',
			},
			mocks,
			echo,
		);
		expect(url).toBe('http://127.0.0.1:5999/api/v2/users');
		expect(sent?.get('authorization')).toBe(`Bearer ${user.apiKey}`);
		expect(sent?.get('prefer')).toBe('code=200');
		const text = JSON.stringify(answer);
		expect(text).not.toContain(user.apiKey);
		expect(text).not.toContain(entry.view.config.jwt_secret);
		expect(answer.body).toContain(REDACTED);
		expect(answer.as).toContain(user.name);
	});

	it('says in one line which view, person or mock it cannot use', async () => {
		const call = {
			slug: 'production',
			email: user.email,
			method: 'GET' as const,
			baseUrl: 'http://127.0.0.1:1',
		};
		await expect(callMock(views, { ...call, slug: 'nope' }, mocks)).rejects.toThrow(
			/^slug "nope": no such view/,
		);
		await expect(callMock(views, { ...call, email: 'x@example.com' }, mocks)).rejects.toThrow(
			/^email "x@example.com": not in the directory of production/,
		);
		await expect(callMock(views, { ...call, baseUrl: 'ftp://x' }, mocks)).rejects.toThrow(
			/^baseUrl "ftp:\/\/x"/,
		);
		await expect(callMock(views, call, mocks)).rejects.toThrow(
			/^baseUrl "http:\/\/127.0.0.1:1": no mock answered at http:\/\/127.0.0.1:1 \(.*\); start one with npm run mock$/,
		);
	});
});

describe('access_changes, from a scripted history', () => {
	let folder: string;
	let history: HistoryRepo;
	let read: () => ReturnType<ReturnType<typeof createPortalReader>['accessHistory']>;

	beforeAll(async () => {
		folder = await mkdtemp(path.join(os.tmpdir(), 'mcp-history-'));
		history = await makeHistoryRepo(folder);
		const reader = createPortalReader(
			readSettings({ ...process.env, PORTAL_VIEWS_DIR: history.views }),
		);
		read = () => reader.accessHistory();
	}, 60_000);

	afterAll(async () => {
		await rm(folder, { recursive: true, force: true });
	});

	it('lists the role changes, newest first, with the commit that made each', async () => {
		const { rows, total } = accessChanges(await read(), { kind: 'role changed' });
		expect(total).toBe(2);
		expect(rows.map((row) => `${row.email} ${row.from}→${row.to} ${row.author}`).sort()).toEqual(
			[
				`${history.production.users[1]!.email} ${history.production.users[1]!.role}→admin Cy Castillo`,
				`${history.production.users[4]!.email} ${history.production.users[4]!.role}→deployer Cy Castillo`,
			].sort(),
		);
	});

	it('filters by tag, date, role, environment and person', async () => {
		const all = await read();
		const sinceTag = accessChanges(all, { since: 'v1.0' });
		expect(sinceTag.rows.every((row) => row.date > '2026-10-03T09:00:00.000Z')).toBe(true);
		expect(sinceTag.rows.map((row) => row.kind)).toContain('key rotated');
		expect(sinceTag.rows.map((row) => row.kind)).not.toContain('role changed');
		const sinceDay = accessChanges(all, { since: '2026-10-06' }).rows;
		expect(sinceDay.map((row) => `${row.author} ${row.kind} ${row.email}`).sort()).toEqual(
			[
				'Fay Fontaine granted sam.okoye@example.com',
				'Fay Fontaine revoked rosa.jimenez@example.com',
				...history.staging.users.map((user) => `Gus Gallo granted ${user.email}`),
			].sort(),
		);
		expect(
			accessChanges(all, { role: 'admin', environment: 'production' }).rows.length,
		).toBeGreaterThan(0);
		expect(
			accessChanges(all, { email: 'rosa.jimenez@example.com' })
				.rows.map((row) => row.kind)
				.sort(),
		).toEqual(['granted', 'revoked']);
		expect(accessChanges(all, { environment: 'moon' }).total).toBe(0);
	});

	it('says what a date or a tag must look like, and which tags there are', async () => {
		const all = await read();
		expect(failure(() => accessChanges(all, { since: 'last week' }))).toBe(
			'since "last week": expected a date (YYYY-MM-DD or ISO 8601) or a tag (v2.0, v1.0)',
		);
		expect(failure(() => accessChanges(all, { kind: 'stolen' }))).toMatch(
			/^kind "stolen": expected one of granted/,
		);
	});
});

describe('access_changes since a tag, when commit dates disagree with the history', () => {
	let folder: string;
	let swapped: string[];
	let read: () => ReturnType<ReturnType<typeof createPortalReader>['accessHistory']>;

	beforeAll(async () => {
		folder = await mkdtemp(path.join(os.tmpdir(), 'mcp-backdated-'));
		const repo = await createRepo(folder);
		const file = path.join(folder, 'content', 'views', 'production.json');
		await mkdir(path.dirname(file), { recursive: true });
		const view = JSON.parse(
			await readFile(path.join(ROOT, 'content/views/production.json'), 'utf8'),
		) as View;
		await writeFile(file, `${JSON.stringify(view, null, 2)}\n`);
		repo.commit('Add the production view', {
			author: 'Ada Lovelace',
			date: '2026-10-05T09:00:00Z',
		});
		repo.tag('v1.0');
		// Made after the tag, but dated four days before it (a rebased or cherry-picked commit):
		// two people of different roles swap them.
		const [one, two] = [
			view.users[0]!,
			view.users.find((user) => user.role !== view.users[0]!.role)!,
		];
		[one.role, two.role] = [two.role, one.role];
		await writeFile(file, `${JSON.stringify(view, null, 2)}\n`);
		repo.commit('Swap two roles', { author: 'Bo Berg', date: '2026-10-01T09:00:00Z' });
		swapped = [one.email, two.email].sort();
		const reader = createPortalReader(
			readSettings({ ...process.env, PORTAL_VIEWS_DIR: path.dirname(file) }),
		);
		read = () => reader.accessHistory();
	}, 60_000);

	afterAll(async () => {
		await rm(folder, { recursive: true, force: true });
	});

	it('lists the changes of the commits after the tag in history order, whatever their dates', async () => {
		const all = await read();
		const rows = accessChanges(all, { since: 'v1.0' }).rows;
		expect(rows.map((row) => `${row.author} ${row.kind} ${row.email}`).sort()).toEqual(
			swapped.map((email) => `Bo Berg role changed ${email}`),
		);
		// A date between the two commits' dates: the backdated swap is older than it, the grants not.
		const sinceDate = accessChanges(all, { since: '2026-10-03' }).rows;
		expect(new Set(sinceDate.map((row) => `${row.author} ${row.kind}`))).toEqual(
			new Set(['Ada Lovelace granted']),
		);
	});
});
