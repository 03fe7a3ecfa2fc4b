import { createHash } from 'node:crypto';
/**
 * Every page carries a Content-Security-Policy without 'unsafe-inline' scripts whose connect-src
 * names only the page's own origin and the mock; the pages work under it in Chromium with no
 * violation, and a page load sends no request anywhere but its own origin and the mock.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { load } from 'cheerio';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { usePortalInChromium } from '../support/portal-in-chromium.ts';
import { loadViews } from '../../src/sources/fixtures.ts';
import { bin, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';
import { holdMockPort } from '../support/mock-port-lock.ts';

const distDir = inject('distDir');
const mockPort = inject('mockPort');
const MOCK_ORIGINS = [`http://127.0.0.1:${mockPort}`, `http://localhost:${mockPort}`];
const views = await loadViews(path.join(ROOT, 'content/views'));
const [entry] = views;
if (!entry) throw new Error('No view fixtures');

const portal = usePortalInChromium();
let mock: Started;

let letGoOfPort: (() => Promise<void>) | undefined;

beforeAll(async () => {
	letGoOfPort = await holdMockPort(mockPort);
	mock = start(bin('node'), ['mock/cli.ts'], { env: { MOCK_PORT: String(mockPort) } });
	await waitForUrl(`http://127.0.0.1:${mockPort}/`, mock);
});

afterAll(async () => {
	await mock?.stop();
	await letGoOfPort?.();
});

/** Every HTML page of the build, as a path under dist. */
async function htmlPages(folder = distDir): Promise<string[]> {
	const entries = await readdir(folder, { withFileTypes: true, recursive: true });
	return entries
		.filter((file) => file.isFile() && file.name.endsWith('.html'))
		.map((file) => path.relative(distDir, path.join(file.parentPath, file.name)));
}

/** A policy's directives by name. */
function directives(policy: string): Map<string, string[]> {
	return new Map(
		policy
			.split(';')
			.map((part) => part.trim().split(/\s+/))
			.filter((words) => words[0])
			.map(([name = '', ...values]) => [name, values]),
	);
}

describe('the Content-Security-Policy of every built page', () => {
	it('forbids inline scripts and lets pages connect only to themselves and the mock', async () => {
		const pages = await htmlPages();
		expect(pages.length).toBeGreaterThan(10);
		for (const file of pages) {
			const $ = load(await readFile(path.join(distDir, file), 'utf8'));
			const policy = $('meta[http-equiv="content-security-policy"]').attr('content') ?? '';
			expect(policy, file).not.toBe('');
			const parsed = directives(policy);
			expect(parsed.get('script-src'), file).not.toContain("'unsafe-inline'");
			expect(parsed.get('script-src'), file).not.toContain("'unsafe-eval'");
			expect(parsed.get('default-src'), file).toEqual(["'self'"]);
			expect(parsed.get('object-src'), file).toEqual(["'none'"]);
			expect(parsed.get('connect-src'), file).toEqual(["'self'", ...MOCK_ORIGINS]);
			expect($('[onclick], [onload], [onerror], [onsubmit], [oninput]').length, file).toBe(0);
		}
	});

	it("lists in script-src and style-src only the hashes of the page's own inline scripts and styles", async () => {
		/** The CSP hash sources of a page's inline elements, worked out here from their text. */
		const hashes = ($: ReturnType<typeof load>, selector: string): string[] =>
			[
				...new Set(
					$(selector)
						.toArray()
						.map(
							(element) =>
								`'sha256-${createHash('sha256').update($(element).text()).digest('base64')}'`,
						),
				),
			].sort();
		for (const file of await htmlPages()) {
			const $ = load(await readFile(path.join(distDir, file), 'utf8'));
			const policy = directives(
				$('meta[http-equiv="content-security-policy"]').attr('content') ?? '',
			);
			const listed = (name: string): string[] =>
				(policy.get(name) ?? []).filter((source) => source.startsWith("'sha")).sort();
			const scripts = hashes($, 'script:not([src])');
			expect(scripts.length, file).toBeGreaterThan(0);
			expect(listed('script-src'), file).toEqual(scripts);
			expect(listed('style-src'), file).toEqual(hashes($, 'style'));
			expect(policy.get('script-src'), file).toContain("'self'");
			expect(policy.get('style-src'), file).toContain("'self'");
		}
	});
});

/** Opens a page, recording CSP violations and every request it sends. */
async function open(
	route: string,
): Promise<{ page: Page; violations: string[]; requests: string[] }> {
	const context = await portal.browser.newContext({
		permissions: ['clipboard-read', 'clipboard-write'],
	});
	const page = await context.newPage();
	const violations: string[] = [];
	const requests: string[] = [];
	await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
	await page.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (event) => {
			const report = (window as unknown as { reportViolation: (text: string) => void })
				.reportViolation;
			report(`${event.violatedDirective} blocked ${event.blockedURI}`);
		});
	});
	page.on('console', (message) => {
		if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
	});
	page.on('request', (request) => requests.push(request.url()));
	await page.goto(`${portal.url}${route}`, { waitUntil: 'networkidle' });
	return { page, violations, requests };
}

/** Requests that went anywhere but the portal's own origin and the mock. */
function foreign(requests: readonly string[]): string[] {
	const allowed = new Set([new URL(portal.url).origin, ...MOCK_ORIGINS]);
	return requests.filter((url) => !url.startsWith('data:') && !allowed.has(new URL(url).origin));
}

describe('pages at work under their policy in Chromium', () => {
	it.each([
		'/',
		'/environments/production/',
		'/docs/',
		'/docs/getting-started/',
		'/reference/',
		'/reference/changes/',
		'/compare/',
		'/access/changes/',
		'/access/since/?date=2026-11-22',
		'/no-such-page/',
	])('%s loads with no violation and no request beyond its origin', async (route) => {
		const { page, violations, requests } = await open(route);
		expect(violations).toEqual([]);
		expect(foreign(requests)).toEqual([]);
		await page.context().close();
	});

	it('a view page copies, searches and tries the request with no violation and no foreign request', async () => {
		const { page, violations, requests } = await open(`/views/${entry.slug}/`);
		await page.getByRole('button', { name: 'Copy the curl command' }).click();
		await page.getByText('Copied').first().waitFor();

		await page.keyboard.press('/');
		await page.locator('#search-query').waitFor();
		await page.fill('#search-query', entry.view.users[1]?.name ?? 'admin');
		await page
			.locator(`.search-results a[href*="/views/${entry.slug}/"]`)
			.filter({ hasText: /./ })
			.first()
			.waitFor();
		await page.reload({ waitUntil: 'networkidle' });

		await page.getByRole('button', { name: 'Send' }).click();
		await page
			.getByText(/200 OK/)
			.first()
			.waitFor();

		expect(violations).toEqual([]);
		expect(foreign(requests)).toEqual([]);
		expect(requests.some((url) => url.startsWith(MOCK_ORIGINS[0] ?? ''))).toBe(true);
		await page.context().close();
	});
});
