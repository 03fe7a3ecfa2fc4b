/**
 * The try-it panel in Chromium, on a built view page: against the real mock (`npm run mock`,
 * started on the port the build expects), with that mock not running, and against a hostile
 * server of our own that answers with HTML, a huge JSON body and a slow drip. The pages' CSP lets
 * them call the build's mock origin only; the hostile cases bypass it, so what they prove is the
 * panel's own handling of the answer, not the policy.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import type { Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { usePortalInChromium, type KeptPageOptions } from '../support/portal-in-chromium.ts';
import { buildCurl } from '../../src/shared/curl.ts';
import { SERVER_STORAGE_KEY } from '../../src/client/try-it/server-url.ts';
import { MEMORY_STORAGE_KEY } from '../../src/client/try-it/memory.ts';
import { HISTORY_STORAGE_KEY } from '../../src/client/try-it/history.ts';
import { BODY_CAP_BYTES } from '../../src/client/try-it/exchange.ts';
import { exampleUser, viewName } from '../../src/shared/views.ts';
import { loadViews } from '../../src/sources/fixtures.ts';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';
import { holdMockPort } from '../support/mock-port-lock.ts';

const views = await loadViews(path.join(ROOT, 'content/views'));
const entry = views.find(({ slug }) => slug === 'production') ?? views[0];
const other = views.find(({ slug }) => slug !== entry?.slug);
if (!entry || !other) throw new Error('Expected at least two view fixtures');
const { slug, view } = entry;
/** The port the build expects the mock on: its default server and its CSP's connect-src. */
const MOCK_PORT = inject('mockPort');
const MOCK_URL = `http://127.0.0.1:${MOCK_PORT}`;

/** What the hostile server puts in its HTML answer: each line would run if parsed as HTML. */
const HOSTILE_HTML =
	'<!doctype html><script>window.__pwned = "script"; alert(1)</script>\n' +
	'<img src="x" onerror="window.__pwned = \'img\'; alert(2)">\n' +
	'<h1 id="injected">Owned</h1>';

/** A JSON body of about 5 MiB, far over the panel's cap. */
const HUGE_JSON = JSON.stringify({
	users: Array.from({ length: 60_000 }, (_, index) => ({
		name: `User ${index}`,
		email: `user${index}@example.com`,
		role: 'viewer',
	})),
});

let mock: Started | undefined;
let letGoOfPort: (() => Promise<void>) | undefined;
let hostile: Server;
let hostileUrl: string;
const sockets = new Set<Socket>();
const drips = new Set<ReturnType<typeof setInterval>>();

// Registered before the portal's own, so it runs after it: the kept pages, and their open
// connections to the mock, are closed before the mock is stopped.
afterAll(async () => {
	await mock?.stop();
	await letGoOfPort?.();
	for (const drip of drips) clearInterval(drip);
	for (const socket of sockets) socket.destroy();
	await new Promise<void>((resolve) => (hostile ? hostile.close(() => resolve()) : resolve()));
});
const portal = usePortalInChromium();

/** Answers with CORS for any origin, so the browser hands the hostile body to the page. */
function hostileAnswer(request: IncomingMessage, response: ServerResponse): void {
	response.setHeader('Access-Control-Allow-Origin', request.headers.origin ?? '*');
	response.setHeader('Access-Control-Allow-Headers', 'Authorization');
	response.setHeader('Access-Control-Expose-Headers', 'X-Note');
	if (request.method === 'OPTIONS') {
		response.writeHead(204).end();
		return;
	}
	const mode = (request.url ?? '').split('/')[1];
	if (mode === 'html') {
		response.setHeader('X-Note', '<img src=x onerror="window.__pwned=\'header\'">');
		response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(HOSTILE_HTML);
	} else if (mode === 'huge') {
		response.writeHead(200, { 'Content-Type': 'application/json' }).end(HUGE_JSON);
	} else if (mode === 'wrong-role' || mode === 'no-email') {
		// The view's own users, one of them broken: the contract check must flag exactly that one.
		const users = view.users.map(({ name, email, role }, index) => {
			if (mode === 'wrong-role' && index === 3) return { name, email, role: 'root' };
			if (mode === 'no-email' && index === 5) return { name, role };
			return { name, email, role };
		});
		response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ users }));
	} else if (mode === 'drip') {
		response.writeHead(200, { 'Content-Type': 'application/json' });
		response.write('{"users":[');
		const drip = setInterval(() => response.write(' '), 250);
		drips.add(drip);
		response.on('close', () => {
			clearInterval(drip);
			drips.delete(drip);
		});
	} else {
		response.writeHead(404).end();
	}
}

