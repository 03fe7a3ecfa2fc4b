/**
 * What makes two view names one (invisible characters, compatibility forms, case and look-alike
 * letters aside), the length of a fixture's file name, and problem lines that a file name or a
 * value cannot break or colour.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	formatProblems,
	parseFixtureSources,
	printable,
	type FixtureProblem,
} from '../../../src/sources/fixtures.ts';
import { nameKey, nameShape } from '../../../src/shared/views.ts';
import type { View } from '../../../src/schemas/view.ts';
import { ROOT } from '../../../support/processes.ts';

const VIEWS_DIR = path.join(ROOT, 'content/views');
const production = JSON.parse(
	await readFile(path.join(VIEWS_DIR, 'production.json'), 'utf8'),
) as View;
const staging = JSON.parse(
	await readFile(path.join(VIEWS_DIR, 'staging-us-east.json'), 'utf8'),
) as View;

/** The problems of two views given these names: production's and staging's fixtures. */
function namedPair(first: string, second: string): FixtureProblem[] {
	const result = parseFixtureSources([
		{ file: 'views/first.json', text: JSON.stringify({ ...production, name: first }) },
		{ file: 'views/second.json', text: JSON.stringify({ ...staging, name: second }) },
	]);
	return result.ok ? [] : result.problems;
}

/** The one problem of two names that read alike. */
const alike = (first: string, second: string): FixtureProblem => ({
	file: 'views/second.json',
	field: 'name',
	message: `expected a name no other view has, but views/first.json and this view are both named "${first}" and "${second}", which read alike; give one of them a "name" of its own`,
});

describe('the shape and key of a name', () => {
	it('drop what Unicode draws as nothing, fold compatibility forms and runs of spaces', () => {
		expect(nameShape('  Ｐroduction\u200b\u00ad  ·\u2060 \tEdge ')).toBe('Production · Edge');
		expect(nameShape('ﬁle')).toBe('file');
	});

	it('compose what an invisible character held apart', () => {
		expect(nameShape('e\u200b\u0301')).toBe('\u00e9');
	});

	it('keep case in the shape and set it aside in the key', () => {
		expect(nameShape('Production')).toBe('Production');
		expect(nameKey(' Production\u200b ')).toBe('production');
	});
});

describe('two view names that read alike', () => {
	it.each([
		{ what: 'a zero-width space', first: 'Canary', second: 'Can\u200bary' },
		{ what: 'a soft hyphen', first: 'Canary', second: 'Can\u00adary' },
		{ what: 'full-width letters', first: 'Canary', second: 'Ｃａｎａｒｙ' },
		{
			what: 'a Cyrillic letter',
			first: 'production · Production',
			second: '\u0440roduction · Production',
		},
		{ what: 'a Greek capital', first: 'Omega', second: '\u039fmega' },
		{ what: 'a capital I for a small l', first: 'canary-lab', second: 'canary-Iab' },
		{ what: 'a digit one for a small l', first: 'canary-lab', second: 'canary-1ab' },
		{ what: '"rn" for "m"', first: 'modern', second: 'rnodern' },
		{
			what: 'another case and a look-alike letter together',
			first: 'PAYMENTS',
			second: 'payrnents',
		},
		{ what: 'an accent written apart', first: 'Café', second: 'Cafe\u0301' },
	])('are refused when they differ by $what, naming both files', ({ first, second }) => {
		expect(namedPair(first, second)).toEqual([alike(first, second)]);
	});

	it.each([
		{ what: 'a capital L and a capital I', first: 'Canary L', second: 'Canary I' },
		{ what: 'numbers', first: 'Canary 10', second: 'Canary 11' },
		{ what: 'an accent', first: 'Cafe', second: 'Café' },
		{ what: 'a letter', first: 'canary-a', second: 'canary-b' },
		{ what: 'case and a look-alike of another case', first: 'LAB', second: 'Iab' },
	])('are told apart when they differ by $what', ({ first, second }) => {
		expect(namedPair(first, second)).toEqual([]);
	});

	it('are refused once however many of their forms agree', () => {
		expect(namedPair('Same', 'Same')).toEqual([
			{
				file: 'views/second.json',
				field: 'name',
				message:
					'expected a name no other view has, but views/first.json and this view are both named "Same"; give one of them a "name" of its own',
			},
		]);
	});

	it('name the first of three look-alikes in each problem', () => {
		const result = parseFixtureSources([
			{ file: 'views/a.json', text: JSON.stringify({ ...production, name: 'Omega' }) },
			{ file: 'views/b.json', text: JSON.stringify({ ...staging, name: '\u039fmega' }) },
			{
				file: 'views/c.json',
				text: JSON.stringify({
					...staging,
					name: 'omega',
					config: { ...staging.config, api_key: 'ick-0000000c-Cccc' },
					users: staging.users.map((user, index) => ({
						...user,
						apiKey: `ick-0000000${index}-Cccc`,
					})),
				}),
			},
		]);
		const problems = result.ok ? [] : result.problems;
		expect(problems.map(({ file, message }) => [file, message.split(', which')[0]])).toEqual([
			[
				'views/b.json',
				'expected a name no other view has, but views/a.json and this view are both named "Omega" and "\u039fmega"',
			],
			[
				'views/c.json',
				'expected a name no other view has, but views/a.json and this view are both named "Omega" and "omega"',
			],
		]);
	});
});

