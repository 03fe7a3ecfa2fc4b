/**
 * `access.csv`, the export for access reviews: one row per person per view (name, email,
 * environment, configuration label, view, view slug, role), as RFC 4180 CSV with a header row and
 * CRLF line ends, written by csv-stringify. It opens in a spreadsheet as it is: a byte-order mark tells it
 * the text is UTF-8, and a cell that a spreadsheet would run as a formula (starting with `=`, `+`,
 * `-`, `@`, a tab or a carriage return, or the full-width `＝＋－＠` that Apple Numbers reads as
 * them) gets a leading apostrophe, as OWASP advises against CSV injection. Keys and configuration
 * values never enter it.
 */
import { stringify } from 'csv-stringify/sync';
import type { View } from '../schemas/view.ts';
import { compareViews, viewName } from '../shared/views.ts';

/** The header row. */
export const ACCESS_CSV_HEADER = [
	'Name',
	'Email',
	'Environment',
	'Configuration label',
	'View',
	'View slug',
	'Role',
] as const;

/**
 * How a script reads the export, as /access/, the people-and-access guide and the README show it,
 * and as the access-export test runs it beside a built access.csv. The byte-order mark that
 * spreadsheets need would otherwise stay on the first column's name ('\ufeffName').
 */
export const ACCESS_CSV_PYTHON = `import csv

# access.csv starts with a byte-order mark for spreadsheets: 'utf-8-sig' reads past it.
with open('access.csv', newline='', encoding='utf-8-sig') as export:
    for row in csv.DictReader(export):
        print(row['Name'], row['View slug'], row['Role'], sep='\\t')
`;

/** The byte-order mark that makes spreadsheets read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';

/**
 * Rows of fields as CSV text (RFC 4180): a field is quoted, its quotes doubled, only when it holds
 * a quote, comma or line end; CRLF after every record, the last one included; a would-be formula
 * gets its apostrophe.
 */
export function toCsv(rows: readonly (readonly string[])[]): string {
	return stringify([...rows], {
		record_delimiter: 'windows',
		// A lone CR or LF in a field is quoted too, as RFC 4180 asks; csv-stringify quotes only the
		// whole CRLF once a record delimiter is chosen, unless told.
		quote_record_delimiter: true,
		escape_formulas: true,
	});
}

/** The export's rows without the header: views in listing order, each in its directory's order. */
export function accessRows(entries: readonly { slug: string; view: View }[]): string[][] {
	return [...entries]
		.sort(compareViews)
		.flatMap(({ slug, view }) =>
			view.users.map((user) => [
				user.name,
				user.email,
				view.environment,
				view.configuration ?? '',
				viewName(view),
				slug,
				user.role,
			]),
		);
}

/** The whole file: byte-order mark, header row, then one row per person per view. */
export function accessCsv(entries: readonly { slug: string; view: View }[]): string {
	return UTF8_BOM + toCsv([ACCESS_CSV_HEADER, ...accessRows(entries)]);
}