beforeAll(async () => {
	// The whole file holds the port: its first tests need nothing to answer there.
	letGoOfPort = await holdMockPort(MOCK_PORT);
	hostile = createServer(hostileAnswer);
	hostile.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	const hostilePort = await freePort();
	await new Promise<void>((resolve) => hostile.listen(hostilePort, '127.0.0.1', resolve));
	hostileUrl = `http://127.0.0.1:${hostilePort}`;
});

/**
 * Opens a view page in the file's kept page for `options` (1280 by 720 px unless told), as a new
 * context would open it, recording dialogs and uncaught page errors until the test ends.
 */
async function openView(
	route = `/views/${slug}/`,
	options: KeptPageOptions = {},
): Promise<{ page: Page; dialogs: string[]; errors: string[] }> {
	const dialogs: string[] = [];
	const errors: string[] = [];
	const onDialog = (dialog: Dialog): void => {
		dialogs.push(dialog.message());
		void dialog.dismiss();
	};
	const onError = (error: Error): void => {
		errors.push(error.message);
	};
	// Heard from before the page's load, as on a page of a new context, until the test ends.
	const page = await portal.open(route, { height: 720, ...options }, undefined, (kept) => {
		kept.on('dialog', onDialog);
		kept.on('pageerror', onError);
		onTestFinished(() => {
			kept.off('dialog', onDialog);
			kept.off('pageerror', onError);
		});
	});
	// The panel's behaviour loads when the reader reaches it (below the directory on a phone).
	await page.locator('try-it').scrollIntoViewIfNeeded();
	await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
	return { page, dialogs, errors };
}

/** Records the address of each request `page` sends until the test ends. */
function watchRequests(page: Page): string[] {
	const requests: string[] = [];
	const onRequest = (request: { url(): string }): void => {
		requests.push(request.url());
	};
	page.on('request', onRequest);
	onTestFinished(() => {
		page.off('request', onRequest);
	});
	return requests;
}

/** Types a server (when given), presses Send and waits until the panel says how it went. */
async function send(page: Page, server?: string, timeout = 15_000): Promise<string> {
	if (server !== undefined) await page.getByLabel('Server').fill(server);
	// The last answer's summary goes first, so the wait below cannot end on it.
	await page.evaluate(() => {
		const previous = document.querySelector('try-it [data-summary]');
		if (previous) previous.textContent = '';
	});
	await page.getByRole('button', { name: 'Send', exact: true }).click();
	const summary = page.locator('try-it [role="status"][data-summary]');
	await page.waitForFunction(
		() => {
			const text = document.querySelector('try-it [data-summary]')?.textContent ?? '';
			return text !== '' && text !== 'Sending…';
		},
		undefined,
		{ timeout },
	);
	return summary.innerText();
}

/** The texts the panel shows for an answer. */
async function shown(page: Page) {
	return {
		headers: await page.locator('try-it [data-headers]').innerText(),
		body: (await page.locator('try-it [data-body]').textContent()) ?? '',
		notes: await page.locator('try-it [data-notes]').innerText(),
		curl: await page.locator('#try-it-curl').innerText(),
	};
}

/** What the panel's contract check says: verdict, violations, whose directory, the request heading. */
async function checked(page: Page) {
	const section = page.locator('try-it [data-check]');
	return {
		visible: await section.isVisible(),
		verdict: await page.locator('try-it [data-verdict]').innerText(),
		violations: await page.locator('try-it [data-violations] li').allInnerTexts(),
		whose: (await page.locator('try-it [data-whose]').textContent()) ?? '',
		heading: await page.locator('try-it [data-request-heading]').innerText(),
	};
}

