/**
 * `access.csv`, the export for access reviews: one row per person per view (name, email,
 * environment, configuration label, view, role), as RFC 4180 CSV with a header row and CRLF line
 * ends. It opens in a spreadsheet as it is: a byte-order mark tells it the text is UTF-8, and a
 * cell that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return) gets a leading apostrophe, as OWASP advises against CSV injection. Keys and
 * configuration values never enter it.
 */
import type { View } from '../schemas/view.ts';
import { compareViews, viewName } from '../shared/views.ts';

/** The header row. */
export const ACCESS_CSV_HEADER = [
	'Name',
	'Email',
	'Environment',
	'Configuration label',
	'View',
	'Role',
] as const;

/** The byte-order mark that makes spreadsheets read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';

/** Characters that make a spreadsheet read a cell as a formula when they come first. */
const FORMULA_START = /^[=+\-@\t\r]/u;

/** A value as a spreadsheet should show it: a would-be formula gets a leading apostrophe. */
export function neutralizeFormula(value: string): string {
	return FORMULA_START.test(value) ? `'${value}` : value;
}

/** One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a quote, comma or line end. */
export function csvField(value: string): string {
	const safe = neutralizeFormula(value);
	return /[",\r\n]/u.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Rows of fields as CSV text: CRLF after every record, the last one included. */
export function toCsv(rows: readonly (readonly string[])[]): string {
	return rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('');
}

/** The export's rows without the header: views in listing order, each in its directory's order. */
export function accessRows(entries: readonly { slug: string; view: View }[]): string[][] {
	return [...entries]
		.sort(compareViews)
		.flatMap(({ view }) =>
			view.users.map((user) => [
				user.name,
				user.email,
				view.environment,
				view.configuration ?? '',
				viewName(view),
				user.role,
			]),
		);
}

/** The whole file: byte-order mark, header row, then one row per person per view. */
export function accessCsv(entries: readonly { slug: string; view: View }[]): string {
	return UTF8_BOM + toCsv([ACCESS_CSV_HEADER, ...accessRows(entries)]);
}
