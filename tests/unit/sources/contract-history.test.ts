/**
 * The contract's history as git holds it: each commit that changed openapi.yaml, oldest first,
 * with its author, date, subject, short name and the text before and after; a shallow clone's
 * boundary; a copy without .git and a contract the repository does not track, each said plainly.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
	readContractHistory,
	type ContractHistory,
} from '../../../src/sources/contract-history.ts';
import { gitEnv } from '../../../support/git-repo.ts';
import { breakingEdit, makeContractRepo, type ContractRepo } from '../../support/contract-repo.ts';

let scratch: string;
let made: ContractRepo;

beforeAll(async () => {
	scratch = await mkdtemp(path.join(os.tmpdir(), 'console-portal-contract-history-'));
	made = await makeContractRepo(path.join(scratch, 'repo'));
	// A commit that changes only the views is no commit of the contract.
	await writeFile(path.join(made.views, 'notes.txt'), 'not a fixture\n');
	made.repo.commit('A note beside the views', { author: 'Nobody', date: '2026-09-05T10:00:00Z' });
});

afterAll(async () => {
	if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The history, which must be available. */
function available(history: ContractHistory): Extract<ContractHistory, { available: true }> {
	if (!history.available) throw new Error(`No history: ${history.reason}`);
	return history;
}

describe('the contract history', () => {
	it('lists every commit that changed the contract, oldest first, with its facts', async () => {
		const history = available(await readContractHistory(made.contract));
		expect(history.shallow).toBe(false);
		expect(history.dirty).toBe(false);
		expect(history.start).toBe('2026-09-01T10:00:00.000Z');
		expect(
			history.commits.map(({ hash, short, author, date, subject, status, boundary }) => ({
				hash,
				short,
				author,
				date,
				subject,
				status,
				boundary,
			})),
		).toEqual(
			made.commits.map((commit, index) => ({
				...commit,
				status: index === 0 ? 'added' : 'modified',
				boundary: false,
			})),
		);
		expect(history.head.subject).toBe('A note beside the views');
	});

	it('gives the text before and after each commit', async () => {
		const history = available(await readContractHistory(made.contract));
		const last = history.commits.at(-1);
		const now = await readFile(made.contract, 'utf8');
		expect(last?.after).toBe(now);
		expect(last?.before && breakingEdit(last.before)).toBe(now);
		expect(history.commits[0]?.before).toBeUndefined();
	});

	it('says the contract differs from the commit when it was edited since', async () => {
		const text = await readFile(made.contract, 'utf8');
		try {
			await writeFile(made.contract, `${text}# edited\n`);
			expect(available(await readContractHistory(made.contract)).dirty).toBe(true);
		} finally {
			await writeFile(made.contract, text);
		}
	});

	it('in a shallow clone, marks where history stops and dates its start there', async () => {
		const clone = path.join(scratch, 'shallow');
		execFileSync('git', ['clone', '--quiet', '--depth', '3', `file://${made.repo.folder}`, clone], {
			env: gitEnv(),
		});
		const history = available(await readContractHistory(path.join(clone, 'openapi.yaml')));
		expect(history.shallow).toBe(true);
		expect(history.start).toBe('2026-09-03T10:00:00.000Z');
		expect(history.commits.map(({ subject, boundary }) => [subject, boundary])).toEqual([
			['GET may answer 429', true],
			['A listed user may come without an email', false],
		]);
	});

	it('outside any repository there is no history, and the reason says so', async () => {
		const copy = path.join(scratch, 'copy');
		await cp(made.contract, path.join(copy, 'openapi.yaml'), { recursive: true });
		expect(await readContractHistory(path.join(copy, 'openapi.yaml'))).toEqual({
			available: false,
			reason:
				"the contract's folder is not in a git repository (a copy without .git, or an unpacked archive)",
		});
	});

	it('a contract the repository does not track has no history', async () => {
		const untracked = path.join(made.repo.folder, 'copy.yaml');
		await cp(made.contract, untracked);
		try {
			expect(await readContractHistory(untracked)).toEqual({
				available: false,
				reason: 'the repository the contract lies in does not track copy.yaml',
			});
		} finally {
			await rm(untracked);
		}
	});
});