describe('the try-it panel with the mock not running', () => {
	it('Send says it could not reach the mock at its default address, and how to start it', async () => {
		const { page } = await openView();
		expect(await page.getByLabel('Server').inputValue()).toBe(MOCK_URL);
		const summary = await send(page);
		expect(summary).toBe(
			`Could not reach the mock at ${MOCK_URL}. Start it with npm run mock, then send again. ` +
				'If it is running, check the server address.',
		);
		expect(await page.locator('try-it [data-summary] code').innerText()).toBe('npm run mock');
		expect(await page.locator('try-it [data-answer]').isVisible()).toBe(false);
		expect((await shown(page)).curl).toBe(
			buildCurl({ baseUrl: MOCK_URL, key: exampleUser(view).apiKey }),
		);
	});
});

describe(`the try-it panel on /views/${slug}/, with the mock running`, () => {
	beforeAll(async () => {
		mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(MOCK_PORT) } });
		await waitForUrl(`${MOCK_URL}/api/v2/users`, mock);
	});

	it("Send from the keyboard shows 200 and exactly this view's eight users", async () => {
		const { page, errors } = await openView();
		const server = page.getByLabel('Server');
		await server.focus();
		await server.press('Enter');
		const summary = page.locator('try-it [data-summary]');
		await expect.poll(() => summary.innerText(), { timeout: 15_000 }).toMatch(/^200 OK in \d/);
		const { headers, body, curl } = await shown(page);
		const answer = JSON.parse(body) as { users: { name: string; role: string }[] };
		expect(answer.users.map(({ name, role }) => `${name} (${role})`)).toEqual(
			view.users.map(({ name, role }) => `${name} (${role})`),
		);
		expect(body).toContain('\n  "users": [\n');
		expect(headers).toMatch(/^content-type: application\/json/m);
		expect(curl).toBe(buildCurl({ baseUrl: MOCK_URL, key: exampleUser(view).apiKey }));
		expect(await page.evaluate(() => document.activeElement?.id)).toBe('try-it-server');
		expect(errors).toEqual([]);
	});

	it("checks a valid answer against the contract and recognises this view's users", async () => {
		const { page } = await openView();
		expect(await send(page)).toMatch(/^200 OK/);
		expect(await checked(page)).toEqual({
			visible: true,
			verdict: "The body matches the contract's 200 application/json schema.",
			violations: [],
			whose: `These are the users of this view, ${viewName(view)}.`,
			heading: 'Request sent',
		});
	});

	it('a key from another view names that view and links to it', async () => {
		const { page } = await openView();
		const requested = watchRequests(page);
		const stranger = other.view.users[0];
		if (!stranger) throw new Error('fixture without users');
		await page.getByLabel('Key', { exact: true }).selectOption({ label: 'Another key…' });
		await page.getByLabel('Other key').fill(stranger.apiKey);
		expect(await send(page)).toMatch(/^200 OK/);
		const { verdict, whose } = await checked(page);
		expect(verdict).toBe("The body matches the contract's 200 application/json schema.");
		expect(whose).toBe(
			`This key belongs to another view: these are the users of ${viewName(other.view)} ` +
				`(${other.slug}), not of this view, ${viewName(view)}. Open ${viewName(other.view)}`,
		);
		expect(await page.locator('try-it [data-whose] a').getAttribute('href')).toBe(
			`/views/${other.slug}/`,
		);
		// One small file for that one directory, not a list of every view's.
		const fetched = requested.map((url) => new URL(url).pathname);
		expect(fetched.filter((url) => url.startsWith('/try-it/'))).toEqual([
			expect.stringMatching(/^\/try-it\/directories\/[0-9a-f]{16}\.json$/),
		]);
	});

	it('a refused server address clears the earlier "Request sent" and its answer', async () => {
		const { page } = await openView();
		expect(await send(page)).toMatch(/^200 OK/);
		expect(await page.locator('try-it [data-result]').isVisible()).toBe(true);
		expect(await send(page, 'localhost:4010')).toMatch(/^Nothing was sent/);
		expect(await page.locator('try-it [data-result]').isVisible()).toBe(false);
		expect(await page.locator('try-it [data-check]').isVisible()).toBe(false);
		expect((await shown(page)).body).toBe('');
	});

	it("lists the directory's users in the key chooser, and a chosen user's key is sent", async () => {
		const { page } = await openView();
		const options = await page.getByLabel('Key', { exact: true }).locator('option').allInnerTexts();
		expect(options).toEqual([
			...view.users.map(({ name, role }) => `${name} (${role})`),
			'Another key…',
		]);
		const admin = view.users.find(({ role }) => role === 'admin');
		if (!admin) throw new Error('fixture without an admin');
		await page.getByLabel('Key', { exact: true }).selectOption({ label: `${admin.name} (admin)` });
		expect(await send(page)).toMatch(/^200 OK/);
		expect((await shown(page)).curl).toContain(`Bearer ${admin.apiKey}`);
	});

	it('an empty other key sends no Authorization header and shows the 401 with its challenge', async () => {
		const { page } = await openView();
		expect(await page.getByLabel('Other key').isVisible()).toBe(false);
		await page.getByLabel('Key', { exact: true }).selectOption({ label: 'Another key…' });
		expect(await page.getByLabel('Other key').isVisible()).toBe(true);
		await page.getByLabel('Other key').fill('');
		expect(await send(page)).toMatch(/^401 Unauthorized in \d/);
		const { headers, body, curl } = await shown(page);
		expect(headers).toMatch(/^www-authenticate: Bearer realm=/m);
		expect(headers).toMatch(/^content-type: application\/problem\+json/m);
		expect(JSON.parse(body)).toMatchObject({ status: 401 });
		expect(curl).toBe(`curl ${MOCK_URL}/api/v2/users`);
	});

	it('remembers the server on the next view page, and ignores a remembered value that is not an address', async () => {
		const { page } = await openView();
		const localhost = `http://localhost:${MOCK_PORT}`;
		expect(await send(page, `${localhost}/`)).toMatch(/^200 OK/);
		await page.goto(`${portal.url}/views/${other.slug}/`);
		await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
		expect(await page.getByLabel('Server').inputValue()).toBe(localhost);
		await page.evaluate(
			(key) => localStorage.setItem(key, 'javascript:alert(1)'),
			SERVER_STORAGE_KEY,
		);
		// A new tab: this one's own memory (sessionStorage) would give the server it chose.
		const fresh = await page.context().newPage();
		await fresh.goto(`${portal.url}/views/${other.slug}/`);
		await fresh.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
		expect(await fresh.getByLabel('Server').inputValue()).toBe(MOCK_URL);
		expect(await fresh.locator('try-it [data-summary]').innerText()).toBe('');
	});
});

