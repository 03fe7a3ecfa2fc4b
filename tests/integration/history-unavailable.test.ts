/**
 * Building without the whole history: from a copy of the views and the contract without .git (as
 * from an unpacked archive) and from a shallow clone. Both builds succeed; the pages, the
 * contract's changelog among them, say plainly that history is unavailable, or where the shallow
 * clone's history starts, and show only what it holds.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { load } from 'cheerio';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPortalAsync } from '../../support/build.ts';
import { gitEnv } from '../../support/git-repo.ts';
import { ROOT } from '../../support/processes.ts';
import { makeHistoryRepo, type HistoryRepo } from '../support/history-repo.ts';

let folder: string;
let scripted: HistoryRepo;
const dists = { copy: '', shallow: '' };

beforeAll(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-no-history-'));
	scripted = await makeHistoryRepo(path.join(folder, 'repo'));
	const copy = path.join(folder, 'copy', 'views');
	await cp(scripted.views, copy, { recursive: true });
	// The contract beside the views, out of git too: the copy stands for contract-changes.test.ts's
	// copy without .git as well, one build for both.
	const contract = path.join(folder, 'copy', 'openapi.yaml');
	await cp(path.join(ROOT, 'openapi.yaml'), contract);
	const clone = path.join(folder, 'shallow');
	execFileSync(
		'git',
		['clone', '--quiet', '--depth', '2', `file://${scripted.repo.folder}`, clone],
		{
			env: gitEnv(),
		},
	);
	// The two builds side by side, each a process of its own (support/build.ts gives each its own
	// folders): one after another, the file spent two builds' time in this hook.
	const builds = {
		copy: { views: copy, env: { PORTAL_OPENAPI: contract } },
		shallow: { views: path.join(clone, 'content', 'views'), env: {} },
	};
	const results = await Promise.all(
		(Object.entries(builds) as [keyof typeof builds, (typeof builds)['copy']][]).map(
			async ([name, { views, env }]) => {
				dists[name] = path.join(folder, `dist-${name}`);
				return { name, result: await buildPortalAsync(dists[name], views, env) };
			},
		),
	);
	for (const { name, result } of results) {
		if (result.status !== 0) throw new Error(`The ${name} build failed:\n${result.output}`);
	}
}, 600_000);

afterAll(async () => {
	if (folder) await rm(folder, { recursive: true, force: true });
});

/** A page of one of the builds, parsed. */
async function page(build: keyof typeof dists, address: string) {
	return load(await readFile(path.join(dists[build], address, 'index.html'), 'utf8'));
}

/** The main text of a page, its spaces made one. */
function text($: ReturnType<typeof load>): string {
	return $('main').text().replace(/\s+/g, ' ');
}

describe('a copy without .git', () => {
	it('builds, and every history page says plainly that history is unavailable and why', async () => {
		for (const address of [
			'access/changes',
			'access/since',
			'views/production-main/history',
			'people/priya.raman',
		]) {
			const $ = await page('copy', address);
			expect($('[data-history="unavailable"]').length, address).toBe(1);
			expect(text($), address).toContain(
				'History unavailable: the views folder is not in a git repository (a copy without .git, or an unpacked archive).',
			);
			expect($('table.changes').length, address).toBe(0);
		}
	});

	it('exports no change, and names no commit, saying why', async () => {
		const csv = await readFile(path.join(dists.copy, 'access-changes.csv'), 'utf8');
		expect(parse(csv, { bom: true })).toHaveLength(1);
		const manifest = JSON.parse(await readFile(path.join(dists.copy, 'exports.json'), 'utf8')) as {
			commit: unknown;
			reason: string;
			exports: { commit: unknown }[];
		};
		expect(manifest.commit).toBeNull();
		expect(manifest.reason).toMatch(/not in a git repository/);
		expect(manifest.exports.every((entry) => entry.commit === null)).toBe(true);
		const since = JSON.parse(
			await readFile(path.join(dists.copy, 'access-since.json'), 'utf8'),
		) as {
			available: boolean;
			now: unknown[];
		};
		expect(since.available).toBe(false);
		expect(since.now.length).toBeGreaterThan(0);
	});

	it("says plainly on the contract's changelog that history is unavailable and why", async () => {
		const $ = await page('copy', 'reference/changes');
		expect($('[data-history="unavailable"]').length).toBe(1);
		expect(text($)).toContain(
			"History unavailable: the contract's folder is not in a git repository (a copy without .git, or an unpacked archive). Only today's contract is shown, on the API reference.",
		);
		expect($('section.history-commit').length).toBe(0);
		const twin = await readFile(path.join(dists.copy, 'reference', 'changes.md'), 'utf8');
		expect(twin).toContain("**History unavailable:** the contract's folder is not in a git");
	});
});

describe('a shallow clone', () => {
	it('builds, and says where its history starts on every history page', async () => {
		for (const address of ['access/changes', 'access/since', 'views/production-main/history']) {
			const $ = await page('shallow', address);
			expect($('[data-history="shallow"]').length, address).toBe(1);
			expect(text($), address).toContain('History from 2026-10-06 on; the clone is shallow.');
		}
	});

	it('shows only the changes after where its history starts, not the state it starts from as added', async () => {
		const $ = await page('shallow', 'access/changes');
		const changes = $('table.changes tbody tr')
			.toArray()
			.map((row) => `${$(row).find('th .email').text()} ${$(row).find('td.change').text().trim()}`);
		expect(changes).toEqual(
			scripted.staging.users.map((user) => `${user.email} Granted ${user.role}`),
		);
		const history = await page('shallow', 'views/production-main/history');
		expect(history('section.history-commit').length).toBe(0);
		expect(text(history)).toContain('No commit changed this view in the history there is.');
	});
});
