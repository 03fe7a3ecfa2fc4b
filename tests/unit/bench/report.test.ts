/**
 * Every benchmark's result says when it was taken, at which commit, how busy the machine was
 * before and after, and for each budget "met" or "MISSED": the line `runLine` writes under each
 * title, and the scripts that write results only through it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
	commitOf,
	machine,
	resultMarkdown,
	runFacts,
	runLine,
	verdict,
} from '../../../bench/lib/report.ts';
import { ROOT } from '../../../support/processes.ts';

/** Scripts in bench/ that measure nothing and write no result. */
const NOT_BENCHMARKS = new Set([
	'generate-views.ts',
	'install.ts',
	'starlight-site.ts',
	'tools.ts',
]);

const scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-report-test-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

/** Runs git in a folder, quietly, as a test author with no global settings. */
function git(folder: string, ...args: string[]): void {
	execFileSync(
		'git',
		['-c', 'user.name=Bench Test', '-c', 'user.email=bench@example.com', ...args],
		{ cwd: folder, stdio: 'ignore' },
	);
}

describe('the line under a result’s title', () => {
	it('gives the date, the commit, the load average before and after, and the machine', () => {
		const line = runLine(
			{
				date: '2026-11-29T08:00:00.000Z',
				commit: '88c3c38 with changes',
				load: { before: 1.234, after: 30.5 },
			},
			machine(),
		);
		expect(line).toMatch(
			/^2026-11-29T08:00:00\.000Z, commit 88c3c38 with changes, load average \(1 min\) 1\.23 before and 30\.50 after; \d+ cores \(.*\), .* GiB memory, .*, Node v\d+/,
		);
	});

	it('is the second paragraph of every result written, under its title', () => {
		const facts = runFacts();
		const markdown = resultMarkdown({ title: 'Build scale', markdown: '| a |\n|---|\n' }, facts);
		const [title, , line, , table] = markdown.split('\n');
		expect(title).toBe('# Build scale');
		expect(line).toBe(runLine(facts));
		expect(table).toBe('| a |');
		expect(facts.load.before).toBeGreaterThanOrEqual(0);
		expect(facts.load.after).toBeGreaterThanOrEqual(0);
	});

	it('says "with changes" when the checkout differs from its commit', async () => {
		const folder = await mkdtemp(path.join(scratch, 'checkout-'));
		git(folder, 'init', '-q');
		await writeFile(path.join(folder, 'openapi.yaml'), 'openapi: 3.2.0\n');
		git(folder, 'add', 'openapi.yaml');
		git(folder, 'commit', '-q', '-m', 'contract');
		expect(commitOf(folder)).toMatch(/^[0-9a-f]{7,}$/);
		await writeFile(path.join(folder, 'openapi.yaml'), 'openapi: 3.1.0\n');
		expect(commitOf(folder)).toMatch(/^[0-9a-f]{7,} with changes$/);
	});

	it('says where there is no checkout instead of naming a commit', () => {
		expect(commitOf(scratch)).toBe('not a git checkout');
	});
});

describe('the benchmarks in bench/', () => {
	const folder = path.join(ROOT, 'bench');

	it('each write their result under the shared line (writeResult or runLine), none with its own', async () => {
		const scripts = (await readdir(folder)).filter(
			(file) => file.endsWith('.ts') && !file.endsWith('.d.ts') && !NOT_BENCHMARKS.has(file),
		);
		expect(scripts.length).toBeGreaterThan(15);
		const without: string[] = [];
		for (const script of scripts) {
			const text = await readFile(path.join(folder, script), 'utf8');
			// A script may write through a module of bench/lib it imports (bench:build through build-measure.ts).
			const libraries = [...text.matchAll(/from '\.\/lib\/([\w-]+\.ts)'/g)].map(([, file]) =>
				readFileSync(path.join(folder, 'lib', file ?? ''), 'utf8'),
			);
			if (![text, ...libraries].some((code) => /\b(?:writeResult|runLine)\(/.test(code)))
				without.push(script);
			if (/machineLine\(/.test(text)) without.push(`${script} (its own line)`);
		}
		expect(without).toEqual([]);
	});

	it('each say a budget’s verdict as "met" or "MISSED" through verdict()', async () => {
		const files = ['.', 'lib'].flatMap((under) =>
			readdirSync(path.join(folder, under))
				.filter((file) => file.endsWith('.ts') && file !== 'report.ts')
				.map((file) => path.join(under, file)),
		);
		const byHand: string[] = [];
		for (const file of files) {
			const text = await readFile(path.join(folder, file), 'utf8');
			if (/'missed'|\? 'met'|'met' :/.test(text)) byHand.push(file);
		}
		expect(byHand).toEqual([]);
		expect([true, false, undefined].map(verdict)).toEqual(['met', 'MISSED', 'not measured']);
	});
});
