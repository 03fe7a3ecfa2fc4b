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
import { URL_MAX_LENGTH } from '../../../src/schemas/address.ts';
import { hasVisibleText, invisibleCharacter } from '../../../src/schemas/text.ts';
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

describe('the limits on a fixture’s addresses and secrets', () => {
	const DATABASE = 'postgresql://@db.example:5432/console';
	const REDIS = 'redis://:@cache.example:6379/0';
	/** A URL of `length` characters, made so by a user name or password in its place (`@`, `:@`). */
	const long = (url: string, mark: string, length: number): string =>
		url.replace(mark, `${mark.slice(0, -1)}${'u'.repeat(length - url.length)}@`);

	it('are the ones the README states', () => {
		expect(URL_MAX_LENGTH).toBe(2048);
	});

	it('take a database_url or redis_url of 2,048 characters and refuse one of 2,049', () => {
		for (const [field, url, mark] of [
			['database_url', DATABASE, '//@'],
			['redis_url', REDIS, ':@'],
		] as const) {
			const at = long(url, mark, 2048);
			expect(at, field).toHaveLength(2048);
			expect(issuesOf((view) => (view.config[field] = at))).toEqual([]);
			expect(issuesOf((view) => (view.config[field] = long(url, mark, 2049)))).toEqual([
				{
					path: ['config', field],
					message: 'expected a URL of at most 2048 characters, but this one has 2049',
				},
			]);
		}
	});

	it('refuse a database name of 10 MB by its length alone, at once', () => {
		const huge = `postgresql://app@db.example:5432/${'d'.repeat(10_000_000)}`;
		const started = performance.now();
		expect(issuesOf((view) => (view.config.database_url = huge))).toEqual([
			{
				path: ['config', 'database_url'],
				message: `expected a URL of at most 2048 characters, but this one has ${huge.length}`,
			},
		]);
		expect(performance.now() - started).toBeLessThan(500);
	});

	it('take a database name of 63 characters and refuse one of 64, longer than PostgreSQL keeps', () => {
		const named = (name: string) => (view: View) =>
			(view.config.database_url = `postgresql://app@db.example:5432/${name}`);
		expect(issuesOf(named('d'.repeat(63)))).toEqual([]);
		expect(issuesOf(named('d'.repeat(64)))).toEqual([
			{
				path: ['config', 'database_url'],
				message:
					'expected a database name of at most 63 characters, as PostgreSQL keeps, but this one has 64',
			},
		]);
	});

	const INVISIBLE = [
		{ what: 'a zero-width space', character: '\u200b', code: '200B' },
		{ what: 'a zero-width non-joiner', character: '\u200c', code: '200C' },
		{ what: 'a zero-width joiner', character: '\u200d', code: '200D' },
		{ what: 'a word joiner', character: '\u2060', code: '2060' },
		{ what: 'a byte-order mark', character: '\ufeff', code: 'FEFF' },
		{ what: 'a soft hyphen', character: '\u00ad', code: '00AD' },
		{ what: 'a Mongolian vowel separator', character: '\u180e', code: '180E' },
		{ what: 'a right-to-left override', character: '\u202e', code: '202E' },
		{ what: 'a left-to-right isolate', character: '\u2066', code: '2066' },
		{ what: 'a combining grapheme joiner', character: '\u034f', code: '034F' },
		{ what: 'a variation selector', character: '\ufe0f', code: 'FE0F' },
		{ what: 'a Hangul filler', character: '\u3164', code: '3164' },
		{ what: 'a tag character, outside the BMP', character: '\u{e0041}', code: 'E0041' },
		{ what: 'a control character', character: '\u0007', code: '0007' },
		{ what: 'a next-line control, which \\s does not match', character: '\u0085', code: '0085' },
		{ what: 'a no-break space', character: '\u00a0', code: '00A0' },
		{ what: 'a line separator', character: '\u2028', code: '2028' },
		{ what: 'a private-use character', character: '\ue000', code: 'E000' },
		{ what: 'an unassigned code point', character: '\u0378', code: '0378' },
		{ what: 'a lone surrogate', character: '\ud800', code: 'D800' },
	];

	it.each(INVISIBLE)('find $what, naming where it is and its code point', ({ character, code }) => {
		expect(invisibleCharacter(`abc${character}def`)).toBe(`character 4 is U+${code}`);
		expect(invisibleCharacter(`${character}`)).toBe(`character 1 is U+${code}`);
	});

	it('count characters, not UTF-16 units, to say where an invisible one is', () => {
		expect(invisibleCharacter('😀😀\u200b')).toBe('character 3 is U+200B');
		expect(invisibleCharacter('x\u200by\u200c')).toBe('character 2 is U+200B');
	});

	it.each(['s3cr3t', 'fake-€-本-·-😀', 'a'])('find nothing invisible in %j', (text) => {
		expect(invisibleCharacter(text)).toBeUndefined();
	});

	it.each(
		// JavaScript's \s holds these three: refused as spaces already, as the next test shows.
		INVISIBLE.filter(({ code }) => !/^(?:00A0|2028|FEFF)$/.test(code)),
	)('refuse $what inside a secret, naming the field and where it is', ({ character, code }) => {
		expect(issuesOf((view) => (view.config.secret_key = `fake${character}-session`))).toEqual([
			{
				path: ['config', 'secret_key'],
				message: `expected a secret without invisible characters, but character 5 is U+${code}`,
			},
		]);
	});

	it('refuse a zero-width space in each secret, and a space as before, once', () => {
		for (const field of [
			'secret_key',
			'jwt_secret',
			'smtp_password',
			'payment_secret',
			'cloud_access_key',
			'cloud_secret_key',
		] as const) {
			expect(issuesOf((view) => (view.config[field] = 'x\u200b'))).toEqual([
				{
					path: ['config', field],
					message: 'expected a secret without invisible characters, but character 2 is U+200B',
				},
			]);
		}
		expect(issuesOf((view) => (view.config.jwt_secret = 'a b\u200b'))).toEqual([
			{
				path: ['config', 'jwt_secret'],
				message: 'expected a non-empty secret string without spaces',
			},
		]);
		for (const space of ['\u00a0', '\u2028', '\ufeff']) {
			expect(issuesOf((view) => (view.config.jwt_secret = `a${space}b`))).toEqual([
				{
					path: ['config', 'jwt_secret'],
					message: 'expected a non-empty secret string without spaces',
				},
			]);
		}
		expect(issuesOf((view) => (view.config.jwt_secret = 'fake-€-本-😀'))).toEqual([]);
	});

	it.each([
		['database_url', 'postgresql://ap\u200bp@db.example:5432/console', 16],
		['database_url', 'postgresql://app@db\u200b.example:5432/console', 20],
		['redis_url', 'redis://:p\u200bw@cache.example:6379/0', 11],
	] as const)('refuse an invisible character in %s %j, naming where it is', (field, url, at) => {
		expect(issuesOf((view) => (view.config[field] = url))).toEqual([
			{
				path: ['config', field],
				message: `expected a URL without spaces or invisible characters, but character ${at} is U+200B`,
			},
		]);
	});
});