/** Every value the page's origin keeps in localStorage and sessionStorage. */
async function storedValues(page: Page): Promise<string[]> {
	return page.evaluate(() =>
		[localStorage, sessionStorage].flatMap((storage) =>
			Object.keys(storage).map((name) => `${name}=${storage.getItem(name) ?? ''}`),
		),
	);
}

/** The rows of the panel's history, as their text. */
async function historyRows(page: Page): Promise<string[]> {
	return page.locator('try-it [data-history] li').allInnerTexts();
}

describe('the try-it panel remembers, in this tab only', () => {
	beforeAll(async () => {
		if (mock) return;
		mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(MOCK_PORT) } });
		await waitForUrl(`${MOCK_URL}/api/v2/users`, mock);
	});

	const admin = view.users.find(({ role }) => role === 'admin');
	if (!admin) throw new Error('fixture without an admin');
	const adminLabel = `${admin.name} (admin)`;
	const keyChooser = (page: Page) => page.getByLabel('Key', { exact: true });

	it('the chosen person and server survive a reload of the tab, and a new tab starts afresh', async () => {
		const { page, errors } = await openView();
		await keyChooser(page).selectOption({ label: adminLabel });
		await page.getByLabel('Server').fill(`http://localhost:${MOCK_PORT}`);
		await page.reload();
		await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
		expect(await keyChooser(page).locator('option:checked').innerText()).toBe(adminLabel);
		expect(await page.getByLabel('Server').inputValue()).toBe(`http://localhost:${MOCK_PORT}`);
		const memory = await page.evaluate((name) => sessionStorage.getItem(name), MEMORY_STORAGE_KEY);
		expect(JSON.parse(memory ?? '{}')).toMatchObject({ view: slug });
		const fresh = await page.context().newPage();
		await fresh.goto(`${portal.url}/views/${slug}/`);
		await fresh.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
		expect(await keyChooser(fresh).locator('option:checked').innerText()).toBe(
			`${exampleUser(view).name} (${exampleUser(view).role})`,
		);
		expect(errors).toEqual([]);
	});

	it('lists each request (time, view, person, status, duration) and sends one again in one click', async () => {
		const { page, errors } = await openView();
		expect(await page.locator('try-it [data-history]').isVisible()).toBe(false);
		await keyChooser(page).selectOption({ label: adminLabel });
		expect(await send(page)).toMatch(/^200 OK/);
		await keyChooser(page).selectOption({ label: 'Another key…' });
		await page.getByLabel('Other key').fill('');
		expect(await send(page)).toMatch(/^401 Unauthorized/);
		const rows = await historyRows(page);
		expect(rows).toHaveLength(2);
		expect(rows[0]).toMatch(
			new RegExp(
				`^\\d\\d:\\d\\d:\\d\\d · ${viewName(view)} · another key \\(not kept\\) · 401 · (?:\\d+ ms|[\\d.]+ s)$`,
			),
		);
		expect(rows[1]).toMatch(
			new RegExp(
				`^\\d\\d:\\d\\d:\\d\\d · ${viewName(view)} · ${adminLabel.replace(/[()]/g, '\\$&')} · 200 · (?:\\d+ ms|[\\d.]+ s)\\s*Send again$`,
			),
		);
		// A typed key is never kept, so its request cannot be sent again from the history.
		const rowsWithButton = page.locator('try-it [data-history] li').filter({
			has: page.getByRole('button', { name: /^Send again/ }),
		});
		expect(await rowsWithButton.count()).toBe(1);
		await keyChooser(page).selectOption({ index: 0 });
		await page.evaluate(() => {
			const previous = document.querySelector('try-it [data-summary]');
			if (previous) previous.textContent = '';
		});
		await rowsWithButton.getByRole('button').click();
		await expect
			.poll(() => page.locator('try-it [data-summary]').innerText(), { timeout: 15_000 })
			.toMatch(/^200 OK/);
		expect((await shown(page)).curl).toContain(`Bearer ${admin.apiKey}`);
		expect(await keyChooser(page).locator('option:checked').innerText()).toBe(adminLabel);
		await expect.poll(() => historyRows(page)).toHaveLength(3);
		expect((await historyRows(page))[0]).toContain(adminLabel);
		expect(errors).toEqual([]);
	});

	it("another view's requests link to that view's page, which chooses the same person", async () => {
		const { page } = await openView();
		await keyChooser(page).selectOption({ label: adminLabel });
		expect(await send(page)).toMatch(/^200 OK/);
		await page.goto(`${portal.url}/views/${other.slug}/`);
		await page.locator('try-it [data-history]').waitFor({ state: 'visible' });
		const row = page.locator('try-it [data-history] li').first();
		expect(await row.getByRole('button', { name: /^Send again/ }).count()).toBe(0);
		const link = row.getByRole('link');
		expect(await link.getAttribute('href')).toBe(`/views/${slug}/#try-it-heading`);
		await link.click();
		await page.waitForURL(`**/views/${slug}/**`);
		await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
		expect(await keyChooser(page).locator('option:checked').innerText()).toBe(adminLabel);
	});

	it('the clear button empties the history, and it stays empty after a reload', async () => {
		const { page } = await openView();
		expect(await send(page)).toMatch(/^200 OK/);
		expect(await historyRows(page)).toHaveLength(1);
		await page.getByRole('button', { name: 'Clear history' }).click();
		expect(await page.locator('try-it [data-history]').isVisible()).toBe(false);
		expect(
			await page.evaluate((name) => sessionStorage.getItem(name), HISTORY_STORAGE_KEY),
		).toBeNull();
		await page.reload();
		await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
		expect(await page.locator('try-it [data-history]').isVisible()).toBe(false);
	});

	it('keeps no key in localStorage or sessionStorage, chosen or typed', async () => {
		const { page } = await openView();
		const stranger = other.view.users[0];
		if (!stranger) throw new Error('fixture without users');
		await keyChooser(page).selectOption({ label: adminLabel });
		expect(await send(page)).toMatch(/^200 OK/);
		await keyChooser(page).selectOption({ label: 'Another key…' });
		await page.getByLabel('Other key').fill(stranger.apiKey);
		expect(await send(page)).toMatch(/^200 OK/);
		await page.reload();
		await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
		const stored = await storedValues(page);
		expect(stored.some((value) => value.startsWith(`${HISTORY_STORAGE_KEY}=`))).toBe(true);
		expect(stored.some((value) => value.startsWith(`${MEMORY_STORAGE_KEY}=`))).toBe(true);
		// Every key on the page (the chooser's and the configuration block's) and every fixture's.
		const onPage = await page.evaluate(() => [
			...[...document.querySelectorAll('try-it select[name="key"] option')].map(
				(o) => (o as HTMLOptionElement).value,
			),
			...[...document.querySelectorAll('.config code, .config td, .config dd')].map(
				(node) => node.textContent ?? '',
			),
		]);
		const keys = new Set(
			[
				...onPage,
				...views.flatMap(({ view: { users, config } }) => [
					...users.map(({ apiKey }) => apiKey),
					...Object.values(config),
				]),
			].filter((key) => key.length >= 8),
		);
		expect(keys.size).toBeGreaterThan(views.length * 8);
		for (const value of stored) {
			for (const key of keys) expect(value, `a stored value holds ${key}`).not.toContain(key);
		}
	});

	it('garbage in sessionStorage, or storage that refuses, does not break the panel', async () => {
		const { page, errors } = await openView();
		await page.evaluate(
			([memory, history]) => {
				sessionStorage.setItem(memory, '{"view":');
				sessionStorage.setItem(
					history,
					JSON.stringify([{ at: 'now' }, { view: '<img src=x>', status: 200 }, 7, null]),
				);
			},
			[MEMORY_STORAGE_KEY, HISTORY_STORAGE_KEY] as const,
		);
		await page.reload();
		await page.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
		expect(await page.getByLabel('Server').inputValue()).toBe(MOCK_URL);
		expect(await page.locator('try-it [data-history]').isVisible()).toBe(false);
		expect(await send(page)).toMatch(/^200 OK/);
		expect(await historyRows(page)).toHaveLength(1);
		expect(errors).toEqual([]);

		// Storage that refuses is a context of its own, closed however the test ends.
		const refusing = await portal.browser.newContext();
		onTestFinished(() => refusing.close());
		await refusing.addInitScript(() => {
			for (const name of ['localStorage', 'sessionStorage']) {
				Object.defineProperty(window, name, {
					get() {
						throw new DOMException('The storage is disabled', 'SecurityError');
					},
				});
			}
		});
		const second = await refusing.newPage();
		const secondErrors: string[] = [];
		second.on('pageerror', (error) => secondErrors.push(error.message));
		await second.goto(`${portal.url}/views/${slug}/`);
		await second.locator('try-it[data-ready] form').waitFor({ state: 'visible' });
		expect(await send(second)).toMatch(/^200 OK/);
		expect(secondErrors).toEqual([]);
	});

	it('the answer carries a badge with status, time and size, coloured by the status class', async () => {
		const { page } = await openView();
		expect(await send(page)).toMatch(/^200 OK/);
		const bytes = (
			await (
				await fetch(`${MOCK_URL}/api/v2/users`, {
					headers: { Authorization: `Bearer ${exampleUser(view).apiKey}` },
				})
			).arrayBuffer()
		).byteLength;
		const badge = page.locator('try-it [data-badge]');
		expect(await badge.innerText()).toMatch(
			new RegExp(
				`^200 OK · (?:\\d+ ms|[\\d.]+ s) · ${bytes < 1024 ? `${bytes} B` : '[\\d.]+ KiB'}$`,
			),
		);
		expect(await badge.getAttribute('class')).toContain('ok');
		await keyChooser(page).selectOption({ label: 'Another key…' });
		await page.getByLabel('Other key').fill('');
		expect(await send(page)).toMatch(/^401/);
		expect(await badge.innerText()).toMatch(/^401 Unauthorized · (?:\d+ ms|[\d.]+ s) · \d+ B$/);
		expect(await badge.getAttribute('class')).toContain('client');
	});

	it('on a 390 px phone the JSON body keeps its indentation and scrolls in its box', async () => {
		const { page } = await openView(undefined, { width: 390, height: 844 });
		expect(await send(page)).toMatch(/^200 OK/);
		const lines = await page.locator('try-it [data-body]').evaluate((pre) => {
			// The body is coloured: its text is spread over several text nodes, found by offset.
			const nodes: { node: Text; from: number }[] = [];
			const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
			let length = 0;
			for (let node = walker.nextNode(); node; node = walker.nextNode()) {
				nodes.push({ node: node as Text, from: length });
				length += node.textContent?.length ?? 0;
			}
			const at = (offset: number): [Text, number] => {
				const found = nodes.findLast(({ from }) => from <= offset) ?? nodes[0];
				if (!found) throw new Error('an empty body');
				return [found.node, Math.min(offset - found.from, found.node.length)];
			};
			const content = pre.textContent ?? '';
			const out: { indent: number; first: number; leftmost: number; rows: number }[] = [];
			let start = 0;
			for (const line of content.split('\n')) {
				const indent = line.length - line.trimStart().length;
				if (line.trim()) {
					const range = document.createRange();
					range.setStart(...at(start + indent));
					range.setEnd(...at(start + indent + 1));
					const first = range.getBoundingClientRect().left;
					range.setEnd(...at(start + line.length));
					const rects = [...range.getClientRects()];
					out.push({
						indent,
						first,
						leftmost: Math.min(...rects.map((rect) => rect.left)),
						rows: new Set(rects.map((rect) => Math.round(rect.top))).size,
					});
				}
				start += line.length + 1;
			}
			return out;
		});
		expect(lines.length).toBeGreaterThan(10);
		expect(lines[1]?.first).toBeGreaterThan(lines[0]?.first ?? Infinity);
		for (const line of lines) {
			// Nothing of a line is drawn left of its indentation, and each line stays one row.
			expect(line.leftmost).toBeGreaterThanOrEqual(line.first - 0.5);
			expect(line.rows).toBe(1);
		}
		expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
			390,
		);
	});
});