describe('a fixture’s file name', () => {
	/** The problems of production's fixture under a file name. */
	const problemsOf = (name: string): FixtureProblem[] => {
		const result = parseFixtureSources([
			{ file: `views/${name}.json`, text: JSON.stringify(production) },
		]);
		return result.ok ? [] : result.problems;
	};

	it('may be 63 characters before .json, and not 64', () => {
		expect(problemsOf('p'.repeat(63))).toEqual([]);
		expect(problemsOf(`${'p-'.repeat(31)}p`)).toEqual([]);
		expect(problemsOf('p'.repeat(64))).toEqual([
			{
				file: `views/${'p'.repeat(64)}.json`,
				field: '',
				message: 'expected a file name of at most 63 characters before .json, but this one has 64',
			},
		]);
	});

	it('that is not a slug is refused for that alone, however long', () => {
		expect(problemsOf('P'.repeat(70))).toEqual([
			{
				file: `views/${'P'.repeat(70)}.json`,
				field: '',
				message: 'expected a file name that is a lowercase slug, like staging-us-east.json',
			},
		]);
	});

	it('is refused beside the problems of the fixture’s text', () => {
		const result = parseFixtureSources([{ file: 'views/Bad.json', text: '{"a":1,"a":2}' }]);
		expect(result.ok ? [] : result.problems).toEqual([
			{
				file: 'views/Bad.json',
				field: '',
				message: 'expected a file name that is a lowercase slug, like staging-us-east.json',
			},
			{
				file: 'views/Bad.json',
				field: 'a',
				message:
					'expected once in its object, but line 1 gives it again after line 1 (JSON would keep only the last)',
			},
		]);
	});
});

describe('a problem line', () => {
	it.each([
		{ what: 'a line feed', text: 'a\nb', shown: 'a\\nb' },
		{ what: 'a carriage return', text: 'a\rb', shown: 'a\\rb' },
		{ what: 'a tab', text: 'a\tb', shown: 'a\\tb' },
		{ what: 'an escape sequence', text: '\u001b[31mred', shown: '\\u001b[31mred' },
		{ what: 'a null character', text: 'a\u0000b', shown: 'a\\u0000b' },
		{ what: 'a delete character', text: 'a\u007fb', shown: 'a\\u007fb' },
		{ what: 'a C1 control', text: 'a\u009bb', shown: 'a\\u009bb' },
		{ what: 'a line separator', text: 'a\u2028b', shown: 'a\\u2028b' },
		{ what: 'a right-to-left override', text: 'a\u202eb', shown: 'a\\u202eb' },
		{ what: 'a zero-width space', text: 'a\u200bb', shown: 'a\\u200bb' },
		{ what: 'a no-break space', text: 'a\u00a0b', shown: 'a\\u00a0b' },
		{ what: 'a tag character', text: 'a\u{e0001}b', shown: 'a\\u{e0001}b' },
		{ what: 'the last code point of the first plane', text: 'a\uffffb', shown: 'a\\uffffb' },
	])('writes $what as an escape', ({ text, shown }) => {
		expect(printable(text)).toBe(shown);
	});

	it('leaves spaces, letters of any script and symbols as they are', () => {
		expect(printable('views/ä ö · 本 € 😀.json')).toBe('views/ä ö · 本 € 😀.json');
	});

	it('escapes the file, the field and the message alike, one line each', () => {
		const text = formatProblems([
			{ file: 'views/x\n  views/y.json', field: 'a\u001b[2Jb', message: 'expected "\u200b"' },
			{ file: 'views/z.json', field: '', message: 'expected more' },
		]);
		expect(text.split('\n')).toEqual([
			'Invalid view fixtures (2 problems):',
			'  views/x\\n  views/y.json: a\\u001b[2Jb: expected "\\u200b"',
			'  views/z.json: expected more',
		]);
	});
});
