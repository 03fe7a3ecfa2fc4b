/**
 * The limits that keep a fixture's fields fit for the paths and pages made from them: slugs and
 * emails short enough for a file name, and names, labels and status notes that show something.
 * Each limit is tried at its edge and one past it.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	EMAIL_LOCAL_MAX_LENGTH,
	EMAIL_MAX_LENGTH,
	SLUG_MAX_LENGTH,
	viewSchema,
	type View,
} from '../../../src/schemas/view.ts';
import { hasVisibleText } from '../../../src/schemas/text.ts';
import { ROOT } from '../../../support/processes.ts';

const base = JSON.parse(
	await readFile(path.join(ROOT, 'content/views/production.json'), 'utf8'),
) as View;

/** The schema's issues for a changed copy of a good fixture: path and message of each. */
function issuesOf(change: (view: View) => void): { path: PropertyKey[]; message: string }[] {
	const view = structuredClone(base);
	change(view);
	const result = viewSchema.safeParse(view);
	return result.success ? [] : result.error.issues.map(({ path, message }) => ({ path, message }));
}

/** Sets the first user's email. */
const firstEmail = (email: string) => (view: View) => {
	const user = view.users[0];
	if (user) user.email = email;
};

const VISIBLE = 'with visible text, not only spaces or invisible characters';

describe('the limits a fixture is held to', () => {
	it('are the ones the README and the guide state', () => {
		expect([SLUG_MAX_LENGTH, EMAIL_MAX_LENGTH, EMAIL_LOCAL_MAX_LENGTH]).toEqual([63, 254, 64]);
	});

	it('take an environment of 63 characters and refuse one of 64, which no path could hold', () => {
		expect(issuesOf((view) => (view.environment = 'e'.repeat(63)))).toEqual([]);
		expect(issuesOf((view) => (view.environment = `${'e-'.repeat(31)}e`))).toEqual([]);
		expect(issuesOf((view) => (view.environment = 'e'.repeat(64)))).toEqual([
			{ path: ['environment'], message: 'expected a slug of at most 63 characters' },
		]);
	});

	it('refuse a long environment that is not a slug for that alone', () => {
		expect(issuesOf((view) => (view.environment = 'E'.repeat(64)))).toEqual([
			{ path: ['environment'], message: 'expected a lowercase slug like "staging-us-east"' },
			{ path: ['environment'], message: 'expected a slug of at most 63 characters' },
		]);
	});

	it('take an email of 254 characters and refuse one of 255, before a 10 MB one costs anything', () => {
		// 64 before the "@", so only the whole length is at its edge: a domain of many labels.
		const domain = `${'d'.repeat(63)}.${'d'.repeat(63)}.${'d'.repeat(49)}.example.com`;
		const at254 = `${'l'.repeat(EMAIL_MAX_LENGTH - domain.length - 1)}@${domain}`;
		expect(at254).toHaveLength(254);
		expect(issuesOf(firstEmail(at254))).toEqual([
			{ path: ['users', 0, 'email'], message: 'expected an email address at example.com' },
		]);
		expect(issuesOf(firstEmail(`l${at254}`))).toEqual([
			{
				path: ['users', 0, 'email'],
				message: 'expected an email address of at most 254 characters',
			},
		]);
		const huge = `${'l'.repeat(10_000_000)}@example.com`;
		expect(issuesOf(firstEmail(huge))).toEqual([
			{
				path: ['users', 0, 'email'],
				message: 'expected an email address of at most 254 characters',
			},
		]);
	});

	it('take 64 characters before the "@" and refuse 65, the most a mailbox name may have', () => {
		expect(issuesOf(firstEmail(`${'l'.repeat(64)}@example.com`))).toEqual([]);
		expect(issuesOf(firstEmail(`${'l'.repeat(65)}@example.com`))).toEqual([
			{
				path: ['users', 0, 'email'],
				message: 'expected at most 64 characters before the "@"',
			},
		]);
	});

	it.each([
		{ what: 'a zero-width space', text: '\u200b' },
		{ what: 'a soft hyphen', text: '\u00ad' },
		{ what: 'a Hangul filler', text: '\u3164' },
		{ what: 'a no-break space', text: '\u00a0' },
		{ what: 'a right-to-left override', text: '\u202e' },
		{ what: 'a byte-order mark', text: '\ufeff' },
		{ what: 'a private-use character', text: '\ue000' },
		{ what: 'an unassigned code point', text: '\u0378' },
		{ what: 'a line separator', text: '\u2028' },
		{ what: 'a control character', text: '\u0007' },
	])('hold $what alone to show nothing', ({ text }) => {
		expect(hasVisibleText(text)).toBe(false);
		expect(hasVisibleText(`${text}${text}`)).toBe(false);
	});

	it.each([
		{ what: 'a letter', text: 'a' },
		{ what: 'a digit', text: '7' },
		{ what: 'a punctuation mark', text: '·' },
		{ what: 'a symbol', text: '€' },
		{ what: 'a CJK character', text: '本' },
		{ what: 'a letter among invisible characters', text: '\u200bx\u200b' },
	])('hold $what to show something', ({ text }) => {
		expect(hasVisibleText(text)).toBe(true);
	});

	it.each([
		{ field: 'name', change: (view: View, text: string) => (view.name = text) },
		{
			field: 'configuration',
			what: 'configuration label',
			change: (view: View, text: string) => (view.configuration = text),
		},
		{
			field: 'statusNote',
			what: 'status note',
			change: (view: View, text: string) => (view.statusNote = text),
		},
	])('refuse a $field that shows nothing, once', ({ field, what, change }) => {
		const message = `expected a ${what ?? 'name'} ${VISIBLE}`;
		expect(issuesOf((view) => change(view, '\u200b\u200b'))).toEqual([{ path: [field], message }]);
		expect(issuesOf((view) => change(view, ' \u200b x'))).toEqual([]);
	});

	it('refuse a user name that shows nothing, once', () => {
		const change = (name: string) => (view: View) => {
			const user = view.users[5];
			if (user) user.name = name;
		};
		expect(issuesOf(change('\u2060\u200d'))).toEqual([
			{ path: ['users', 5, 'name'], message: `expected a name ${VISIBLE}` },
		]);
		expect(issuesOf(change('\u200dZ'))).toEqual([]);
	});

	it('refuse an empty name, label or note as empty alone, not also as invisible', () => {
		expect(
			issuesOf((view) => {
				view.name = ' ';
				view.configuration = '';
				view.statusNote = '\t';
				const user = view.users[1];
				if (user) user.name = '  ';
			}),
		).toEqual([
			{ path: ['name'], message: 'expected a non-empty name, or no field at all' },
			{
				path: ['configuration'],
				message: 'expected a non-empty configuration label, or no field at all',
			},
			{ path: ['users', 1, 'name'], message: 'expected a non-empty name' },
			{ path: ['statusNote'], message: 'expected a non-empty status note' },
		]);
	});
});