describe('the try-it panel when the reader gets something wrong', () => {
	it('an invalid server address is named next to the field, focused, and nothing is sent', async () => {
		const { page } = await openView();
		const requests = watchRequests(page);
		const summary = await send(page, 'localhost:4010');
		expect(summary).toMatch(/^Nothing was sent/);
		const server = page.getByLabel('Server');
		expect(await server.getAttribute('aria-invalid')).toBe('true');
		expect(await page.locator('#try-it-server-problem').innerText()).toMatch(
			/has no http:\/\/ in front/,
		);
		expect(await page.evaluate(() => document.activeElement?.id)).toBe('try-it-server');
		expect(requests.filter((url) => url.includes('/api/v2/users'))).toEqual([]);
	});

	it('a server the page may not call says so and names the mock it may call', async () => {
		const { page } = await openView();
		const summary = await send(page, `${hostileUrl}/html`);
		expect(summary).toMatch(
			new RegExp(`^This page may not call ${hostileUrl}/html: its Content-Security-Policy`),
		);
		expect(summary).toContain(
			`only the mock it was built for, ${MOCK_URL}, and a mock of your own`,
		);
		const { heading, visible } = await checked(page);
		expect(heading).toBe('Request not sent: blocked by this page');
		expect(visible).toBe(false);
	});

	it('without JavaScript the panel shows a note instead of a dead form, and the curl example stays', async () => {
		const page = await portal.open(`/views/${slug}/`, { height: 720, javaScriptEnabled: false });
		expect(await page.locator('try-it form').isVisible()).toBe(false);
		expect(await page.locator('try-it [data-no-script]').innerText()).toMatch(/needs JavaScript/);
		expect(await page.locator('#curl-command').innerText()).toContain('/api/v2/users');
	});
});

