/** `access.csv`: one row per person per view, for access reviews in a spreadsheet. */
import type { APIRoute } from 'astro';
import { accessCsvText } from '../site/history-collection.ts';

export const GET: APIRoute = async () =>
	new Response(await accessCsvText(), {
		headers: { 'Content-Type': 'text/csv; charset=utf-8; header=present' },
	});
