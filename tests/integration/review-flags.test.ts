/**
 * The review flags on the built /access/ and their pages: the portal's fixtures trigger both
 * flags, each shown with its rule beside it and links that lead to the very directory rows
 * concerned; a fixture set made to trigger none says so on every flag.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load, type CheerioAPI } from 'cheerio';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { buildPortal } from '../../support/build.ts';
import { ROOT } from '../../support/processes.ts';

/** A built page, by its address, parsed. */
async function page(dist: string, address: string): Promise<CheerioAPI> {
	const file = path.join(dist, decodeURIComponent(address.split('#')[0] ?? ''), 'index.html');
	return load(await readFile(file, 'utf8'));
}

/** A flag's block on /access/: its title, its rule, and each finding's text and row links. */
function flagOn($: CheerioAPI, id: string) {
	const block = $(`.review-flag[data-flag="${id}"]`);
	return {
		count: block.length,
		title: block.find('h3').text().replace(/\s+/g, ' ').trim(),
		titleHref: block.find('h3 a').attr('href'),
		rule: block.find('.flag-rule').text().replace(/\s+/g, ' ').trim(),
		none: block.find('.flag-none').text(),
		findings: block
			.find('.flag-findings > li')
			.toArray()
			.map((item) => ({
				who: $(item).children('a').text().trim(),
				where: $(item).children('.flag-context').text(),
				groups: $(item)
					.find('ul > li')
					.toArray()
					.map((group) => $(group).text().replace(/\s+/g, ' ').trim()),
				rows: $(item)
					.find('ul a')
					.toArray()
					.map((link) => $(link).attr('href') ?? ''),
			})),
	};
}

describe('review flags on the portal’s fixtures', () => {
	const dist = inject('distDir');

	it('flags Amara Okafor’s two names with the rule beside it, linking each row that gives one', async () => {
		const flag = flagOn(await page(dist, '/access/'), 'several-names');
		expect(flag.count).toBe(1);
		expect(flag.title).toBe('One email under several names 1 finding');
		expect(flag.titleHref).toBe('/access/flags/several-names/');
		expect(flag.rule).toMatch(/^Rule\. Flagged when the directories give one email address/);
		expect(flag.findings).toEqual([
			{
				who: 'Amara Okafor',
				where: 'amara.okafor@example.com',
				groups: [
					'“Amara Okafor” in production · Edge, production · Production',
					'“A. Okafor” in dr-eu-west · DR failover',
				],
				rows: [
					'/views/production-edge/#user-amara_2eokafor',
					'/views/production/#user-amara_2eokafor',
					'/views/dr-eu-west-failover/#user-amara_2eokafor',
				],
			},
		]);
	});

	it('flags Priya Raman, deployer and operator in production, with the rule beside it', async () => {
		const flag = flagOn(await page(dist, '/access/'), 'role-differs');
		expect(flag.title).toBe('Role differs within an environment 1 finding');
		expect(flag.rule).toContain('Different roles in different environments are not flagged.');
		expect(flag.findings).toEqual([
			{
				who: 'Priya Raman',
				where: 'production',
				groups: ['deployer in production · Production', 'operator in production · Edge'],
				rows: [
					'/views/production/#user-priya_2eraman',
					'/views/production-edge/#user-priya_2eraman',
				],
			},
		]);
	});

	it('links to rows that exist: each leads to the directory row of that person, with the name and role flagged', async () => {
		const $ = await page(dist, '/access/');
		const links = $('.review-flag .flag-findings ul a')
			.toArray()
			.map((link) => ({
				href: $(link).attr('href') ?? '',
				line: $(link).closest('li').text().replace(/\s+/g, ' ').trim(),
			}));
		expect(links).toHaveLength(5);
		for (const { href, line } of links) {
			const [address, id] = href.split('#');
			const target = await page(dist, address ?? '');
			const row = target(`tr[id="${id}"]`);
			expect(row.length, href).toBe(1);
			const name = row.find('th').text().trim();
			const role = row.find('.role').text().trim();
			// The line the link sits in names what that row says: the name in quotes, or the role.
			expect(line.startsWith(`“${name}”`) || line.startsWith(role), `${href}: ${line}`).toBe(true);
		}
	});

	it('gives each flag a page with its rule and every finding', async () => {
		const $ = await page(dist, '/access/flags/role-differs/');
		expect($('h1').text()).toBe('Role differs within an environment');
		expect($('.flag-rule').text()).toContain('holds one role in some views of an environment');
		expect($('.flag-findings > li')).toHaveLength(1);
		expect($('.flag-findings a[href="/views/production-edge/#user-priya_2eraman"]')).toHaveLength(
			1,
		);
	});
});

describe('review flags on a fixture set that triggers none', () => {
	let folder: string;
	let dist: string;

	beforeAll(async () => {
		folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-no-flags-'));
		dist = path.join(folder, 'dist');
		const result = buildPortal(dist, path.join(ROOT, 'tests/fixtures/review-flags/none/views'));
		if (result.status !== 0) throw new Error(`The build failed:\n${result.output}`);
	});

	afterAll(async () => {
		await rm(folder, { recursive: true, force: true });
	});

	it('says "None found." under each flag, its rule still beside it', async () => {
		const $ = await page(dist, '/access/');
		for (const id of ['several-names', 'role-differs']) {
			const flag = flagOn($, id);
			expect(flag.count, id).toBe(1);
			expect(flag.title, id).toMatch(/ 0 findings$/);
			expect(flag.none, id).toBe('None found.');
			expect(flag.findings, id).toEqual([]);
			expect(flag.rule, id).toMatch(/^Rule\. Flagged when/);
			const own = await page(dist, `/access/flags/${id}/`);
			expect(own('.lede').text(), id).toBe('None found.');
		}
	});
});
