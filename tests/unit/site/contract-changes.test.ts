/**
 * The contract's changelog: each commit to openapi.yaml, newest first, with its changes as
 * api-smart-diff classifies them (a breaking change, a non-breaking one, documentation only), a
 * change to a shared component told where an operation uses it, an unreadable version skipped
 * over, and a shallow clone's first commit as the start of history.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	compareContracts,
	contractChangelog,
	countsInWords,
	isDocumentationOnly,
	type ContractEntry,
} from '../../../src/site/contract-changes.ts';
import type { ContractCommit } from '../../../src/sources/contract-history.ts';
import { parseContract } from '../../../src/sources/contract.ts';
import { ROOT } from '../../../support/processes.ts';
import { breakingEdit, documentationEdit, nonBreakingEdit } from '../../support/contract-repo.ts';

const original = await readFile(path.join(ROOT, 'openapi.yaml'), 'utf8');

/** A commit of the contract file on day `day`, from `before` to `after`. */
function commit(
	day: number,
	before: string | undefined,
	after: string | undefined,
	boundary = false,
): ContractCommit {
	return {
		hash: `${day}`.repeat(40),
		short: `${day}`.repeat(7),
		date: `2026-09-0${day}T10:00:00.000Z`,
		author: `Author ${day}`,
		subject: `Commit ${day}`,
		status: before === undefined ? 'added' : after === undefined ? 'removed' : 'modified',
		boundary,
		before,
		after,
	};
}

/** An entry as `kind short: class description` lines, for comparing whole changelogs. */
function lines(entries: readonly ContractEntry[]): string[] {
	return entries.flatMap((entry) => [
		`${entry.kind} ${entry.commit.short}`,
		...entry.changes.map((change) => `  ${change.class}: ${change.description}`),
	]);
}

const documented = documentationEdit(original);
const widened = nonBreakingEdit(documented);
const broken = breakingEdit(widened);

describe('the contract changelog', () => {
	it('classifies a breaking and a non-breaking change, newest commit first', () => {
		const entries = contractChangelog([
			commit(1, undefined, original),
			commit(2, original, documented),
			commit(3, documented, widened),
			commit(4, widened, broken),
		]);
		expect(lines(entries)).toEqual([
			'changed 4444444',
			'  breaking: [Removed] required status from `users[].email` in Response 200 content (application/json)',
			'changed 3333333',
			'  non-breaking: [Added] Response 429',
			'changed 2222222',
			'  annotation: [Replaced] annotation (summary)',
			'added 1111111',
		]);
		expect(entries.map((entry) => countsInWords(entry.counts))).toEqual([
			'1 breaking',
			'1 non-breaking',
			'1 documentation',
			'no change clients see',
		]);
	});

	it('keeps each commit’s author, date, subject and names', () => {
		const [entry] = contractChangelog([
			commit(1, undefined, original),
			commit(2, original, broken),
		]);
		expect(entry?.commit).toEqual({
			hash: '2'.repeat(40),
			short: '2222222',
			date: '2026-09-02T10:00:00.000Z',
			author: 'Author 2',
			subject: 'Commit 2',
		});
	});

	it('tells a change to a shared component where an operation uses it, and counts the rest', () => {
		const { changes, components } = compareContracts(
			parseContract(widened, 'before'),
			parseContract(broken, 'after'),
		);
		expect(changes.map((change) => change.where)).toEqual([
			'paths › /api/v2/users › get › responses › 200 › content › application/json › schema › properties › users › items › required › 1',
		]);
		expect(components).toBe(1);
	});

	it('names a change the library gives no words for by what was done and to what, as documentation when it is an example', () => {
		const before = parseContract(original, 'before');
		const after = structuredClone(before);
		const options = (after['paths'] as Record<string, Record<string, { parameters: object[] }>>)[
			'/api/v2/users'
		]?.['options'];
		options?.parameters.splice(0, 1, {
			...options.parameters[0],
			example: 'http://localhost:8080',
		});
		expect(compareContracts(before, after).changes).toEqual([
			{
				class: 'annotation',
				action: 'replace',
				where: 'paths › /api/v2/users › options › parameters › 0 › example',
				description: '[Replaced] example',
			},
		]);
	});

	it('says a version is unreadable and compares the next readable one with the last', () => {
		const entries = contractChangelog([
			commit(1, undefined, original),
			commit(2, original, 'paths: [unclosed'),
			commit(3, 'paths: [unclosed', broken),
		]);
		expect(entries.map((entry) => entry.kind)).toEqual(['changed', 'unreadable', 'added']);
		expect(entries[1]?.problem).toMatch(/^openapi\.yaml at 2222222: expected valid YAML/);
		expect(entries[0]?.counts.breaking).toBe(1);
		expect(entries[0]?.counts['non-breaking']).toBe(1);
	});

	it('starts at a shallow clone’s boundary instead of calling the contract added there', () => {
		const entries = contractChangelog([
			commit(2, undefined, widened, true),
			commit(3, widened, broken),
		]);
		expect(entries.map((entry) => entry.kind)).toEqual(['changed', 'start']);
		expect(entries[0]?.counts.breaking).toBe(1);
	});

	it('says when a commit removed the contract, and one that adds it again adds it', () => {
		const entries = contractChangelog([
			commit(1, undefined, original),
			commit(2, original, undefined),
			commit(3, undefined, broken),
		]);
		expect(entries.map((entry) => entry.kind)).toEqual(['added', 'removed', 'added']);
	});

	it('tells a commit of documentation only from one with a change clients meet', () => {
		const entries = contractChangelog([
			commit(1, undefined, original),
			commit(2, original, documented),
			commit(3, documented, broken),
		]);
		expect(entries.map(isDocumentationOnly)).toEqual([false, true, false]);
		const [added] = contractChangelog([commit(1, undefined, original)]);
		if (!added) throw new Error('No entry');
		expect(isDocumentationOnly(added)).toBe(false);
		expect(isDocumentationOnly({ ...added, kind: 'changed' })).toBe(false);
	});
});
