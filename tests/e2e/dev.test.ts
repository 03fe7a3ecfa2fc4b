/**
 * `npm run dev` as a developer meets it: Astro's dev server and the live mock together, on the
 * ports PORTAL_PORT and MOCK_PORT name. A fixture broken while a page is open shows in Chromium
 * as Astro's error overlay naming the file and the field; mended, the page comes back. Edits to
 * openapi.yaml and to a fixture reach the published contract and the reference page, which the
 * build composes once. Search says plainly that it needs the built site.
 */
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectOrLaunchChromium } from '../../support/browser.ts';
import { copyFixtures } from '../../support/fixtures.ts';
import { save } from '../support/fixture-edits.ts';
import { bin, freePort, ROOT, start, waitForUrl, type Started } from '../../support/processes.ts';

let folder: string;
let viewsDir: string;
let contractFile: string;
let dev: Started;
let browser: Browser;
let portal: string;
let mock: string;
/** production.json as it should be; the test starts the dev server with it broken. */
let good: string;

/** production.json with its first key replaced by one of the wrong shape. */
const broken = (text: string): string =>
	text.replace(/"apiKey": "ick-[0-9a-f]{8}-[A-Za-z0-9]{4}"/, '"apiKey": "not-a-key"');

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-dev-'));
	viewsDir = path.join(folder, 'views');
	await copyFixtures(viewsDir);
	good = await readFile(path.join(viewsDir, 'production.json'), 'utf8');
	contractFile = path.join(folder, 'openapi.yaml');
	await copyFile(path.join(ROOT, 'openapi.yaml'), contractFile);
	await save(path.join(viewsDir, 'production.json'), broken(good));
	const [portalPort, mockPort] = [await freePort(), await freePort()];
	portal = `http://127.0.0.1:${portalPort}`;
	mock = `http://127.0.0.1:${mockPort}`;
	dev = start(bin('node'), ['scripts/start.ts', '--dev'], {
		env: {
			PORTAL_PORT: String(portalPort),
			MOCK_PORT: String(mockPort),
			PORTAL_VIEWS_DIR: viewsDir,
			PORTAL_OPENAPI: contractFile,
		},
	});
	await waitForUrl(`${portal}/`, dev, 120_000);
	browser = await connectOrLaunchChromium(inject('chromiumEndpoint'));
});

afterAll(async () => {
	await browser?.close();
	await dev?.stop();
	await rm(folder, { recursive: true, force: true });
});

