/** access.csv as a spreadsheet reads it: RFC 4180 fields, and no cell that runs as a formula. */
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ACCESS_CSV_HEADER, accessCsv, toCsv, UTF8_BOM } from '../../../src/site/access-csv.ts';
import { loadViews } from '../../../src/sources/fixtures.ts';
import { ROOT } from '../../../support/processes.ts';

const fixtures = await loadViews(path.join(ROOT, 'content/views'));

/** One value as the export writes it: a record of one field, without its CRLF. */
function csvField(value: string): string {
	const record = toCsv([[value]]);
	expect(record.endsWith('\r\n')).toBe(true);
	return record.slice(0, -2);
}

describe('CSV fields', () => {
	it.each([
		['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
		['+1+2', "'+1+2"],
		['-2+3', "'-2+3"],
		['@SUM(A1)', "'@SUM(A1)"],
		['\tTabbed', "'\tTabbed"],
		['\r=1', `"'\r=1"`],
		// Full-width signs, which Apple Numbers reads as formulas too.
		['\uFF1D1+1', "'\uFF1D1+1"],
		['\uFF0B1', "'\uFF0B1"],
		['\uFF0D1', "'\uFF0D1"],
		['\uFF20SUM(A1)', "'\uFF20SUM(A1)"],
	])('puts an apostrophe before a would-be formula: %j', (value, field) => {
		expect(csvField(value)).toBe(field);
	});

	it('leaves ordinary text alone, and a sign inside a value', () => {
		expect(csvField('Amara Okafor')).toBe('Amara Okafor');
		expect(csvField('dr-eu-west · DR failover')).toBe('dr-eu-west · DR failover');
		expect(csvField('a=b')).toBe('a=b');
		expect(csvField('')).toBe('');
		expect(csvField("O'Connor")).toBe("O'Connor");
	});

	it('quotes fields with commas, quotes and line ends, doubling the quotes', () => {
		expect(csvField('Okafor, Amara')).toBe('"Okafor, Amara"');
		expect(csvField('Amara "Ama" Okafor')).toBe('"Amara ""Ama"" Okafor"');
		expect(csvField('two\nlines')).toBe('"two\nlines"');
		expect(csvField('a lone\rreturn')).toBe('"a lone\rreturn"');
		expect(csvField('crlf\r\ninside')).toBe('"crlf\r\ninside"');
	});

	it('reads back, through a CSV parser, as the values it was given (formulas neutralized)', () => {
		const rows = [
			["Niamh O'Connor", 'a,b', 'say "hi"', 'line\r\nend', '=1+1', 'Zoë'],
			['', ' spaced ', '-', '@', '+', 'plain'],
		];
		const text = toCsv(rows);
		expect(text.endsWith('\r\n')).toBe(true);
		expect(parse(text, { relax_column_count: false })).toEqual([
			["Niamh O'Connor", 'a,b', 'say "hi"', 'line\r\nend', "'=1+1", 'Zoë'],
			['', ' spaced ', "'-", "'@", "'+", 'plain'],
		]);
	});
});

describe('the export', () => {
	const text = accessCsv(fixtures);
	const records = parse(text, { bom: true });

	it('starts with a byte-order mark, has a header row and ends every record with CRLF', () => {
		expect(text.startsWith(UTF8_BOM)).toBe(true);
		expect(records[0]).toEqual([...ACCESS_CSV_HEADER]);
		expect(records[0]).toEqual([
			'Name',
			'Email',
			'Environment',
			'Configuration label',
			'View',
			'View slug',
			'Role',
		]);
		expect(text.split('\r\n')).toHaveLength(records.length + 1);
	});

	it('has one row per person per view, with exactly the fixtures’ names, emails, views and roles', () => {
		const expected = fixtures.flatMap(({ slug, view }) =>
			view.users.map((user) =>
				[
					user.name,
					user.email,
					view.environment,
					view.configuration ?? '',
					view.name ??
						(view.configuration ? `${view.environment} · ${view.configuration}` : view.environment),
					slug,
					user.role,
				].join('\u0000'),
			),
		);
		const rows = records.slice(1).map((row) => row.join('\u0000'));
		expect(rows.sort()).toEqual(expected.sort());
	});
});
