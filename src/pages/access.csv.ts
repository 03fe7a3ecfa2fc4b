/** `access.csv`: one row per person per view, for access reviews in a spreadsheet. */
import type { APIRoute } from 'astro';
import { accessCsv } from '../site/access-csv.ts';
import { viewEntries } from '../site/view-collection.ts';

export const GET: APIRoute = async () =>
	new Response(accessCsv(await viewEntries()), {
		headers: { 'Content-Type': 'text/csv; charset=utf-8; header=present' },
	});