describe('npm run dev', () => {
	it('starts with a fixture already broken: the overlay and the mock both name it, until it is mended', async () => {
		const page = await browser.newPage();
		try {
			await page.goto(`${portal}/views/staging-us-east/`);
			const overlay = page.locator('vite-error-overlay');
			await overlay.waitFor({ state: 'attached', timeout: 30_000 });
			await expect(
				overlay.evaluate((element) => element.shadowRoot?.textContent ?? ''),
			).resolves.toContain('production.json: users[0].apiKey: expected a key shaped');
			const waiting = await fetch(`${mock}/api/v2/users`);
			expect(waiting.status).toBe(503);
			expect(await waiting.json()).toMatchObject({
				type: 'https://portal.example/problems/sources-not-loaded',
				detail: expect.stringContaining('production.json: users[0].apiKey') as unknown,
			});

			await save(path.join(viewsDir, 'production.json'), good);
			const heading = page.locator('h1', { hasText: /staging-us-east/ });
			// Astro reloads the page itself once the fixture loads; on a fresh clone its first
			// dependency scan can swallow that reload, so the test then reloads as a reader would.
			await heading.waitFor({ timeout: 15_000 }).catch(async () => {
				await page.reload();
				await heading.waitFor({ timeout: 15_000 });
			});
			const deadline = Date.now() + 15_000;
			while ((await fetch(`${mock}/api/v2/users`)).status === 503 && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
			expect((await fetch(`${mock}/api/v2/users`)).status).toBe(401);
		} finally {
			await page.close();
		}
	});

	it('serves the portal and the live mock on the ports it was given', async () => {
		expect((await fetch(`${portal}/views/production/`)).status, dev.output()).toBe(200);
		const answer = await fetch(`${mock}/api/v2/users`);
		expect(answer.status).toBe(401);
		expect(dev.output()).toContain(`Portal  ${portal}/`);
		expect(dev.output()).toContain(`Mock    ${mock}`);
	});

	it('shows a fixture broken by an edit as the error overlay, naming the file and the field', async () => {
		const file = path.join(viewsDir, 'production.json');
		const page = await browser.newPage();
		try {
			await page.goto(`${portal}/views/production/`);
			await expect(page.locator('h1').textContent()).resolves.toMatch(/production/);
			expect(broken(good)).not.toBe(good);
			await save(file, broken(good));
			const overlay = page.locator('vite-error-overlay');
			await overlay.waitFor({ state: 'attached', timeout: 30_000 });
			const text = await overlay.evaluate((element) => element.shadowRoot?.textContent ?? '');
			expect(text).toContain('production.json: users[0].apiKey: expected a key shaped');

			// Mended, the page comes back by itself (after one or two reloads), with no overlay.
			await save(file, good);
			await page.locator('h1', { hasText: /production/ }).waitFor({ timeout: 30_000 });
			await page.waitForLoadState('networkidle');
			await expect(page.locator('vite-error-overlay').count()).resolves.toBe(0);
		} finally {
			await page.close();
			await save(file, good);
		}
	});

	it('follows an edit to openapi.yaml in the published contract and on the reference page', async () => {
		const text = await readFile(contractFile, 'utf8');
		const title = 'title: Console user directory API';
		expect(text).toContain(title);
		const published = async (): Promise<string> =>
			((await (await fetch(`${portal}/openapi.json`)).json()) as { info: { title: string } }).info
				.title;
		expect(await published()).toBe('Console user directory API');
		await save(contractFile, text.replace(title, 'title: Edited directory API'));
		try {
			expect(await published()).toBe('Edited directory API');
			const reference = await (await fetch(`${portal}/reference/`)).text();
			expect(reference).toContain('Edited directory API');
		} finally {
			await save(contractFile, text);
		}
		expect(await published()).toBe('Console user directory API');
	});

	it('follows an edit to a fixture in the published contract', async () => {
		const file = path.join(viewsDir, 'production.json');
		const view = JSON.parse(good) as { users: { name: string }[] };
		const [first] = view.users;
		if (!first) throw new Error('expected a user in production.json');
		const edited = good.replace(`"name": "${first.name}"`, '"name": "Edited Example"');
		expect(edited).not.toBe(good);
		/** The first user's name in the published example of the production view. */
		const published = async (): Promise<string | undefined> => {
			const document = (await (await fetch(`${portal}/openapi.json`)).json()) as {
				paths: Record<
					string,
					{
						get: {
							responses: Record<
								string,
								{
									content: Record<
										string,
										{ examples: Record<string, { value: { users: { name: string }[] } }> }
									>;
								}
							>;
						};
					}
				>;
			};
			return document.paths['/api/v2/users']?.get.responses['200']?.content['application/json']
				?.examples['production']?.value.users[0]?.name;
		};
		expect(await published()).toBe(first.name);
		await save(file, edited);
		try {
			// The content layer reloads the fixture a moment after the save.
			const deadline = Date.now() + 30_000;
			while ((await published()) !== 'Edited Example' && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, 200));
			}
			expect(await published()).toBe('Edited Example');
		} finally {
			await save(file, good);
		}
	});

	it('says plainly that search needs the built site', async () => {
		const page = await browser.newPage();
		try {
			await page.goto(`${portal}/`);
			const status = page.locator('.search-status');
			// The dev server may reload the page once while it optimises the search code: open again.
			for (let attempt = 0; attempt < 6; attempt += 1) {
				await page.waitForLoadState('networkidle');
				await page.keyboard.press('/');
				const shown = await status
					.filter({ hasText: /npm start/ })
					.waitFor({ timeout: 5000 })
					.then(
						() => true,
						() => false,
					);
				if (shown) break;
			}
			await expect(status.textContent()).resolves.toMatch(
				/search works in `?npm start`?, not in `?npm run dev`?/,
			);
		} finally {
			await page.close();
		}
	});

	it('stops the dev server and the mock together on one Ctrl-C', async () => {
		dev.child.kill('SIGINT');
		await new Promise<void>((resolve) => {
			if (dev.child.exitCode !== null) resolve();
			else dev.child.once('exit', () => resolve());
		});
		expect(dev.child.exitCode).toBe(0);
		const answers = async (url: string): Promise<boolean> =>
			fetch(url, { signal: AbortSignal.timeout(1000) }).then(
				() => true,
				() => false,
			);
		expect(await answers(`${portal}/`)).toBe(false);
		expect(await answers(`${mock}/api/v2/users`)).toBe(false);
	});
});