describe('the try-it panel against a hostile server (CSP bypassed)', () => {
	const options: KeptPageOptions = { bypassCSP: true };

	it('shows an HTML body as its source text, and none of its script runs', async () => {
		const { page, dialogs, errors } = await openView(undefined, options);
		expect(await send(page, `${hostileUrl}/html`)).toMatch(/^200 OK in/);
		const { body, notes, headers } = await shown(page);
		expect(body).toBe(HOSTILE_HTML);
		expect(notes).toContain('The body is not JSON (Content-Type: text/html); it is shown as text.');
		expect(headers).toContain('x-note: <img src=x onerror="window.__pwned=\'header\'">');
		expect(await page.evaluate(() => '__pwned' in window)).toBe(false);
		expect(await page.locator('#injected, try-it img, try-it script').count()).toBe(0);
		expect(dialogs).toEqual([]);
		expect(errors).toEqual([]);
	});

	it('flags a role outside the contract with its JSON path', async () => {
		const { page } = await openView(undefined, options);
		expect(await send(page, `${hostileUrl}/wrong-role`)).toMatch(/^200 OK in/);
		const { verdict, violations, whose } = await checked(page);
		expect(verdict).toBe("The body breaks the contract's 200 application/json schema (1 problem):");
		expect(violations).toEqual(['/users/3/role: must be one of admin, deployer, operator, viewer']);
		expect(whose).toBe(`These are the users of this view, ${viewName(view)}.`);
	});

	it('flags a user without an email with its JSON path', async () => {
		const { page } = await openView(undefined, options);
		expect(await send(page, `${hostileUrl}/no-email`)).toMatch(/^200 OK in/);
		const { verdict, violations } = await checked(page);
		expect(verdict).toBe("The body breaks the contract's 200 application/json schema (1 problem):");
		expect(violations).toEqual(['/users/5/email: is required but missing']);
	});

	it('a refused connection after an answer says "tried", not "sent", and drops the old answer', async () => {
		const { page } = await openView(undefined, options);
		expect(await send(page, `${hostileUrl}/wrong-role`)).toMatch(/^200 OK in/);
		const closed = `http://127.0.0.1:${await freePort()}`;
		expect(await send(page, closed)).toMatch(new RegExp(`^Could not reach the mock at ${closed}`));
		const { heading, visible } = await checked(page);
		expect(heading).toBe('Request tried, no answer');
		expect(visible).toBe(false);
		expect(await page.locator('try-it [data-answer]').isVisible()).toBe(false);
	});

	it('shows only the first 256 KiB of a huge JSON body, unformatted, and says it was cut', async () => {
		const { page } = await openView(undefined, options);
		expect(await send(page, `${hostileUrl}/huge`)).toMatch(/^200 OK in/);
		const { body, notes } = await shown(page);
		expect(body.length).toBe(BODY_CAP_BYTES);
		expect(HUGE_JSON.startsWith(body)).toBe(true);
		expect(notes).toMatch(/larger than 256 KiB: only its first 256 KiB were read/);
	});

	it('gives up on a slow drip at its time-out with the time-out message, keeping what arrived', async () => {
		const { page } = await openView(undefined, options);
		// The panel's 10 s time-out, shortened for the test through the same attribute it reads.
		await page.locator('try-it').evaluate((panel: HTMLElement) => {
			panel.dataset['timeoutMs'] = '1500';
		});
		const started = Date.now();
		const summary = await send(page, `${hostileUrl}/drip`, 20_000);
		const waited = Date.now() - started;
		expect(summary).toMatch(/^200 OK in 1\.5(\d*)? s, body cut off by the time-out$/);
		expect(waited).toBeGreaterThan(1_400);
		const { body, notes } = await shown(page);
		expect(body.startsWith('{"users":[')).toBe(true);
		expect(notes).toMatch(/did not finish within 1\.5 s \(time-out\)/);
		const button = page.getByRole('button', { name: 'Send', exact: true });
		expect(await button.getAttribute('aria-disabled')).toBeNull();
	}, 40_000);
});
